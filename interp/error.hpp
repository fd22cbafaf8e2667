// The one error type of the interpreter (docs/language.md "Errors"): a message, the location of
// the operation that failed, and the tg traceback (innermost frame first).
//
// Building the traceback: an error starts with `here` = where it happened.
// Each time it leaves a function call, the call site appends
// "in <callee> (<here>)" and moves `here` to the call expression; the top
// level appends "in <module> (<here>)".
#pragma once

#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/source.hpp"

namespace tg::interp {

struct TraceEntry {
    std::string function;  // "f", "<lambda>", "<module>"
    lang::SourcePtr source;
    lang::Loc loc;
    bool is_graph = false;  // a @graph function: the line says so
};

// How an error that happens while a @graph function is traced is handled
// (interp/tracing/trace.hpp): a User error is the program's own (the eager error; in
// a branch that may not run it becomes a `raise` node); a Conversion error is
// one docs/graph.md "Static and dynamic" names (a dynamic shape, a loop-carried shape change): tracing
// stops with it; Unsupported means the tracer cannot express what the code
// does, and the call runs eagerly instead (same results, no graph); TooDeep
// is the recursion limit reached while tracing (a recursion on a dynamic
// condition traces both branches forever): Unsupported, and the @graph calls
// nested in the eager run are not traced again either — each would recurse
// as deep again (O(depth²) traced calls before the eager run ends). Limit is
// the host's limit (steps, wall time, interrupt) reached while tracing: it
// ends the run as it is — never a `raise` node of a branch, never a reason
// to run eagerly (a branch that hit the step limit became a raise node and
// the trace went on unrolling, step after step past the limit).
enum class TraceErrorKind : uint8_t { User, Conversion, Unsupported, TooDeep, Limit };

class Error {
public:
    Error(std::string message, lang::SourcePtr source, lang::Loc loc)
        : message_(std::move(message)), source_(std::move(source)), loc_(source_ ? loc : lang::Loc{}),
          here_source_(source_), here_(loc_) {}
    // An error without a location yet (the evaluator adds it, see located()).
    explicit Error(std::string message) : message_(std::move(message)) {}

    const std::string& message() const { return message_; }
    void append_to_message(std::string_view s) { message_ += s; }
    const lang::SourcePtr& source() const { return source_; }
    lang::Loc loc() const { return loc_; }
    bool located() const { return loc_.known(); }
    // A place without a source (a call made from C++: grad calling the
    // function it differentiates) cannot be shown; a caller locates it.
    void locate(const lang::SourcePtr& source, lang::Loc loc) {
        if (loc_.known() || !source) return;
        source_ = source; loc_ = loc; here_source_ = source; here_ = loc;
    }
    const std::vector<TraceEntry>& traceback() const { return traceback_; }
    // Where the traceback continues (the call site of the frame the error is in now).
    const lang::SourcePtr& here_source() const { return here_source_; }
    lang::Loc here() const { return here_; }
    std::vector<std::string> notes;  // extra lines after the caret, before the traceback
    TraceErrorKind trace_kind = TraceErrorKind::User;
    Error& as(TraceErrorKind k) { trace_kind = k; return *this; }

    // The error leaves a call of `function`; the caller continues the
    // traceback at `call_loc` in `call_source`.
    void leave_frame(std::string function, bool is_graph, const lang::SourcePtr& call_source, lang::Loc call_loc) {
        traceback_.push_back({std::move(function), here_source_, here_, is_graph});
        here_source_ = call_source;
        here_ = call_loc;
    }
    // The error reaches the top level of a module.
    void leave_module() { leave_frame("<module>", false, nullptr, {}); }

    // Diagnostic lines "  in f (a.tg:3:5)".
    std::vector<std::string> traceback_lines() const;
    lang::Diagnostic diagnostic() const;
    std::string render() const { return lang::render(diagnostic()); }

private:
    std::string message_;
    lang::SourcePtr source_;
    lang::Loc loc_;
    lang::SourcePtr here_source_;
    lang::Loc here_;
    std::vector<TraceEntry> traceback_;
};

}  // namespace tg::interp
