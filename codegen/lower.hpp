// Lowering a graph to LLVM IR (text): the compiled form of a concrete
// function. No LLVM type appears here or in lower*.cpp: the IR is text, parsed
// by the JIT session, so this code compiles in seconds.
//
// The function is `i32 NAME(ptr frame)` (codegen/runtime_abi.hpp): inputs are in
// the frame's slots, results are left in the slots of the values the body
// yields; it returns 0, or 1 after a runtime function recorded an error.
//
//   0-d values               LLVM registers (loop-carried ones are phis)
//   element-wise ops         native: on 0-d values inline, on tensors one
//                            loop nest per fused group (no intermediate buffers)
//   cond / while             branches and loops
//   every other op           a call to tg_rt_node: the reference semantics of
//                            that one node, on slots
#pragma once

#include <string>

#include "tracer/graph.hpp"

namespace tg::codegen {

struct LoweringStats {
    int native_nodes = 0;   // lowered to LLVM instructions
    int runtime_nodes = 0;  // run by tg_rt_node
    int fused_groups = 0;   // element-wise loop nests
    int fused_nodes = 0;    // element-wise nodes inside them
    int released = 0;       // tensors released right after their last use
    int fused_reductions = 0;  // sum/mean computed inside their producers' group
    int parallel_loops = 0;    // fused loops and reductions split over the thread pool when large
};

struct Lowered {
    std::string ir;      // the LLVM module
    std::string entry;   // name of the compiled function
    LoweringStats stats;
};

// Throws std::logic_error for a graph it cannot lower (a bug: every op has
// at least the runtime fallback).
// `count_iterations`: loops report iterations to tg_rt_tick (JitOptions).
Lowered lower_graph(const tracer::Graph& g, const std::string& entry, bool count_iterations = true);

}  // namespace tg::codegen
