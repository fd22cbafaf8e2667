// The debugger's engine (docs/debugging.md): breakpoints, stepping, pause,
// post-mortem and the stops they make, behind the evaluator's seams.
//
// One per interpreter that has a debugger attached (Runtime::debug). With
// none attached the evaluator pays nothing: the statement path's only check
// is the step counter's comparison it already makes (Runtime::step_limit),
// which an attached debugger lowers so that every statement reaches
// Evaluator::step_checkpoint, and from there this engine.
//
// A stop calls the client (tg::Debugger in api/, which the terminal
// debugger and `tg dap` implement) on the interpreter's thread; the program
// waits until the client returns how it goes on — Lua's lua_sethook with the
// pdb logic built in.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lang/source.hpp"

namespace tg::interp {

class Evaluator;
class Runtime;
class Error;
struct Frame;
struct FunctionObj;
struct GraphEntry;
class Value;

struct Breakpoint {
    int id = 0;
    std::string file;          // a path, or a file name matching any folder's file of that name
    int line = 0;              // 0: a function breakpoint
    std::string function;      // a function breakpoint: stops at the function's first line
    std::string condition;     // a tg expression on the frame: stops only when true
    std::string hit_condition; // "3" (the 3rd hit), ">= 3", "% 2" (every 2nd)
    std::string log_message;   // a logpoint: writes it ({expr} interpolated) instead of stopping
    bool temporary = false;    // deleted at its first stop (tbreak)
    bool enabled = true;
    int hits = 0;
};

enum class StopReason { Entry, Breakpoint, BreakpointCall, Step, Return, Pause, Exception, Nan };
const char* stop_reason_name(StopReason r);  // "breakpoint", "step", ...

// How the program goes on after a stop.
enum class Resume { Continue, StepIn, StepOver, StepOut, Until, Terminate };

// What the client sees of a stop. The frame is the innermost one stopped in;
// Runtime::frames is the whole live stack.
struct Stop {
    StopReason reason;
    Evaluator* ev;  // null: stopped inside compiled code
    Frame& frame;
    lang::Loc loc;
    int breakpoint = 0;               // the breakpoint's id (Breakpoint)
    const Error* error = nullptr;     // Exception, Nan
    const Value* returned = nullptr;  // Return: the function's result
};

// The host side: told of stops (and, when it asks for them, of every event).
class DebugClient {
public:
    virtual ~DebugClient() = default;
    virtual Resume stopped(const Stop& stop) = 0;
    // A logpoint's message, or an error in a breakpoint's condition.
    virtual void output(std::string_view text) = 0;
    // The Lua-style hooks (events_mask): every line, call, return, raise.
    enum Event : unsigned { Line = 1, Call = 2, Return = 4, Raise = 8 };
    virtual void event(Event, Evaluator&, Frame&, lang::Loc) {}
};

class Debugger {
public:
    explicit Debugger(DebugClient& client) : client_(client) {}

    // ---- settings (the client changes them while the program is stopped,
    // or before it runs; pause_requested from any thread)
    std::vector<Breakpoint> breakpoints;
    int add_breakpoint(Breakpoint b);  // returns its id
    bool remove_breakpoint(int id);
    Breakpoint* find_breakpoint(int id);
    bool stop_on_entry = false;  // stop at the next line event (then it is cleared)
    bool stop_on_raise = false;       // any error, where it is raised (post-mortem)
    std::atomic<bool> pause_requested{false};
    unsigned events_mask = 0;          // DebugClient::Event bits
    // After a Resume::Terminate: every later statement throws this error.
    static constexpr std::string_view kTerminated = "terminated by the debugger";

    // ---- the evaluator's seams
    // A statement (or a loop's next iteration) at `loc` of frame `f` is about to run.
    void line(Evaluator& ev, Frame& f, lang::Loc loc);
    void call(Evaluator& ev, Frame& f);
    void returned(Evaluator& ev, Frame& f, const Value& result);
    // Error `e` leaves frame `f`, the innermost one it passes (f alive): the
    // post-mortem stop, once per error.
    void raised(Evaluator& ev, Frame& f, const Error& e);
    // A pause request seen where the limits are polled (compiled code among
    // them): stops in the innermost frame, unless tracing (then later).
    void paused(Runtime& rt);
    // breakpoint() in tg code.
    void breakpoint_call(Evaluator& ev, Frame& f, lang::Loc loc);
    // --debug-nans found an op making NaN or inf at loc.
    void nan_found(Evaluator& ev, Frame& f, lang::Loc loc, const Error& e);
    // While a @graph call is traced, its statement at `loc` is traced: the
    // line is recorded in `lines`. A conditional breakpoint there is compiled
    // in — an assert that the condition is false, whose failure
    // (is_condition_hit) replays the call eagerly to stop — and its id
    // recorded in `asserted`; any other breakpoint there throws an
    // Unsupported trace error, so the call runs eagerly instead.
    void traced_line(Evaluator& ev, Frame& f, lang::Loc loc, std::vector<std::pair<const lang::Source*, uint32_t>>& lines,
                     std::vector<int>& asserted);
    // The error of a compiled-in condition that held.
    static bool is_condition_hit(const Error& e);
    // Whether this @graph call must run eagerly to stop inside it: stepping
    // into it, a function breakpoint on it, or a line breakpoint among the
    // lines its graph was traced from (entry null: before tracing).
    bool run_eagerly(const FunctionObj& fn, const GraphEntry* entry);
    // Whether an error of compiled code must be replayed eagerly, to stop in
    // the frame that raises it with eager's values.
    bool replays_errors() const { return stop_on_raise; }
    // The debugger's own evaluations (conditions, p EXPR) make no stops.
    bool busy() const { return busy_; }
    bool terminated() const { return terminated_; }
    // A new run under this debugger: no step in progress, not terminated.
    void reset_run();

private:
    DebugClient& client_;
    int next_id_ = 1;
    Resume mode_ = Resume::Continue;
    int mode_depth_ = 0;        // the depth of the frame the last stop was in
    uint32_t mode_line_ = 0;    // Until: a line after this one
    bool busy_ = false;
    bool terminated_ = false;
    // the last line event (a loop's first iteration repeats its statement's)
    const Frame* last_frame_ = nullptr;
    lang::Loc last_loc_{};
    int64_t last_steps_ = -1;
    const Error* last_raised_ = nullptr;
    std::map<const lang::Source*, std::string> canonical_;  // source name -> absolute path

    bool file_matches(const Breakpoint& b, const lang::Source& s);
    // Whether line breakpoint b is at `line` of s (moved down to a statement).
    bool at_line(const Breakpoint& b, const lang::Source& s, uint32_t line);
    // The breakpoint at (source, line) that fires now (condition, hit count), or null.
    Breakpoint* breakpoint_at(Evaluator& ev, Frame& f, const lang::Source& s, uint32_t line);
    bool condition_holds(Evaluator& ev, Frame& f, Breakpoint& b);
    void stop(const Stop& s);
};

int frame_depth(const Frame& f);

}  // namespace tg::interp
