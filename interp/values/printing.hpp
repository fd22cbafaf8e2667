// str / repr of values (docs/language.md "Values") and f-string replacement fields.
#pragma once

#include <string>
#include <string_view>

#include "interp/values/value.hpp"

namespace tg::interp {

std::string str_of(const Value& v);   // print() and str(): tensors by value, strings bare
std::string repr_of(const Value& v);  // repr(): tensors with shape and dtype, strings quoted
// Inside lists and tuples: tensors by str, strings quoted.
std::string element_str(const Value& v);
// {value:spec} of an f-string.
std::string format_value(const Value& v, std::string_view spec);
// Python's repr of a string: 'text' with escapes.
std::string quote(std::string_view s);

}  // namespace tg::interp
