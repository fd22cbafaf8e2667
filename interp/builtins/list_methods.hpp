// List methods of docs/builtins.md: append, pop, extend, index, insert,
// remove, count, sort, copy (what each takes: interp/method_signatures.hpp).
// `xs.append(v)` changes the variable xs (copy-on-write: other lists that
// shared its items keep them).
#pragma once

#include <string_view>

#include "interp/method_signatures.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

// Runs list method `m` on `list` (which it may change). Throws unlocated errors.
Value call_list_method(Runtime& rt, Method m, Value& list, const CallArgs& args);

}  // namespace tg::interp
