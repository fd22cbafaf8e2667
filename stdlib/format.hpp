// Printing (docs/language.md "Values"): str and repr of tensors, and Python's format
// mini-language for f-string replacement fields.
#pragma once

#include <string>
#include <string_view>

#include "stdlib/tensor.hpp"

namespace tg::stdlib {

// Shortest decimal that round-trips in the given precision, written like
// Python's repr(float): 7.0, 0.1, 0.33333334 (f32), 1e-05, 1e+16, inf, nan.
std::string format_float(double v, DType precision);

// str(x): values only, on one line ("5.0", "[[1, 2], [3, 4]]"; summarized past 1000 elements).
std::string to_str(const Tensor& x);
// repr(x): "tensor(5.0, shape=(), dtype=f32)"; rank 2 and up on aligned lines,
// NumPy-style ("tensor([[1, 2],\n        [3, 4]], shape=(2, 2), dtype=i64)").
std::string to_repr(const Tensor& x);

// Format spec of Python's mini-language, the common cases:
// [[fill]align][sign][0][width][,][.precision][type] with types f e g d s %.
// Throws OpError ("invalid format spec '...' for a tensor") when it does not apply.
std::string format_tensor(const Tensor& x, std::string_view spec);  // 0-d / 1-element tensors
std::string format_string(std::string_view s, std::string_view spec);  // strings (fill/align/width)

}  // namespace tg::stdlib
