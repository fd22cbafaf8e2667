// Completion (docs/editors.md "Completion") through the engine the REPL
// and the Jupyter kernel use (interp/complete.hpp): this file supplies what
// the engine asks its caller — the names in scope at the cursor, read from
// the source, and what the receiver before a `.` is (a module, or a value
// whose kind lsp/types.hpp knows) — and the module names after `import`.
#include <filesystem>
#include <set>

#include "interp/builtin_modules.hpp"
#include "interp/complete.hpp"
#include "lsp/features.hpp"
#include "lsp/types.hpp"

namespace tg::lsp {

namespace {

using interp::CompletionKind;

CompletionKind kind_of(const Symbol& s) {
    if (s.kind == SymbolKind::Function) return CompletionKind::Function;
    if (s.kind == SymbolKind::Module) return CompletionKind::Module;
    return CompletionKind::Variable;
}

// The protocol's CompletionItemKind.
int item_kind(CompletionKind k) {
    switch (k) {
    case CompletionKind::Keyword: return 14;
    case CompletionKind::Builtin: case CompletionKind::Function: return 3;
    case CompletionKind::Module: return 9;
    case CompletionKind::Method: return 2;
    case CompletionKind::Attribute: return 10;
    case CompletionKind::Variable: return 6;
    }
    return 1;
}

std::vector<interp::Completion> members_of(const Index& module) {
    std::vector<interp::Completion> out;
    for (const auto& [name, id] : module.scopes()[0].names)
        if (name != "__name__") out.push_back({name, kind_of(module.symbols()[size_t(id)]), ""});
    return out;
}

interp::ReceiverKind receiver_kind(const StaticType& t) {
    switch (t.kind) {
    case StaticType::Tensor: case StaticType::Int: case StaticType::Float: case StaticType::Bool:
        return interp::ReceiverKind::Tensor;  // numbers are 0-d tensors: they have the tensor methods
    case StaticType::List: return interp::ReceiverKind::List;
    case StaticType::Tuple: return interp::ReceiverKind::Tuple;
    case StaticType::Dict: return interp::ReceiverKind::Dict;
    case StaticType::Str: return interp::ReceiverKind::Str;
    default: return interp::ReceiverKind::Unknown;
    }
}

std::vector<std::string> split_dots(const std::string& dotted) {
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
        const size_t dot = dotted.find('.', start);
        parts.push_back(dotted.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos) return parts;
        start = dot + 1;
    }
}

// Members after `receiver.`: follows imports through dotted names (`a.b.`).
std::vector<interp::Completion> complete_after_dot(Context c, const Index& ix, int scope, const interp::CompletionRequest& req,
                                                   const interp::Scope& names) {
    using interp::ReceiverKind;
    if (req.receiver == "\"\"") return interp::complete_members(ReceiverKind::Str, req.prefix, names);
    const auto unknown = [&] { return interp::complete_members(ReceiverKind::Unknown, req.prefix, names); };
    if (req.receiver.empty()) return unknown();
    const std::vector<std::string> parts = split_dots(req.receiver);
    const Index* in = &ix;
    std::shared_ptr<const Index> held;
    int symbol = -1;
    for (size_t i = 0; i < parts.size(); ++i) {
        symbol = i == 0 ? ix.lookup(parts[i], scope) : in->top_level(parts[i]);
        if (symbol < 0) return unknown();
        if (i + 1 == parts.size()) break;
        held = c.ws.module_of(*in, symbol);  // the next part is a member of this module
        if (!held) return unknown();
        in = held.get();
    }
    if (auto module = c.ws.module_of(*in, symbol))
        return interp::complete_members(ReceiverKind::Module, req.prefix, names, members_of(*module));
    Types types(*in, c.ws.builtin_tables());
    return interp::complete_members(receiver_kind(types.of_symbol(symbol)), req.prefix, names);
}

// `import na|`: the modules `import` would find.
std::vector<interp::Completion> module_names(const Index& ix, const std::string& prefix) {
    std::set<std::string> found;
    for (const interp::BuiltinModule& m : interp::builtin_modules())
        if (!m.name.starts_with('_')) found.insert(std::string(m.name));
    std::vector<std::filesystem::path> dirs{std::filesystem::path(ix.source()->name()).parent_path()};
    if (const char* env = std::getenv("TG_PATH"))
        for (std::string_view rest = env; !rest.empty();) {
            const size_t colon = std::min(rest.find(':'), rest.size());
            if (colon) dirs.emplace_back(std::string(rest.substr(0, colon)));
            rest.remove_prefix(std::min(colon + 1, rest.size()));
        }
    std::error_code ec;
    for (const auto& d : dirs)
        for (auto it = std::filesystem::directory_iterator(d.empty() ? "." : d, ec); !ec && it != std::filesystem::directory_iterator();
             it.increment(ec))
            if (it->path().extension() == ".tg" && it->path() != std::filesystem::path(ix.source()->name()))
                found.insert(it->path().stem().string());
    std::vector<interp::Completion> out;
    for (const std::string& n : found)
        if (n.starts_with(prefix)) out.push_back({n, CompletionKind::Module, ""});
    return out;
}

}  // namespace

nlohmann::json completion(Context c, const Index& ix, lang::Loc loc) {
    const std::string& text = ix.source()->text();
    const size_t cursor = ix.source()->offset_of(loc);
    const interp::CompletionRequest req = interp::completion_request(text, cursor);
    const int scope = ix.scope_at(loc);
    interp::Scope names{{}, c.ws.builtin_list()};
    for (int id : ix.visible(scope)) names.names.push_back({ix.symbols()[size_t(id)].name, kind_of(ix.symbols()[size_t(id)]), ""});
    const std::string_view line = ix.source()->line_text(loc.line);
    const std::string_view before = line.substr(0, std::min(line.size(), cursor - ix.source()->offset_of({loc.line, 1})));
    const size_t word = before.find_first_not_of(" \t");
    std::vector<interp::Completion> found;
    if (word != std::string_view::npos && before.substr(word).starts_with("import ") && !req.after_dot)
        found = module_names(ix, req.prefix);
    else if (req.after_dot)
        found = complete_after_dot(c, ix, scope, req, names);
    else
        found = interp::complete_names(req.prefix, names);
    nlohmann::json items = nlohmann::json::array();
    for (const interp::Completion& item : found) {
        nlohmann::json j = {{"label", item.text}, {"kind", item_kind(item.kind)}};
        if (!item.detail.empty()) j["detail"] = item.detail;
        items.push_back(std::move(j));
    }
    return {{"isIncomplete", false}, {"items", std::move(items)}};
}

}  // namespace tg::lsp
