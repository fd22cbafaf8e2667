// Numbers read from and stored into list items without building a Value:
// richards' `if t_holding[t] or ...`, `t = t_link[t]`, `t_input[t] =
// pk_link[msg]`, `count += 1`. Each fast path covers only operands that
// cannot run code or fail (variables, literals, compiled scalar programs,
// `xs[k]` by a pure int index in range), and gives up before anything is
// changed otherwise: the general path then evaluates the statement (again;
// re-evaluating pure operands is harmless) and raises its errors at the same
// places. Off while tracing (a global read there is a capture the tree
// walker records) and under vmap (batched values take the general path).
#include "interp/dispatch.hpp"
#include "interp/evaluator.hpp"
#include "interp/scalar_code.hpp"
#include "interp/scalar_ops.hpp"

namespace tg::interp {

using namespace lang;

// xs[k], xs a variable holding a list or tuple, k a pure int index in
// range, the item a 0-d value.
bool Evaluator::scalar_item(const Index& e, Scalar& out) {
    if (e.value->kind != ExprKind::Name || e.indices.size() != 1 || e.is_tuple || !presets_.empty()) return false;
    const Value* base = plain_variable(e.value->as<Name>());
    if (!base || !base->is_sequence()) return false;
    int64_t k;
    if (const Expr& x = *e.indices[0]; x.kind == ExprKind::Name) {  // `xs[i]`: pure_int_index's case, inline
        const Value* i = plain_variable(x.as<Name>());
        const Scalar* s = i ? i->scalar() : nullptr;
        if (!s || !stdlib::is_int(s->dtype)) return false;
        k = s->i;
    } else if (!pure_int_index(e, k)) {
        return false;
    }
    const std::span<const Value> items = base->items();
    const int64_t n = static_cast<int64_t>(items.size());
    if (k < 0) k += n;
    if (k < 0 || k >= n) return false;
    const Scalar* s = items[static_cast<size_t>(k)].scalar();
    if (!s) return false;
    out = *s;
    return true;
}

// A variable, a literal, a compiled scalar program or a scalar item, as a
// Scalar; false (nothing evaluated that has effects, nothing thrown) otherwise.
bool Evaluator::pure_scalar(const Expr& e, Scalar& out) {
    switch (e.kind) {
    case ExprKind::Name: {
        const Value* v = plain_variable(e.as<Name>());
        const Scalar* s = v ? v->scalar() : nullptr;
        if (!s) return false;
        out = *s;
        return true;
    }
    case ExprKind::Int: out = Scalar::of_int(e.as<IntLit>().value, stdlib::DType::I64, true); return true;
    case ExprKind::Float: out = Scalar::of_float(e.as<FloatLit>().value, stdlib::DType::F32, true); return true;
    case ExprKind::Bool: out = Scalar::of_bool(e.as<BoolLit>().value); return true;
    case ExprKind::Index: return scalar_item(e.as<Index>(), out);
    case ExprKind::Binary: case ExprKind::Compare: {
        const ScalarCode* code = scalar_code_of(e);
        return code && !rt_.options.debug_nans && run_scalar(*code, f_->env, f_->module->globals.data(), out);
    }
    default: return false;
    }
}

// `xs[k] = <pure scalar>`, xs a variable holding a list: the item's fields
// overwritten in place (the list copied first only when shared).
bool Evaluator::store_scalar_item(const Index& t, const Expr& value) {
    if (t.value->kind != ExprKind::Name) return false;
    Value* base = plain_store_slot(t.value->as<Name>());
    Scalar v;
    int64_t k;
    if (!base || !base->is(Kind::List) || !fast_scalars_allowed() || !pure_scalar(value, v) || !presets_.empty() ||
        !pure_int_index(t, k))
        return false;
    const int64_t n = static_cast<int64_t>(base->items().size());
    if (k < 0) k += n;
    if (k < 0 || k >= n) return false;
    base->list_mut()[static_cast<size_t>(k)].set_scalar(v);
    return true;
}

// `n op= <pure scalar>` on a variable holding a number, `xs[k] op= <pure
// scalar>` on a number in a list held in a variable: aug_assign's scalar
// case (apply's scalar_binary) without a Value on the way.
bool Evaluator::aug_assign_scalar(const AugAssign& s) {
    if (!fast_scalars_allowed() || s.op == BinOp::MatMul || rt_.options.debug_nans) return false;
    Value* slot = nullptr;  // the variable, or the list holding the item
    int64_t k = -1;
    const Scalar* cur = nullptr;
    if (s.target->kind == ExprKind::Name) {
        slot = plain_store_slot(s.target->as<Name>());
        cur = slot ? slot->scalar() : nullptr;
    } else if (s.target->kind == ExprKind::Index && s.target->as<Index>().value->kind == ExprKind::Name) {
        const Index& t = s.target->as<Index>();
        slot = plain_store_slot(t.value->as<Name>());
        if (!slot || !slot->is(Kind::List) || !presets_.empty() || !pure_int_index(t, k)) return false;
        const std::span<const Value> items = slot->items();
        const int64_t n = static_cast<int64_t>(items.size());
        if (k < 0) k += n;
        if (k < 0 || k >= n) return false;
        cur = items[static_cast<size_t>(k)].scalar();
    }
    Scalar rhs, out;
    if (!cur || !pure_scalar(*s.value, rhs) || !scalar_binary(binary_kind(s.op), *cur, rhs, out)) return false;
    if (k < 0) slot->set_scalar(out);
    else slot->list_mut()[static_cast<size_t>(k)].set_scalar(out);  // (copied first if shared)
    return true;
}

}  // namespace tg::interp
