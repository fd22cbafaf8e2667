// The walk that fills an Index (lsp/index.hpp): first the names each scope
// assigns (a name assigned anywhere in a function is local to all of it,
// docs/language.md "Scopes"), then every use, resolved through the scope
// chain, the module, and the builtins.
#include "lsp/index.hpp"

#include <algorithm>

namespace tg::lsp {

using namespace lang;

uint32_t name_length(const std::string& name) { return static_cast<uint32_t>(count_chars(name)); }

class Binder {
public:
    Binder(Index& ix, const std::unordered_set<std::string>& builtins) : ix_(ix), builtins_(builtins) {}

    void module(const Module& m) {
        ScopeInfo top;
        top.start = {1, 1};
        top.end = {std::max<uint32_t>(1, m.source ? m.source->line_count() : 1), 1};
        ix_.scopes_.push_back(top);
        const int name_sym = symbol_in(0, "__name__", SymbolKind::Variable);
        ix_.symbols_[name_sym].def_kinds.push_back(DefKind::Implicit);
        ix_.symbols_[name_sym].defs.push_back({});
        declare_block(m.body, 0);
        declare_globals(m.body);
        block(m.body, 0);
    }

private:
    Index& ix_;
    const std::unordered_set<std::string>& builtins_;

    int symbol_in(int scope, const std::string& name, SymbolKind kind) {
        auto [it, fresh] = ix_.scopes_[size_t(scope)].names.try_emplace(name, int(ix_.symbols_.size()));
        if (fresh) ix_.symbols_.push_back(Symbol{name, kind, scope, {}, {}, {}, nullptr, nullptr, nullptr, {}});
        return it->second;
    }
    int define(int scope, const std::string& name, Loc loc, DefKind how, SymbolKind kind = SymbolKind::Variable) {
        const int id = symbol_in(scope, name, kind);
        Symbol& s = ix_.symbols_[size_t(id)];
        // a function or module keeps its kind when also assigned (shown as what it was first)
        if (s.defs.empty()) s.kind = kind;
        s.defs.push_back(loc);
        s.def_kinds.push_back(how);
        ix_.occurrences_.push_back({loc, name_length(name), id, true, false, name, -1, scope});
        return id;
    }

    // ---- declarations: the names a block assigns (not looking into nested functions)
    void declare_target(const Expr& t, int scope, DefKind how) {
        switch (t.kind) {
        case ExprKind::Name: define(scope, t.as<Name>().id, t.loc, how); break;
        case ExprKind::Tuple:
            for (auto& e : t.as<TupleExpr>().elts) declare_target(*e, scope, how == DefKind::Assign ? DefKind::Unpack : how);
            break;
        case ExprKind::List:
            for (auto& e : t.as<ListExpr>().elts) declare_target(*e, scope, how == DefKind::Assign ? DefKind::Unpack : how);
            break;
        default: break;  // x[i] = v changes an existing variable
        }
    }
    void declare_block(const Block& b, int scope) {
        for (auto& st : b) declare_stmt(*st, scope);
    }
    void declare_assign(const Assign& a, int scope) {
        for (auto& t : a.targets) {
            declare_target(*t, scope, DefKind::Assign);
            if (t->kind == ExprKind::Name && a.value)
                ix_.symbols_[size_t(ix_.lookup_in(t->as<Name>().id, scope))].values.push_back(a.value.get());
        }
    }
    void declare_stmt(const Stmt& st, int scope) {
        switch (st.kind) {
        case StmtKind::Assign: declare_assign(st.as<Assign>(), scope); break;
        case StmtKind::AugAssign: declare_target(*st.as<AugAssign>().target, scope, DefKind::AugAssign); break;
        case StmtKind::If:
            declare_block(st.as<If>().body, scope);
            declare_block(st.as<If>().orelse, scope);
            break;
        case StmtKind::While: declare_block(st.as<While>().body, scope); break;
        case StmtKind::For:
            declare_target(*st.as<For>().target, scope, DefKind::ForTarget);
            declare_block(st.as<For>().body, scope);
            break;
        case StmtKind::FunctionDef: {
            const auto& f = st.as<FunctionDef>();
            const int id = define(scope, f.name, f.name_loc, DefKind::Def, SymbolKind::Function);
            if (!ix_.symbols_[size_t(id)].function) ix_.symbols_[size_t(id)].function = &f;
            break;
        }
        case StmtKind::Import: {
            const auto& im = st.as<Import>();
            const int id = define(scope, im.alias, im.module_loc, DefKind::Import, SymbolKind::Module);
            if (!ix_.symbols_[size_t(id)].import) ix_.symbols_[size_t(id)].import = &im;
            ix_.imports_.push_back(&im);
            break;
        }
        default: break;
        }
    }

    // ---- uses
    void use(const Name& n, int scope) {
        const int id = ix_.lookup(n.id, scope);
        Occurrence o{n.loc, name_length(n.id), id, false, false, n.id, -1, scope};
        if (id >= 0) ix_.symbols_[size_t(id)].uses.push_back(n.loc);
        else o.builtin = builtins_.count(n.id) != 0;
        ix_.occurrences_.push_back(std::move(o));
    }

    void opt(const ExprPtr& e, int scope) {
        if (e) expr(*e, scope);
    }
    void exprs(const std::vector<ExprPtr>& es, int scope) {
        for (auto& e : es) opt(e, scope);
    }

    int new_scope(int parent, const FunctionDef* f, Loc start) {
        ScopeInfo s;
        s.parent = parent;
        s.function = f;
        s.start = start;
        s.end = start;
        ix_.scopes_.push_back(s);
        return int(ix_.scopes_.size()) - 1;
    }
    void params(const std::vector<Param>& ps, int outer, int inner) {
        for (const Param& p : ps) opt(p.default_value, outer);  // defaults run where the def is
        for (const Param& p : ps) {
            const int id = define(inner, p.name, p.loc, DefKind::Param, SymbolKind::Parameter);
            ix_.symbols_[size_t(id)].param = &p;
        }
    }
    void see(int scope, Loc loc) {
        for (int s = scope; s > 0; s = ix_.scopes_[size_t(s)].parent)
            if (loc.line > ix_.scopes_[size_t(s)].end.line) ix_.scopes_[size_t(s)].end = loc;
    }

    void comprehension(const ListComp& c, int scope) {
        opt(c.iter, scope);  // the first iterable is evaluated outside
        const int inner = new_scope(scope, nullptr, c.loc);
        declare_target(*c.target, inner, DefKind::ForTarget);
        for (const CompClause& k : c.more) declare_target(*k.target, inner, DefKind::ForTarget);
        opt(c.cond, inner);
        for (const CompClause& k : c.more) {
            opt(k.iter, inner);
            opt(k.cond, inner);
        }
        opt(c.key, inner);
        opt(c.elt, inner);
    }

    void expr(const Expr& e, int scope) {
        see(scope, e.loc);
        switch (e.kind) {
        case ExprKind::Name: use(e.as<Name>(), scope); break;
        case ExprKind::FString:
            for (const FStringPart& p : e.as<FString>().parts) opt(p.expr, scope);
            break;
        case ExprKind::Unary: opt(e.as<Unary>().operand, scope); break;
        case ExprKind::Binary: opt(e.as<Binary>().lhs, scope), opt(e.as<Binary>().rhs, scope); break;
        case ExprKind::BoolOp: opt(e.as<BoolOp>().lhs, scope), opt(e.as<BoolOp>().rhs, scope); break;
        case ExprKind::Compare: opt(e.as<Compare>().first, scope), exprs(e.as<Compare>().rest, scope); break;
        case ExprKind::IfExp:
            opt(e.as<IfExp>().cond, scope), opt(e.as<IfExp>().then_, scope), opt(e.as<IfExp>().else_, scope);
            break;
        case ExprKind::Call: {
            const auto& c = e.as<Call>();
            ix_.calls_.push_back({&c, scope});
            opt(c.callee, scope);
            exprs(c.args, scope);
            for (const Keyword& k : c.keywords) opt(k.value, scope);
            break;
        }
        case ExprKind::Attribute: attribute(e.as<Attribute>(), scope); break;
        case ExprKind::Index: opt(e.as<lang::Index>().value, scope), exprs(e.as<lang::Index>().indices, scope); break;
        case ExprKind::Slice:
            opt(e.as<Slice>().lo, scope), opt(e.as<Slice>().hi, scope), opt(e.as<Slice>().step, scope);
            break;
        case ExprKind::List: exprs(e.as<ListExpr>().elts, scope); break;
        case ExprKind::Tuple: exprs(e.as<TupleExpr>().elts, scope); break;
        case ExprKind::Dict: exprs(e.as<DictExpr>().keys, scope), exprs(e.as<DictExpr>().values, scope); break;
        case ExprKind::Set: exprs(e.as<SetExpr>().elts, scope); break;
        case ExprKind::Starred: opt(e.as<Starred>().value, scope); break;
        case ExprKind::Lambda: {
            const auto& l = e.as<Lambda>();
            const int inner = new_scope(scope, nullptr, l.loc);
            params(l.params, scope, inner);
            opt(l.body, inner);
            break;
        }
        case ExprKind::ListComp: comprehension(e.as<ListComp>(), scope); break;
        default: break;  // literals
        }
    }

    void attribute(const Attribute& a, int scope) {
        opt(a.value, scope);
        int receiver = -1;
        if (a.value && a.value->kind == ExprKind::Name) receiver = ix_.lookup(a.value->as<Name>().id, scope);
        ix_.occurrences_.push_back({a.loc, name_length(a.attr), -1, false, false, a.attr, receiver, scope, true});
    }

    // An assignment target: names are definitions (declared already), the
    // parts of `x[i] = v` are reads.
    void target(const Expr& t, int scope) {
        see(scope, t.loc);
        if (t.kind == ExprKind::Name) return;
        if (t.kind == ExprKind::Tuple) {
            for (auto& e : t.as<TupleExpr>().elts) target(*e, scope);
        } else if (t.kind == ExprKind::List) {
            for (auto& e : t.as<ListExpr>().elts) target(*e, scope);
        } else {
            expr(t, scope);
        }
    }

    void function(const FunctionDef& f, int scope) {
        exprs(f.decorators, scope);
        const int inner = new_scope(scope, &f, f.loc);
        params(f.params, scope, inner);
        bind_declared(f.body, inner);
        declare_block(f.body, inner);
        block(f.body, inner);
    }

    // ---- `global a` / `nonlocal a` anywhere in a function's body (not in
    // the functions nested in it): `a` there is the module's / the enclosing
    // function's symbol, so its assignments define that one (docs/language.md "Scopes").
    template <class Fn>
    static void each_global(const Block& b, Fn&& fn) {
        for (const StmtPtr& st : b) {
            if (st->kind == StmtKind::Global) fn(st->as<Global>());
            if (st->kind == StmtKind::If) each_global(st->as<If>().body, fn), each_global(st->as<If>().orelse, fn);
            if (st->kind == StmtKind::While) each_global(st->as<While>().body, fn);
            if (st->kind == StmtKind::For) each_global(st->as<For>().body, fn);
        }
    }
    void bind_declared(const Block& body, int scope) {
        each_global(body, [&](const Global& g) {
            for (const std::string& name : g.names) {
                int id = -1;
                if (!g.is_nonlocal) {
                    id = symbol_in(0, name, SymbolKind::Variable);
                } else if (const int parent = ix_.scopes_[size_t(scope)].parent; parent > 0) {
                    // the nearest enclosing function's name (none: the run's error, not bound here)
                    id = ix_.lookup(name, parent);
                    if (id >= 0 && ix_.symbols_[size_t(id)].scope == 0) id = -1;
                }
                if (id >= 0) ix_.scopes_[size_t(scope)].names.try_emplace(name, id);
            }
        });
    }
    // Every `global` name of the module's functions is a module variable,
    // also for the code above the function that assigns it.
    void declare_globals(const Block& b) {
        for (const StmtPtr& st : b) {
            if (st->kind == StmtKind::FunctionDef) {
                const Block& body = st->as<FunctionDef>().body;
                each_global(body, [&](const Global& g) {
                    if (!g.is_nonlocal)
                        for (const std::string& name : g.names) symbol_in(0, name, SymbolKind::Variable);
                });
                declare_globals(body);
            }
            if (st->kind == StmtKind::If) declare_globals(st->as<If>().body), declare_globals(st->as<If>().orelse);
            if (st->kind == StmtKind::While) declare_globals(st->as<While>().body);
            if (st->kind == StmtKind::For) declare_globals(st->as<For>().body);
        }
    }

    void block(const Block& b, int scope) {
        for (size_t i = 0; i < b.size(); ++i) {
            stmt(*b[i], scope);
            if (b[i]->kind != StmtKind::FunctionDef) continue;
            // the def's lines run to the next statement (a line typed at its end belongs to it)
            ScopeInfo& inner = *find_scope(b[i]->as<FunctionDef>());
            if (i + 1 < b.size()) inner.end = {std::max(inner.end.line, b[i + 1]->loc.line - 1), 1};
            else if (scope == 0) inner.end = ix_.scopes_[0].end;
        }
    }
    ScopeInfo* find_scope(const FunctionDef& f) {
        for (size_t i = ix_.scopes_.size(); i-- > 1;)
            if (ix_.scopes_[i].function == &f) return &ix_.scopes_[i];
        return &ix_.scopes_[0];
    }

    void stmt(const Stmt& st, int scope) {
        see(scope, st.loc);
        switch (st.kind) {
        case StmtKind::Expr: opt(st.as<ExprStmt>().expr, scope); break;
        case StmtKind::Assign:
            opt(st.as<Assign>().value, scope);
            for (auto& t : st.as<Assign>().targets) target(*t, scope);
            break;
        case StmtKind::AugAssign: {
            const auto& a = st.as<AugAssign>();
            opt(a.value, scope);
            if (a.target->kind == ExprKind::Name) use(a.target->as<Name>(), scope);  // `x += 1` reads x
            else target(*a.target, scope);
            break;
        }
        case StmtKind::If:
            opt(st.as<If>().cond, scope);
            block(st.as<If>().body, scope);
            block(st.as<If>().orelse, scope);
            break;
        case StmtKind::While: opt(st.as<While>().cond, scope), block(st.as<While>().body, scope); break;
        case StmtKind::For:
            opt(st.as<For>().iter, scope);
            target(*st.as<For>().target, scope);
            block(st.as<For>().body, scope);
            break;
        case StmtKind::Return: opt(st.as<Return>().value, scope); break;
        case StmtKind::Assert: opt(st.as<Assert>().cond, scope), opt(st.as<Assert>().msg, scope); break;
        case StmtKind::FunctionDef: function(st.as<FunctionDef>(), scope); break;
        case StmtKind::Delete:
            for (auto& t : st.as<Delete>().targets) opt(t, scope);
            break;
        default: break;  // break, continue, pass, import (declared), global / nonlocal
        }
    }
};

Index::Index(ParseResult parsed, const std::unordered_set<std::string>& builtins) : parsed_(std::move(parsed)) {
    Binder(*this, builtins).module(*parsed_.module);
    std::stable_sort(occurrences_.begin(), occurrences_.end(), [](const Occurrence& a, const Occurrence& b) {
        return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
    });
}

int Index::lookup_in(const std::string& name, int scope) const {
    const auto& names = scopes_[size_t(scope)].names;
    const auto it = names.find(name);
    return it == names.end() ? -1 : it->second;
}

int Index::lookup(const std::string& name, int scope) const {
    for (int s = scope; s >= 0; s = scopes_[size_t(s)].parent)
        if (const int id = lookup_in(name, s); id >= 0) return id;
    return -1;
}

int Index::scope_at(Loc loc) const {
    int best = 0;
    for (size_t i = 1; i < scopes_.size(); ++i) {
        const ScopeInfo& s = scopes_[i];
        if (!s.function) continue;  // lambdas and comprehensions are one expression: their names stay inside
        const bool inside = loc.line > s.start.line && loc.line <= s.end.line;
        // nested defs come after their parents: the last one that holds the line is the innermost
        if (inside) best = int(i);
    }
    return best;
}

const Occurrence* Index::occurrence_at(Loc loc) const {
    for (const Occurrence& o : occurrences_)
        if (o.loc.line == loc.line && loc.col >= o.loc.col && loc.col <= o.loc.col + o.length) return &o;
    return nullptr;
}

std::vector<int> Index::visible(int scope) const {
    std::vector<int> out;
    std::unordered_set<std::string> seen;
    for (int s = scope; s >= 0; s = scopes_[size_t(s)].parent)
        for (const auto& [name, id] : scopes_[size_t(s)].names)
            if (seen.insert(name).second) out.push_back(id);
    return out;
}

}  // namespace tg::lsp
