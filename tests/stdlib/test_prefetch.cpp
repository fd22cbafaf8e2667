// Loading libraries ahead of need (stdlib/prefetch.hpp): the loads run one
// at a time in the order they were asked for, and wait_for_prefetches waits
// for the loads asked for before it. The loads here record what they see
// instead of loading anything.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "stdlib/prefetch.hpp"

namespace {

// What the loads saw: test state (each test case runs in a process of its own under ctest).
std::mutex seen_mutex;
std::vector<int> order;
std::atomic<int> running{0};
std::atomic<bool> overlapped{false};

template <int N>
void load() {
    if (running.fetch_add(1) != 0) overlapped = true;
    // long enough for a load started too early to overlap it (the check is on order, never on time)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    {
        std::lock_guard lock(seen_mutex);
        order.push_back(N);
    }
    running.fetch_sub(1);
}

}  // namespace

TEST_CASE("prefetch: loads run one at a time, in the order asked for, and wait_for_prefetches waits for them") {
    std::once_flag a, b, c, again;
    tg::stdlib::prefetch_in_background(a, load<1>);
    tg::stdlib::prefetch_in_background(b, load<2>);
    tg::stdlib::prefetch_in_background(c, load<3>);
    tg::stdlib::prefetch_in_background(a, load<4>);  // once per flag: not asked again
    tg::stdlib::wait_for_prefetches();
    {
        std::lock_guard lock(seen_mutex);
        CHECK(order == std::vector<int>{1, 2, 3});
    }
    CHECK_FALSE(overlapped);
    // from another thread too, and with nothing under way it returns at once
    tg::stdlib::prefetch_in_background(again, load<5>);
    std::thread([] { tg::stdlib::wait_for_prefetches(); }).join();
    {
        std::lock_guard lock(seen_mutex);
        CHECK(order == std::vector<int>{1, 2, 3, 5});
    }
    tg::stdlib::wait_for_prefetches();
}
