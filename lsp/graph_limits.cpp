// Warnings for calls inside a `@graph` function that the tracer cannot
// compile (docs/graph.md "Limits (the call runs eagerly instead)") or that
// stop the run there (`time()`, `isatty()`: docs/builtins.md), found without
// running the file (docs/editors.md "Diagnostics"). Worded as `--trace` and
// `tg run` word them.
#include <unordered_set>

#include "lsp/diagnose.hpp"

namespace tg::lsp {

using namespace lang;

namespace {

bool is_graph_decorator(const Index& ix, const Expr& d, int scope) {
    const Expr* e = &d;
    if (e->kind == ExprKind::Call && e->as<Call>().callee) e = e->as<Call>().callee.get();
    return e->kind == ExprKind::Name && e->as<Name>().id == "graph" && ix.lookup("graph", scope) < 0;
}

// The names `@graph(static=("n", ...))` / `static="n"` makes static.
std::unordered_set<std::string> static_names(const FunctionDef& f) {
    std::unordered_set<std::string> out;
    for (const ExprPtr& d : f.decorators) {
        if (!d || d->kind != ExprKind::Call) continue;
        for (const Keyword& k : d->as<Call>().keywords) {
            if (k.name != "static" || !k.value) continue;
            if (k.value->kind == ExprKind::Str) out.insert(k.value->as<StrLit>().value);
            if (k.value->kind == ExprKind::Tuple || k.value->kind == ExprKind::List) {
                const auto& elts = k.value->kind == ExprKind::Tuple ? k.value->as<TupleExpr>().elts
                                                                    : k.value->as<ListExpr>().elts;
                for (const ExprPtr& x : elts)
                    if (x && x->kind == ExprKind::Str) out.insert(x->as<StrLit>().value);
            }
        }
    }
    return out;
}

// The `@graph` function whose body holds `scope` (lambdas, comprehensions
// and nested functions inside it are traced with it), or -1.
int graph_scope(const Index& ix, int scope) {
    for (int s = scope; s > 0; s = ix.scopes()[size_t(s)].parent) {
        const FunctionDef* f = ix.scopes()[size_t(s)].function;
        if (!f) continue;
        for (const ExprPtr& d : f->decorators)
            if (d && is_graph_decorator(ix, *d, ix.scopes()[size_t(s)].parent)) return s;
    }
    return -1;
}

// Whether `e` reads one of `traced` (symbols). Lambdas, comprehensions and
// f-strings are not looked into: no warning is better than a wrong one.
bool reads_any(const Index& ix, const Expr* e, int scope, const std::unordered_set<int>& traced) {
    if (!e) return false;
    const auto any = [&](const std::vector<ExprPtr>& es) {
        for (const ExprPtr& x : es)
            if (reads_any(ix, x.get(), scope, traced)) return true;
        return false;
    };
    switch (e->kind) {
    case ExprKind::Name: return traced.count(ix.lookup(e->as<Name>().id, scope)) > 0;
    case ExprKind::Unary: return reads_any(ix, e->as<Unary>().operand.get(), scope, traced);
    case ExprKind::Binary:
        return reads_any(ix, e->as<Binary>().lhs.get(), scope, traced) ||
               reads_any(ix, e->as<Binary>().rhs.get(), scope, traced);
    case ExprKind::Compare:
        return reads_any(ix, e->as<Compare>().first.get(), scope, traced) || any(e->as<Compare>().rest);
    case ExprKind::IfExp:
        return reads_any(ix, e->as<IfExp>().then_.get(), scope, traced) ||
               reads_any(ix, e->as<IfExp>().else_.get(), scope, traced);
    case ExprKind::Call: {
        const auto& c = e->as<Call>();
        if (any(c.args)) return true;
        for (const Keyword& k : c.keywords)
            if (reads_any(ix, k.value.get(), scope, traced)) return true;
        return c.callee && c.callee->kind == ExprKind::Attribute &&
               reads_any(ix, c.callee->as<Attribute>().value.get(), scope, traced);
    }
    case ExprKind::Attribute: return reads_any(ix, e->as<Attribute>().value.get(), scope, traced);
    case ExprKind::Index: return reads_any(ix, e->as<lang::Index>().value.get(), scope, traced);
    case ExprKind::List: return any(e->as<ListExpr>().elts);
    case ExprKind::Tuple: return any(e->as<TupleExpr>().elts);
    default: return false;
    }
}

// The symbols of a `@graph` function that hold traced values: its
// parameters (but the static ones) and the variables of its body assigned
// from them, to a fixed point.
std::unordered_set<int> traced_symbols(const Index& ix, int scope) {
    const std::unordered_set<std::string> fixed = static_names(*ix.scopes()[size_t(scope)].function);
    std::unordered_set<int> traced;
    for (const auto& [name, id] : ix.scopes()[size_t(scope)].names)
        if (ix.symbols()[size_t(id)].kind == SymbolKind::Parameter && !fixed.count(name)) traced.insert(id);
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& [name, id] : ix.scopes()[size_t(scope)].names) {
            if (traced.count(id)) continue;
            for (const Expr* v : ix.symbols()[size_t(id)].values)
                if (reads_any(ix, v, scope, traced)) {
                    traced.insert(id);
                    grew = true;
                    break;
                }
        }
    }
    return traced;
}

// What the call of builtin `name` does inside a @graph function, or "".
std::string limit_of(const Index& ix, const Call& c, const std::string& name, int scope, int graph,
                     std::unordered_map<int, std::unordered_set<int>>& traced) {
    if (name == "time" || name == "isatty")
        return name + ": cannot be called inside a @graph function (run with --eager to execute this function "
                      "without tracing)";
    if (name == "seed") return "runs eagerly: the tracer cannot express seed() inside a @graph function";
    if (name == "breakpoint") return "runs eagerly under a debugger: breakpoint() stops with eager's values";
    if (name != "tensor" || c.args.empty() || !c.args[0]) return "";
    const ExprKind k = c.args[0]->kind;
    if (k != ExprKind::List && k != ExprKind::Tuple) return "";
    if (!traced.count(graph)) traced[graph] = traced_symbols(ix, graph);
    if (!reads_any(ix, c.args[0].get(), scope, traced[graph])) return "";
    return "runs eagerly: the tracer cannot express tensor: argument `data` as a list holding traced tensors";
}

}  // namespace

void graph_limits(const Index& ix, std::vector<Problem>& out) {
    std::unordered_map<int, std::unordered_set<int>> traced;  // per @graph scope
    for (const CallSite& c : ix.calls()) {
        if (!c.call->callee || c.call->callee->kind != ExprKind::Name) continue;
        const std::string& name = c.call->callee->as<Name>().id;
        if (ix.lookup(name, c.scope) >= 0) continue;  // not the builtin
        const int graph = graph_scope(ix, c.scope);
        if (graph < 0) continue;
        const std::string message = limit_of(ix, *c.call, name, c.scope, graph, traced);
        if (message.empty()) continue;
        const Loc end{c.call->loc.line, c.call->loc.col + name_length(name)};
        out.push_back({c.call->loc, end, Severity::Warning, message, false});
    }
}

}  // namespace tg::lsp
