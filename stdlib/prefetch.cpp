#include "stdlib/prefetch.hpp"

#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace tg::stdlib {

void prefetch_in_background(std::once_flag& once, void (*load)()) {
    std::call_once(once, [load] {
        struct Loaders {
            std::mutex mutex;
            std::vector<std::thread> threads;
            ~Loaders() {
                for (std::thread& t : threads) t.join();
            }
        };
        static Loaders loaders;  // a process resource, like the libraries they load
        try {
            std::lock_guard lock(loaders.mutex);
            loaders.threads.emplace_back([load] {
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
