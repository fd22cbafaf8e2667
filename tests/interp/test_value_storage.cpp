// A Value's storage (interp/values/value_storage.hpp): reference counts kept
// right through copies, moves and assignments between every kind of
// alternative, including a value assigned from inside itself.
#include <doctest/doctest.h>

#include "interp/values/value.hpp"

using namespace tg::interp;

namespace {

long uses(const Value& v) { return v.ref().uses; }

// One value of each storage class: inline scalar, trivial marker, trivial
// word (a dtype), and shared objects of two types.
std::vector<Value> samples() {
    return {Value::from_int(7), Value(), Value::none(), Value(tg::stdlib::DType::F64),
            Value::list({Value::from_int(1)}), Value::tuple({Value::str("t")}), Value::str("s")};
}

}  // namespace

TEST_CASE("copies and moves of a shared value keep its reference count") {
    Value xs = Value::list({Value::from_int(1), Value::from_int(2)});
    CHECK(uses(xs) == 1);
    {
        Value ys = xs;
        CHECK(uses(xs) == 2);
        Value zs = std::move(ys);
        CHECK(uses(xs) == 2);
        Value w = Value::from_int(3);
        w = zs;  // a scalar overwritten by a list
        CHECK(uses(xs) == 3);
        w = Value::none();  // and back: the list released
        CHECK(uses(xs) == 2);
    }
    CHECK(uses(xs) == 1);
}

TEST_CASE("every pair of kinds assigns both ways") {
    for (size_t i = 0; i < samples().size(); ++i)
        for (size_t j = 0; j < samples().size(); ++j) {
            std::vector<Value> a = samples(), b = samples();
            Value x = a[i];
            x = b[j];
            CHECK(x.kind() == b[j].kind());
            CHECK(x.identical(b[j]));
            Value y = a[i];
            y = std::move(b[j]);
            CHECK(y.kind() == x.kind());
            CHECK(y.identical(x));
        }
}

TEST_CASE("a value assigned from an object it owns stays alive") {
    // the only reference to the inner list is inside the outer one
    Value outer = Value::list({Value::list({Value::from_int(5)})});
    outer = outer.items()[0];
    REQUIRE(outer.is(Kind::List));
    CHECK(outer.items()[0].scalar()->i == 5);
    Value again = Value::list({Value::list({Value::from_int(6)})});
    again = std::move(again.list_mut()[0]);
    REQUIRE(again.is(Kind::List));
    CHECK(again.items()[0].scalar()->i == 6);
    Value self = Value::str("me");
    const Value& same = self;  // (through a reference: compilers warn about `self = self`)
    self = same;
    CHECK(self.text() == "me");
}
