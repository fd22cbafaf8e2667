// One `tg dap` session: the requests of the Debug Adapter Protocol, read on
// the reader thread and answered there, or — when they need the stopped
// program's frames — on the interpreter's thread (cli/dap_program.hpp).
// dap.cpp has the session's course (initialize, launch, breakpoints,
// running and stopping); dap_inspect.cpp the requests that look into a
// stopped program (stack, scopes, variables, evaluate).
#pragma once

#include <tg/tg.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "cli/dap_breakpoints.hpp"
#include "cli/dap_program.hpp"
#include "cli/dap_transport.hpp"

namespace tg::cli {

// A request that cannot be served: its error response says `what()`.
struct RequestError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Session {
public:
    Session(Options base, Transport& transport) : base_(std::move(base)), transport_(transport) {}
    ~Session();

    // Handles one message's text; false once the session is over (disconnect).
    bool handle(const std::string& text);
    // The session is over (disconnect, or the end of input): ends the
    // program. False when its thread did not end in time (one long op).
    bool end();

private:
    using Args = nlohmann::json;
    using Handler = nlohmann::json (Session::*)(const Args& args);

    // ---- dap.cpp: the session's course. Each returns the response's body
    // (null: none) or throws RequestError.
    nlohmann::json initialize(const Args& a);
    nlohmann::json launch(const Args& a);
    nlohmann::json set_breakpoints(const Args& a);
    nlohmann::json set_function_breakpoints(const Args& a);
    nlohmann::json set_exception_breakpoints(const Args& a);
    nlohmann::json configuration_done(const Args& a);
    nlohmann::json continue_(const Args& a);
    nlohmann::json next(const Args& a);
    nlohmann::json step_in(const Args& a);
    nlohmann::json step_out(const Args& a);
    nlohmann::json pause(const Args& a);
    nlohmann::json terminate(const Args& a);
    nlohmann::json disconnect(const Args& a);
    nlohmann::json resume(const Args& a, Resume how);
    Program& program();  // the launched program, else RequestError

    // ---- dap_inspect.cpp: the stopped program. These queue a task on the
    // interpreter's thread, which answers; they return no body themselves.
    nlohmann::json threads(const Args& a);
    nlohmann::json stack_trace(const Args& a);
    nlohmann::json scopes(const Args& a);
    nlohmann::json variables(const Args& a);
    nlohmann::json evaluate(const Args& a);
    nlohmann::json set_variable(const Args& a);
    nlohmann::json exception_info(const Args& a);
    // Answers the current request from the stop: `body` runs on the
    // interpreter's thread. RequestError when the program is not stopped.
    void on_stop(std::function<nlohmann::json(const StopView&)> body);

    void dispatch(const nlohmann::json& request);
    // The client's line and column numbers from tg's (1-based) and back.
    int client_line(int line) const { return line - 1 + line_base_; }
    int tg_line(int line) const { return line + 1 - line_base_; }

    Options base_;
    Transport& transport_;
    BreakpointTable breakpoints_;
    std::unique_ptr<Program> program_;
    bool initialized_ = false;
    bool configured_ = false;  // configurationDone came
    bool done_ = false;
    int line_base_ = 1;         // linesStartAt1
    int column_base_ = 1;       // columnsStartAt1
    nlohmann::json request_;    // the request being handled (its answer may come later, from a task)
    bool answered_later_ = false;
    // What follows the response: the initialized event after initialize's,
    // the program going on after continue's (its next stopped event must not
    // overtake the response).
    std::function<void()> after_response_;
};

// Argument readers: a missing optional argument gives `fallback`; a wrong
// type (or a missing required one) is a RequestError naming the argument.
std::string string_arg(const nlohmann::json& a, const char* name, const std::string* fallback = nullptr);
int64_t int_arg(const nlohmann::json& a, const char* name, const int64_t* fallback = nullptr);
bool bool_arg(const nlohmann::json& a, const char* name, bool fallback);

}  // namespace tg::cli
