// List methods of docs/builtins.md: append, pop, extend, index, insert,
// remove, count, sort, copy (what each takes: interp/method_signatures.hpp).
// `xs.append(v)` changes the variable xs (copy-on-write: other lists that
// shared its items keep them).
#pragma once

#include <string_view>

#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

bool is_list_method(std::string_view name);
bool mutates_list(std::string_view name);  // append, pop, extend, insert, remove, sort
// Runs method `name` on `list` (which it may change). Throws unlocated errors.
Value call_list_method(Runtime& rt, std::string_view name, Value& list, const CallArgs& args);

}  // namespace tg::interp
