// Linear algebra of docs/builtins.md: matmul (`@`), dot, outer, with NumPy semantics.
//   matmul: 1-d operands are promoted to a row (a) / column (b) and the added
//     axis removed from the result; leading (batch) axes broadcast; 0-d
//     operands are an error. f32/f64 go through OpenBLAS (transposed views are
//     passed to BLAS as transposes, not copied); bool/i32/i64 use our own loop
//     (integers wrap; bool is or-of-ands). Mixed dtypes promote as arithmetic.
//   dot: 0-d operands multiply; otherwise the sum over the last axis of a and
//     the second-to-last of b (the last if b is 1-d); no batch broadcasting.
//   outer: both flattened; result (a.size, b.size).
#pragma once

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

TensorType matmul_type(const TensorType& a, const TensorType& b);
Tensor matmul(const Tensor& a, const Tensor& b);
TensorType dot_type(const TensorType& a, const TensorType& b);
Tensor dot(const Tensor& a, const Tensor& b);
TensorType outer_type(const TensorType& a, const TensorType& b);
Tensor outer(const Tensor& a, const Tensor& b);

}  // namespace tg::stdlib
