#include "codegen/background.hpp"

#include <algorithm>
#include <mutex>
#include <cstdlib>
#include <condition_variable>
#include <cstdint>
#include <chrono>
#include <exception>
#include <atomic>

#include "codegen/jit_plugin.hpp"
#include "stdlib/budget.hpp"
#include "stdlib/prefetch.hpp"

namespace tg::codegen {

namespace {

// The compiles still running on detached threads. A process that exits
// while one runs would destroy LLVM's static objects under it, so exit waits
// for them. exit() runs the at-exit functions newest first, and LLVM
// registers the destructors of many function-local statics lazily, on their
// first use inside a compile (SelectionDAG's value-type tables among them):
// one first used by a detached compile after the wait was registered would
// be destroyed before the wait runs, under that compile ("LLVM ERROR: Do not
// know how to split the result of this operator!"). So the JIT plugin's link
// routes every registration of its LLVM through a wrapper
// (codegen/jit_llvm.cpp, codegen/CMakeLists.txt) which, once a compile has
// been detached (`armed`), registers the wait again after it: the wait is
// always the newest and runs first. A plugin that cannot do that (LLVM as a
// shared library, whose registrations it cannot see) says so
// (jit_can_detach); then the worker never detaches and its destructor waits
// for the compile instead.
// A process resource, like the thread pool, never state that changes a
// result; never destroyed (exit uses it). `tg run` ends with _Exit and skips
// it.
struct DetachedCompiles {
    std::mutex mutex;
    std::condition_variable none_left;
    int running = 0;
    std::atomic<bool> armed{false};  // set at the first detach; read by the plugin's every registration
};
DetachedCompiles& detached_compiles() {
    static DetachedCompiles* d = new DetachedCompiles;
    return *d;
}
void wait_for_detached_compiles(void*) {
    DetachedCompiles& d = detached_compiles();
    std::unique_lock lock(d.mutex);
    d.none_left.wait(lock, [&] { return d.running == 0; });
}
void count_detached(int delta) {
    DetachedCompiles& d = detached_compiles();
    std::lock_guard lock(d.mutex);
    d.running += delta;
    if (d.running == 0) d.none_left.notify_all();
}

}  // namespace

ExitWait detached_compiles_exit_wait() { return {&detached_compiles().armed, wait_for_detached_compiles}; }

void CompileJob::abandon() {
    JitSession::ModuleId made = 0;
    {
        std::lock_guard lock(mutex);
        abandoned = true;
        if (state == State::Done) made = module;  // else the worker releases it
    }
    if (made) session->remove(made);
}

CompileWorker::~CompileWorker() {
    std::deque<std::shared_ptr<CompileJob>> dropped;  // never started: nothing waits for them any more
    bool running;
    {
        std::unique_lock lock(shared_->mutex);
        shared_->stop = true;
        dropped.swap(shared_->queue);
        // a compile about to finish is waited for (kGrace): the thread then
        // ends before the interpreter, as it always does when idle
        running = !shared_->idle.wait_for(lock, kGrace, [&] { return !shared_->running; });
    }
    // Asked without the lock: the running job may be loading the plugin,
    // and this waits for that load.
    const bool can_detach = running && jit_can_detach();
    {
        std::unique_lock lock(shared_->mutex);
        if (!can_detach) shared_->idle.wait(lock, [&] { return !shared_->running; });
        running = shared_->running;  // it may have finished meanwhile
        if (running && thread_.joinable()) {
            shared_->detached = true;  // the thread uncounts itself when it ends (loop)
            count_detached(+1);
            if (!detached_compiles().armed.exchange(true)) std::atexit([] { wait_for_detached_compiles(nullptr); });
        }
    }
    shared_->wake.notify_all();
    if (!thread_.joinable()) return;
    if (running) thread_.detach();  // it ends after this compile (see the header)
    else thread_.join();            // idle: it ends at once
}

void CompileWorker::submit(std::shared_ptr<CompileJob> job) {
    {
        std::lock_guard lock(shared_->mutex);
        shared_->queue.push_back(std::move(job));
        if (!thread_.joinable()) thread_ = std::thread([shared = shared_] { loop(shared); });
    }
    shared_->wake.notify_one();
}

void CompileWorker::loop(const std::shared_ptr<Shared>& shared) {
    for (;;) {
        std::shared_ptr<CompileJob> job;
        {
            std::unique_lock lock(shared->mutex);
            shared->running = false;
            shared->idle.notify_all();
            shared->wake.wait(lock, [&] { return shared->stop || !shared->queue.empty(); });
            if (shared->queue.empty()) {  // stopping, and nothing left to do
                if (shared->detached) count_detached(-1);
                return;
            }
            job = std::move(shared->queue.front());
            shared->queue.pop_front();
            shared->running = true;
        }
        run_job(*job);
    }
}

void CompileWorker::run_job(CompileJob& job) {
    std::shared_ptr<JitSession> session;
    {
        std::lock_guard lock(job.mutex);
        job.state = CompileJob::State::Running;
        session = job.session;
    }
    double session_ms = 0;
    JitSession::ModuleId module = 0;
    void* fn = nullptr;
    ModuleTimes times;
    std::string error;
    bool unavailable = false;
    try {
        if (!session) {
            // the libraries asked for before (OpenBLAS, the plugin itself) load first, in their order
            stdlib::wait_for_prefetches();
            session = job.slot->get(&session_ms);  // loads the JIT plugin if no thread has
        }
        if (!job.entry.empty()) {
            module = session->add_ir(job.ir, job.cache_key, &times);
            fn = session->lookup(job.entry);
        }
    } catch (const JitUnavailable& e) {
        error = e.what();
        unavailable = true;
    } catch (const std::exception& e) {
        error = e.what();
    }
    bool release = false;
    {
        std::lock_guard lock(job.mutex);
        job.session = session;
        job.session_ms = session_ms;
        job.module = module;
        job.fn = fn;
        job.times = times;
        job.error = std::move(error);
        job.unavailable = unavailable;
        job.state = job.error.empty() ? CompileJob::State::Done : CompileJob::State::Failed;
        job.finished.store(true, std::memory_order_release);
        release = job.abandoned && module;
    }
    if (release) {
        try {
            session->remove(module);
        } catch (...) {
            // releasing code cannot fail in a way anyone could act on
        }
    }
}

void wait_for_job(CompileJob& job) {
    // ~1 ms between looks: the limits act within a few ms of their time
    while (!job.finished.load(std::memory_order_acquire)) {
        try {
            stdlib::poll_limits();
        } catch (...) {
            job.abandon();
            throw;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}

namespace {
// a + b, saturating: only comparisons against a limit follow
int64_t add_work(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

int64_t region_work(const tracer::Graph& g, tracer::RegionId r) {
    int64_t work = 0;
    for (tracer::NodeId n : g.region(r).nodes) {
        const tracer::Node& node = g.node(n);
        if (node.erased) continue;
        if (node.op == tracer::Op::While) return -1;
        for (tracer::RegionId inner : node.regions) {
            const int64_t w = region_work(g, inner);
            if (w < 0) return -1;
            work = add_work(work, w);
        }
        for (tracer::ValueId v : node.results) {
            if (g.type(v).token) continue;
            if (g.has_dynamic_dims(v)) return -1;  // its size is known only when it runs: not bounded
            int64_t elements = g.tensor_type(v).shape.numel();
            // a contraction (matmul): each result element is a dot product of the inner dim
            if (node.op == tracer::Op::Apply && node.def && node.def->cost == stdlib::Cost::Contraction &&
                !node.operands.empty()) {
                const auto& a = g.tensor_type(node.operands[0]).shape;
                const int64_t k = a.rank() > 0 ? std::max<int64_t>(1, a[a.rank() - 1]) : 1;
                elements = elements > INT64_MAX / k ? INT64_MAX : elements * k;
            }
            work = add_work(work, std::max<int64_t>(1, elements));
        }
    }
    return work;
}
}  // namespace

int64_t bounded_work(const tracer::Graph& g) { return region_work(g, tracer::Graph::kBody); }

}  // namespace tg::codegen
