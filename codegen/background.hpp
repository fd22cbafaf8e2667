// Tiered compilation: a graph whose work is small and bounded starts on the
// reference graph interpreter while LLVM compiles it on a background thread;
// later calls switch to the native code once it is ready. The interpreter and
// the compiled code agree bit for bit (tests/codegen, the differential
// tests), so which one runs a call never changes what a program computes or
// prints; the switch only hides LLVM's ~50 ms from the first call. Such a
// graph does not wait for the JIT session either: when its interpreter has
// none yet (the JIT plugin may still be loading), the worker makes it before
// compiling (codegen/session_slot.hpp), and a first call whose code is in the
// object cache runs on the interpreter too while the worker loads it.
//
// One CompileWorker (one thread, started on first use) per Compiler, so per
// interpreter: no global state.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "codegen/jit_engine.hpp"
#include "codegen/jit_session.hpp"
#include "codegen/session_slot.hpp"
#include "tracer/graph.hpp"

namespace tg::codegen {

// One module to compile in the background. The inputs are fixed when it is
// queued; the results are written by the worker under `mutex`. A job with no
// `entry` only makes the session (Compiler::prefetch).
struct CompileJob {
    enum class State { Queued, Running, Done, Failed };

    std::string ir, entry, cache_key;
    // Where the session comes from: the worker makes it if it is not made
    // yet. Shared, so a detached worker keeps it alive.
    std::shared_ptr<SessionSlot> slot;

    std::mutex mutex;
    State state = State::Queued;
    std::shared_ptr<JitSession> session;  // set when Running
    double session_ms = 0;  // the worker's time making the session (the first compile only)
    bool abandoned = false;  // the owner is gone: the worker releases the module it makes
    std::atomic<bool> finished{false};  // Done or Failed: polled without the lock
    JitSession::ModuleId module = 0;
    void* fn = nullptr;
    ModuleTimes times;
    std::string error;  // when Failed
    bool unavailable = false;  // Failed because the JIT plugin cannot be loaded (JitUnavailable)

    // On the owner's thread, when it no longer wants the result. The compile
    // still completes (so the object cache gets the module, as it would have
    // without tiering) and the worker then releases the module; the owner
    // never waits. Releases the module itself if it was already made.
    void abandon();
};

class CompileWorker {
public:
    CompileWorker() = default;
    // Drops the queued jobs (they stay Queued: their code is never ready)
    // and stops the thread without waiting for the compile it may be running:
    // LLVM cannot be stopped halfway, and a huge module takes seconds, so the
    // thread is detached and finishes that one compile on its own (the
    // object cache still gets the whole file; the job and the session it
    // uses are shared, so they live until it is done). So an interpreter's
    // destruction waits at most kGrace for a compile (docs/embedding.md
    // "Limits"). A build with LLVM as a shared library never detaches
    // (background.cpp says why): there the destructor waits for the compile.
    // (Whether it may detach is the plugin's to say: when the running job is
    // still loading it, the destructor waits for that load first.)
    ~CompileWorker();
    CompileWorker(const CompileWorker&) = delete;
    CompileWorker& operator=(const CompileWorker&) = delete;

    void submit(std::shared_ptr<CompileJob> job);

private:
    // What the thread uses: shared with it, so a detached thread outlives
    // the worker safely.
    struct Shared {
        std::mutex mutex;
        std::condition_variable wake;  // a job queued, or stop
        std::condition_variable idle;  // a job finished
        std::deque<std::shared_ptr<CompileJob>> queue;
        bool stop = false;
        bool running = false;  // a compile is under way
        bool detached = false; // its interpreter is gone; counted in the exit guard (background.cpp)
    };
    static void loop(const std::shared_ptr<Shared>& shared);
    // Makes the session if need be, compiles the job's module and records
    // the outcome in the job.
    static void run_job(CompileJob& job);

    // How long the destructor waits for a running compile before it
    // detaches the thread.
    static constexpr std::chrono::milliseconds kGrace{40};
    std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
    std::thread thread_;
};

// Waits for `job` on the owner's thread while checking the running
// interpreter's limits (stdlib/budget.hpp): a deadline or an interrupt
// abandons the job and throws LimitError. True when it finished.
void wait_for_job(CompileJob& job);

// What the JIT plugin needs to make exit wait for detached compiles
// (background.cpp): handed to it when it is loaded (codegen/jit_plugin.cpp).
ExitWait detached_compiles_exit_wait();

// An upper bound on the element operations one run of g performs (each
// node's result elements; m*k*n for matmul; both branches of a cond), or -1
// when it has no bound: a `while` runs as long as its data says, and a
// value with dynamic dimensions is as large as the call's inputs.
int64_t bounded_work(const tracer::Graph& g);

}  // namespace tg::codegen
