// The program `tg dap` debugs (docs/debugging.md "VS Code"): a
// tg::Interpreter running one script on a thread of its own — the
// interpreter's thread — and the tg::Debugger that turns its stops into
// Debug Adapter Protocol events.
//
// While the program is stopped, its thread waits in Debugger::stopped()
// serving a queue of tasks (a stack trace, variables, an evaluation): a
// DebugFrame is valid only there. The reader thread queues them, and ends
// the stop by queueing how the program goes on.
#pragma once

#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <nlohmann/json.hpp>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cli/dap_breakpoints.hpp"
#include "cli/dap_variables.hpp"

namespace tg::cli {

struct LaunchConfig {
    std::string program;  // an absolute path
    std::vector<std::string> args;
    bool stop_on_entry = false;
    bool no_debug = false;  // no debugger attached: no breakpoints, no stops
};

// What a task sees of the stop it runs in.
struct StopView {
    const DebugStop& stop;
    VariableStore& variables;
    int first_frame_id;  // the client's id of stop.frames[0]; the others follow
    // The index in stop.frames of the frame the client calls `id`. Throws
    // std::runtime_error for an id of another stop.
    size_t frame_index(int id) const;
};

class Program final : private Debugger {
public:
    using SendEvent = std::function<void(nlohmann::json)>;
    // Makes the interpreter (not yet running). `breakpoints` and `send`
    // must outlive the Program; `send` is called from both threads.
    Program(Options options, LaunchConfig config, BreakpointTable& breakpoints, SendEvent send);
    ~Program() override;  // joins the thread: call only once wait_ended() said so
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    enum class State { NotStarted, Running, Stopped, Ended };
    State state() const;
    // Why a request that needs a stopped program cannot run now.
    std::string not_stopped_reason() const;

    void start();  // runs the program on the interpreter's thread
    // Runs `task` on the interpreter's thread in the current stop, in the
    // order queued; false when the program is not stopped.
    bool when_stopped(std::function<void(const StopView&)> task);
    // Ends the stop; false when the program is not stopped.
    bool resume(Resume how);
    // The running program stops soon (a stopped event says where); false
    // when it is not running.
    bool pause();
    // The program ends at its next statement (or, in compiled code, within
    // milliseconds), whatever its state; no error report is shown for it.
    void terminate();
    // The client changed a breakpoint: the program takes it at once.
    void breakpoints_changed();
    // Waits at most `timeout` for the program's thread to end.
    bool wait_ended(std::chrono::milliseconds timeout);

private:
    struct Task {
        std::function<void(const StopView&)> run;
        std::optional<Resume> resume;  // set: ends the stop
    };

    Resume stopped(const DebugStop& stop) override;
    void output(std::string_view text) override;
    Resume serve(const DebugStop& stop);  // the stop's task loop
    nlohmann::json stopped_event(const DebugStop& stop) const;
    void send_output(const std::string& category, std::string_view text);
    void run();  // the interpreter's thread
    void finish(int exit_code);

    LaunchConfig config_;
    BreakpointTable& breakpoints_;
    SendEvent send_;
    std::atomic<bool> interrupt_{false};  // Options::interrupt: ends even a long op, or a run without a debugger
    std::unique_ptr<Interpreter> interp_;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    State state_ = State::NotStarted;
    std::deque<Task> tasks_;
    bool terminating_ = false;
    bool user_pause_ = false;  // else a pause is the adapter's own, to apply breakpoints
    bool thread_done_ = false;
    bool terminated_sent_ = false;
    Resume last_resume_ = Resume::Continue;

    // only on the interpreter's thread, while stopped
    VariableStore variables_;
    int next_frame_id_ = 1;  // never reused: a stale frame id is an error, not another frame

    pthread_t thread_{};
    bool started_ = false;
};

}  // namespace tg::cli
