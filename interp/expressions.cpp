// Expressions of docs/language.md.
#include <algorithm>
#include <optional>

#include "interp/batching/batching.hpp"
#include "interp/builtins/string_methods.hpp"
#include "interp/builtins/tensor_methods.hpp"
#include "interp/control.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/dispatch.hpp"
#include "interp/target_indices.hpp"
#include "interp/evaluator.hpp"
#include "interp/expr_facts.hpp"
#include "interp/index_advanced.hpp"
#include "interp/values/text_builder.hpp"
#include "interp/tracing/graph_value.hpp"
#include "interp/values/printing.hpp"
#include "interp/values/text_chars.hpp"
#include "interp/scalar_code.hpp"
#include "interp/suggest.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/format.hpp"

namespace tg::interp {

using namespace lang;
using stdlib::Tensor;

// ------------------------------------------------------------------ errors

void Evaluator::fail(std::string message, Loc loc) const { throw Error(std::move(message), source(), loc); }

void Evaluator::undefined(const Name& n) {
    if (rt_.trace) {
        Value* slot = nullptr;
        if (n.scope == lang::Scope::Local) slot = &f_->env->slots[n.slot];
        if (slot && slot->maybe_undef() && slot->maybe_undef()->none) {
            // None on some paths (docs/graph.md "Static and dynamic"): a graph can return, print and
            // assign such a value; anything else runs the call eagerly.
            if (maybe_none_ok_) return;
            unsupported_in_graph("this use of `" + n.id +
                                 "`, which is None on some paths of dynamic control flow (returning, printing or "
                                 "assigning it is supported)");
        }
        if (slot && slot->maybe_undef()) {
            // Converted control flow assigned it on some paths only: check at
            // run time, where eager would fail (docs/graph.md "Static and dynamic").
            TraceState& t = *rt_.trace;
            Value inner = slot->maybe_undef()->inner;
            uint32_t flag = slot->maybe_undef()->flag.sym()->id;
            tracer::Template msg{tracer::TextPiece{tracer::TextPiece::Text, undefined_message(n), 0}};
            t.token = t.graph.assert_(t.token, flag, std::move(msg), {}, t.at(source(), n.loc));
            *slot = std::move(inner);
            return;
        }
    }
    fail(undefined_message(n), n.loc);
}

Value Evaluator::eval_passing_none(const Expr& e) {
    if (!rt_.trace || e.kind != ExprKind::Name) return eval(e);
    struct Allow {
        bool& flag;
        bool saved;
        ~Allow() { flag = saved; }
    } allow{maybe_none_ok_, maybe_none_ok_};
    maybe_none_ok_ = true;
    return eval(e);
}

// Every name a misspelt one could have meant: the frames' variables (with a
// value), the module's globals and the builtins.
std::vector<std::string> Evaluator::visible_names() const {
    std::vector<std::string> out = rt_.builtin_names();
    for (const Env* e = f_->env; e; e = e->parent.get())
        if (e->facts)
            for (size_t i = 0; i < e->facts->slots.size() && i < e->slots.size(); ++i)
                if (e->slots[i].defined()) out.push_back(e->facts->slots[i].name);
    for (const auto& [name, slot] : f_->module->index)
        if (f_->module->globals[static_cast<size_t>(slot)].defined()) out.push_back(name);
    return out;
}

std::string Evaluator::undefined_message(const Name& n) const {
    std::vector<Loc> where;
    if (n.scope == lang::Scope::Global) {
        where = f_->module->global_info[n.slot].assigned_at;
    } else if (n.scope == lang::Scope::Local || n.scope == lang::Scope::Enclosing) {
        const Env* e = f_->env;
        for (int d = 0; e && d < n.depth; ++d) e = e->parent.get();
        if (e && e->facts) where = e->facts->slots[n.slot].assigned_at;
    }
    std::string msg = "`" + n.id + "` is not defined";
    if (where.empty()) msg += did_you_mean(n.id, visible_names());
    if (!where.empty()) {
        msg += ": it is assigned only at ";
        for (size_t i = 0; i < where.size(); ++i) {
            if (i) msg += (i + 1 == where.size()) ? " and " : ", ";
            msg += format_location(source().get(), where[i]);
        }
    }
    return msg;
}

void Evaluator::set_step_limit() {
    int64_t& limit = step_limit_;
    limit = rt_.options.max_steps > 0 ? rt_.options.max_steps : INT64_MAX;
    if (rt_.budget->watched()) limit = std::min(limit, rt_.steps + kInterruptPoll);
    if (rt_.debug) limit = rt_.steps;  // every statement: the debugger looks at each
}

void Evaluator::step_checkpoint(Loc loc, bool line) {
    if (rt_.options.max_steps > 0 && rt_.steps > rt_.options.max_steps) step_limit_exceeded(loc);
    try {
        rt_.budget->check();  // the interrupt and the deadline
    } catch (const stdlib::LimitError& e) {
        limit_error(e, loc);
    }
    set_step_limit();
    if (rt_.debug && line && f_) [[unlikely]] {
        // while a @graph call is traced its lines are recorded (a breakpoint
        // among them makes the call run eagerly); else the debugger may stop
        if (rt_.trace) rt_.debug->traced_line(*this, *f_, loc, rt_.trace->debug_lines, rt_.trace->debug_asserted);
        else rt_.debug->line(*this, *f_, loc);
    }
}

void Evaluator::limit_error(const stdlib::LimitError& e, Loc loc) const {
    // Limit, not User: while tracing it must stop the run, not become a
    // `raise` node of a converted branch
    throw Error(e.what(), source(), loc).as(TraceErrorKind::Limit);
}

[[noreturn]] void Evaluator::step_limit_exceeded(Loc loc) const {
    throw Error("step limit exceeded: more than " + std::to_string(rt_.options.max_steps) + " steps", source(), loc)
        .as(TraceErrorKind::Limit);
}

void Evaluator::nested_too_deeply(Loc loc) const {
    fail("maximum recursion depth exceeded: the expression is nested too deeply", loc);
}

bool Evaluator::cond_at(const Expr& e, Loc loc) {
    // A symbolic condition never takes the scalar path (a symbolic tensor is
    // not a Scalar). Callers that can convert control flow use condition().
    Value* const batched = std::exchange(batched_cond_, nullptr);
    if (Scalar s; (e.kind == ExprKind::Compare || e.kind == ExprKind::Binary) && eval_scalar(e, s))
        return s.nonzero();
    // `if t_holding[t]`: a number in a list, its truth read in place (interp/scalar_items.cpp)
    if (Scalar s; e.kind == ExprKind::Index && fast_scalars_allowed() && scalar_item(e.as<Index>(), s))
        return s.nonzero();
    // `and`, `or` and `not` as conditions: only the operands' truth matters,
    // so no operand is copied out as a Value, and comparisons among them
    // take the scalar path. What eval_boolop does, in the same order and with
    // errors at the same places; not while tracing or under vmap, where an
    // operand may be symbolic or batched (eval_boolop handles those).
    if ((e.kind == ExprKind::BoolOp || (e.kind == ExprKind::Unary && e.as<Unary>().op == UnaryOp::Not)) &&
        !rt_.trace && rt_.vmaps.empty()) {
        check_stack(e.loc);
        if (e.kind == ExprKind::Unary) return !cond(*e.as<Unary>().operand);
        const BoolOp& b = e.as<BoolOp>();
        const bool t = cond(*b.lhs);
        if (b.is_and ? !t : t) return t;
        return cond_at(*b.rhs, loc);
    }
    Value scratch;
    const Value& v = eval_ref(e, scratch);
    if (batched && is_batched_condition(v)) {
        *batched = v;
        return false;
    }
    if (v.is_symbolic())
        dynamic_value_error(*rt_.trace,
                            "this condition must be static inside a @graph function, but it depends on the contents "
                            "of a tensor",
                            v);
    return truth_at(v, loc);
}

bool Evaluator::truth_at(const Value& v, Loc loc) {
    try {
        return truth(v);
    } catch (const stdlib::OpError& err) {
        fail(err.what(), loc);
    } catch (Error& err) {
        err.locate(source(), loc);
        throw;
    }
}

// ------------------------------------------------------------------ variables

const Value& Evaluator::load_slow(const Name& n) {
    const Value* v = nullptr;
    switch (n.scope) {
    case lang::Scope::Local: v = &f_->env->slots[n.slot]; break;
    case lang::Scope::Enclosing: {
        Env* e = f_->env;
        const std::shared_ptr<Env>* owner = nullptr;
        for (int d = 0; d < n.depth; ++d) {
            owner = &e->parent;
            e = e->parent.get();
        }
        v = &e->slots[n.slot];
        if (rt_.trace && !e->traced && owner && v->defined()) capture_enclosing(n, *owner);
        break;
    }
    case lang::Scope::Global: v = &f_->module->globals[n.slot]; break;
    case lang::Scope::Builtin: return rt_.builtin(n.slot);
    case lang::Scope::Unresolved: fail("internal error: `" + n.id + "` was not resolved", n.loc);
    }
    if (!v->defined()) undefined(n);
    return *v;
}

Value& Evaluator::store_slot(const Name& n) {
    switch (n.scope) {
    case lang::Scope::Local: return f_->env->slots[n.slot];
    case lang::Scope::Global:
        if (!f_->env) return f_->module->globals[n.slot];
        if (n.declared_outer) return outer_slot(n);
        break;
    case lang::Scope::Enclosing:
        if (n.declared_outer) return outer_slot(n);
        break;
    default: break;
    }
    fail("cannot change `" + n.id + "` here: a function cannot change variables outside itself", n.loc);
}

Value* Evaluator::lvalue(const Expr& e) {
    if (e.kind == ExprKind::Name) {
        const Name& n = e.as<Name>();
        if (n.scope == lang::Scope::Local || (n.scope == lang::Scope::Global && !f_->env) || n.declared_outer) {
            if (n.declared_outer) load(n);  // "not defined" first
            Value& slot = store_slot(n);
            if (!slot.defined()) undefined(n);
            return &slot;
        }
        if (n.scope == lang::Scope::Enclosing || n.scope == lang::Scope::Global) {
            load(n);  // "not defined" first, if it is not
            fail("cannot change `" + n.id + "` here: a function cannot change variables outside itself", n.loc);
        }
        return nullptr;
    }
    if (e.kind == ExprKind::Index) {
        const Index& ix = e.as<Index>();
        Value* base = lvalue(*ix.value);
        if (base && base->is(Kind::Dict)) {
            const DictKey k = index_key(ix);
            Value* item = base->dict_mut().find(k);
            if (!item) fail("key " + key_repr(k) + " is not in the dict", ix.loc);
            return item;
        }
        if (!base || base->kind() != Kind::List || ix.indices.size() != 1 ||
            ix.indices[0]->kind == ExprKind::Slice)
            return nullptr;
        if (int64_t k; presets_.empty() && pure_int_index(ix, k)) {
            const int64_t n = static_cast<int64_t>(base->items().size());
            if (k < 0) k += n;
            if (k >= 0 && k < n) return &base->list_mut()[static_cast<size_t>(k)];
        }
        Value scratch;
        const Value& i = index_operand(*ix.indices[0], scratch);
        auto& items = base->list_mut();
        int64_t k;
        try {
            k = to_int(i, "list index");
        } catch (Error& err) {
            err.locate(source(), ix.loc);
            throw;
        }
        int64_t n = static_cast<int64_t>(items.size());
        if (k < 0) k += n;
        if (k < 0 || k >= n)
            fail("list index " + std::to_string(to_int(i, "")) + " is out of range for a list of length " +
                     std::to_string(n),
                 ix.loc);
        return &items[static_cast<size_t>(k)];
    }
    return nullptr;
}

// ------------------------------------------------------------------ expressions

namespace {
struct MadeLiteral : ExprCode {
    explicit MadeLiteral(Value v) : value(std::move(v)) {}
    Value value;
};
}  // namespace

// A string literal's value, made once: evaluating it again shares that
// string instead of copying its text (a dict key `d["a"]`, a separator).
// Copy-on-write keeps it unchanged: `s = ""; s += "x"` copies before
// appending, since the literal holds the string too.
const Value& Evaluator::str_literal(const StrLit& s) {
    if (!s.made) s.made = std::make_unique<MadeLiteral>(Value::str(s.value));
    return static_cast<const MadeLiteral&>(*s.made).value;
}

namespace {
// A name or a literal: evaluating it runs no code (runs_no_code without the walk).
bool is_name_or_literal(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Name: case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::Bool:
    case ExprKind::NoneLit: return true;
    default: return false;
    }
}
}  // namespace

const Value& Evaluator::eval_ref(const Expr& e, Value& scratch) {
    if (e.kind == ExprKind::Name) return load(e.as<Name>());
    if (e.kind == ExprKind::Str) return str_literal(e.as<StrLit>());
    scratch = eval(e);
    return scratch;
}

// The dispatch stays small (its frame is paid by every expression); the
// larger cases are functions of their own.
Value Evaluator::eval(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Name: return load(e.as<Name>());
    case ExprKind::Int: return Value::weak_int(e.as<IntLit>().value);
    case ExprKind::Float: return Value::weak_float(e.as<FloatLit>().value);
    case ExprKind::Str: return str_literal(e.as<StrLit>());
    case ExprKind::Bool: return Value::from_bool(e.as<BoolLit>().value);
    case ExprKind::NoneLit: return Value::none();
    case ExprKind::FString: return eval_fstring(e.as<FString>());
    case ExprKind::Ellipsis: fail("`...` is only allowed inside [ ]", e.loc);
    case ExprKind::Slice: fail("a slice is only allowed inside [ ]", e.loc);
    case ExprKind::Unary: return eval_unary(e);
    case ExprKind::Binary: return eval_binary(e);
    case ExprKind::BoolOp: return eval_boolop(e);
    case ExprKind::Compare: return eval_compare(e.as<Compare>());
    case ExprKind::IfExp: return eval_ifexp(e);
    case ExprKind::Call: return eval_call(e.as<Call>());
    case ExprKind::Attribute: return eval_attribute(e.as<Attribute>());
    case ExprKind::Index: return eval_index(e.as<Index>());
    case ExprKind::List: case ExprKind::Tuple: return eval_sequence(e);
    case ExprKind::Lambda: return make_lambda(e.as<Lambda>());
    case ExprKind::ListComp: return eval_listcomp(e.as<ListComp>());
    case ExprKind::Dict: return eval_dict(e.as<DictExpr>());
    case ExprKind::Set: return eval_set(e.as<SetExpr>());
    case ExprKind::Starred: fail("`*` unpacks a sequence only among a call's arguments (f(*xs))", e.loc);
    }
    fail("internal error: unknown expression", e.loc);
}

Value Evaluator::eval_unary(const Expr& e) {
    const Unary& u = e.as<Unary>();
    check_stack(e.loc);
    if (u.op == UnaryOp::Not) {
        Value batched;  // a condition batched by vmap: `not` per example
        batched_cond_ = &batched;
        if (!rt_.trace) {
            const bool c = cond(*u.operand);
            if (batched.defined()) return unary(rt_, UnaryOp::Invert, lane_truth(batched, e.loc));
            return Value::from_bool(!c);
        }
        uint32_t pred;
        std::optional<bool> c = condition(*u.operand, pred);
        if (batched.defined()) return unary(rt_, UnaryOp::Invert, lane_truth(batched, e.loc));
        if (c) return Value::from_bool(!*c);
        at(e.loc);
        Value p = symbolic(*rt_.trace, pred);
        return unary(rt_, UnaryOp::Invert, p);  // ~ on bool is logical not
    }
    Value scratch;
    const Value& x = eval_ref(*u.operand, scratch);
    // (-x of a number: no tensor made; --debug-nans: unary() checks what it makes)
    if (const Scalar* s; u.op == UnaryOp::Neg && !rt_.options.debug_nans && (s = x.scalar()))
        if (Scalar out; scalar_negate(*s, out)) return Value(out);
    return unary_at(u, x);
}

Value Evaluator::unary_at(const Unary& u, const Value& x) {
    return located(u.loc, [&] { return unary(rt_, u.op, x); });
}

Value Evaluator::eval_binary(const Expr& e) {
    const Binary& b = e.as<Binary>();
    check_stack(e.loc);
    if (Scalar out; eval_scalar(e, out)) return Value(out);
    Value s1, s2;
    const Value* xp = &eval_ref(*b.lhs, s1);
    // A right side that runs code (a call) may move the variable the left
    // one refers to (the debugger's `p` at a module frame adds globals): a copy.
    if (xp != &s1 && !is_name_or_literal(*b.rhs)) {
        s1 = *xp;
        xp = &s1;
    }
    const Value& x = *xp;
    // The scalar fast path: an int or float literal on the right needs no Value.
    if (const Scalar* sa = x.scalar(); sa && b.op != BinOp::MatMul) {
        Scalar lit, out;
        const Scalar* sb = nullptr;
        const Value* yp = nullptr;
        if (b.rhs->kind == ExprKind::Int) {
            lit = Scalar::of_int(b.rhs->as<IntLit>().value, stdlib::DType::I64, true);
            sb = &lit;
        } else if (b.rhs->kind == ExprKind::Float) {
            lit = Scalar::of_float(b.rhs->as<FloatLit>().value, stdlib::DType::F32, true);
            sb = &lit;
        } else {
            yp = &eval_ref(*b.rhs, s2);
            sb = yp->scalar();
            if (!sb) return binary_at(b, x, *yp);
        }
        // (--debug-nans: binary() checks what it makes)
        if (!rt_.options.debug_nans && scalar_binary(binary_kind(b.op), *sa, *sb, out)) return Value(out);
        return yp ? binary_at(b, x, *yp) : binary_at(b, x, Value(lit));
    }
    const Value& y = eval_ref(*b.rhs, s2);
    return binary_at(b, x, y);
}

Value Evaluator::eval_boolop(const Expr& e) {
    const BoolOp& b = e.as<BoolOp>();
    check_stack(e.loc);
    Value x = eval(*b.lhs);
    bool t;
    if (is_batched_condition(x)) return batched_boolop(b, x);
    if (x.is_symbolic() && rt_.trace) return trace_boolop(b, x, truth_node(x, b.lhs->loc));
    try {
        t = truth(x);
    } catch (const stdlib::OpError& err) {
        fail(err.what(), b.lhs->loc);
    }
    if (b.is_and ? !t : t) return x;
    return eval(*b.rhs);
}

Value Evaluator::eval_ifexp(const Expr& e) {
    const IfExp& i = e.as<IfExp>();
    check_stack(e.loc);
    Value batched;  // a condition batched by vmap (interp/batching/batched_control.cpp)
    batched_cond_ = &batched;
    std::optional<bool> c;
    uint32_t pred = 0;
    if (rt_.trace) c = condition(*i.cond, pred);
    else c = cond(*i.cond);
    if (batched.defined()) return batched_ifexp(i, batched);
    if (!c) return trace_ifexp(i, pred);
    return *c ? eval(*i.then_) : eval(*i.else_);
}

Value Evaluator::eval_sequence(const Expr& e) {
    const auto& elts = e.kind == ExprKind::List ? e.as<ListExpr>().elts : e.as<TupleExpr>().elts;
    check_stack(e.loc);
    if (e.kind == ExprKind::Tuple)  // built in place: a pair is one allocation
        return Value::tuple_filled(elts.size(), [&](TupleItems& items) {
            for (const auto& x : elts) items.push_back(eval(*x));
        });
    std::vector<Value> items;
    items.reserve(elts.size());
    for (const auto& x : elts) items.push_back(eval(*x));
    return Value::list(std::move(items));
}

static bool compute_scalar_shaped(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Name: case ExprKind::Int: case ExprKind::Float: case ExprKind::Bool: return true;
    case ExprKind::Binary: {
        const Binary& b = e.as<Binary>();
        return b.op != BinOp::MatMul && compute_scalar_shaped(*b.lhs) && compute_scalar_shaped(*b.rhs);
    }
    case ExprKind::Compare: {
        const Compare& c = e.as<Compare>();
        return c.ops.size() == 1 && !lang::is_membership(c.ops[0]) && !lang::is_identity(c.ops[0]) &&
               compute_scalar_shaped(*c.first) && compute_scalar_shaped(*c.rest[0]);
    }
    default: return false;
    }
}

// What eval_scalar's tree walk can compute (its cases below).
static bool scalar_shaped(const Expr& e) { return cached_fact(e, ExprFact::ScalarShaped, compute_scalar_shaped); }

bool Evaluator::eval_scalar(const Expr& e, Scalar& out) {
    // The resolver's flat program, when it made one; not while tracing (a
    // global read there is a capture the tree walker records).
    if (rt_.options.debug_nans) [[unlikely]] return false;  // each op is checked (interp/debug/nan_check.hpp)
    if (!rt_.trace)
        if (const ScalarCode* code = scalar_code_of(e))
            return run_scalar(*code, f_->env, f_->module->globals.data(), out);
    // An operand that is a call, an index...: never a scalar here (the
    // caller evaluates e the general way; trying would evaluate a side twice).
    if (!scalar_shaped(e)) return false;
    switch (e.kind) {
    case ExprKind::Name: {
        const Value& v = load(e.as<Name>());
        if (const Scalar* s = v.scalar()) {
            out = *s;
            return true;
        }
        return false;
    }
    case ExprKind::Int: out = Scalar::of_int(e.as<IntLit>().value, stdlib::DType::I64, true); return true;
    case ExprKind::Float: out = Scalar::of_float(e.as<FloatLit>().value, stdlib::DType::F32, true); return true;
    case ExprKind::Bool: out = Scalar::of_bool(e.as<BoolLit>().value); return true;
    case ExprKind::Binary: {
        const Binary& b = e.as<Binary>();
        if (b.op == BinOp::MatMul) return false;
        check_stack(e.loc);
        Scalar x, y;
        return eval_scalar(*b.lhs, x) && eval_scalar(*b.rhs, y) && scalar_binary(binary_kind(b.op), x, y, out);
    }
    case ExprKind::Compare: {
        const Compare& c = e.as<Compare>();
        if (c.ops.size() != 1 || lang::is_membership(c.ops[0]) || lang::is_identity(c.ops[0])) return false;
        check_stack(e.loc);
        Scalar x, y;
        return eval_scalar(*c.first, x) && eval_scalar(*c.rest[0], y) &&
               scalar_binary(compare_kind(c.ops[0]), x, y, out);
    }
    default: return false;
    }
}

Value Evaluator::binary_at(const Binary& b, const Value& x, const Value& y) {
    return located(b.loc, [&] { return binary(rt_, b.op, x, y); });
}

Value Evaluator::eval_compare(const Compare& c) {
    check_stack(c.loc);
    // `x is None`, `x is not None` (what identity() answers) with x read in
    // place; not while tracing, where x may be None on some paths only.
    if (c.ops.size() == 1 && lang::is_identity(c.ops[0]) && c.rest[0]->kind == ExprKind::NoneLit && !rt_.trace) {
        Value scratch;
        const Value& x = eval_ref(*c.first, scratch);
        if (!x.maybe_undef()) return Value::from_bool(x.is(Kind::None) == (c.ops[0] == CmpOp::Is));
        return compare_chain(c, 0, x);  // (evaluated once)
    }
    if (Scalar out; c.ops.size() == 1 && eval_scalar(c, out)) return Value(out);
    // One comparison whose right side runs no code: both sides read in place
    // (nothing can rebind the left one in between), two strings compared at
    // once (`line == ""`: the general compare was 9/10 of its time).
    if (c.ops.size() == 1 && !lang::is_identity(c.ops[0]) && !rt_.trace && runs_no_code(*c.rest[0])) {
        Value left_scratch, right_scratch;
        const Value& left = eval_ref(*c.first, left_scratch);
        const Value& right = eval_ref(*c.rest[0], right_scratch);
        const CmpOp op = c.ops[0];
        if ((op == CmpOp::Eq || op == CmpOp::Ne) && left.str_obj() && right.str_obj())
            return Value::from_bool(((*left.str_obj())->text == (*right.str_obj())->text) == (op == CmpOp::Eq));
        return located(c.op_locs[0], [&] { return compare_values(op, left, right, c.op_locs[0]); });
    }
    return compare_chain(c, 0, lang::is_identity(c.ops[0]) ? eval_passing_none(*c.first) : eval(*c.first));
}

Value Evaluator::compare_values(CmpOp op, const Value& left, const Value& right, Loc loc) {
    if (lang::is_identity(op)) {
        Value r = identity(left, right);
        if (op == CmpOp::Is) return r;
        if (const Scalar* s = r.scalar()) return Value::from_bool(!s->nonzero());
        at(loc);
        return unary(rt_, UnaryOp::Invert, r);
    }
    if (left.maybe_undef() || right.maybe_undef())
        unsupported_in_graph("a value that is None on some paths compared with `" + std::string(to_string(op)) + "`");
    if (!lang::is_membership(op)) return compare(rt_, op, left, right);
    Value r = membership(left, right, loc);
    if (op == CmpOp::In) return r;
    if (const Scalar* s = r.scalar()) return Value::from_bool(!s->nonzero());
    at(loc);
    return unary(rt_, UnaryOp::Invert, r);
}

// `a is b` (docs/language.md): identity is meaningful only against None here (every
// value has value semantics). While tracing, a variable that is None on
// some paths answers with its hidden flag.
Value Evaluator::identity(const Value& a, const Value& b) {
    const MaybeUndefObj* ma = a.maybe_undef();
    const MaybeUndefObj* mb = b.maybe_undef();
    if ((ma && !ma->none) || (mb && !mb->none)) unsupported_in_graph("`is` on a variable that may not be defined");
    if (ma || mb) {
        const Value& other = ma ? b : a;
        if (ma && mb) unsupported_in_graph("`is` between two values that are None on some paths");
        if (!other.is(Kind::None))
            throw Error("`is` compares a value with None only (`x is None`, `x is not None`); compare values with `==`");
        // is None: where the flag (has a value) is false
        return unary(rt_, UnaryOp::Invert, (ma ? ma : mb)->flag);
    }
    const bool an = a.is(Kind::None), bn = b.is(Kind::None);
    if (!an && !bn)
        throw Error("`is` compares a value with None only (`x is None`, `x is not None`); compare values with `==`");
    return Value::from_bool(an && bn);
}

// `x in container` (docs/language.md): a list or tuple holds x when an item equals it
// (`==`, whose truth must be one value, as Python's `in` over NumPy arrays);
// a string holds a substring; a tensor holds x when any element equals it
// (NumPy's `x in array`). Items are compared in order and the first match
// ends the search; while tracing, dynamic matches are or-ed.
Value Evaluator::membership(const Value& x, const Value& c, Loc loc) {
    if (c.is(Kind::Dict)) return Value::from_bool(c.dict().find(dict_key(rt_, x)) != nullptr);  // its keys
    if (c.is(Kind::Set)) return Value::from_bool(c.set().items.count(set_element(rt_, x)) != 0);
    if (c.is(Kind::Str)) {
        if (!x.is(Kind::Str))
            throw Error(std::string("`in <str>` needs a str on the left, not ") + kind_name(x.kind()));
        if (has_symbolic(c) || has_symbolic(x)) unsupported_in_graph("`in` on strings that show tensor values");
        stdlib::spend_work(static_cast<int64_t>(c.text().size()));
        return Value::from_bool(c.text().find(x.text()) != std::string::npos);
    }
    if (c.is_tensor()) {
        at(loc);
        Value eq = compare(rt_, CmpOp::Eq, c, x);
        Value args[1] = {eq};
        return call_op(rt_, stdlib::op_of(stdlib::ReduceKind::Any), CallArgs{args, {}, {}, loc});
    }
    if (!c.is_sequence())
        throw Error(std::string("`in`: a ") + kind_name(c.kind()) +
                    " is not a container (lists, tuples, dicts, sets, strings, tensors)");
    Value found = Value::from_bool(false);
    for (const Value& item : c.items()) {
        at(loc);
        stdlib::spend_work(1);  // a long list of scalars: no op dispatch polls the limits
        Value eq = compare(rt_, CmpOp::Eq, x, item);
        if (eq.is_symbolic() && rt_.trace) {
            Value t = symbolic(*rt_.trace, truth_node(eq, loc));
            found = found.is_symbolic() ? binary(rt_, BinOp::BitOr, found, t) : t;
            continue;
        }
        bool hit;
        try {
            hit = truth(eq);
        } catch (const stdlib::OpError& err) {
            fail(err.what(), loc);
        }
        if (hit) return Value::from_bool(true);
    }
    return found;
}

Value Evaluator::compare_chain(const Compare& c, size_t from, Value left) {
    Value result;
    for (size_t i = from; i < c.ops.size(); ++i) {
        Value right = lang::is_identity(c.ops[i]) ? eval_passing_none(*c.rest[i]) : eval(*c.rest[i]);
        result = located(c.op_locs[i], [&] { return compare_values(c.ops[i], left, right, c.op_locs[i]); });
        if (i + 1 < c.ops.size()) {
            // a < b < c is (a < b) and (b < c), evaluating b once
            bool t;
            if (result.is_symbolic() && rt_.trace) {
                // dynamic: the rest of the chain runs only where this part holds
                Value out;
                const Value first = result;
                trace_cond(
                    truth_node(result, c.op_locs[i]), {{&out, "the value of the comparison", TraceVar::Var}},
                    [&] {
                        out = compare_chain(c, i + 1, right);
                        return Flow::Normal;
                    },
                    [&] {
                        out = first;
                        return Flow::Normal;
                    },
                    c.op_locs[i], "comparison");
                return out;
            }
            try {
                t = truth(result);
            } catch (const stdlib::OpError& err) {
                fail(err.what(), c.op_locs[i]);
            }
            if (!t) return result;
        }
        left = std::move(right);
    }
    return result;
}

Value Evaluator::eval_fstring(const FString& f) {
    TextBuilder text(rt_);
    for (const auto& p : f.parts) {
        if (!p.expr) {
            text.text(p.text);
            continue;
        }
        Value scratch;
        const Value& v = eval_ref(*p.expr, scratch);
        try {
            text.value(v, p.spec);
        } catch (const stdlib::OpError& err) {
            fail(err.what(), p.expr->loc);
        } catch (Error& err) {
            err.locate(source(), p.expr->loc);
            throw;
        }
    }
    return text.finish();
}

// index_items, with errors that carry no location yet (a dynamic list index
// while tracing) located at the subscript.
std::vector<stdlib::IndexItem> Evaluator::located_index_items(const Index& e, std::vector<Value>* dynamic,
                                                              std::vector<Value>* special) {
    try {
        return index_items(e, dynamic, special);
    } catch (Error& err) {
        err.locate(source(), e.loc);
        throw;
    }
}

// A slice bound: an int, or None (absent); static while tracing.
std::optional<int64_t> Evaluator::slice_bound(const Expr& x) {
    Value scratch;
    const Value& v = index_operand(x, scratch);
    if (v.is(Kind::None)) return std::nullopt;
    if (const Scalar* s = v.scalar(); s && !stdlib::is_float(s->dtype) && s->dtype != stdlib::DType::Bool)
        return s->i;  // (an int: what item_i64 reads, without making a tensor)
    if (v.is_symbolic())
        dynamic_value_error(*rt_.trace,
                            "slice bounds must be static inside a @graph function, but they depend on the "
                            "contents of a tensor (the slice's length would be dynamic)",
                            v);
    if (v.is_tensor() && v.tensor().rank() == 0 && !stdlib::is_float(v.tensor().dtype()) &&
        v.tensor().dtype() != stdlib::DType::Bool)
        return v.tensor().item_i64();
    fail(std::string("slice bounds must be integers, not ") +
             (v.is_tensor() ? std::string(stdlib::dtype_name(v.tensor().dtype())) + " tensor"
                            : std::string(kind_name(v.kind()))),
         x.loc);
}

// An index that is not an int or a slice (None, a tensor of indices or a
// bool mask, a list of them), as the advanced indexing takes it.
Value Evaluator::special_index(const Value& v, Loc loc) {
    Value sp = v;
    if (v.is(Kind::List)) {
        try {
            sp = Value(to_tensor(v, "index"));
        } catch (const stdlib::OpError& err) {
            fail(err.what(), loc);
        }
    }
    if (sp.is_tensor()) {
        const stdlib::TensorType t = sp.tensor_type();
        if (t.shape.rank() == 0) fail("a 0-d bool tensor cannot be an index (use `if`, or where())", loc);
        if (t.dtype != stdlib::DType::Bool && !stdlib::is_int(t.dtype))
            fail(std::string("tensors used as indices must be of integer or bool dtype, not ") +
                     std::string(stdlib::dtype_name(t.dtype)),
                 loc);
    }
    return sp;
}

std::vector<stdlib::IndexItem> Evaluator::index_items(const Index& e, std::vector<Value>* dynamic,
                                                      std::vector<Value>* special) {
    std::vector<stdlib::IndexItem> items;
    items.reserve(e.indices.size());
    if (dynamic) dynamic->assign(e.indices.size(), Value());
    if (special) special->assign(e.indices.size(), Value());
    for (const auto& x : e.indices) {
        stdlib::IndexItem it;
        if (x->kind == ExprKind::Slice) {
            const Slice& s = x->as<Slice>();
            it.kind = stdlib::IndexItem::Slice;
            if (s.lo) it.lo = slice_bound(*s.lo);
            if (s.hi) it.hi = slice_bound(*s.hi);
            if (s.step) it.step = slice_bound(*s.step);
        } else if (x->kind == ExprKind::Ellipsis) {
            it.kind = stdlib::IndexItem::Ellipsis;
        } else {
            Value scratch;
            const Value& v = index_operand(*x, scratch);
            // None (a new axis), a tensor of indices or a bool mask, a list of them
            const bool tensor_index = v.is_tensor() && (v.tensor_type().shape.rank() > 0 ||
                                                        v.tensor_type().dtype == stdlib::DType::Bool);
            if (special && (v.is(Kind::None) || tensor_index || v.is(Kind::List))) {
                (*special)[items.size()] = special_index(v, x->loc);
                it.kind = stdlib::IndexItem::Slice;
                items.push_back(it);
                continue;
            }
            if (v.is_symbolic() && v.sym()->type.shape.rank() == 0 && stdlib::is_int(v.sym()->type.dtype)) {
                if (!dynamic)
                    dynamic_value_error(
                        *rt_.trace,
                        "list index must be static inside a @graph function, but it depends on the contents of a "
                        "tensor",
                        v);
                it.kind = stdlib::IndexItem::Int;
                it.index = 0;
                (*dynamic)[items.size()] = v;
                items.push_back(it);
                continue;
            }
            if (!(v.is_tensor() && v.tensor_type().shape.rank() == 0 && stdlib::is_int(v.tensor_type().dtype))) {
                if (v.is_tensor() && v.tensor_type().shape.rank() > 0)
                    fail("indexing with a tensor of indices is not supported (use an int, a slice or `...`)", x->loc);
                fail(std::string("indices must be integers or slices, not ") +
                         (v.is_tensor() ? std::string(stdlib::dtype_name(v.tensor_type().dtype)) + " tensor"
                                        : std::string(kind_name(v.kind()))),
                     x->loc);
            }
            it.kind = stdlib::IndexItem::Int;
            it.index = v.tensor().item_i64();
        }
        items.push_back(it);
    }
    return items;
}

// Python slice semantics on a sequence of length n.
std::vector<int64_t> slice_positions(const stdlib::IndexItem& it, int64_t n) {
    int64_t step = it.step.value_or(1);
    if (step == 0) throw Error("slice step cannot be zero");
    auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v;
        if (x < 0) x += n;
        if (step > 0) return std::clamp<int64_t>(x, 0, n);
        return std::clamp<int64_t>(x, -1, n - 1);
    };
    int64_t lo = clamp(it.lo, step > 0 ? 0 : n - 1);
    int64_t hi = clamp(it.hi, step > 0 ? n : -1);
    std::vector<int64_t> out;
    if (step > 0)
        for (int64_t i = lo; i < hi; i += step) out.push_back(i);
    else
        for (int64_t i = lo; i > hi; i += step) out.push_back(i);
    return out;
}

namespace {

// The positions [lo, hi) a slice by step 1 takes from a sequence of length n
// (what slice_positions gives then, as two bounds).
std::pair<int64_t, int64_t> slice_run(const stdlib::IndexItem& it, int64_t n) {
    auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        return std::clamp<int64_t>(*v < 0 ? *v + n : *v, 0, n);
    };
    const int64_t lo = clamp(it.lo, 0);
    return {lo, std::max(lo, clamp(it.hi, n))};
}

// A slice by step 1 of a string (its characters), a list or a tuple: one
// run of items, read in place.
Value slice_by_one(const Value& base, const stdlib::IndexItem& it) {
    if (base.is(Kind::Str)) {
        const TextChars chars = base.text_chars();
        const auto [lo, hi] = slice_run(it, chars.size());
        return Value::str(std::string(chars.range(lo, hi)));
    }
    const std::span<const Value> xs = base.items();
    const auto [lo, hi] = slice_run(it, static_cast<int64_t>(xs.size()));
    std::vector<Value> run(xs.begin() + lo, xs.begin() + hi);
    return base.is(Kind::List) ? Value::list(std::move(run)) : Value::tuple(std::move(run));
}

// x[k] written with one index that is not a slice, or null.
const Expr* single_index(const Index& e) {
    if (e.indices.size() != 1 || e.is_tuple) return nullptr;
    const ExprKind k = e.indices[0]->kind;
    return k == ExprKind::Slice || k == ExprKind::Ellipsis ? nullptr : e.indices[0].get();
}

// An index operand evaluated already, read by the general indexing path
// (index_operand) instead of evaluating it again, while this lives.
class PresetIndex {
public:
    PresetIndex(std::vector<std::pair<const Expr*, Value>>& presets, const Expr& x, Value v) : presets_(presets) {
        presets_.emplace_back(&x, std::move(v));
    }
    ~PresetIndex() { presets_.pop_back(); }
    PresetIndex(const PresetIndex&) = delete;
    PresetIndex& operator=(const PresetIndex&) = delete;

private:
    std::vector<std::pair<const Expr*, Value>>& presets_;
};

// An int that costs nothing to compute twice: an int literal (or its
// negation), a variable holding an i32 or i64, or a flat scalar program's
// (false: another case, the general path's, which may evaluate x again).
bool pure_int(const Expr& x, const Env* env, const Value* globals, bool debug_nans, int64_t& k) {
    const Scalar* s = nullptr;
    Scalar computed;
    switch (x.kind) {
    case ExprKind::Int: k = x.as<IntLit>().value; return true;
    case ExprKind::Unary: {
        const Unary& u = x.as<Unary>();
        if (u.op != UnaryOp::Neg || u.operand->kind != ExprKind::Int) return false;
        k = -u.operand->as<IntLit>().value;  // (a literal is at most INT64_MAX)
        return true;
    }
    case ExprKind::Name: {
        const Name& n = x.as<Name>();
        if (n.scope == lang::Scope::Local) s = env->slots[n.slot].scalar();
        else if (n.scope == lang::Scope::Global) s = globals[n.slot].scalar();
        break;
    }
    case ExprKind::Binary:
        if (const ScalarCode* code = scalar_code_of(x); code && !debug_nans && run_scalar(*code, env, globals, computed))
            s = &computed;
        break;
    default: break;
    }
    if (!s || !stdlib::is_int(s->dtype)) return false;
    k = s->i;
    return true;
}

// x[lo:hi] written with one slice and no step, or null.
const Slice* plain_slice(const Index& e) {
    if (e.indices.size() != 1 || e.is_tuple || e.indices[0]->kind != ExprKind::Slice) return nullptr;
    const Slice& s = e.indices[0]->as<Slice>();
    return s.step ? nullptr : &s;
}

}  // namespace

bool Evaluator::slice_at_once(const Index& e, const Value& base, Value* out) {
    if (!base.is_sequence() && !(base.is(Kind::Str) && !base.sym_str())) return false;
    // A bound as slice_bound reads it (an i32 or i64; absent: none), read at once
    auto bound = [&](const ExprPtr& b, std::optional<int64_t>& v) {
        if (!b) return true;
        int64_t k;
        if (!pure_int(*b, f_->env, f_->module->globals.data(), rt_.options.debug_nans, k)) return false;
        v = k;
        return true;
    };
    const Slice& s = e.indices[0]->as<Slice>();
    stdlib::IndexItem run;
    run.kind = stdlib::IndexItem::Slice;
    if (!bound(s.lo, run.lo) || !bound(s.hi, run.hi)) return false;
    try {
        new (out) Value(slice_by_one(base, run));
    } catch (const stdlib::OpError& err) {  // (the memory limit: located as index_value locates it)
        fail(err.what(), e.loc);
    }
    return true;
}

Value Evaluator::index_value(const Value& base, const Index& e) {
    if (base.is(Kind::Dict)) {
        const DictKey k = index_key(e);
        const Value* v = base.dict().find(k);
        if (!v) fail("key " + key_repr(k) + " is not in the dict", e.loc);
        return *v;
    }
    const bool sequence = base.is_sequence() || (base.is(Kind::Str) && !base.sym_str());
    // xs[k] with an index that runs code (eval_index took the others): the
    // item without an index list; for any other k (not an int, out of
    // range) the general path below, reading k as evaluated here.
    std::optional<PresetIndex> preset;
    if (const Expr* x = single_index(e); x && sequence) {
        Value scratch;
        Value k = index_operand(*x, scratch);
        if (const Scalar* s = k.scalar(); s && stdlib::is_int(s->dtype))
            if (Value out; item_at(base, s->i, out)) return out;
        preset.emplace(presets_, *x, std::move(k));
    }
    // s[i:j] of a string, list or tuple (the hot case of string work): no index list built
    const Slice* plain = sequence ? plain_slice(e) : nullptr;
    stdlib::IndexItem run;
    Subscript sub;
    if (plain) {
        run.kind = stdlib::IndexItem::Slice;
        try {  // (located as located_index_items locates them)
            if (plain->lo) run.lo = slice_bound(*plain->lo);
            if (plain->hi) run.hi = slice_bound(*plain->hi);
        } catch (Error& err) {
            err.locate(source(), e.loc);
            throw;
        }
    } else {
        sub.items = located_index_items(e, base.is_tensor() && rt_.trace ? &sub.dynamic : nullptr,
                                        base.is_tensor() ? &sub.special : nullptr);
    }
    const std::vector<stdlib::IndexItem>& items = sub.items;
    at(e.loc);
    try {
        if (plain) return slice_by_one(base, run);
        if (base.is_tensor()) {
            if (sub.advanced()) return index_advanced(rt_, base, sub);
            return index_tensor(rt_, base, items, sub.dynamic);
        }
        if (base.is_sequence() || base.is(Kind::Str)) {
            if (items.size() != 1 || items[0].kind == stdlib::IndexItem::Ellipsis)
                throw Error(std::string(kind_name(base.kind())) + " indices must be an int or a slice");
            const bool str = base.is(Kind::Str);
            std::optional<TextChars> chars;  // a string's characters, read in place
            if (str) chars.emplace(base.text_chars());
            const int64_t n = str ? chars->size() : static_cast<int64_t>(base.items().size());
            if (items[0].kind == stdlib::IndexItem::Int) {
                int64_t k = items[0].index;
                if (k < 0) k += n;
                if (k < 0 || k >= n)
                    throw Error(std::string(kind_name(base.kind())) + " index " + std::to_string(items[0].index) +
                                " is out of range for length " + std::to_string(n));
                return str ? Value::str(std::string(chars->at(k))) : base.items()[static_cast<size_t>(k)];
            }
            if (items[0].step.value_or(1) == 1) return slice_by_one(base, items[0]);  // one run, read in place
            const std::vector<int64_t> positions = slice_positions(items[0], n);
            if (str) return Value::str(chars->gather(positions));
            std::vector<Value> out;
            out.reserve(positions.size());
            for (int64_t k : positions) out.push_back(base.items()[static_cast<size_t>(k)]);
            return base.is(Kind::List) ? Value::list(std::move(out)) : Value::tuple(std::move(out));
        }
        throw Error(std::string("a ") + kind_name(base.kind()) + " cannot be indexed");
    } catch (const stdlib::OpError& err) {
        fail(err.what(), e.loc);
    } catch (Error& err) {
        err.locate(source(), e.loc);
        throw;
    }
}

// An int subscript whose index costs nothing to compute twice: a variable,
// an int literal (or its negation) or a flat scalar program (pure, so the
// general path may evaluate it again when the fast path declines). Not
// while tracing: a global read there is a capture the tree walker records.
bool Evaluator::pure_int_index(const Index& e, int64_t& k) {
    if (rt_.trace || e.indices.size() != 1 || e.is_tuple) return false;
    return pure_int(*e.indices[0], f_->env, f_->module->globals.data(), rt_.options.debug_nans, k);
}

// xs[k] for a list or tuple, a string's k-th character: false (nothing
// done) when k is out of range, and the general path raises the error.
bool Evaluator::item_at(const Value& base, int64_t k, Value& out) {
    if (base.is_sequence()) {
        const std::span<const Value> items = base.items();
        const int64_t n = static_cast<int64_t>(items.size());
        if (k < 0) k += n;
        if (k < 0 || k >= n) return false;
        out = items[static_cast<size_t>(k)];
        return true;
    }
    if (base.is(Kind::Str) && !base.sym_str()) {
        const TextChars chars = base.text_chars();
        const int64_t n = chars.size();
        if (k < 0) k += n;
        if (k < 0 || k >= n) return false;
        const std::string_view c = chars.at(k);
        out = c.size() == 1 && static_cast<unsigned char>(c[0]) < 0x80 ? rt_.ascii_char(static_cast<unsigned char>(c[0]))
                                                                       : Value::str(std::string(c));
        return true;
    }
    return false;
}

Value Evaluator::eval_index(const Index& e) {
    check_stack(e.loc);
    Value scratch;
    const Value* base = &eval_ref(*e.value, scratch);
    // The hot case of ordinary code: an int index into a list (nbody, richards)
    if (int64_t k; (base->is_sequence() || base->is(Kind::Str)) && presets_.empty() && pure_int_index(e, k))
        if (Value out; item_at(*base, k, out)) return out;
    // An index that runs code may move the variable base refers to (a
    // `global` assignment, the debugger adding a global): a copy then.
    if (base != &scratch && !runs_no_code(e)) {
        scratch = *base;
        base = &scratch;
    }
    return index_value(*base, e);
}

Value Evaluator::eval_attribute(const Attribute& a) {
    check_stack(a.loc);
    Value scratch;
    return attribute_of(eval_ref(*a.value, scratch), a);
}

// What `x.name` may name: the methods of x's kind, and (for a tensor, whose
// method is any builtin) the builtins.
std::vector<std::string> Evaluator::method_names(const Value& x) const {
    std::vector<std::string> out;
    auto add = [&](std::span<const std::string_view> names) { out.insert(out.end(), names.begin(), names.end()); };
    if (x.is(Kind::List)) add(list_method_names());
    if (x.is(Kind::Dict)) add(dict_method_names());
    if (x.is(Kind::Set)) add(set_method_names());
    if (x.is(Kind::Str)) add(string_method_names());
    if (x.is_tensor()) {
        add(tensor_attribute_names());
        std::vector<std::string> builtins = rt_.builtin_names();
        out.insert(out.end(), builtins.begin(), builtins.end());
    }
    return out;
}

Value Evaluator::attribute_of(const Value& x, const Attribute& a) {
    if (x.is(Kind::Module)) {
        ModuleState* m = x.module();
        int slot = m->find(a.attr);
        if (slot < 0 || !m->globals[slot].defined()) {
            std::vector<std::string> names;
            for (const auto& [name, s] : m->index)
                if (m->globals[static_cast<size_t>(s)].defined()) names.push_back(name);
            fail("module `" + m->name + "` has no attribute `" + a.attr + "`" + did_you_mean(a.attr, names), a.loc);
        }
        if (rt_.trace) rt_.trace->capture(m->name + "." + a.attr, m, nullptr, slot, m->globals[slot]);
        return m->globals[slot];
    }
    if (x.is_tensor()) {
        // Shapes and dtypes are static, also of symbolic tensors.
        const stdlib::TensorType t = x.tensor_type();
        if (rt_.trace && (a.attr == "shape" || a.attr == "size")) rt_.trace->read_size(x, -1, a.loc, source());
        if (a.attr == "shape") {
            std::vector<Value> dims;
            for (int64_t d : t.shape) dims.push_back(Value::from_int(d));
            return Value::tuple(std::move(dims));
        }
        if (a.attr == "ndim") return Value::from_int(t.shape.rank());
        if (a.attr == "size") return Value::from_int(t.shape.numel());
        if (a.attr == "dtype") return Value(t.dtype);
        if (is_tensor_attribute(a.attr)) {  // itemsize, nbytes, real, imag, mT (tensor_methods.cpp)
            return located(a.loc, [&] { return tensor_attribute(rt_, x, a.attr); });
        }
        if (a.attr == "T") {
            at(a.loc);
            const stdlib::OpDef* op = &stdlib::op_of(stdlib::OtherKind::Transpose);
            if (!op) fail("internal error: no transpose op", a.loc);
            Value args[1] = {x};
            try {
                return call_op(rt_, *op, CallArgs{args, {}, {}, a.loc});
            } catch (const stdlib::OpError& err) {
                fail(err.what(), a.loc);
            }
        }
    }
    // str.upper, as in map(str.upper, words): the method as a function (string_methods.cpp)
    if (x.is(Kind::Builtin) && x.builtin().name == "str" && is_string_method(a.attr)) return unbound_string_method(a.attr);
    if (x.is(Kind::Graph) || x.is(Kind::Spec)) {
        Value v = graph_attribute(x, a.attr);
        if (v.defined()) return v;
        fail(std::string(kind_name(x.kind())) + " has no attribute `" + a.attr + "`", a.loc);
    }
    int b = rt_.builtin_slot(a.attr);
    if (b >= 0 && (rt_.builtin(b).is(Kind::Builtin))) return Value::bound(x, rt_.builtin(b));
    fail(std::string(kind_name(x.kind())) + " has no attribute `" + a.attr + "`" + did_you_mean(a.attr, method_names(x)),
         a.loc);
}

DictKey Evaluator::key_at(const Value& k, Loc loc, KeyUse use) {
    try {
        return dict_key(rt_, k, use);
    } catch (Error& err) {
        err.locate(source(), loc);
        throw;
    }
}

DictKey Evaluator::index_key(const Index& e) {
    const Expr& k = *e.indices[0];
    if (k.kind == ExprKind::Slice || k.kind == ExprKind::Ellipsis)
        fail(k.kind == ExprKind::Slice ? "a dict cannot be sliced" : "a dict cannot be indexed with `...`", k.loc);
    if (e.is_tuple || e.indices.size() > 1)
        fail("dict keys must be strings or integers, not a tuple", e.loc);
    Value scratch;
    return key_at(index_operand(k, scratch), k.loc);
}

Value Evaluator::eval_dict(const DictExpr& d) {
    check_stack(d.loc);
    DictObj out;
    out.reserve(d.keys.size());
    for (size_t i = 0; i < d.keys.size(); ++i) {
        DictKey k = key_at(eval(*d.keys[i]), d.keys[i]->loc);
        out.set(std::move(k), eval(*d.values[i]));  // a repeated key keeps its place and takes the last value
    }
    return Value::dict(std::move(out));
}

Value Evaluator::eval_set(const SetExpr& s) {
    check_stack(s.loc);
    SetObj out;
    for (const auto& x : s.elts) out.items.insert(key_at(eval(*x), x->loc, KeyUse::SetElement));
    return Value::set(std::move(out));
}

Value Evaluator::make_lambda(const Lambda& l) {
    auto fn = std::make_shared<FunctionObj>();
    fn->name = "<lambda>";
    fn->params = &l.params;
    fn->expr_body = l.body.get();
    fn->info = l.info.get();
    fn->env = f_->owner();
    fn->module = f_->module;
    for (const auto& p : l.params) fn->defaults.push_back(p.default_value ? eval(*p.default_value) : Value());
    return Value::function(std::move(fn));
}

Value Evaluator::eval_listcomp(const ListComp& c) {
    check_stack(c.loc);
    Value iter = eval(*c.iter);  // the first iterable, outside the comprehension's scope
    auto* facts = static_cast<const FunctionFacts*>(c.info.get());
    auto env = std::make_shared<Env>();
    env->slots.resize(facts->num_slots());
    env->parent = f_->owner();
    env->facts = facts;
    Frame frame{env.get(), &env, f_->module, f_->source};
    Frame* saved = f_;
    f_ = &frame;
    std::vector<Value> out;
    DictObj dict_out;  // a dict comprehension
    SetObj set_out;    // a set comprehension
    // Clause k: its target, iterable and filter (0 is the node's own fields).
    auto target_of = [&](size_t k) -> const Expr& { return k == 0 ? *c.target : *c.more[k - 1].target; };
    auto cond_of = [&](size_t k) { return k == 0 ? c.cond.get() : c.more[k - 1].cond.get(); };
    auto kept = [&](const Expr& filter) {
        if (!rt_.trace) return cond(filter);
        uint32_t pred;
        std::optional<bool> keep = condition(filter, pred);
        if (!keep) {
            try {
                const std::string what = c.key ? "dict comprehension must be static inside a @graph function (it decides the dict's keys"
                                         : c.is_set ? "set comprehension must be static inside a @graph function (it decides the set's elements"
                                                    : "list comprehension must be static inside a @graph function (it decides the list's length";
                dynamic_value_error(*rt_.trace, "the filter of a " + what + "), but it depends on the contents of a tensor",
                                    symbolic(*rt_.trace, pred));
            } catch (Error& e) {
                e.locate(source(), filter.loc);
                throw;
            }
        }
        return *keep;
    };
    // Iteration goes through Iterable (a traced tensor: unrolled over its static axis 0).
    auto iterable = [&](const Value& v, const Expr& where) {
        try {
            return Iterable(v, rt_);
        } catch (Error& err) {
            err.locate(source(), where.loc);
            throw;
        }
    };
    std::function<void(size_t, Value)> clause = [&](size_t k, Value item) {
        count_step(c.loc);
        assign(target_of(k), std::move(item));
        if (const Expr* filter = cond_of(k); filter && !kept(*filter)) return;
        if (k < c.more.size()) {  // the next clause, for this item of the ones before
            const Expr& next = *c.more[k].iter;
            Iterable it = iterable(eval(next), next);
            for (int64_t i = 0; i < it.size(); ++i) clause(k + 1, it.item(i));
            return;
        }
        if (c.key) {
            DictKey key = key_at(eval(*c.key), c.key->loc);
            dict_out.set(std::move(key), eval(*c.elt));
            return;
        }
        if (c.is_set) {
            set_out.items.insert(key_at(eval(*c.elt), c.elt->loc, KeyUse::SetElement));
            return;
        }
        out.push_back(eval(*c.elt));
    };
    try {
        Iterable it = iterable(iter, *c.iter);
        for (int64_t i = 0; i < it.size(); ++i) clause(0, it.item(i));
    } catch (...) {
        f_ = saved;
        throw;
    }
    f_ = saved;
    if (c.is_set) return Value::set(std::move(set_out));
    return c.key ? Value::dict(std::move(dict_out)) : Value::list(std::move(out));
}

}  // namespace tg::interp
