// Tensor methods of docs/builtins.md that are not builtins: x.item() (the 0-d tensor
// itself: tg's numbers are 0-d tensors), x.tolist() (nested lists of 0-d
// tensors; a 0-d tensor gives itself, as NumPy gives a number), x.copy()
// (the same value: tensors have value semantics, so a copy is never shared).
#pragma once

#include <string_view>

#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

bool is_tensor_method(std::string_view name);
// Runs method `name` on the tensor x. Throws unlocated errors naming the method.
Value call_tensor_method(Runtime& rt, std::string_view name, const Value& x, const CallArgs& args);

}  // namespace tg::interp
