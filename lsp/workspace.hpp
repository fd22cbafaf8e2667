// The files the language server knows (docs/editors.md): the documents the
// editor has open (their unsaved text wins over the disk's), and the
// modules they import, found as `import` finds them (docs/language.md
// "Modules": the importing file's folder, $TG_PATH, the modules shipped in
// tg), each parsed and indexed once per text.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "interp/reference.hpp"
#include "lsp/builtin_tables.hpp"
#include "lsp/index.hpp"
#include "lsp/signatures.hpp"
#include "stdlib/op_table.hpp"

namespace tg::lsp {

struct ModuleFile {
    std::string path;     // a file, or "<tg>/optim.tg" for a module shipped in tg
    bool shipped = false;
};

class Workspace {
public:
    Workspace();

    // Documents by path (the server turns URIs into paths).
    void open(const std::string& path, std::string text);
    void close(const std::string& path);
    const std::string* text_of(const std::string& path) const;
    std::vector<std::string> open_paths() const;

    // The index of a file: an open document's text, else the file's (or a
    // shipped module's). Null when it cannot be read.
    std::shared_ptr<const Index> index(const std::string& path);

    // The file `import name` in `from_path` runs, or nullopt with the
    // interpreter's error ("no module named `m` (looked for m.tg in ...)").
    std::optional<ModuleFile> find_module(const std::string& name, const std::string& from_path, std::string& error) const;
    // The index of the module `symbol` (an import) of `ix` names, or null.
    std::shared_ptr<const Index> module_of(const Index& ix, int symbol, std::string* path = nullptr);

    // The folders the client works in (initialize's workspaceFolders, else
    // its rootUri): where references look for the files that import a module.
    void set_roots(std::vector<std::string> roots) { roots_ = std::move(roots); }
    // The files that may use `name` of the module at `module_path` as
    // `m.name`: the open documents, and the .tg files under the roots and
    // beside the module whose text names both the module and `name`
    // (lsp/workspace_files.cpp; a bounded walk, docs/editors.md "Navigation").
    std::vector<std::string> files_that_may_import(const std::string& module_path, const std::string& name);

    const std::unordered_set<std::string>& builtins() const { return builtins_.names; }
    const std::vector<std::string>& builtin_list() const { return builtins_.list; }
    const std::vector<interp::BuiltinDoc>& docs() const { return docs_; }
    // Which builtins are ops of the table (lsp/builtin_tables.hpp).
    const BuiltinTables& builtin_tables() const { return builtins_; }
    // The op of a builtin whose method call takes the op's parameters after
    // the receiver, NumPy's varargs forms too (`x.reshape(2, 3)`; not gelu,
    // whose builtin takes more than its op), or null.
    const stdlib::OpDef* method_op(const std::string& builtin) const;
    // A builtin's signatures (lsp/signatures.hpp builtin_signatures), read once.
    const std::vector<Signature>& signatures(const std::string& builtin);

private:
    struct Entry {
        std::string text;
        std::shared_ptr<const Index> index;  // null until asked for
    };
    std::map<std::string, Entry> open_;
    std::map<std::string, Entry> files_;  // modules read from disk (or shipped), by path
    std::vector<std::string> roots_;
    const BuiltinTables& builtins_;
    const std::vector<interp::BuiltinDoc>& docs_;
    std::unordered_map<std::string, std::vector<Signature>> signatures_;
};

// Parses and indexes `text` as file `path`.
std::shared_ptr<const Index> index_text(const std::string& path, const std::string& text,
                                        const std::unordered_set<std::string>& builtins);

}  // namespace tg::lsp
