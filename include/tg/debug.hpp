// tg — debugging hooks for hosts (docs/debugging.md "For C++ hosts").
//
// Lua's lua_sethook with pdb's logic built in: a host implements
// tg::Debugger, attaches it to an Interpreter, sets breakpoints, and is
// called on the interpreter's thread when the program stops (a breakpoint,
// breakpoint() in tg code, the end of a step, a pause, an error). While the
// callback runs the program waits: the host reads the frames' variables,
// evaluates code on them, changes them, and returns how the program goes on.
// The tg command's terminal debugger (`tg debug`) and its Debug Adapter
// Protocol server (`tg dap`) are built on these hooks.
//
//   struct Printer : tg::Debugger {
//       tg::Resume stopped(const tg::DebugStop& s) override {
//           std::cout << s.frames[0].line() << ": x = " << s.frames[0].evaluate("x").str() << "\n";
//           return tg::Resume::Continue;
//       }
//   } printer;
//   interp.attach_debugger(&printer);
//   interp.add_breakpoint({.file = "train.tg", .line = 12});
//   interp.run_file("train.tg");
//
// A @graph function runs compiled unless the debugger may stop inside it:
// stepping into it, or a breakpoint among the lines it was traced from; then
// that call runs eagerly, with the values eager execution has. With no
// debugger attached the interpreter pays nothing for these hooks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tg/tg.hpp>

namespace tg {

// One frame of a stopped program, valid only while the callback that
// received it runs.
class DebugFrame {
public:
    std::string function() const;  // "<module>" at a module's top level
    std::string file() const;
    // The text of the frame's source (the file as it was run, or the REPL
    // input): what a debugger lists, also where no file is.
    std::string source_text() const;
    int line() const;  // the statement running now (1-based)
    int col() const;
    bool is_graph() const;     // a frame of a @graph function
    // A @graph call running compiled code (paused inside it): its variables
    // are not there to read; step or set a breakpoint to stop inside it.
    bool is_compiled() const;
    // The frame's defined variables, in the order they were declared: its
    // own, then those of the functions it is nested in. At a module's top
    // level, none (see globals()).
    std::vector<std::pair<std::string, Value>> locals() const;
    std::vector<std::pair<std::string, Value>> globals() const;  // the module's variables, sorted
    // Runs `code` on the frame's variables: an expression (its value is
    // returned) or statements (None is returned); assignments change the
    // frame's variables. Throws tg::Error, the program is not affected.
    Value evaluate(std::string_view code) const;
    // Sets a variable of the frame: a local it has, else a module variable.
    void set(std::string_view name, Value v) const;

private:
    friend struct detail::Access;
    void* frame_ = nullptr;
    void* evaluator_ = nullptr;
};

enum class StopReason {
    Entry,           // before the first statement (set_stop_on_entry)
    Breakpoint,      // a line or function breakpoint
    BreakpointCall,  // breakpoint() in tg code
    Step,            // a step ended
    Return,          // Resume::StepOut: the function is returning (DebugStop::returned)
    Pause,           // request_pause()
    Exception,       // an error, in the frame that raised it (set_stop_on_raise)
    Nan,             // Options::debug_nans found an operation making NaN or inf
};
const char* stop_reason_name(StopReason r);  // "breakpoint", "step", ...

// How the program goes on after a stop: pdb's c, s, n, r, unt and q.
enum class Resume { Continue, StepIn, StepOver, StepOut, Until, Terminate };

struct DebugStop {
    StopReason reason;
    std::vector<DebugFrame> frames;  // innermost first; the last is the module's top level
    int breakpoint_id = 0;           // Breakpoint
    std::optional<Error> error;      // Exception, Nan
    std::optional<Value> returned;   // Return
};

struct BreakpointSpec {
    std::string file;           // a path, or a file name (any folder's file of that name)
    int line = 0;               // 0: a function breakpoint
    std::string function;       // a function breakpoint: stops at the first line of each call
    std::string condition;      // a tg expression on the frame: stops only when true
    std::string hit_condition;  // "3" (the 3rd hit), ">= 3", "% 2" (every 2nd)
    std::string log_message;    // a logpoint: writes it, {expr} interpolated, instead of stopping
    bool temporary = false;     // removed at its first stop
    bool enabled = true;
};
struct BreakpointInfo {
    int id;
    BreakpointSpec spec;
    int hits;
};

// What a host implements. stopped() is required; the rest are optional.
class Debugger {
public:
    virtual ~Debugger() = default;
    virtual Resume stopped(const DebugStop& stop) = 0;
    // A logpoint's message, or an error in a breakpoint's condition.
    virtual void output(std::string_view text) { (void)text; }
    // Every event of the kinds set with Interpreter::set_debug_events.
    enum Event : unsigned { Line = 1, Call = 2, Return = 4, Raise = 8 };
    virtual void event(Event e, const DebugFrame& frame) {
        (void)e;
        (void)frame;
    }
};

}  // namespace tg
