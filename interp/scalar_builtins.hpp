// Builtins called on numbers, computed by the evaluator without the op
// table's argument binding (docs/performance.md "Ordinary programs": a call
// of `abs` or `f64` on a number cost 300-440 ns that way): the dtype casts
// (`f64(x)`, `i32(x)`), `int(x)` and `float(x)` of a number, the
// element-wise functions of one argument (`abs`, `sqrt`, `exp`...) on a
// number, `max(a, b)` / `min(a, b)` of two numbers, and `len` of a list,
// tuple, dict or string.
//
// Each computes what the general path computes — through the same stdlib
// entry points the table's kernels run (stdlib::cast, stdlib::unary, the
// element functions of scalar_binary) — and declines, doing nothing, for
// any other call, or when the kernel raises: the general path then runs
// and raises its error at the call.
#pragma once

#include <span>

#include "interp/values/value.hpp"

namespace tg::interp {

// Not while tracing or under --debug-nans (the caller checks): those need
// the general path's checks.
bool call_on_numbers(const Value& callee, std::span<const Value> args, Value& out);

}  // namespace tg::interp
