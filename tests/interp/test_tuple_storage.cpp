// A tuple's storage (TupleObj in interp/values/value.hpp): up to two items
// inside the object (a pair is one allocation), more on the heap; either way
// the items in order, their reference counts right, the memory limit
// charged per item and given back.
#include <doctest/doctest.h>

#include <stdexcept>

#include "interp/values/value.hpp"

using namespace tg::interp;
using tg::stdlib::Budget;

namespace {

long uses(const Value& v) { return v.ref().uses; }

std::vector<Value> ints(size_t n) {
    std::vector<Value> xs;
    for (size_t i = 0; i < n; ++i) xs.push_back(Value::from_int(static_cast<int64_t>(i) * 10));
    return xs;
}

// The items lie inside the tuple's object (not in an allocation of their own).
bool held_inline(const Value& t) {
    const auto* obj = static_cast<const char*>(t.ref().object);
    const auto* first = reinterpret_cast<const char*>(t.items().data());
    return first >= obj && first < obj + sizeof(TupleObj);
}

}  // namespace

TEST_CASE("tuples of every small size hold their items in order, pairs inside the object") {
    for (size_t n = 0; n <= 5; ++n) {
        CAPTURE(n);
        const Value made = Value::tuple(ints(n));
        const Value filled = Value::tuple_filled(n, [&](TupleItems& xs) {
            for (Value& x : ints(n)) xs.push_back(std::move(x));
        });
        for (const Value& t : {made, filled}) {
            REQUIRE(t.is(Kind::Tuple));
            REQUIRE(t.items().size() == n);
            for (size_t i = 0; i < n; ++i) CHECK(t.items()[i].scalar()->i == static_cast<int64_t>(i) * 10);
            if (n >= 1) CHECK(held_inline(t) == (n <= 2));
            REQUIRE(t.children().has_value());
            CHECK(t.children()->size() == n);
        }
        CHECK(made.identical(filled));  // item by item
    }
}

TEST_CASE("a tuple's items keep their objects alive, and release them with the tuple") {
    Value inner = Value::list({Value::from_int(1)});
    for (const size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{6}}) {
        CAPTURE(n);
        {
            Value t = Value::tuple(std::vector<Value>(n, inner));
            CHECK(uses(inner) == 1 + static_cast<long>(n));
            Value u = t;  // a copy shares the tuple, not its items
            CHECK(uses(t) == 2);
            CHECK(uses(inner) == 1 + static_cast<long>(n));
            CHECK(u.identical(t));
        }
        CHECK(uses(inner) == 1);
    }
}

TEST_CASE("a tuple whose items fail to evaluate releases the ones already made") {
    Value inner = Value::list({Value::from_int(1)});
    CHECK_THROWS_AS(Value::tuple_filled(2,
                                        [&](TupleItems& xs) {
                                            xs.push_back(inner);
                                            throw std::runtime_error("the second item failed");
                                        }),
                    std::runtime_error);
    CHECK(uses(inner) == 1);
}

TEST_CASE("a tuple is charged per item against the memory limit, and gives it back") {
    Budget* b = Budget::create();
    b->max_bytes = int64_t{1} << 20;
    {
        Budget::Scope scope(b);
        for (const size_t n : {size_t{0}, size_t{2}, size_t{3}, size_t{100}}) {
            CAPTURE(n);
            {
                const Value t = Value::tuple(ints(n));
                CHECK(b->used() == static_cast<int64_t>(Value::slots_bytes(n)));
                const Value u = Value::tuple_filled(n, [&](TupleItems& xs) { xs.assign(n, Value::none()); });
                CHECK(b->used() == 2 * static_cast<int64_t>(Value::slots_bytes(n)));
            }
            CHECK(b->used() == 0);
        }
        b->max_bytes = static_cast<int64_t>(Value::slots_bytes(2)) - 1;  // not even a pair fits
        CHECK_THROWS_AS(Value::tuple(ints(2)), tg::stdlib::LimitError);
        CHECK(b->used() == 0);
    }
    b->release();
}
