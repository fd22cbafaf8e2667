// The language server's answers (docs/editors.md), each in the protocol's
// JSON: hover, go to definition, references, document symbols, completion,
// signature help. Each takes the index of the file asked about and the
// place (a tg location: line and character from 1).
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "lsp/protocol.hpp"
#include "lsp/workspace.hpp"

namespace tg::lsp {

struct Context {
    Workspace& ws;
    const Positions& positions;
};

// What the name at a place means: a symbol of this file or of an imported
// module (`m.f`), a builtin, or a method of a tensor/list/string.
struct Target {
    std::shared_ptr<const Index> index;  // where `symbol` lives
    int symbol = -1;
    std::string builtin;       // a builtin's (or method's) name
    std::string module_path;   // the symbol is an import of this file
    const Occurrence* at = nullptr;
};
Target target_at(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc);

nlohmann::json hover(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc);
nlohmann::json definition(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc);
nlohmann::json references(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc, bool declarations);
nlohmann::json document_symbols(Context c, const Index& ix);
nlohmann::json completion(Context c, const Index& ix, lang::Loc loc);
nlohmann::json signature_help(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc);

// "def f(a, b=2)" and its leading comment (lang/doc_comment.hpp).
std::string function_markdown(const Index& ix, const lang::FunctionDef& f);

}  // namespace tg::lsp
