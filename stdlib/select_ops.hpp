// Selection ops of docs/builtins.md with NumPy's semantics: take, sort, argsort (op
// table rows, stdlib/select_ops.cpp), and unique / nonzero, whose result
// shapes depend on the data: they are no table rows (a shape rule could not
// give their shape) but host builtins of interp that call these kernels
// eagerly and are an error inside @graph.
#pragma once

#include <vector>

#include "stdlib/tensor.hpp"

namespace tg::stdlib {

// The sorted distinct elements of x, flattened (NaNs collapse into one, last).
Tensor unique(const Tensor& x);
// One i64 tensor per axis of x (a 0-d x counts as 1-d) with the indices of
// its nonzero elements, in row-major order.
std::vector<Tensor> nonzero(const Tensor& x);

}  // namespace tg::stdlib
