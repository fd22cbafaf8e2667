// How a debugger shows a tensor before its values (docs/debugging.md): its
// type and a one-line summary — min, max, mean, and how many NaN and inf.
#pragma once

#include <tg/tg.hpp>

#include <string>

namespace tg::cli {

// "f32[3,4]" (a 0-d tensor: "f32[]")
std::string tensor_type(const tg::Tensor& t);
// "min 0.5  max 3.0  mean 1.25" and, for floats, "  nan 1  inf 0" when any;
// "" for an empty tensor.
std::string tensor_summary(const tg::Tensor& t);

}  // namespace tg::cli
