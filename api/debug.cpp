// The debugging hooks of include/tg/debug.hpp over the engine in
// interp/debug/ (docs/debugging.md "For C++ hosts").
#include <tg/debug.hpp>

#include <algorithm>

#include "api/interpreter_impl.hpp"
#include "api/tensor.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/evaluator.hpp"

namespace tg {

namespace {
interp::Frame& frame_of(void* p) { return *static_cast<interp::Frame*>(p); }
interp::Runtime& runtime_of(void* p) { return *static_cast<interp::Runtime*>(p); }
}  // namespace

DebugFrame detail::Access::debug_frame(void* frame, void* runtime) {
    DebugFrame f;
    f.frame_ = frame;
    f.evaluator_ = runtime;
    return f;
}

std::string DebugFrame::function() const {
    const interp::Frame& f = frame_of(frame_);
    return f.function ? *f.function : "<module>";
}
std::string DebugFrame::file() const {
    const interp::Frame& f = frame_of(frame_);
    return f.source && *f.source ? (*f.source)->name() : "";
}
std::string DebugFrame::source_text() const {
    const interp::Frame& f = frame_of(frame_);
    return f.source && *f.source ? (*f.source)->text() : "";
}
int DebugFrame::line() const { return static_cast<int>(frame_of(frame_).loc.line); }
int DebugFrame::col() const { return static_cast<int>(frame_of(frame_).loc.col); }
bool DebugFrame::is_graph() const { return frame_of(frame_).is_graph; }
bool DebugFrame::is_compiled() const {
    const interp::Frame& f = frame_of(frame_);
    return f.is_graph && !f.env && f.function;
}

std::vector<std::pair<std::string, Value>> DebugFrame::locals() const {
    std::vector<std::pair<std::string, Value>> out;
    for (const auto& [name, slot] : interp::visible_variables(frame_of(frame_).env))
        out.emplace_back(name, detail::Access::wrap(*slot));
    return out;
}

std::vector<std::pair<std::string, Value>> DebugFrame::globals() const {
    const interp::ModuleState& m = *frame_of(frame_).module;
    std::vector<std::pair<std::string, Value>> out;
    for (const auto& [name, slot] : m.index)
        if (m.globals[static_cast<size_t>(slot)].defined()) out.emplace_back(name, detail::Access::wrap(m.globals[static_cast<size_t>(slot)]));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
}

Value DebugFrame::evaluate(std::string_view code) const {
    interp::Frame& f = frame_of(frame_);
    if (is_compiled())
        throw detail::plain_error("`" + function() +
                                  "` is running compiled code: its variables are not there to read (step into the "
                                  "call, or set a breakpoint in it, to stop with them)");
    interp::Runtime& rt = runtime_of(evaluator_);
    return detail::guarded([&] { return detail::Access::wrap(interp::Evaluator(rt).run_in_frame(f, code, "<debugger>")); });
}

void DebugFrame::set(std::string_view name, Value v) const {
    interp::Frame& f = frame_of(frame_);
    for (auto& [n, slot] : interp::visible_variables(f.env))
        if (n == name) {
            *slot = detail::Access::unwrap(v);
            return;
        }
    interp::ModuleState& m = *f.module;
    m.globals[static_cast<size_t>(m.slot_of(std::string(name)))] = detail::Access::unwrap(v);
}

const char* stop_reason_name(StopReason r) { return interp::stop_reason_name(static_cast<interp::StopReason>(r)); }

// ---------------------------------------------------------------- the bridge

// The engine's client: turns its stops into DebugStop for the host.
class DebugBridge : public interp::DebugClient {
public:
    DebugBridge(interp::Runtime& rt, Debugger& host) : rt_(rt), host_(host) {}

    interp::Resume stopped(const interp::Stop& s) override {
        DebugStop d;
        d.reason = static_cast<StopReason>(s.reason);
        for (interp::Frame* f = &s.frame; f; f = f->caller)
            d.frames.push_back(detail::Access::debug_frame(f, &rt_));
        d.breakpoint_id = s.breakpoint;
        if (s.error) d.error = detail::to_public_error(*s.error);
        if (s.returned) d.returned = detail::Access::wrap(*s.returned);
        return static_cast<interp::Resume>(host_.stopped(d));
    }
    void output(std::string_view text) override { host_.output(text); }
    void event(Event e, interp::Evaluator&, interp::Frame& f, lang::Loc) override {
        host_.event(static_cast<Debugger::Event>(e), detail::Access::debug_frame(&f, &rt_));
    }

private:
    interp::Runtime& rt_;
    Debugger& host_;
};

// ---------------------------------------------------------------- Interpreter

interp::Debugger& Interpreter::Impl::debugger() {
    if (!engine) engine = std::make_unique<interp::Debugger>(bridge_slot);
    return *engine;
}

void Interpreter::attach_debugger(Debugger* d) {
    if (!d) {
        impl_->rt.attach_debugger(nullptr);
        impl_->bridge_slot.to = nullptr;
        impl_->bridge.reset();
        return;
    }
    impl_->bridge = std::make_unique<DebugBridge>(impl_->rt, *d);
    impl_->bridge_slot.to = impl_->bridge.get();
    impl_->debugger().reset_run();
    impl_->rt.attach_debugger(&impl_->debugger());
}

namespace {
interp::Breakpoint to_internal(BreakpointSpec s) {
    interp::Breakpoint b;
    b.file = std::move(s.file);
    b.line = s.line;
    b.function = std::move(s.function);
    b.condition = std::move(s.condition);
    b.hit_condition = std::move(s.hit_condition);
    b.log_message = std::move(s.log_message);
    b.temporary = s.temporary;
    b.enabled = s.enabled;
    return b;
}
}  // namespace

int Interpreter::add_breakpoint(BreakpointSpec b) { return impl_->debugger().add_breakpoint(to_internal(std::move(b))); }
bool Interpreter::remove_breakpoint(int id) { return impl_->debugger().remove_breakpoint(id); }
void Interpreter::clear_breakpoints() { impl_->debugger().breakpoints.clear(); }
bool Interpreter::enable_breakpoint(int id, bool on) {
    interp::Breakpoint* b = impl_->debugger().find_breakpoint(id);
    if (b) b->enabled = on;
    return b != nullptr;
}
std::vector<BreakpointInfo> Interpreter::breakpoints() const {
    std::vector<BreakpointInfo> out;
    for (const interp::Breakpoint& b : impl_->debugger().breakpoints)
        out.push_back({b.id, {b.file, b.line, b.function, b.condition, b.hit_condition, b.log_message, b.temporary, b.enabled}, b.hits});
    return out;
}
void Interpreter::set_stop_on_entry(bool on) { impl_->debugger().stop_on_entry = on; }
void Interpreter::set_stop_on_raise(bool on) { impl_->debugger().stop_on_raise = on; }
void Interpreter::set_debug_events(unsigned mask) { impl_->debugger().events_mask = mask; }
void Interpreter::request_pause() {
    if (interp::Debugger* d = impl_->engine.get()) d->pause_requested = true;
}

}  // namespace tg
