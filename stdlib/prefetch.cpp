#include "stdlib/prefetch.hpp"

#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace tg::stdlib {

namespace {

// The loading threads: a process resource, like the libraries they load;
// never destroyed (a thread may end after static destruction). Each load
// has a ticket (`asked` when it was asked for) and runs when `done` reaches
// it.
struct Loaders {
    std::mutex mutex;
    std::condition_variable finished;  // `done` grew
    uint64_t asked = 0, done = 0;
    std::vector<std::thread> threads;
    std::mutex joining;  // held by join_all, which the loading threads never take

    void wait(uint64_t upto) {
        std::unique_lock lock(mutex);
        finished.wait(lock, [&] { return done >= upto; });
    }
    void join_all() {
        std::lock_guard join(joining);  // a second caller waits until the first has joined them
        std::vector<std::thread> mine;
        {
            std::lock_guard lock(mutex);
            mine.swap(threads);
        }
        for (std::thread& t : mine)
            if (t.joinable()) t.join();
    }
};
Loaders& loaders() {
    static Loaders* l = [] {
        auto* made = new Loaders;
        std::atexit([] { loaders().join_all(); });
        return made;
    }();
    return *l;
}

// One load, on its thread: after the ones asked for before it.
void run_load(void (*load)(), uint64_t ticket) {
    Loaders& l = loaders();
    l.wait(ticket);
    try {
        load();
    } catch (const std::exception&) {
        // reported by the first use, located there
    }
    std::lock_guard lock(l.mutex);
    ++l.done;
    l.finished.notify_all();
}

// A library's static constructors, run inside dlopen on the loading thread,
// register their destructors with the process's at-exit list. A process
// that exits meanwhile would run those on its own thread while the loading
// thread still uses what they destroy (the JIT plugin's LLVM: a
// use-after-free at exit). exit() runs the exiting thread's thread_local
// destructors before any at-exit function, so the thread that started a
// load waits for it there — at exit, or when it ends. (The at-exit join
// above covers a process that exits from another thread only partly.)
struct JoinAtThreadEnd {
    ~JoinAtThreadEnd() { loaders().join_all(); }
};

}  // namespace

void prefetch_in_background(std::once_flag& once, void (*load)()) {
    std::call_once(once, [load] {
        Loaders& l = loaders();
        thread_local JoinAtThreadEnd join_at_end;
        (void)join_at_end;
        try {
            std::lock_guard lock(l.mutex);  // the thread waits for its turn under it: ticket first
            l.threads.emplace_back(run_load, load, l.asked);
            ++l.asked;
        } catch (const std::system_error&) {
            // no thread: the first use loads it
        }
    });
}

void wait_for_prefetches() {
    Loaders& l = loaders();
    uint64_t upto;
    {
        std::lock_guard lock(l.mutex);
        upto = l.asked;
    }
    l.wait(upto);
}

}  // namespace tg::stdlib
