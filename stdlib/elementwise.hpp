// Element-wise ops (docs/language.md "Values", docs/builtins.md): dtype signatures shared by the shape
// rules and the kernels, and entry points beside op_table.hpp's binary().
#pragma once

#include <cstdint>

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

// The kinds, their names and facts: stdlib/op_kinds.hpp (is_comparison, int_check, ...).
inline const char* binary_name(BinaryKind k) { return binary_row(k).name.data(); }  // "add", "floordiv", ...

// The dtypes of one binary op application:
//   compute — the dtype both operands are converted to before the op;
//   result  — the dtype of the result (bool for comparisons);
//   weak    — the result is weak (both operands weak, not a comparison).
// Throws OpError for unsupported dtypes ("bitand: not supported for f32 tensors").
struct OpSignature {
    DType compute;
    DType result;
    bool weak;
};
OpSignature binary_signature(BinaryKind k, DType a, bool a_weak, DType b, bool b_weak);

inline const char* unary_name(UnaryKind k) { return unary_row(k).name.data(); }
OpSignature unary_signature(UnaryKind k, DType x, bool x_weak);

// x op: same semantics as the table's kernels.
Tensor unary(UnaryKind kind, const Tensor& x);

// One number as the interpreter keeps a 0-d value without a tensor
// (interp::Scalar): bool, i32 and i64 in `i`, f32 and f64 in `f` (an f32
// exactly), a weak value's exact i64 / f64 (dtype and weak as a tensor reports them).
struct Number {
    DType dtype = DType::F32;
    bool weak = false;
    union {
        int64_t i = 0;
        double f;
    };
};
// unary and cast on one number: the same results as on a 0-d tensor, the
// same OpErrors, no tensor made.
Number unary(UnaryKind kind, const Number& x);
Number cast(const Number& x, DType dtype);

// where(c, a, b): c is tested for nonzero; a and b promote like a binary op.
Tensor where(const Tensor& c, const Tensor& a, const Tensor& b);
// clip(x, lo, hi) = minimum(maximum(x, lo), hi).
Tensor clip(const Tensor& x, const Tensor& lo, const Tensor& hi);

}  // namespace tg::stdlib
