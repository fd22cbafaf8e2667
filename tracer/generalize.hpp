// Generalizing a @graph function over the dimensions that vary between its
// calls (TF's `reduce_retracing`, JAX's shape polymorphism
// checked by tracing): docs/graph.md "Dynamic dimensions".
//
// After a function has been traced for kShapeTracesBeforeGeneralizing
// signatures that differ from a new call only in sizes, the call is traced
// twice: at its own sizes, and at "probe" sizes where every varying
// dimension is changed. Both traces are optimized and compared node by
// node. They agree exactly when nothing in the graph depends on those sizes
// except the types' dimensions themselves (and the few size-valued payloads
// recognized below); then the first graph is marked — each dimension that
// took the call's size in one trace and the probe size in the other becomes
// dynamic — and one compiled code serves every later call of that
// generalized signature. Any other difference (an unrolled loop over a
// batch, a slice bound, a reshape computed from a size) means the graph is
// specific to its sizes: the function keeps tracing per shape, and --trace
// says why.
//
// What the comparison cannot see — a decision the trace took by reading a
// size (`x.shape[0] > 100`, `len(x)`) that happened to go the same way at
// both sizes — the caller rules out: a trace that read a dynamic
// dimension's size is not generalized (interp records those reads).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tracer/graph.hpp"
#include "tracer/signature.hpp"

namespace tg::tracer {

enum class DynamicShapes : uint8_t {
    Auto,    // after kShapeTracesBeforeGeneralizing shape-only traces
    Always,  // from the first trace, every dimension of size >= 2 (a testing mode)
    Never,   // one trace per shape
};
inline constexpr int kShapeTracesBeforeGeneralizing = 3;

// Which argument dimensions a call's generalized trace makes dynamic.
struct DynamicPlan {
    Signature signature;              // the call's, with dim_symbols on the dynamic dims
    std::vector<int64_t> sizes;       // per symbol: its size in this call
    std::vector<int64_t> probe;       // per symbol: the size of the second trace
    std::string describe() const;     // "`x` axis 0, `y` axis 0 as ?0"
};

// The plan for a call that missed the cache, or nullopt when it is not to be
// generalized: in Auto mode, the call and at least kShapeTracesBeforeGeneralizing
// of the cached (specialized) signatures differ only in sizes; the
// dimensions whose size varied among them become dynamic. Dimensions that
// were equal in all of them share one symbol. Sizes below 2 never become dynamic.
std::optional<DynamicPlan> plan_generalization(std::span<const Signature* const> cached, const Signature& call,
                                               DynamicShapes mode);

// A tensor argument's shape at the probe sizes (its dynamic dims changed).
stdlib::Shape probe_shape(const ArgDesc& leaf, const DynamicPlan& plan);

// Compares trace `a` (at the plan's sizes) with trace `b` (at its probe
// sizes), both optimized. When they agree up to the sizes, marks `a` —
// dynamic dims of every value, symbol sources, size constants, shape
// attributes — and returns ""; otherwise returns why not ("the graph's
// structure depends on the sizes", "a slice bound on a dynamic dimension", ...)
// and leaves `a` unmarked.
std::string mark_dynamic(Graph& a, const Graph& b, const DynamicPlan& plan);

}  // namespace tg::tracer
