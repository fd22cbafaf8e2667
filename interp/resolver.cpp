#include "interp/resolver.hpp"

#include "codegen/compiler.hpp"
#include "stdlib/blas.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "interp/scalar_code.hpp"

#include <string>
#include <string_view>
#include <unordered_map>

namespace tg::interp {
namespace {

// The builtins that call OpenBLAS (matrix products, LAPACK's solves and
// decompositions, docs/numpy.md "Linear algebra")
bool uses_blas(const std::string& name) {
    static constexpr std::string_view names[] = {
        "matmul", "einsum", "inv", "solve", "det", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals", "qr",
        "cholesky", "slogdet", "pinv", "lstsq", "matrix_rank"};
    for (std::string_view b : names)
        if (name == b) return true;
    return false;
}

using namespace lang;

// One function (or lambda, or comprehension) being resolved.
struct Scope {
    FunctionFacts* facts = nullptr;
    std::unordered_map<std::string, int> locals;
    Scope* parent = nullptr;
    // The names of this function's `global` (false) and `nonlocal` (true)
    // statements: they are not its locals (docs/language.md "Scopes").
    std::unordered_map<std::string, bool> outer = {};

    int declare(const std::string& name, Loc loc) {
        auto [it, fresh] = locals.try_emplace(name, static_cast<int>(facts->slots.size()));
        if (fresh) facts->slots.push_back({name, {}});
        if (loc.known()) facts->slots[it->second].assigned_at.push_back(loc);
        return it->second;
    }
};

class Resolver {
public:
    Resolver(ModuleState& m, Runtime& rt, SourcePtr source) : m_(m), rt_(rt), source_(std::move(source)) {}

    void module(Module& chunk) {
        declare_block(chunk.body, nullptr);
        for (auto& s : chunk.body) stmt(*s, nullptr);
    }

    // A traced REPL input (interp/tracing/trace_input.cpp): the chunk is the body of
    // a function whose parameters are `params`.
    void function_body(Module& chunk, const std::vector<std::string>& params, FunctionFacts& facts) {
        Scope inner{&facts, {}, nullptr};
        facts.source = source_;
        for (const auto& p : params) inner.declare(p, {});
        facts.num_params = static_cast<int>(params.size());
        declare_outer(chunk.body, inner);
        declare_block(chunk.body, &inner);
        block(chunk.body, &inner);
    }

    // After the walk, when the code uses @graph: the interpreter's compile
    // worker starts making its JIT session, loading LLVM meanwhile
    // (docs/performance.md "Start-up"). Asked for last, so what the code
    // itself calls (OpenBLAS, asked for as it is seen) loads first
    // (stdlib/prefetch.hpp).
    void prefetch() {
        if (compiles_) rt_.compiler().prefetch();
    }

private:
    ModuleState& m_;
    Runtime& rt_;
    SourcePtr source_;
    bool compiles_ = false;

    // ---- declarations: the names a block assigns (not looking into nested functions)
    void declare(const std::string& name, Loc loc, Scope* s) {
        if (s && s->outer.count(name)) {
            if (!s->outer.at(name) && loc.known()) m_.global_info[m_.slot_of(name)].assigned_at.push_back(loc);
            return;  // a nonlocal's function records its own assignments
        }
        if (s) {
            s->declare(name, loc);
        } else {
            int slot = m_.slot_of(name);
            if (loc.known()) m_.global_info[slot].assigned_at.push_back(loc);
        }
    }
    void declare_target(const Expr& t, Scope* s) {
        switch (t.kind) {
        case ExprKind::Name: declare(t.as<Name>().id, t.loc, s); break;
        case ExprKind::Tuple:
            for (auto& e : t.as<TupleExpr>().elts) declare_target(*e, s);
            break;
        case ExprKind::List:
            for (auto& e : t.as<ListExpr>().elts) declare_target(*e, s);
            break;
        default: break;  // x[i] = v changes an existing variable (checked at run time)
        }
    }
    void declare_block(const Block& b, Scope* s) {
        for (auto& st : b) declare_stmt(*st, s);
    }
    void declare_stmt(const Stmt& st, Scope* s) {
        switch (st.kind) {
        case StmtKind::Assign:
            for (auto& t : st.as<Assign>().targets) declare_target(*t, s);
            break;
        case StmtKind::AugAssign: declare_target(*st.as<AugAssign>().target, s); break;
        case StmtKind::If:
            declare_block(st.as<If>().body, s);
            declare_block(st.as<If>().orelse, s);
            break;
        case StmtKind::While: declare_block(st.as<While>().body, s); break;
        case StmtKind::For:
            declare_target(*st.as<For>().target, s);
            declare_block(st.as<For>().body, s);
            break;
        case StmtKind::FunctionDef: declare(st.as<FunctionDef>().name, st.as<FunctionDef>().name_loc, s); break;
        case StmtKind::Import: declare(st.as<Import>().alias, st.as<Import>().module_loc, s); break;
        case StmtKind::Delete:  // `del x` makes x local, as an assignment does (Python)
            for (auto& t : st.as<Delete>().targets) declare_deleted(*t, s);
            break;
        default: break;
        }
    }
    void declare_deleted(const Expr& t, Scope* s) {
        if (t.kind == ExprKind::Name) declare(t.as<Name>().id, {}, s);
        const std::vector<ExprPtr>* elts = t.kind == ExprKind::Tuple ? &t.as<TupleExpr>().elts
                                         : t.kind == ExprKind::List  ? &t.as<ListExpr>().elts
                                                                     : nullptr;
        if (elts)
            for (auto& e : *elts) declare_deleted(*e, s);
    }

    // The `global` / `nonlocal` statements of a function body (not of the
    // functions inside it), before its assignments are declared: they hold for
    // the whole function, wherever they stand in it.
    void declare_outer(const Block& b, Scope& s) {
        for (auto& st : b) {
            switch (st->kind) {
            case StmtKind::Global: {
                const Global& g = st->as<Global>();
                for (size_t i = 0; i < g.names.size(); ++i) outer_name(g, i, s);
                break;
            }
            case StmtKind::If:
                declare_outer(st->as<If>().body, s);
                declare_outer(st->as<If>().orelse, s);
                break;
            case StmtKind::While: declare_outer(st->as<While>().body, s); break;
            case StmtKind::For: declare_outer(st->as<For>().body, s); break;
            default: break;
            }
        }
    }
    void outer_name(const Global& g, size_t i, Scope& s) {
        const std::string& n = g.names[i];
        const char* word = g.is_nonlocal ? "nonlocal" : "global";
        if (auto it = s.locals.find(n); it != s.locals.end() && it->second < s.facts->num_params)
            throw Error("`" + n + "` is a parameter and " + word, source_, g.name_locs[i]);
        if (auto it = s.outer.find(n); it != s.outer.end() && it->second != g.is_nonlocal)
            throw Error("`" + n + "` is declared both global and nonlocal", source_, g.name_locs[i]);
        if (g.is_nonlocal && !enclosing_binds(n, s.parent))
            throw Error("no binding for nonlocal `" + n + "` found: no enclosing function assigns it", source_,
                        g.name_locs[i]);
        s.outer[n] = g.is_nonlocal;
    }
    // An enclosing function (not the module) has `n` as a local or a nonlocal of its own.
    static bool enclosing_binds(const std::string& n, const Scope* s) {
        for (; s; s = s->parent) {
            if (s->locals.count(n)) return true;
            auto it = s->outer.find(n);
            if (it != s->outer.end() && !it->second) return false;
        }
        return false;
    }

    // ---- uses
    void name(Name& n, Scope* s) {
        if ((n.id == "graph" || n.id == "concrete") && !rt_.options.no_jit && !rt_.options.eager)
            compiles_ = true;  // code will be compiled: see prefetch()
        uint16_t depth = 0;
        for (Scope* sc = s; sc; sc = sc->parent, ++depth) {
            if (auto o = sc->outer.find(n.id); o != sc->outer.end()) {
                if (sc == s) n.declared_outer = true;  // this function may assign it
                if (o->second) continue;               // nonlocal: the enclosing function's variable
                n.scope = lang::Scope::Global;         // global: the module's, even before it is assigned
                n.slot = m_.slot_of(n.id);
                return;
            }
            auto it = sc->locals.find(n.id);
            if (it != sc->locals.end()) {
                n.scope = depth == 0 ? lang::Scope::Local : lang::Scope::Enclosing;
                n.slot = it->second;
                n.depth = depth;
                return;
            }
        }
        int g = m_.find(n.id);
        if (g < 0) {
            int b = rt_.builtin_slot(n.id);
            if (b >= 0) {
                n.scope = lang::Scope::Builtin;
                n.slot = b;
                // OpenBLAS will be needed: load it meanwhile. (Only for the
                // builtin: a program's own `solve` loaded it, and its threads
                // then took CPU from the program on a small machine.)
                if (uses_blas(n.id)) stdlib::blas::prefetch();
                return;
            }
            g = m_.slot_of(n.id);
        }
        n.scope = lang::Scope::Global;
        n.slot = g;
    }

    void block(Block& b, Scope* s) {
        for (auto& st : b) stmt(*st, s);
    }

    void stmt(Stmt& st, Scope* s) {
        switch (st.kind) {
        case StmtKind::Expr: expr(*st.as<ExprStmt>().expr, s); break;
        case StmtKind::Assign: {
            auto& a = st.as<Assign>();
            expr(*a.value, s);
            for (auto& t : a.targets) expr(*t, s);
            break;
        }
        case StmtKind::AugAssign: {
            auto& a = st.as<AugAssign>();
            expr(*a.value, s);
            expr(*a.target, s);
            break;
        }
        case StmtKind::If: {
            auto& i = st.as<If>();
            expr(*i.cond, s);
            block(i.body, s);
            block(i.orelse, s);
            break;
        }
        case StmtKind::While: {
            auto& w = st.as<While>();
            expr(*w.cond, s);
            block(w.body, s);
            break;
        }
        case StmtKind::For: {
            auto& f = st.as<For>();
            expr(*f.iter, s);
            expr(*f.target, s);
            block(f.body, s);
            break;
        }
        case StmtKind::Return:
            if (st.as<Return>().value) expr(*st.as<Return>().value, s);
            break;
        case StmtKind::Assert: {
            auto& a = st.as<Assert>();
            expr(*a.cond, s);
            if (a.msg) expr(*a.msg, s);
            break;
        }
        case StmtKind::FunctionDef: {
            auto& f = st.as<FunctionDef>();
            for (auto& d : f.decorators) expr(*d, s);
            for (auto& p : f.params)
                if (p.default_value) expr(*p.default_value, s);
            auto facts = std::make_unique<FunctionFacts>();
            facts->name = f.name;
            Scope inner{facts.get(), {}, s};
            params(f.params, inner);
            declare_outer(f.body, inner);
            declare_block(f.body, &inner);
            block(f.body, &inner);
            f.info = std::move(facts);
            break;
        }
        case StmtKind::Delete:
            for (auto& t : st.as<Delete>().targets) expr(*t, s);
            break;
        default: break;  // break, continue, pass, import (declared above), global / nonlocal (declare_outer)
        }
    }

    void params(const std::vector<Param>& ps, Scope& inner) {
        inner.facts->source = source_;
        for (auto& p : ps) {
            inner.declare(p.name, p.loc);
            if (p.form != ParamForm::Plain) inner.facts->star_params = true;
        }
        inner.facts->num_params = static_cast<int>(ps.size());
    }

    void expr(Expr& e, Scope* s) {
        switch (e.kind) {
        case ExprKind::Name: name(e.as<Name>(), s); break;
        case ExprKind::FString:
            for (auto& p : e.as<FString>().parts)
                if (p.expr) expr(*p.expr, s);
            break;
        case ExprKind::Unary: expr(*e.as<Unary>().operand, s); break;
        case ExprKind::Binary:
            if (e.as<Binary>().op == lang::BinOp::MatMul) stdlib::blas::prefetch();
            expr(*e.as<Binary>().lhs, s);
            expr(*e.as<Binary>().rhs, s);
            // its names are resolved now; --debug-nans checks each op, which flat programs skip
            if (!rt_.options.debug_nans) e.as<Binary>().code = compile_scalar(e);
            break;
        case ExprKind::BoolOp:
            expr(*e.as<BoolOp>().lhs, s);
            expr(*e.as<BoolOp>().rhs, s);
            break;
        case ExprKind::Compare:
            expr(*e.as<Compare>().first, s);
            for (auto& r : e.as<Compare>().rest) expr(*r, s);
            if (!rt_.options.debug_nans) e.as<Compare>().code = compile_scalar(e);
            break;
        case ExprKind::IfExp:
            expr(*e.as<IfExp>().cond, s);
            expr(*e.as<IfExp>().then_, s);
            expr(*e.as<IfExp>().else_, s);
            break;
        case ExprKind::Call: {
            auto& c = e.as<Call>();
            expr(*c.callee, s);
            if (c.callee->kind == ExprKind::Attribute)  // `x.name(...)`: which method the name is, looked up once
                c.callee->as<Attribute>().code = method_code(c.callee->as<Attribute>().attr);
            for (auto& a : c.args) expr(*a, s);
            for (auto& k : c.keywords) expr(*k.value, s);
            break;
        }
        case ExprKind::Attribute: expr(*e.as<Attribute>().value, s); break;
        case ExprKind::Index:
            expr(*e.as<Index>().value, s);
            for (auto& i : e.as<Index>().indices) expr(*i, s);
            break;
        case ExprKind::Slice: {
            auto& sl = e.as<Slice>();
            if (sl.lo) expr(*sl.lo, s);
            if (sl.hi) expr(*sl.hi, s);
            if (sl.step) expr(*sl.step, s);
            break;
        }
        case ExprKind::List:
            for (auto& x : e.as<ListExpr>().elts) expr(*x, s);
            break;
        case ExprKind::Tuple:
            for (auto& x : e.as<TupleExpr>().elts) expr(*x, s);
            break;
        case ExprKind::Set:
            for (auto& x : e.as<SetExpr>().elts) expr(*x, s);
            break;
        case ExprKind::Starred: expr(*e.as<Starred>().value, s); break;
        case ExprKind::Dict:
            for (size_t i = 0; i < e.as<DictExpr>().keys.size(); ++i) {
                expr(*e.as<DictExpr>().keys[i], s);
                expr(*e.as<DictExpr>().values[i], s);
            }
            break;
        case ExprKind::Lambda: {
            auto& l = e.as<Lambda>();
            for (auto& p : l.params)
                if (p.default_value) expr(*p.default_value, s);
            auto facts = std::make_unique<FunctionFacts>();
            facts->name = "<lambda>";
            Scope inner{facts.get(), {}, s};
            params(l.params, inner);
            expr(*l.body, &inner);
            l.info = std::move(facts);
            break;
        }
        case ExprKind::ListComp: {
            auto& c = e.as<ListComp>();
            expr(*c.iter, s);  // the iterable is evaluated outside, as in Python
            auto facts = std::make_unique<FunctionFacts>();
            facts->name = c.key ? "<dictcomp>" : c.is_set ? "<setcomp>" : "<listcomp>";
            facts->source = source_;
            Scope inner{facts.get(), {}, s};
            // every clause's target is a local of the comprehension, seen by the element
            declare_target(*c.target, &inner);
            for (CompClause& m : c.more) declare_target(*m.target, &inner);
            expr(*c.target, &inner);
            if (c.key) expr(*c.key, &inner);
            expr(*c.elt, &inner);
            if (c.cond) expr(*c.cond, &inner);
            for (CompClause& m : c.more) {  // evaluated inside, after the clauses before it
                expr(*m.iter, &inner);
                expr(*m.target, &inner);
                if (m.cond) expr(*m.cond, &inner);
            }
            c.info = std::move(facts);
            break;
        }
        default: break;  // literals
        }
    }
};

}  // namespace

void resolve(lang::Module& chunk, ModuleState& m, Runtime& rt) {
    Resolver r(m, rt, chunk.source);
    r.module(chunk);
    r.prefetch();
}

void resolve_as_function(lang::Module& chunk, const std::vector<std::string>& params, FunctionFacts& facts,
                         ModuleState& m, Runtime& rt) {
    Resolver r(m, rt, chunk.source);
    r.function_body(chunk, params, facts);
    r.prefetch();
}

}  // namespace tg::interp
