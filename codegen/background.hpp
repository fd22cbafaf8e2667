// Tiered compilation: a graph whose work is small and bounded starts on the
// reference graph interpreter while LLVM compiles it on a background thread;
// later calls switch to the native code once it is ready. The interpreter and
// the compiled code agree bit for bit (tests/codegen, the differential
// tests), so which one runs a call never changes what a program computes or
// prints; the switch only hides LLVM's ~50 ms from the first call.
//
// One CompileWorker (one thread, started on first use) per Compiler, so per
// interpreter: no global state.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "codegen/jit_session.hpp"
#include "tracer/graph.hpp"

namespace tg::codegen {

// One module to compile in the background. The inputs are fixed when it is
// queued; the results are written by the worker under `mutex`.
struct CompileJob {
    enum class State { Queued, Running, Done, Failed };

    std::string ir, entry, cache_key;
    std::shared_ptr<JitSession> session;

    std::mutex mutex;
    State state = State::Queued;
    bool abandoned = false;  // the owner is gone: the worker releases the module it makes
    std::atomic<bool> finished{false};  // Done or Failed: polled without the lock
    JitSession::ModuleId module = 0;
    void* fn = nullptr;
    ModuleTimes times;
    std::string error;  // when Failed

    // On the owner's thread, when it no longer wants the result. The compile
    // still completes (so the object cache gets the module, as it would have
    // without tiering) and the worker then releases the module; the owner
    // never waits. Releases the module itself if it was already made.
    void abandon();
};

class CompileWorker {
public:
    CompileWorker() = default;
    // Drops the queued jobs (they stay Queued: their code is never ready),
    // lets the running one complete (LLVM cannot be stopped halfway; the
    // object cache only ever gets whole files) and stops the thread. So an
    // interpreter's destruction waits for at most one compile, never for
    // compiles nobody will use (issue 21: a script calling a @graph function
    // once waited ~50 ms at exit). The tg command does not wait even for that
    // one: it ends the process without destroying the interpreter
    // (cli/main.cpp).
    ~CompileWorker();
    CompileWorker(const CompileWorker&) = delete;
    CompileWorker& operator=(const CompileWorker&) = delete;

    void submit(std::shared_ptr<CompileJob> job);

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::shared_ptr<CompileJob>> queue_;
    bool stop_ = false;
    std::thread thread_;
};

// An upper bound on the element operations one run of g performs (each
// node's result elements; m*k*n for matmul; both branches of a cond), or -1
// when it has no bound: a `while` runs as long as its data says, and a
// value with dynamic dimensions is as large as the call's inputs.
int64_t bounded_work(const tracer::Graph& g);

}  // namespace tg::codegen
