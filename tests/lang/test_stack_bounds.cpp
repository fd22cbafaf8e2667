// lang/stack_bounds: the main thread's bounds (computed without
// /proc/self/maps) and a worker thread's (from pthread) contain the stack
// the code is running on.
#include <doctest/doctest.h>

#include <thread>

#include "lang/stack_bounds.hpp"

namespace {
void check_here() {
    const tg::lang::StackBounds& b = tg::lang::stack_bounds();
    char probe;
    REQUIRE(b.low != nullptr);
    CHECK(b.size > 64 * 1024);
    CHECK(&probe > b.low);
    CHECK(&probe < b.low + b.size + (1 << 20));  // the main thread's top holds argv and the environment
    CHECK(&tg::lang::stack_bounds() == &b);       // cached per thread
}
}  // namespace

TEST_CASE("stack bounds contain the running stack, on the main thread and on another") {
    check_here();
    const char* main_low = tg::lang::stack_bounds().low;
    const char* other_low = nullptr;
    std::thread t([&] {
        check_here();
        other_low = tg::lang::stack_bounds().low;
    });
    t.join();
    CHECK(other_low != main_low);
}
