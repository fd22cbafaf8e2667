// Graph passes (docs/graph-ir.md, "Passes"). Each is small, runs on its own,
// returns whether it changed the graph, and leaves a graph the verifier
// accepts. None changes what the graph computes, prints or raises: side
// effects and ops that may raise at run time are never dropped, and rewrites
// must keep dtype, shape and every value (incl. -0.0, NaN, inf) identical.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tracer/graph.hpp"

namespace tg::tracer {

// Evaluates nodes whose operands are all constants with the stdlib kernels
// (results up to kFoldLimit elements); inlines the taken branch of a cond
// whose predicate is constant; drops asserts whose condition is constant true.
// A kernel that raises is left in place, so the error still happens at run time.
bool fold_constants(Graph& g);
inline constexpr int64_t kFoldLimit = 4096;

// Merges equal pure nodes (same op, operands, attributes, constant bits) when
// the first dominates the second.
bool eliminate_common_subexpressions(Graph& g);

// Removes pure nodes whose results are unused (never effects, never nodes
// that may raise, never while loops, which may not terminate), and the
// unused results of cond nodes (with what their branches yield for them).
bool eliminate_dead_code(Graph& g);

// x*1, 1*x, x/1, x-0, x+(-0.0), x+0 (integers), x//1 (integers),
// neg(neg(x)), logical_not(logical_not(x)), astype(x, dtype of x): replaced by
// x, only when the result has exactly x's type (no broadcast or promotion).
bool simplify_algebra(Graph& g);

struct Pass {
    std::string_view name;
    bool (*run)(Graph&);
};
// "fold", "simplify", "cse", "dce", in the default order.
std::span<const Pass> standard_passes();
const Pass* find_pass(std::string_view name);

struct PipelineOptions {
    bool verify = true;                // run the verifier after every pass
    std::vector<std::string> dump_after;  // pass names, or "all"
    // Receives the printed graph after each pass named in dump_after.
    std::function<void(std::string_view pass, const std::string& graph_text)> dump;
    int max_rounds = 4;                // repeat the passes until nothing changes
};

// Runs `passes` in order, repeatedly, until a round changes nothing.
// Returns the number of rounds run.
int run_pipeline(Graph& g, std::span<const Pass> passes, const PipelineOptions& options = {});
inline int optimize(Graph& g, const PipelineOptions& options = {}) {
    return run_pipeline(g, standard_passes(), options);
}

}  // namespace tg::tracer
