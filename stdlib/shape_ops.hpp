// Shape ops of docs/builtins.md: transpose reshape expand_dims squeeze flatten
// broadcast_to concat stack one_hot. transpose, broadcast_to, expand_dims,
// squeeze and reshape/flatten of contiguous tensors are views (no copy).
// Each has a shape rule on TensorType (no data) and a kernel; the functions
// here are the kernels' entry points for other C++ code (autodiff, tests).
#pragma once

#include <span>
#include <vector>

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

// perm empty: reverse the axes (x.T).
Tensor transpose(const Tensor& x, std::span<const int64_t> perm = {});
// `shape` may hold one -1.
Tensor reshape(const Tensor& x, std::span<const int64_t> shape);
Tensor broadcast_to(const Tensor& x, const Shape& shape);
Tensor concat(std::span<const Tensor> xs, int64_t axis = 0);
Tensor stack(std::span<const Tensor> xs, int64_t axis = 0);

// Shape rules shared with the op table (fn names the builtin in errors).
Shape transpose_shape(const Shape& x, std::span<const int64_t> perm, std::vector<int>* out_perm = nullptr);
Shape reshape_shape(const Shape& x, std::span<const int64_t> shape);

// Copies src into memory laid out with dst_strides (elements of src's dtype).
void copy_into(void* dst, const Strides& dst_strides, const Tensor& src);

}  // namespace tg::stdlib
