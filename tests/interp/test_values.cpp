// Value semantics: copy-on-write lists, unboxed scalars, the scalar fast path.
#include <cmath>
#include <doctest/doctest.h>

#include "interp/dispatch.hpp"
#include "interp/runtime.hpp"
#include "interp/values/set.hpp"
#include "interp/values/value.hpp"

using namespace tg::interp;
using tg::stdlib::DType;

TEST_CASE("lists are copy-on-write") {
    Value xs = Value::list({Value::from_int(1), Value::from_int(2)});
    Value ys = xs;
    xs.list_mut().push_back(Value::from_int(3));
    CHECK(xs.items().size() == 3);
    CHECK(ys.items().size() == 2);
    // a uniquely held list is updated in place
    const Value* before = &xs.items()[0];
    xs.list_mut().front() = Value::from_int(7);
    CHECK(&xs.items()[0] == before);
}

TEST_CASE("sets are copy-on-write and sorted: integers, then strings") {
    SetObj s;
    for (const DictKey& k : {DictKey{false, 0, "b"}, DictKey{true, 3, {}}, DictKey{false, 0, "a"}, DictKey{true, -1, {}}})
        s.items.insert(k);
    Value a = Value::set(std::move(s));
    Value b = a;
    a.set_mut().items.insert(DictKey{true, 0, {}});
    CHECK(a.set().size() == 5);
    CHECK(b.set().size() == 4);
    CHECK(set_str(a.set()) == "{-1, 0, 3, 'a', 'b'}");
    CHECK(set_str(SetObj{}) == "set()");
    CHECK(std::string(kind_name(a.kind())) == "set");
    CHECK(a.children() == nullptr);  // its elements are static: no tensor leaves
    CHECK_FALSE(a.identical(b));
    b.set_mut().items.insert(DictKey{true, 0, {}});
    CHECK(a.identical(b));  // equal elements
}

TEST_CASE("dicts are copy-on-write and keep insertion order") {
    DictObj d;
    d.set(DictKey{false, 0, "w"}, Value::from_int(1));
    d.set(DictKey{true, 3, {}}, Value::from_int(2));
    d.set(DictKey{false, 0, "b"}, Value::from_int(3));
    Value a = Value::dict(std::move(d));
    Value b = a;
    a.dict_mut().set(DictKey{false, 0, "w"}, Value::from_int(10));  // an existing key keeps its place
    CHECK(a.dict().keys.front() == DictKey{false, 0, "w"});
    CHECK(a.dict().find(DictKey{false, 0, "w"})->scalar()->i == 10);
    CHECK(b.dict().find(DictKey{false, 0, "w"})->scalar()->i == 1);
    CHECK(std::string(kind_name(a.kind())) == "dict");
    // erase moves the later keys up and keeps the index right
    REQUIRE(a.dict_mut().erase(DictKey{true, 3, {}}));
    CHECK_FALSE(a.dict_mut().erase(DictKey{true, 3, {}}));
    CHECK(a.dict().size() == 2);
    CHECK(a.dict().find(DictKey{false, 0, "b"})->scalar()->i == 3);
    CHECK(a.dict().find(DictKey{false, 0, "3"}) == nullptr);  // the str '3' is not the int 3
    CHECK(b.dict().size() == 3);
    // children() / with_children(): the values, and a dict with the same keys
    const std::vector<Value>* xs = a.children();
    REQUIRE(xs != nullptr);
    CHECK(xs->size() == 2);
    Value c = a.with_children({Value::from_int(7), Value::from_int(8)});
    CHECK(c.dict().keys == a.dict().keys);
    CHECK(c.dict().find(DictKey{false, 0, "b"})->scalar()->i == 8);
    CHECK(a.identical(a.with_children(*xs)));
    CHECK_FALSE(a.identical(c));
    CHECK(Value::from_int(1).children() == nullptr);
}

TEST_CASE("0-d tensors are unboxed scalars and round-trip through stdlib tensors") {
    Value v(tg::stdlib::Tensor::scalar(2.5, DType::F64));
    REQUIRE(v.scalar() != nullptr);
    CHECK(v.scalar()->dtype == DType::F64);
    CHECK(v.tensor().item_f64() == 2.5);
    Value w = Value::weak_int(7);
    CHECK(w.tensor().weak());
    CHECK(w.tensor().item_i64() == 7);
    CHECK(v.is_tensor());
    CHECK(std::string(kind_name(v.kind())) == "tensor");
}

TEST_CASE("the scalar fast path agrees with stdlib::binary") {
    using tg::stdlib::BinaryKind;
    const Scalar cases[] = {
        Scalar::of_int(7, DType::I64), Scalar::of_int(-3, DType::I64, true), Scalar::of_int(5, DType::I32),
        Scalar::of_float(0.1, DType::F32, true), Scalar::of_float(2.5, DType::F32), Scalar::of_float(1.0 / 3, DType::F64),
        // i64 operands take scalar_binary's shortcut: wrapping, signs of // and %
        Scalar::of_int(INT64_MAX, DType::I64), Scalar::of_int(INT64_MIN, DType::I64, true),
        Scalar::of_int(-7, DType::I64), Scalar::of_int(4, DType::I64, true), Scalar::of_float(-7.5, DType::F64),
        Scalar::of_int(-2147483647 - 1, DType::I32),
        // an int with a float (int_with_float): rounding of a big int to f32, NaN, inf
        Scalar::of_int((int64_t{1} << 40) + 1, DType::I64), Scalar::of_float(std::nan(""), DType::F32),
        Scalar::of_float(-INFINITY, DType::F64, true),
    };
    const BinaryKind kinds[] = {BinaryKind::Add, BinaryKind::Sub, BinaryKind::Mul, BinaryKind::Div,
                                BinaryKind::FloorDiv, BinaryKind::Mod, BinaryKind::Lt, BinaryKind::Eq,
                                BinaryKind::Ne, BinaryKind::Le, BinaryKind::Gt, BinaryKind::Ge};
    int compared = 0;
    for (const auto& a : cases)
        for (const auto& b : cases)
            for (auto k : kinds) {
                Scalar fast;
                if (!scalar_binary(k, a, b, fast)) continue;
                tg::stdlib::Tensor slow = tg::stdlib::binary(k, a.to_tensor(), b.to_tensor());
                Scalar ref = Scalar::from_tensor(slow);
                CHECK(fast.dtype == ref.dtype);
                CHECK(fast.weak == ref.weak);
                if (tg::stdlib::is_float(ref.dtype))  // the same value, NaN-ness and sign of zero
                    CHECK(((std::isnan(fast.f) && std::isnan(ref.f)) ||
                           (fast.f == ref.f && std::signbit(fast.f) == std::signbit(ref.f))));
                else CHECK(fast.i == ref.i);
                ++compared;
            }
    CHECK(compared > 50);
}

TEST_CASE("integer division by zero leaves the fast path") {
    Scalar out;
    CHECK_FALSE(scalar_binary(tg::stdlib::BinaryKind::FloorDiv, Scalar::of_int(1), Scalar::of_int(0), out));
}
