// The reference graph interpreter: runs a graph node by node with the stdlib
// kernels — the semantics codegen must reproduce (it is codegen's oracle, and
// what `--no-jit` runs). Nothing here prints: output goes through `write`.
#pragma once

#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "stdlib/random.hpp"
#include "stdlib/saved_stack.hpp"
#include "stdlib/tensor.hpp"
#include "tracer/graph.hpp"

namespace tg::tracer {

struct RunContext {
    // The interpreter's generator: random nodes draw from it in program order,
    // at the same stream positions as eager. Required only if the graph has random ops.
    stdlib::Rng* rng = nullptr;
    // Receives everything `print` nodes write (each call one whole print, incl. `end`).
    std::function<void(std::string_view)> write;
    // Called before every while-loop iteration; may throw to enforce the
    // host's limits (steps, wall time).
    std::function<void()> on_iteration;
    // Compiled code reports iterations in batches instead (on_iteration is
    // called `count` times when this is not set).
    std::function<void(int64_t count)> on_iterations;
    // Scratch space reused from node to node (an op's input list), so that
    // running a node allocates nothing of its own.
    std::vector<stdlib::Tensor> scratch;
    // What the run saves for its backward loops (autodiff's kStack ops),
    // and the most it held at once.
    stdlib::SavedStack saved;
    // Runs a host function (HostCall nodes) by its HostFn id.
    std::function<std::vector<stdlib::Tensor>(const HostFn&, std::span<const stdlib::Tensor>)> host_call;
};

// Runs `g` with `inputs` bound to its tensor inputs (tokens are implicit) and
// returns the tensor values its body yields (tokens skipped). A graph with
// dynamic dimensions (Graph::dim_symbol) runs at the sizes of its symbols
// read from `inputs` (Graph::symbol_sizes): nothing takes a size from a type.
// Throws RuntimeError (message + the failing node's location) for errors of
// the program: integer division by zero, index out of range, a failed assert.
std::vector<stdlib::Tensor> run_graph(const Graph& g, std::span<const stdlib::Tensor> inputs, RunContext& ctx);

// Runs one node that owns no regions (not cond/while/yield): operands are
// read from `env` (indexed by value id), results written there. The reference
// semantics of one op, for compiled code to call for ops it does not lower
// itself. `sizes`: the run's symbol sizes (Graph::symbol_sizes), which the
// results of Undef nodes with dynamic dimensions take; empty for a graph
// without them. Throws RuntimeError like run_graph.
void run_node(const Graph& g, const Node& node, std::span<stdlib::Tensor> env, RunContext& ctx,
              std::span<const int64_t> sizes = {});

// Renders a print/assert/raise template with the given operand values
// (indexed like the node's operands; tokens are ignored).
std::string render_template(const Template& t, std::span<const stdlib::Tensor> operands);

}  // namespace tg::tracer
