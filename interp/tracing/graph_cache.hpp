// What interp keeps per trace of a @graph function (docs/graph.md "Signatures and the cache"): the graph,
// the result's skeleton, compiled code. The cache of them — lookup by
// signature and captured-variable guards, retrace reasons — is
// tracer::TraceCache (tracer/trace_cache.hpp).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/compiler.hpp"
#include "interp/tracing/trace.hpp"
#include "tracer/graph.hpp"
#include "tracer/signature.hpp"
#include "tracer/trace_cache.hpp"

namespace tg::interp {

struct GraphEntry {
    tracer::Signature signature;   // arguments, and captured variables (for messages)
    std::vector<Capture> captures;  // guards: must all hold for the entry to apply
    std::unique_ptr<tracer::Graph> graph;
    // The function's result with its symbolic leaves standing for the graph's
    // outputs, in order (concrete leaves are returned as they are).
    Value result;
    const std::vector<lang::Param>* params = nullptr;
    std::vector<bool> static_params;  // @graph(static=...): not inputs of the graph
    int number = 0;                 // 1, 2, ...: the function's n-th trace (for dumps)
    // Native code of `graph` (null with --no-jit); released with the entry.
    std::unique_ptr<codegen::CompiledGraph> compiled;
    // The source lines the graph was traced from, when a debugger was
    // attached then (interp/debug/debugger.hpp); else not known.
    std::vector<std::pair<const lang::Source*, uint32_t>> debug_lines;
    bool debug_lines_known = false;
    // Conditional breakpoints the graph checks (an assert): when one holds,
    // the call is replayed eagerly to stop there. Without a debugger, a graph
    // with such checks runs eagerly instead.
    std::vector<int> debug_asserted;
};

struct GraphCache : tracer::TraceCache<GraphEntry> {
    // The trace caches of functions derived from this @graph function:
    // `grad(f, argnums, has_aux, loop_checkpoint)` and `value_and_grad(...)` of it, by a key
    // naming the transformation (interp/autodiff/autodiff.cpp). Only the caches: a
    // derived function holds f's environment, which may hold f (a cycle).
    std::map<std::string, std::shared_ptr<GraphCache>> derived;
    // Why this function's traces stay specific to their sizes, once a
    // generalization (tracer/generalize.hpp) failed; empty: it may generalize.
    std::string not_generalized;
};

}  // namespace tg::interp
