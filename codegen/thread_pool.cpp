// The process's pool of worker threads for compiled loops (thread_pool.hpp).
#include "codegen/thread_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace tg::codegen {

ThreadPool::ThreadPool(int workers) {
    for (int k = 0; k < workers; ++k) threads_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    work_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void ThreadPool::drain(Job& job, std::unique_lock<std::mutex>& lock) {
    while (job.next < job.count) {
        const int64_t i = job.next++;
        if (job.next == job.count) jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));  // nothing left to hand out
        lock.unlock();
        job.task(job.arg, i);
        lock.lock();
    }
}

ThreadPool::Job* ThreadPool::joinable() const {
    for (Job* j : jobs_)
        if (j->users < j->max_users) return j;
    return nullptr;
}

void ThreadPool::work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        work_cv_.wait(lock, [&] { return stop_ || joinable(); });
        if (stop_) return;
        Job& job = *joinable();
        ++job.users;  // the caller waits for users == 0 before its job (on its stack) goes
        drain(job, lock);
        if (--job.users == 0) done_cv_.notify_all();
    }
}

void ThreadPool::run(Task task, void* arg, int64_t count, int threads) {
    if (count <= 0) return;
    const int64_t helpers = std::min<int64_t>({count - 1, workers(), threads - 1});
    if (helpers <= 0) {
        for (int64_t i = 0; i < count; ++i) task(arg, i);
        return;
    }
    Job job{task, arg, count, static_cast<int>(helpers)};
    std::unique_lock<std::mutex> lock(mutex_);
    jobs_.push_back(&job);
    for (int64_t k = 0; k < helpers; ++k) work_cv_.notify_one();
    drain(job, lock);  // the caller works too; when this returns every task has been handed out
    done_cv_.wait(lock, [&] { return job.users == 0; });
}

ThreadPool& shared_pool() {
    // The one process-wide object of tg (see thread_pool.hpp for why).
    // Function-local: its threads start when the first parallel loop runs.
    static ThreadPool pool(std::max(1u, std::thread::hardware_concurrency()) - 1);
    return pool;
}

int env_threads() {
    const char* s = std::getenv("TG_NUM_THREADS");
    if (!s || !*s) return 0;
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > 4096) return -1;
    return static_cast<int>(v);
}

int default_threads() {
    const int env = env_threads();
    if (env > 0) return env;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace tg::codegen
