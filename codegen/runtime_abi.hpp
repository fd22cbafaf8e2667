// The runtime ABI of compiled graphs: the only way compiled code calls back
// into tg. A compiled graph is `i32 fn(ptr ctx)`; `ctx` is a CallFrame. The
// C functions below (named tg_rt_*) are defined as absolute symbols in the
// JIT session; they never throw through compiled code: an error is stored in
// the frame and the function returns nonzero, and compiled code returns 1.
//
// Values that compiled code does not keep in registers (tensors with
// elements, and operands/results of ops it does not lower itself) live in
// the frame's slots, one per graph value id, exactly like the reference
// interpreter's environment.
#pragma once

#include <cstdint>
#include <exception>
#include <vector>

#include "codegen/jit_session.hpp"
#include "stdlib/tensor.hpp"
#include "tracer/graph_interpreter.hpp"

namespace tg::codegen {

// Per-call state handed to compiled code.
struct CallFrame {
    const tracer::Graph* graph = nullptr;
    tracer::RunContext* run = nullptr;
    std::vector<stdlib::Tensor> slots;  // one per value id
    std::exception_ptr error;           // set when a runtime function fails
    int64_t tick_ns = 0;                // when loops last reported iterations (tg_rt_tick)
    int threads = 1;                    // chunks a large fused loop may be split into (tg_rt_parallel)
    // The sizes of the graph's dimension symbols in this call (Graph::symbol_sizes,
    // read from the inputs once per call); empty for a graph without dynamic dimensions.
    std::vector<int64_t> sizes;
};

// Compiled code passes tg_rt_error the stdlib::BinaryKind whose integer
// check failed (stdlib::int_check): the error is that check's message, eager's.

// Every runtime symbol compiled code may call, with its address.
const std::vector<RuntimeSymbol>& runtime_symbols();

}  // namespace tg::codegen
