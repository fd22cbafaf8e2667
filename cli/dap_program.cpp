// The debugged program of `tg dap`: its thread, its stops and their task queue.
#include "cli/dap_program.hpp"

#include <stdexcept>

#include "cli/dap_transport.hpp"

namespace tg::cli {

namespace {

// The interpreter's thread gets the stack the tg command gives scripts in
// sanitizer builds (cli/main.cpp): deep recursion reaches tg's call-depth
// limit, not the end of the stack. Untouched pages cost nothing.
constexpr size_t kStackBytes = size_t{256} << 20;

const char* reason_text(StopReason r) {
    switch (r) {
    case StopReason::Entry: return "entry";
    case StopReason::Breakpoint:
    case StopReason::BreakpointCall: return "breakpoint";
    case StopReason::Step:
    case StopReason::Return: return "step";
    case StopReason::Pause: return "pause";
    case StopReason::Exception:
    case StopReason::Nan: return "exception";
    }
    return "step";
}

}  // namespace

size_t StopView::frame_index(int id) const {
    const int64_t index = static_cast<int64_t>(id) - first_frame_id;
    if (index < 0 || index >= static_cast<int64_t>(stop.frames.size()))
        throw std::runtime_error("no frame with id " + std::to_string(id) +
                                 " (frame ids last until the program resumes)");
    return static_cast<size_t>(index);
}

Program::Program(Options options, LaunchConfig config, BreakpointTable& breakpoints, SendEvent send)
    : config_(std::move(config)), breakpoints_(breakpoints), send_(std::move(send)) {
    options.write_output = [this](std::string_view s) { send_output("stdout", s); };
    options.write_log = [this](std::string_view s) { send_output("console", s); };
    options.argv = config_.args;
    options.interrupt = &interrupt_;
    // stdin is the protocol's: breakpoint() must never start the terminal debugger
    options.on_breakpoint = {};
    interp_ = std::make_unique<Interpreter>(std::move(options));
    if (config_.no_debug) return;
    // here, before the thread runs: request_pause() from the reader thread
    // needs the debugger engine, which attaching makes
    interp_->attach_debugger(this);
    interp_->set_stop_on_entry(config_.stop_on_entry);
}

Program::~Program() {
    if (started_) pthread_join(thread_, nullptr);
    interp_.reset();
}

Program::State Program::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

std::string Program::not_stopped_reason() const {
    switch (state()) {
    case State::NotStarted: return "the program has not started (configurationDone starts it)";
    case State::Running: return "the program is running";
    case State::Stopped: return "";
    case State::Ended: return "the program has ended";
    }
    return "";
}

void Program::start() {
    {
        std::lock_guard lock(mutex_);
        if (state_ != State::NotStarted) return;  // terminated before it started
        state_ = State::Running;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStackBytes);
    auto body = [](void* self) -> void* {
        static_cast<Program*>(self)->run();
        return nullptr;
    };
    started_ = pthread_create(&thread_, &attr, body, this) == 0;
    pthread_attr_destroy(&attr);
    if (!started_) {
        send_output("stderr", "tg dap: cannot start the program's thread\n");
        finish(1);
    }
}

void Program::run() {
    install_fault_handler();  // this thread's alternate signal stack: a crash of tg is reported
    int exit_code = 0;
    try {
        if (!config_.no_debug) breakpoints_.apply(*interp_);
        interp_->run_file(config_.program);
    } catch (const Error& e) {
        exit_code = 1;
        bool quiet;
        {
            std::lock_guard lock(mutex_);
            quiet = terminating_;  // the client ended it: its "terminated" error is no news
        }
        if (!quiet) send_output("stderr", e.rendered());
    } catch (const std::exception& e) {
        exit_code = 1;
        send_output("stderr", std::string("tg dap: ") + e.what() + "\n");
    }
    finish(exit_code);
}

void Program::finish(int exit_code) {
    bool send_terminated;
    {
        std::lock_guard lock(mutex_);
        state_ = State::Ended;
        tasks_.clear();
        send_terminated = !terminated_sent_;
        terminated_sent_ = true;
    }
    send_(event_message("exited", {{"exitCode", exit_code}}));
    if (send_terminated) send_(event_message("terminated"));
    std::lock_guard lock(mutex_);
    thread_done_ = true;
    changed_.notify_all();
}

void Program::send_output(const std::string& category, std::string_view text) {
    if (text.empty()) return;
    send_(event_message("output", {{"category", category}, {"output", std::string(text)}}));
}

void Program::output(std::string_view text) { send_output("console", text); }

Resume Program::stopped(const DebugStop& stop) {
    if (breakpoints_.changed()) breakpoints_.apply(*interp_);
    std::unique_lock lock(mutex_);
    if (terminating_) return Resume::Terminate;
    // the adapter's own pause (breakpoints_changed): the breakpoints are in, go on
    if (stop.reason == StopReason::Pause && !user_pause_) return last_resume_;
    // DAP's stepOut ends in the caller: past the callee's return stop (pdb's
    // `r`), `n` goes on to the caller's next line
    if (stop.reason == StopReason::Return) return Resume::StepOver;
    user_pause_ = false;
    state_ = State::Stopped;
    lock.unlock();
    send_(stopped_event(stop));
    return serve(stop);
}

Resume Program::serve(const DebugStop& stop) {
    const int first_frame_id = next_frame_id_;
    next_frame_id_ += static_cast<int>(stop.frames.size());
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return !tasks_.empty(); });
        Task task = std::move(tasks_.front());
        tasks_.pop_front();
        if (task.resume) {
            variables_.clear();  // references last until the program resumes
            last_resume_ = *task.resume;
            lock.unlock();
            // breakpoints set during the stop hold from the first statement on
            if (breakpoints_.changed()) breakpoints_.apply(*interp_);
            return *task.resume;
        }
        lock.unlock();
        task.run(StopView{stop, variables_, first_frame_id});
        lock.lock();
    }
}

nlohmann::json Program::stopped_event(const DebugStop& stop) const {
    nlohmann::json body = {{"reason", reason_text(stop.reason)}, {"threadId", 1}, {"allThreadsStopped", true}};
    if (stop.reason == StopReason::Breakpoint)
        if (auto b = breakpoints_.client_breakpoint(stop.breakpoint_id)) {
            body["hitBreakpointIds"] = {b->id};
            if (b->function) body["reason"] = "function breakpoint";
        }
    if (stop.reason == StopReason::BreakpointCall) body["description"] = "breakpoint()";
    if (stop.error) {
        body["description"] = stop.error->message();
        body["text"] = stop.error->message();
    }
    return event_message("stopped", body);
}

bool Program::when_stopped(std::function<void(const StopView&)> task) {
    std::lock_guard lock(mutex_);
    if (state_ != State::Stopped) return false;
    tasks_.push_back(Task{std::move(task), std::nullopt});
    changed_.notify_all();
    return true;
}

bool Program::resume(Resume how) {
    std::lock_guard lock(mutex_);
    if (state_ != State::Stopped) return false;
    state_ = State::Running;  // from now on, requests that need a stop are refused
    tasks_.push_back(Task{{}, how});
    changed_.notify_all();
    return true;
}

bool Program::pause() {
    std::lock_guard lock(mutex_);
    if (state_ != State::Running || config_.no_debug) return false;
    user_pause_ = true;
    interp_->request_pause();
    return true;
}

void Program::breakpoints_changed() {
    std::lock_guard lock(mutex_);
    // a step in progress ends soon and takes them then; stopping it here
    // would restart the step from another frame
    if (state_ == State::Running && !config_.no_debug && last_resume_ == Resume::Continue) interp_->request_pause();
}

void Program::terminate() {
    std::unique_lock lock(mutex_);
    terminating_ = true;
    interrupt_ = true;  // also ends a long op, and a program run without the debugger
    switch (state_) {
    case State::NotStarted: {
        state_ = State::Ended;
        thread_done_ = true;
        const bool send_terminated = !terminated_sent_;
        terminated_sent_ = true;
        lock.unlock();
        if (send_terminated) send_(event_message("terminated"));
        return;
    }
    case State::Running:
        if (!config_.no_debug) interp_->request_pause();
        return;
    case State::Stopped:
        state_ = State::Running;
        tasks_.push_back(Task{{}, Resume::Terminate});
        changed_.notify_all();
        return;
    case State::Ended: return;
    }
}

bool Program::wait_ended(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return thread_done_; });
}

}  // namespace tg::cli
