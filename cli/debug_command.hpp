// `tg debug FILE [ARGS...]`, and breakpoint() stopping `tg run` and the REPL
// on a terminal (docs/debugging.md "tg debug").
#pragma once

#include <tg/tg.hpp>

#include <memory>
#include <string>
#include <vector>

namespace tg::cli {

class TerminalDebugger;

// Runs FILE under the terminal debugger, stopped before its first line, and
// at an uncaught error in the frame that raised it (post-mortem). Returns
// the exit status: 0 when the program finished or `q` ended it, 1 when it
// failed.
int debug_script(const std::string& file, tg::Options opts);

// A terminal debugger attached at the first breakpoint() (Options::on_breakpoint):
// make one, set options.on_breakpoint = hook(), and give it the interpreter
// once it exists.
class DebuggerOnBreakpoint {
public:
    DebuggerOnBreakpoint(bool tty, std::string main_file);
    ~DebuggerOnBreakpoint();
    std::function<void()> hook();
    void set_interpreter(tg::Interpreter* interp) { state_->interp = interp; }
    // Attaches it now (the REPL's :debug), stopping at the next statement.
    void attach(tg::Interpreter& interp, bool stop_on_entry);
    // Detaches the debugger after a REPL input, so the next runs at full speed.
    void detach();

private:
    struct State {
        bool tty;
        std::string main_file;
        tg::Interpreter* interp = nullptr;
        std::unique_ptr<TerminalDebugger> debugger;
    };
    std::shared_ptr<State> state_;
};

}  // namespace tg::cli
