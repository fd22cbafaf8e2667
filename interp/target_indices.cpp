// Evaluating a target's indices before it is looked up (interp/target_indices.hpp).
#include "interp/target_indices.hpp"

#include "interp/expr_facts.hpp"

namespace tg::interp {

using namespace lang;

static bool compute_runs_no_code(const Expr& e);

bool runs_no_code(const Expr& e) { return cached_fact(e, ExprFact::RunsNoCode, compute_runs_no_code); }

static bool compute_runs_no_code(const Expr& e) {
    auto all = [](const std::vector<ExprPtr>& xs) {
        for (const auto& x : xs)
            if (!runs_no_code(*x)) return false;
        return true;
    };
    switch (e.kind) {
    case ExprKind::Name: case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::Bool:
    case ExprKind::NoneLit: case ExprKind::Ellipsis:
        return true;
    case ExprKind::Unary: return runs_no_code(*e.as<Unary>().operand);
    case ExprKind::Binary: return runs_no_code(*e.as<Binary>().lhs) && runs_no_code(*e.as<Binary>().rhs);
    case ExprKind::BoolOp: return runs_no_code(*e.as<BoolOp>().lhs) && runs_no_code(*e.as<BoolOp>().rhs);
    case ExprKind::Compare: return runs_no_code(*e.as<Compare>().first) && all(e.as<Compare>().rest);
    case ExprKind::IfExp: {
        const IfExp& x = e.as<IfExp>();
        return runs_no_code(*x.cond) && runs_no_code(*x.then_) && runs_no_code(*x.else_);
    }
    case ExprKind::Attribute: return runs_no_code(*e.as<Attribute>().value);
    case ExprKind::Index: return runs_no_code(*e.as<Index>().value) && all(e.as<Index>().indices);
    case ExprKind::Slice: {
        const Slice& s = e.as<Slice>();
        return (!s.lo || runs_no_code(*s.lo)) && (!s.hi || runs_no_code(*s.hi)) && (!s.step || runs_no_code(*s.step));
    }
    case ExprKind::List: return all(e.as<ListExpr>().elts);
    case ExprKind::Tuple: return all(e.as<TupleExpr>().elts);
    default: return false;  // a call, a comprehension, an f-string, a lambda, a dict or set display
    }
}

namespace {

bool is_literal(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::Bool: case ExprKind::NoneLit:
    case ExprKind::Ellipsis:
        return true;
    default: return false;
    }
}

// The index expressions of a target rooted at a variable, in source order
// (slices by their bounds); false if the root is not a variable.
bool target_operands(const Expr& e, std::vector<const Expr*>& out) {
    if (e.kind == ExprKind::Name) return true;
    if (e.kind != ExprKind::Index) return false;
    const Index& ix = e.as<Index>();
    if (!target_operands(*ix.value, out)) return false;
    for (const auto& x : ix.indices) {
        if (x->kind != ExprKind::Slice) {
            out.push_back(x.get());
            continue;
        }
        const Slice& s = x->as<Slice>();
        for (const ExprPtr* part : {&s.lo, &s.hi, &s.step})
            if (*part) out.push_back(part->get());
    }
    return true;
}

}  // namespace

Evaluator::TargetIndices::TargetIndices(Evaluator& ev, const Expr& target) : ev_(ev), saved_(std::move(ev.presets_)) {
    ev_.presets_.clear();
    // The common case (`xs[i] = v`): nothing runs code, nothing is collected.
    if (runs_no_code(target)) return;
    std::vector<const Expr*> operands;
    if (!target_operands(target, operands)) return;
    // Evaluated with none installed: code they run meets its own targets afresh.
    std::vector<std::pair<const Expr*, Value>> values;
    for (const Expr* x : operands)
        if (!is_literal(*x)) values.emplace_back(x, ev_.eval(*x));
    ev_.presets_ = std::move(values);
}

// `xs[f(x)] = v`: the int its one index was evaluated to before the walk
// (false when it was not evaluated so, or is not an int; and while tracing,
// as pure_int_index).
bool Evaluator::preset_int_index(const Index& e, int64_t& k) const {
    if (rt_.trace || e.indices.size() != 1 || e.is_tuple) return false;
    for (const auto& [x, v] : presets_)
        if (x == e.indices[0].get()) {
            const Scalar* s = v.scalar();
            if (!s || !stdlib::is_int(s->dtype)) return false;
            k = s->i;
            return true;
        }
    return false;
}

const Value& Evaluator::index_operand(const Expr& x, Value& scratch) {
    if (!presets_.empty()) [[unlikely]]
        for (const auto& [e, v] : presets_)
            if (e == &x) return v;
    return eval_ref(x, scratch);
}

}  // namespace tg::interp
