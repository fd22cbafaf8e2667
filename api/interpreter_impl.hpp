// What the parts of tg::Interpreter's implementation share (api/interpreter.cpp,
// api/debug.cpp): its state, and the conversion of the interpreter's errors
// into tg::Error. Not installed.
#pragma once

#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <memory>

#include "api/tensor.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"

namespace tg {

// The debugger engine's client while no host debugger is attached: stops
// go on at once (the engine exists before, to hold breakpoints).
struct DebugClientSlot : interp::DebugClient {
    interp::DebugClient* to = nullptr;
    interp::Resume stopped(const interp::Stop& s) override { return to ? to->stopped(s) : interp::Resume::Continue; }
    void output(std::string_view text) override {
        if (to) to->output(text);
    }
    void event(Event e, interp::Evaluator& ev, interp::Frame& f, lang::Loc loc) override {
        if (to) to->event(e, ev, f, loc);
    }
};

struct Interpreter::Impl {
    explicit Impl(interp::Options o) : rt(std::move(o)) {}
    ~Impl() { rt.attach_debugger(nullptr); }
    interp::Runtime rt;
    // debugging (api/debug.cpp): the engine, made on first use
    DebugClientSlot bridge_slot;
    std::unique_ptr<interp::DebugClient> bridge;
    std::unique_ptr<interp::Debugger> engine;
    interp::Debugger& debugger();
};

namespace detail {

Error to_public_error(const interp::Error& e);

// Runs `fn`, turning every exception into tg::Error: the interpreter's own
// errors here, the library's in guarded_plain.
template <class F>
auto guarded(F&& fn) -> decltype(fn()) {
    try {
        return guarded_plain(fn);
    } catch (const interp::Error& e) {
        throw to_public_error(e);
    } catch (const Error&) {
        throw;
    } catch (...) {
        throw plain_error("internal error: unknown exception");
    }
}

}  // namespace detail
}  // namespace tg
