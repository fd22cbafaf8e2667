// Tensor methods of docs/builtins.md that are not builtins: x.item() (the 0-d tensor
// itself: tg's numbers are 0-d tensors), x.tolist() (nested lists of 0-d
// tensors; a 0-d tensor gives itself, as NumPy gives a number), x.copy()
// (the same value: tensors have value semantics, so a copy is never shared),
// x.item(i) / x.item(i, j) (NumPy's indexed forms), x.conj() (x: tg's
// dtypes are real). The attributes x.itemsize, x.nbytes, x.real, x.imag
// (zeros) and x.mT (the last two axes swapped) beside shape, ndim, size,
// dtype and T (interp/expressions.cpp).
#pragma once

#include <string_view>

#include "interp/method_signatures.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

// Runs tensor method `m` on the tensor x. Throws unlocated errors naming the method.
Value call_tensor_method(Runtime& rt, Method m, const Value& x, const CallArgs& args);
bool is_tensor_attribute(std::string_view name);
// Attribute `name` of the tensor x; unlocated errors.
Value tensor_attribute(Runtime& rt, const Value& x, std::string_view name);

}  // namespace tg::interp
