// Frames kept for the next call (interp/values/env_pool.hpp): the one kept
// per call depth is used again, a frame a closure holds is not, and a
// frame's reference stays valid while deeper calls add blocks.
#include <doctest/doctest.h>

#include <memory>

#include "interp/values/env_pool.hpp"

using namespace tg::interp;

TEST_CASE("the frame kept at a call depth is used again, emptied, unless something else holds it") {
    EnvPool pool;
    std::shared_ptr<Env>& first = pool.take_at(3, nullptr, nullptr, 2);
    Env* const made = first.get();
    REQUIRE(made != nullptr);
    CHECK(first->slots.size() == 2);
    first->slots[0] = Value::weak_int(7);
    EnvPool::release(first);
    CHECK(!first->slots[0].defined());  // (its values released at the call's end)

    std::shared_ptr<Env>& again = pool.take_at(3, nullptr, nullptr, 4);
    CHECK(again.get() == made);
    CHECK(again->slots.size() == 4);
    CHECK(&again == &first);

    const std::shared_ptr<Env> closure = again;  // a closure made in the call keeps its frame
    again->slots[1] = Value::weak_int(1);
    EnvPool::release(again);
    CHECK(closure->slots[1].defined());  // the closure's frame keeps its values
    std::shared_ptr<Env>& next = pool.take_at(3, nullptr, nullptr, 4);
    CHECK(next.get() != made);  // a new frame for the next call at that depth
    CHECK(!next->slots[1].defined());
    EnvPool::release(next);
}

TEST_CASE("frames of deep calls: a shallower frame's reference stays valid as blocks are added") {
    EnvPool pool;
    std::shared_ptr<Env>& outer = pool.take_at(0, nullptr, nullptr, 1);
    outer->slots[0] = Value::weak_int(42);
    for (size_t d = 1; d < 300; ++d) pool.take_at(d, nullptr, nullptr, 1)->slots[0] = Value::weak_int(static_cast<int64_t>(d));
    CHECK(outer->slots[0].scalar()->i == 42);
    CHECK(pool.take_at(299, nullptr, nullptr, 1)->slots[0].scalar()->i == 299);  // (not released: still its value)
    CHECK(&pool.take_at(0, nullptr, nullptr, 1) == &outer);
}
