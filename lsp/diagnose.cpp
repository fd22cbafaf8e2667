#include "lsp/diagnose.hpp"

#include <unordered_set>

#include "interp/suggest.hpp"
#include "lsp/types.hpp"

namespace tg::lsp {

namespace {

using lang::Loc;

Loc after(Loc start, uint32_t length) { return {start.line, start.col + std::max<uint32_t>(length, 1)}; }

// A syntax error points at one character: it covers the word there.
uint32_t word_length(const lang::Source& src, Loc loc) {
    const std::string_view line = src.line_text(loc.line);
    const size_t at = src.offset_of(loc) - src.offset_of({loc.line, 1});
    size_t end = at;
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    while (end < line.size() && word(line[end])) ++end;
    return static_cast<uint32_t>(std::max<size_t>(1, lang::count_chars(line.substr(at, end - at))));
}

// A syntax error at the end of a line ("expected ':'") covers the line's
// last character: an empty range would show nothing to point at.
void syntax(const Index& ix, std::vector<Problem>& out) {
    const lang::Source& src = *ix.source();
    for (const lang::SyntaxError& e : ix.parsed().errors) {
        Loc start = e.loc;
        const size_t chars = lang::count_chars(src.line_text(start.line));
        if (start.known() && start.col > chars && chars > 0) start.col = static_cast<uint32_t>(chars);
        out.push_back({start, after(start, word_length(src, start)), Severity::Error, e.message, false});
    }
}

// The words of the lines with a syntax error: a statement that did not
// parse (`y = 3 +` while it is being typed) may define any of them, so a
// later use of `y` is not reported as defined nowhere.
std::unordered_set<std::string_view> words_of_broken_lines(const Index& ix) {
    std::unordered_set<std::string_view> words;
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (const lang::SyntaxError& e : ix.parsed().errors) {
        if (!e.loc.known()) continue;
        const std::string_view line = ix.source()->line_text(e.loc.line);
        for (size_t i = 0; i < line.size();) {
            size_t j = i;
            while (j < line.size() && word(line[j])) ++j;
            if (j > i) words.insert(line.substr(i, j - i));
            i = std::max(j, i + 1);
        }
    }
    return words;
}

void undefined(const Index& ix, std::vector<Problem>& out, const std::vector<std::string>& builtins) {
    const std::unordered_set<std::string_view> broken = words_of_broken_lines(ix);
    for (const Occurrence& o : ix.occurrences()) {
        if (o.definition || o.attribute || o.symbol >= 0 || o.builtin || broken.count(o.name)) continue;
        std::vector<std::string> names = builtins;
        for (int id : ix.visible(o.scope)) names.push_back(ix.symbols()[size_t(id)].name);
        out.push_back({o.loc, after(o.loc, o.length), Severity::Error,
                       "`" + o.name + "` is not defined" + interp::did_you_mean(o.name, names), false});
    }
}

void imports(const Index& ix, Workspace& ws, std::vector<Problem>& out) {
    for (const lang::Import* im : ix.imports()) {
        std::string error;
        if (!ws.find_module(im->module, ix.source()->name(), error))
            out.push_back({im->module_loc, after(im->module_loc, name_length(im->module)), Severity::Error, error, false});
    }
}

// Hints: an import nothing reads; a variable a function assigns and never
// reads (not parameters, loop variables, unpacked names or `_names`).
void unused(const Index& ix, std::vector<Problem>& out) {
    for (const Symbol& s : ix.symbols()) {
        if (!s.uses.empty() || s.name.starts_with('_') || s.defs.empty() || !s.defs[0].known()) continue;
        std::string what;
        if (s.kind == SymbolKind::Module) what = "is imported but never used";
        bool assigned = s.kind == SymbolKind::Variable && s.scope != 0;
        for (DefKind k : s.def_kinds) assigned = assigned && (k == DefKind::Assign || k == DefKind::AugAssign);
        if (assigned) what = "is assigned but never used";
        if (what.empty()) continue;
        for (const Loc& d : s.defs)
            out.push_back({d, after(d, name_length(s.name)), Severity::Hint, "`" + s.name + "` " + what, true});
    }
}

}  // namespace

std::vector<Problem> diagnose(const Index& ix, Workspace& ws) {
    std::vector<Problem> out;
    syntax(ix, out);
    undefined(ix, out, ws.builtin_list());
    Types types(ix, ws.builtin_tables());
    call_problems(ix, ws, types, out);
    imports(ix, ws, out);
    for (const ShapeProblem& p : types.problems())
        out.push_back({p.loc, after(p.loc, p.length), Severity::Error, p.message, false});
    graph_limits(ix, out);
    unused(ix, out);
    return out;
}

}  // namespace tg::lsp
