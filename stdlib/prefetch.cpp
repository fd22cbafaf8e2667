#include "stdlib/prefetch.hpp"

#include <cstdlib>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace tg::stdlib {

namespace {

// The loading threads: a process resource, like the libraries they load;
// never destroyed (a thread may end after static destruction).
struct Loaders {
    std::mutex mutex;
    std::vector<std::thread> threads;
    void join_all() {
        std::lock_guard lock(mutex);
        for (std::thread& t : threads)
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
            std::lock_guard lock(l.mutex);
            l.threads.emplace_back([load] {
                try {
                    load();
                } catch (const std::exception&) {
                    // reported by the first use, located there
                }
            });
        } catch (const std::system_error&) {
            // no thread: the first use loads it
        }
    });
}

}  // namespace tg::stdlib
