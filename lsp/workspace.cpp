#include "lsp/workspace.hpp"

#include "interp/builtin_modules.hpp"
#include "interp/builtins/builtins.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"

namespace tg::lsp {

std::shared_ptr<const Index> index_text(const std::string& path, const std::string& text,
                                        const std::unordered_set<std::string>& builtins) {
    auto source = std::make_shared<lang::Source>(path, text);
    return std::make_shared<const Index>(lang::parse(source), builtins);
}

namespace {

BuiltinTables make_tables() {
    BuiltinTables t;
    // the names every interpreter starts with (the REPL completes the same)
    for (auto& [name, value] : interp::make_builtins()) {
        if (t.names.insert(name).second) t.list.push_back(name);
        // a later definition of a name replaces the earlier (max: the op, then Python's forms too)
        const interp::BuiltinObj* b = value.is(interp::Kind::Builtin) ? &value.builtin() : nullptr;
        if (b && b->op) t.ops[name] = b->op;
        else t.ops.erase(name);
        if (b && b->op && !b->adds_params) t.method_ops[name] = b->op;
        else t.method_ops.erase(name);
        if (b && b->op && b->adds_params) t.extended.insert(name);
        else t.extended.erase(name);
        if (b && b->op && !b->adds_params && b->op->name != name) t.op_names[name] = std::string(b->op->name);
        else t.op_names.erase(name);
    }
    return t;
}

const BuiltinTables& shared_tables() {
    static const BuiltinTables tables = make_tables();  // constant data, as the op registry
    return tables;
}

}  // namespace

Workspace::Workspace() : builtins_(shared_tables()), docs_(interp::builtin_docs()) {}

const stdlib::OpDef* Workspace::method_op(const std::string& builtin) const {
    const auto it = builtins_.method_ops.find(builtin);
    return it == builtins_.method_ops.end() ? nullptr : it->second;
}

const std::vector<Signature>& Workspace::signatures(const std::string& builtin) {
    auto it = signatures_.find(builtin);
    if (it == signatures_.end()) it = signatures_.emplace(builtin, builtin_signatures(builtin, docs_)).first;
    return it->second;
}

void Workspace::open(const std::string& path, std::string text) {
    Entry& e = open_[path];
    if (e.index && e.text == text) return;
    e.text = std::move(text);
    e.index = nullptr;
}

void Workspace::close(const std::string& path) { open_.erase(path); }

const std::string* Workspace::text_of(const std::string& path) const {
    const auto it = open_.find(path);
    return it == open_.end() ? nullptr : &it->second.text;
}

std::vector<std::string> Workspace::open_paths() const {
    std::vector<std::string> out;
    for (const auto& [path, e] : open_) out.push_back(path);
    return out;
}

std::shared_ptr<const Index> Workspace::index(const std::string& path) {
    if (auto it = open_.find(path); it != open_.end()) {
        if (!it->second.index) it->second.index = index_text(path, it->second.text, builtins_.names);
        return it->second.index;
    }
    std::string text;
    if (path.starts_with("<tg>/")) {
        std::string shipped_path;
        const std::string name = path.substr(5, path.size() - 5 - 3);
        if (!interp::find_builtin_module(name, shipped_path, text)) return nullptr;
    } else if (lang::read_source_file(path, text).status != lang::ReadResult::Ok) {
        return nullptr;
    }
    Entry& e = files_[path];
    if (!e.index || e.text != text) {
        e.text = std::move(text);
        e.index = index_text(path, e.text, builtins_.names);
    }
    return e.index;
}

std::optional<ModuleFile> Workspace::find_module(const std::string& name, const std::string& from_path,
                                                 std::string& error) const {
    std::string path, text;
    try {
        interp::find_module_file(name, from_path, {}, true, path, text);
    } catch (const interp::Error& e) {
        error = e.message();
        return std::nullopt;
    }
    return ModuleFile{path, path.starts_with("<tg>/")};
}

std::shared_ptr<const Index> Workspace::module_of(const Index& ix, int symbol, std::string* path) {
    if (symbol < 0) return nullptr;
    const Symbol& s = ix.symbols()[size_t(symbol)];
    if (!s.import || s.kind != SymbolKind::Module) return nullptr;
    std::string error;
    const std::optional<ModuleFile> f = find_module(s.import->module, ix.source()->name(), error);
    if (!f) return nullptr;
    if (path) *path = f->path;
    return index(f->path);
}

}  // namespace tg::lsp
