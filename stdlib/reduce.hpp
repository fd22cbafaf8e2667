// Reductions of SPEC §4 (`axis=None | int | tuple`, `keepdims=False`):
// sum mean max min prod argmax argmin any all logsumexp.
//
// dtypes follow NumPy with tg's defaults: sum/prod of bool, i32, i64 give i64
// (wrapping), of floats their own dtype; mean and logsumexp of bool/ints give
// f32; max/min keep the dtype; argmax/argmin give i64; any/all give bool.
// Float sums accumulate in f64, pairwise along the contiguous axis and
// blocked otherwise, then round to the dtype once.
// max/min propagate NaN; argmax/argmin return the first NaN's index if any.
// Reducing over zero elements: sum 0, prod 1, mean nan, any False, all True,
// logsumexp -inf; max/min/argmax/argmin are an error naming the function.
#pragma once

#include <string_view>

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

// ReduceKind and the reductions' names: stdlib/op_kinds.hpp.
std::string_view reduce_name(ReduceKind k);
// Shape-and-dtype rule (no data). `axis` is an Axis attr.
TensorType reduce_type(ReduceKind k, const TensorType& x, const Attr& axis, bool keepdims);
// The eager kernel.
Tensor reduce(ReduceKind k, const Tensor& x, const Attr& axis, bool keepdims);

}  // namespace tg::stdlib
