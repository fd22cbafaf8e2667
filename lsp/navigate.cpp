// Go to definition, references and document symbols (docs/editors.md
// "Navigation"), across the modules a file imports.
#include "lsp/features.hpp"

#include <algorithm>

namespace tg::lsp {

namespace {

nlohmann::json location(Context c, const Index& ix, lang::Loc start, uint32_t length) {
    return {{"uri", uri_of_path(ix.source()->name())},
            {"range", c.positions.range(*ix.source(), start, {start.line, start.col + length})}};
}

bool is_file(const std::string& path) { return !path.empty() && !path.starts_with("<tg>/"); }

// Every `alias.name` in `ix` where alias imports the module at `module_path`.
void attribute_uses(Context c, const Index& ix, const std::string& module_path, const std::string& name,
                    nlohmann::json& out) {
    for (const Occurrence& o : ix.occurrences()) {
        if (!o.attribute || o.name != name || o.receiver < 0) continue;
        std::string path;
        if (c.ws.module_of(ix, o.receiver, &path) && path == module_path) out.push_back(location(c, ix, o.loc, o.length));
    }
}

nlohmann::json symbol_json(Context c, const Index& ix, const Symbol& s);

// The symbols a function's scope defines, as the children of its entry.
nlohmann::json children_of(Context c, const Index& ix, int scope) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [name, id] : ix.scopes()[size_t(scope)].names) {
        const Symbol& s = ix.symbols()[size_t(id)];
        // (a `global` / `nonlocal` name is listed where it lives)
        if (s.kind != SymbolKind::Parameter && s.scope == scope && !s.defs.empty() && s.defs[0].known())
            out.push_back(symbol_json(c, ix, s));
    }
    std::sort(out.begin(), out.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
        return a["selectionRange"]["start"]["line"] < b["selectionRange"]["start"]["line"];
    });
    return out;
}

nlohmann::json symbol_json(Context c, const Index& ix, const Symbol& s) {
    // the protocol's SymbolKind: Module 2, Function 12, Variable 13
    const int kind = s.kind == SymbolKind::Function ? 12 : s.kind == SymbolKind::Module ? 2 : 13;
    const lang::Loc at = s.defs[0];
    const lang::Loc name_end{at.line, at.col + name_length(s.name)};
    nlohmann::json j = {{"name", s.name}, {"kind", kind}, {"selectionRange", c.positions.range(*ix.source(), at, name_end)}};
    j["range"] = j["selectionRange"];
    if (s.kind == SymbolKind::Function && s.function) {
        for (size_t i = 1; i < ix.scopes().size(); ++i) {
            const ScopeInfo& sc = ix.scopes()[i];
            if (sc.function != s.function) continue;
            // from the `def` to the end of its last line
            const uint32_t last = std::max(sc.end.line, at.line);
            const lang::Loc end{last, static_cast<uint32_t>(lang::count_chars(ix.source()->line_text(last))) + 1};
            j["range"] = c.positions.range(*ix.source(), {s.function->loc.line, 1}, end);
            j["children"] = children_of(c, ix, int(i));
            j["detail"] = "def";
        }
    }
    return j;
}

}  // namespace

nlohmann::json definition(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc) {
    const Target t = target_at(c, ix, loc);
    // on an import (its name or a use of it): the module's file
    if (t.symbol >= 0 && is_file(t.module_path)) {
        const nlohmann::json start = {{"line", 0}, {"character", 0}};
        return nlohmann::json{{"uri", uri_of_path(t.module_path)}, {"range", {{"start", start}, {"end", start}}}};
    }
    if (t.symbol < 0 || !is_file(t.index->source()->name())) return nullptr;
    const Symbol& s = t.index->symbols()[size_t(t.symbol)];
    if (s.defs.empty() || !s.defs[0].known()) return nullptr;
    return location(c, *t.index, s.defs[0], name_length(s.name));
}

nlohmann::json references(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc, bool declarations) {
    const Target t = target_at(c, ix, loc);
    nlohmann::json out = nlohmann::json::array();
    if (t.symbol < 0) return out;
    const Symbol& s = t.index->symbols()[size_t(t.symbol)];
    const uint32_t len = name_length(s.name);
    const std::string module_path = t.index->source()->name();
    if (is_file(module_path)) {  // (a module shipped in tg has no file to show)
        if (declarations)
            for (const lang::Loc& d : s.defs)
                if (d.known()) out.push_back(location(c, *t.index, d, len));
        for (const lang::Loc& u : s.uses) out.push_back(location(c, *t.index, u, len));
    }
    // a module's top-level name is also used as `m.name` by the files that
    // import it: open ones, and those of the workspace read from disk
    if (s.scope == 0)
        for (const std::string& path : c.ws.files_that_may_import(module_path, s.name))
            if (auto other = c.ws.index(path)) attribute_uses(c, *other, module_path, s.name, out);
    return out;
}

nlohmann::json document_symbols(Context c, const Index& ix) {
    return children_of(c, ix, 0);
}

}  // namespace tg::lsp
