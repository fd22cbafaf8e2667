// The worker threads that compiled loops split their iterations over
// (codegen/runtime_abi.cpp, tg_rt_parallel and tg_rt_pairwise).
//
// One pool per process (shared_pool), shared by every interpreter and every
// tg::Graph: it is a resource like the machine's cores, not state that
// changes results — how a loop is split never changes what it computes
// (the chunks of an element-wise loop write disjoint elements, and a
// reduction's partial results are combined in a fixed order that does not
// depend on the number of threads). Giving each interpreter its own pool
// would put N interpreters' threads on the same cores; one pool keeps the
// number of running threads at the machine's size.
//
// How many threads one call may use is per interpreter (Options::threads,
// `tg run --threads N`, TG_NUM_THREADS): it sets how many chunks a loop is
// split into; the pool runs them on the caller and its workers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace tg::codegen {

class ThreadPool {
public:
    // A pool with `workers` threads besides the callers (0: everything runs
    // on the caller). Threads start here and stop in the destructor.
    explicit ThreadPool(int workers);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int workers() const { return static_cast<int>(threads_.size()); }

    // Runs task(arg, i) for every i in [0, count), on the calling thread and
    // at most `threads - 1` idle workers, and returns when all have finished.
    // Tasks are handed out one at a time, so a worker that starts late (a
    // busy machine) takes fewer and the caller more. Safe to call from
    // several threads at once (their jobs are served in order). `task` must
    // not throw; it must not call run() itself.
    using Task = void (*)(void* arg, int64_t i);
    void run(Task task, void* arg, int64_t count, int threads);

private:
    struct Job {
        Task task;
        void* arg;
        int64_t count;
        int max_users;      // workers that may join (the caller is not one)
        int64_t next = 0;   // the next task index to hand out (under mutex_)
        int users = 0;      // workers inside drain() (under mutex_)
    };
    // Runs the job's tasks until none are left to hand out. Called with the
    // lock held; releases it while a task runs.
    void drain(Job& job, std::unique_lock<std::mutex>& lock);
    // The oldest job a worker may join, or null (under mutex_).
    Job* joinable() const;
    void work();

    std::mutex mutex_;
    std::condition_variable work_cv_;  // a job was queued, or stop
    std::condition_variable done_cv_;  // a worker left a job
    std::deque<Job*> jobs_;            // jobs with tasks not yet handed out, oldest first
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

// The process's pool: machine threads - 1 workers (the caller is the
// other), started on first use.
ThreadPool& shared_pool();

// Threads a compiled loop may use when the host does not say: TG_NUM_THREADS
// if it is a positive integer, else the machine's hardware threads.
int default_threads();

// TG_NUM_THREADS parsed: its value, 0 when unset, -1 when it is not a
// positive integer (the tg command reports that).
int env_threads();

}  // namespace tg::codegen
