// String methods of docs/builtins.md: join split strip lstrip rstrip replace
// startswith endswith upper lower format, with Python's semantics (what each
// takes: interp/method_signatures.hpp). Strings are static while tracing;
// `format` and `join` also take traced tensors and strings that show them
// (the text is then filled in when the graph runs).
#pragma once

#include <string_view>

#include "interp/method_signatures.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

bool is_string_method(std::string_view name);
// Runs str method `m` on the string `self`. Throws unlocated errors naming the method.
Value call_string_method(Runtime& rt, Method m, const Value& self, const CallArgs& args);
// str.name: the method as a function of the string and the method's
// arguments (map(str.upper, words), sorted(words, key=str.lower))
Value unbound_string_method(std::string_view name);

}  // namespace tg::interp
