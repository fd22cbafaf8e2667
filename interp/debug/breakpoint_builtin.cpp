// breakpoint(): Python's builtin (docs/debugging.md "breakpoint()").
#include "interp/builtins/builtins.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/evaluator.hpp"

namespace tg::interp {

namespace {
Value breakpoint_call(Evaluator& ev, const CallArgs& a, const lang::SourcePtr&) {
    if (!a.positional.empty() || !a.keywords.empty()) throw Error("breakpoint: takes no arguments");
    Runtime& rt = ev.runtime();
    if (!rt.options.breakpoints) return Value::none();  // TG_BREAKPOINT=0, --no-breakpoints
    // Traced code cannot stop: a call that would stop runs eagerly instead,
    // and stops there with eager's values. With no debugger to be had, a
    // graph keeps no trace of it.
    if (rt.trace) {
        if (rt.debug || rt.options.on_breakpoint)
            throw Error("breakpoint(): the call runs eagerly to stop there").as(TraceErrorKind::Unsupported);
        return Value::none();
    }
    if (!rt.debug && rt.options.on_breakpoint) rt.options.on_breakpoint();
    if (rt.debug && rt.frames) rt.debug->breakpoint_call(ev, *rt.frames, a.loc);
    return Value::none();
}
}  // namespace

void add_debug_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto b = std::make_shared<BuiltinObj>(BuiltinObj{"breakpoint", nullptr});
    b->caller = breakpoint_call;
    out.emplace_back("breakpoint", Value::builtin(std::move(b)));
}

}  // namespace tg::interp
