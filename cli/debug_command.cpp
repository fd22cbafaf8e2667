// `tg debug` and breakpoint() on a terminal (cli/debug_command.hpp).
#include "cli/debug_command.hpp"

#include "cli/terminal_debugger.hpp"

#include <unistd.h>

#include <cstdio>

namespace tg::cli {

int debug_script(const std::string& file, tg::Options opts) {
    opts.write_output = [](std::string_view s) {
        std::fwrite(s.data(), 1, s.size(), stdout);
        std::fflush(stdout);
    };
    opts.write_log = [](std::string_view s) {
        std::fflush(stdout);
        std::fwrite(s.data(), 1, s.size(), stderr);
    };
    int status = 0;
    try {
        tg::Interpreter interp(opts);
        TerminalDebugger debugger(interp, ::isatty(0) != 0, file);
        interp.attach_debugger(&debugger);
        interp.set_stop_on_entry(true);
        interp.set_stop_on_raise(true);
        try {
            interp.run_file(file);
            std::fputs("The program finished.\n", stdout);
        } catch (const tg::Error& e) {
            if (!TerminalDebugger::is_quit(e)) {
                std::fflush(stdout);
                std::fwrite(e.rendered().data(), 1, e.rendered().size(), stderr);
                status = 1;
            }
        }
        interp.attach_debugger(nullptr);
    } catch (const tg::Error& e) {
        std::fwrite(e.rendered().data(), 1, e.rendered().size(), stderr);
        status = 1;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    return status;
}

DebuggerOnBreakpoint::DebuggerOnBreakpoint(bool tty, std::string main_file)
    : state_(std::make_shared<State>(State{tty, std::move(main_file), nullptr, nullptr})) {}

DebuggerOnBreakpoint::~DebuggerOnBreakpoint() { detach(); }

std::function<void()> DebuggerOnBreakpoint::hook() {
    return [state = state_] {
        if (!state->interp) return;
        if (!state->debugger) state->debugger = std::make_unique<TerminalDebugger>(*state->interp, state->tty, state->main_file);
        state->interp->attach_debugger(state->debugger.get());
        state->interp->set_stop_on_raise(true);  // post-mortem, once a debugger is there
    };
}

void DebuggerOnBreakpoint::attach(tg::Interpreter& interp, bool stop_on_entry) {
    state_->interp = &interp;
    hook()();
    interp.set_stop_on_entry(stop_on_entry);
    interp.set_stop_on_raise(true);
}

void DebuggerOnBreakpoint::detach() {
    if (!state_->interp || !state_->debugger) return;
    state_->interp->set_stop_on_entry(false);
    state_->interp->attach_debugger(nullptr);
}

}  // namespace tg::cli
