#include "interp/tracing/trace_session.hpp"

#include "tracer/passes.hpp"
#include "tracer/verifier.hpp"

namespace tg::interp {

Evaluator::TraceSession::TraceSession(Evaluator& ev, TraceState& trace, Frame frame, const Setup& setup)
    : ev_(ev),
      trace_(trace),
      frame_(std::move(frame)),
      setup_(setup),
      saved_trace_(ev.rt_.trace),
      saved_frame_(ev.f_),
      saved_depth_(ev.rt_.depth),
      saved_echo_(ev.echo_),
      saved_echo_frame_(ev.echo_frame_),
      saved_max_steps_(ev.rt_.options.max_steps) {
    Runtime& rt = ev_.rt_;
    if (setup_.max_steps > 0) {
        if (saved_max_steps_ <= 0 || saved_max_steps_ > setup_.max_steps) rt.options.max_steps = setup_.max_steps;
        ev_.set_step_limit();
    }
    rt.trace = &trace_;
    if (!trace_.serial) trace_.serial = ++rt.trace_serial;
    ev_.f_ = &frame_;
    frame_.caller = rt.frames;  // on the live call stack (Frame) while it is traced
    frame_.depth = rt.frames ? rt.frames->depth + 1 : 1;
    rt.frames = &frame_;
    if (setup_.nested_call) ++rt.depth;
    if (setup_.echo) {
        ev_.echo_ = setup_.echo;
        ev_.echo_frame_ = &frame_;
    }
    start_ = std::chrono::steady_clock::now();
}

Evaluator::TraceSession::~TraceSession() {
    Runtime& rt = ev_.rt_;
    if (setup_.max_steps > 0) {
        rt.options.max_steps = saved_max_steps_;
        ev_.set_step_limit();
    }
    rt.depth = saved_depth_;
    ev_.f_ = saved_frame_;
    rt.frames = frame_.caller;
    rt.trace = saved_trace_;
    ev_.echo_ = saved_echo_;
    ev_.echo_frame_ = saved_echo_frame_;
    // A closure made while tracing (a lambda in the body) and stored in the
    // traced frame holds that frame: cut the cycle now (the caller's
    // reference is the one counted here).
    try {
        if (frame_.env_owner) rt.cycles.frame_done(*frame_.env_owner, 1);
    } catch (...) {
        // out of memory while collecting: the frame is only kept
    }
}

void Evaluator::TraceSession::finish(std::vector<tracer::ValueId> outputs) {
    using clock = std::chrono::steady_clock;
    outputs.push_back(trace_.token);
    trace_.graph.yield(outputs);
    tracer::verify(trace_.graph);
    const auto verified = clock::now();
    if (trace_.optimize) tracer::optimize(trace_.graph);
    const auto optimized = clock::now();
    times_.trace_ms = std::chrono::duration<double, std::milli>(verified - start_).count();
    times_.optimize_ms = std::chrono::duration<double, std::milli>(optimized - verified).count();
}

}  // namespace tg::interp
