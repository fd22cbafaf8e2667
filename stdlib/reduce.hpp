// Reductions of docs/builtins.md (`axis=None | int | tuple`, `keepdims=False`):
// sum mean max min prod argmax argmin any all logsumexp, and var std
// (`ddof=0`) median (kernels in reduce_stats.cpp; their rules are there).
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
#include <vector>

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

// ReduceKind and the reductions' names: stdlib/op_kinds.hpp.
std::string_view reduce_name(ReduceKind k);
// Shape-and-dtype rule (no data). `axis` is an Axis attr.
TensorType reduce_type(ReduceKind k, const TensorType& x, const Attr& axis, bool keepdims);
// The eager kernel (`ddof`: var and std only).
Tensor reduce(ReduceKind k, const Tensor& x, const Attr& axis, bool keepdims, double ddof = 0);
// var, std and median over normalized axes (reduce_stats.cpp).
Tensor reduce_stat(ReduceKind k, const Tensor& x, const std::vector<int>& axes, bool keepdims, double ddof);
// The weight of each element of x in median(x, axis) (x's shape; floats keep
// their dtype, others give f32): its gradient is g times these. The middle
// element gets 1, or the two middle ones 1/2 each, split evenly among equal
// values; NaN across a lane holding a NaN.
Tensor median_weights(const Tensor& x, const Attr& axis);

}  // namespace tg::stdlib
