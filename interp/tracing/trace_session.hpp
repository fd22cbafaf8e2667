// One trace of a body with symbolic inputs: a @graph function's body
// (graph_call.cpp, graph_value.cpp's concrete) or a REPL input traced under
// `:trace on` (trace_input.cpp). Both run the ordinary evaluator with a trace
// installed (interp/tracing/trace.hpp); the session is the one place that installs
// it, gives the body its frame, and puts the evaluator back however the
// trace ends (a result, the program's error, or a construct the tracer
// cannot express), then hands the frame to the cycle collector. finish()
// ends the graph the one way every trace ends: yield, verify, optimize.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "interp/evaluator.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

class Evaluator::TraceSession {
public:
    struct Setup {
        bool nested_call = true;  // the body is a call: one level deeper (the recursion limit)
        // A REPL input: the echo of its expression statements, from its frame.
        const std::function<void(const Value&)>* echo = nullptr;
        // > 0: the run's step limit while tracing, if that is lower (a REPL
        // input's `while True:` must not grow a graph until Ctrl-C).
        int64_t max_steps = 0;
    };

    // `frame` is the body's frame; its env_owner (with the one reference the
    // caller keeps) is handed to the cycle collector at the end.
    TraceSession(Evaluator& ev, TraceState& trace, Frame frame, const Setup& setup);
    ~TraceSession();
    TraceSession(const TraceSession&) = delete;
    TraceSession& operator=(const TraceSession&) = delete;

    Frame& frame() { return frame_; }
    // The graph's results are `outputs`, then the side-effect token; the
    // graph is verified and optimized. Throws what the verifier throws.
    void finish(std::vector<tracer::ValueId> outputs);
    // Set by finish: tracing (from the session's start) and optimizing.
    const TraceTimes& times() const { return times_; }

private:
    Evaluator& ev_;
    TraceState& trace_;
    Frame frame_;
    Setup setup_;
    // what the evaluator had before
    TraceState* saved_trace_;
    Frame* saved_frame_;
    int saved_depth_;
    const std::function<void(const Value&)>* saved_echo_;
    const Frame* saved_echo_frame_;
    int64_t saved_max_steps_;
    std::chrono::steady_clock::time_point start_;
    TraceTimes times_;
};

}  // namespace tg::interp
