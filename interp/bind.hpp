// The level an operation runs at, decided in one place (JAX's `bind`).
//
// Every tensor operation — an operator (`a + b`, `-x`, `a < b`, `a @ b`), a
// builtin of the op table (`sum(x)`), an op applied by a gradient rule or by
// the tracer (`run_op`), indexing — asks `choose_level` which of three
// things happens, and in this order:
//
//   Tape  — an operand is being differentiated (`grad`) or batched (`vmap`):
//           for the innermost of those transformations, the op is computed
//           on the primals and recorded on its tape
//           (interp/autodiff/autodiff.hpp, `tracked_op`), or rewritten by
//           its batching rule (interp/batching/batching.hpp, `batched_op`).
//   Trace — a @graph function is being traced and an operand is symbolic,
//           or the op has an effect every run of the graph must repeat (a
//           random draw): a node is appended (`trace_op`).
//   Eager — the kernel runs now.
//
// The tape comes first because the recorded op is computed by calling the
// op again on the primals, which then takes the level below (tracing or
// eager): `grad` inside a traced function records ops whose values are
// symbolic. `bind_op` (dispatch.hpp) performs the op at the chosen level; the
// eager paths with their own fast cases (0-d operators) run where they are
// called, after `choose_level` said Eager.
#pragma once

#include <cstdint>

#include "interp/runtime.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

enum class Level : uint8_t { Tape, Trace, Eager };

// `tracked()` and `traced()` are asked lazily, in the levels' order (a walk of
// a nested list is skipped when a tensor already decided, and nothing about
// symbolic values is asked when no graph is being traced).
template <class Tracked, class Traced>
inline Level choose_level(const Runtime& rt, Tracked&& tracked, Traced&& traced) {
    if (tracked()) return Level::Tape;
    if (rt.trace && traced()) return Level::Trace;
    return Level::Eager;
}

// The operators' case: tensor operands, checked without a walk.
inline Level operator_level(const Runtime& rt, const Value& a) {
    return choose_level(rt, [&] { return a.transformed(); }, [&] { return a.is_symbolic(); });
}
inline Level operator_level(const Runtime& rt, const Value& a, const Value& b) {
    return choose_level(rt, [&] { return a.transformed() || b.transformed(); },
                        [&] { return a.is_symbolic() || b.is_symbolic(); });
}

}  // namespace tg::interp
