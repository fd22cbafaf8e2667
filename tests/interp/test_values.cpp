// Value semantics: copy-on-write lists, unboxed scalars, the scalar fast path.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>
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
    for (const DictKey& k : {DictKey::of_str("b"), DictKey::of_int(3), DictKey::of_str("a"), DictKey::of_int(-1)})
        s.items.insert(k);
    Value a = Value::set(std::move(s));
    Value b = a;
    a.set_mut().items.insert(DictKey::of_int(0));
    CHECK(a.set().size() == 5);
    CHECK(b.set().size() == 4);
    CHECK(set_str(a.set()) == "{-1, 0, 3, 'a', 'b'}");
    CHECK(set_str(SetObj{}) == "set()");
    CHECK(std::string(kind_name(a.kind())) == "set");
    CHECK(a.children() == std::nullopt);  // its elements are static: no tensor leaves
    CHECK_FALSE(a.identical(b));
    b.set_mut().items.insert(DictKey::of_int(0));
    CHECK(a.identical(b));  // equal elements
}

TEST_CASE("dicts are copy-on-write and keep insertion order") {
    DictObj d;
    d.set(DictKey::of_str("w"), Value::from_int(1));
    d.set(DictKey::of_int(3), Value::from_int(2));
    d.set(DictKey::of_str("b"), Value::from_int(3));
    Value a = Value::dict(std::move(d));
    Value b = a;
    a.dict_mut().set(DictKey::of_str("w"), Value::from_int(10));  // an existing key keeps its place
    CHECK(a.dict().keys().front() == DictKey::of_str("w"));
    CHECK(a.dict().find(DictKey::of_str("w"))->scalar()->i == 10);
    CHECK(b.dict().find(DictKey::of_str("w"))->scalar()->i == 1);
    CHECK(std::string(kind_name(a.kind())) == "dict");
    // erase keeps the later keys in order and the index right
    REQUIRE(a.dict_mut().erase(DictKey::of_int(3)));
    CHECK_FALSE(a.dict_mut().erase(DictKey::of_int(3)));
    CHECK(a.dict().size() == 2);
    CHECK(a.dict().find(DictKey::of_str("b"))->scalar()->i == 3);
    CHECK(a.dict().find(DictKey::of_str("3")) == nullptr);  // the str '3' is not the int 3
    CHECK(b.dict().size() == 3);
    // children() / with_children(): the values, and a dict with the same keys
    const auto xs = a.children();
    REQUIRE(xs.has_value());
    CHECK(xs->size() == 2);
    Value c = a.with_children({Value::from_int(7), Value::from_int(8)});
    CHECK(c.dict().keys() == a.dict().keys());
    CHECK(c.dict().find(DictKey::of_str("b"))->scalar()->i == 8);
    CHECK(a.identical(a.with_children({xs->begin(), xs->end()})));
    CHECK_FALSE(a.identical(c));
    CHECK(Value::from_int(1).children() == std::nullopt);
}

TEST_CASE("removing keys leaves holes that lookups skip and walks never see") {
    auto key = [](int64_t i) { return DictKey::of_int(i); };
    auto keys_of = [](const DictObj& d) {
        std::vector<int64_t> ks;
        for (const DictKey& k : d.keys()) ks.push_back(k.i());
        return ks;
    };
    DictObj d;
    for (int64_t i = 0; i < 10; ++i) d.set(key(i), Value::from_int(i * 10));
    // from the front and the middle: holes (fewer than the live entries)
    REQUIRE(d.erase(key(0)));
    REQUIRE(d.erase(key(4)));
    CHECK_FALSE(d.erase(key(4)));
    CHECK(d.size() == 8);
    CHECK(d.find(key(0)) == nullptr);
    CHECK(d.find(key(5))->scalar()->i == 50);
    d.set(key(4), Value::from_int(-4));  // back in, last
    d.set(key(5), Value::from_int(-5));  // an existing key keeps its place
    // the last entry and the holes just before it go at once
    REQUIRE(d.erase(key(4)));
    CHECK(d.size() == 8);
    // a copy (copy-on-write) carries the holes; walking squeezes them out
    DictObj e = d;
    CHECK(keys_of(d) == std::vector<int64_t>{1, 2, 3, 5, 6, 7, 8, 9});
    CHECK(d.values()[3].scalar()->i == -5);
    CHECK(d.find(key(9))->scalar()->i == 90);
    CHECK(keys_of(e) == keys_of(d));
    // holes outnumbering the entries are squeezed out by the removal itself
    for (int64_t i : {1, 2, 3, 5, 6, 7}) REQUIRE(e.erase(key(i)));
    CHECK(e.size() == 2);
    CHECK(e.find(key(8))->scalar()->i == 80);
    CHECK(keys_of(e) == std::vector<int64_t>{8, 9});
    REQUIRE(e.erase(key(9)));
    REQUIRE(e.erase(key(8)));
    CHECK(e.size() == 0);
    CHECK(e.keys().empty());
    e.set(key(1), Value::from_int(1));
    CHECK(keys_of(e) == std::vector<int64_t>{1});
}

TEST_CASE("a small dict finds its keys without an index, through holes, until it grows") {
    auto str = [](const char* s) { return DictKey::of_str(s); };
    DictObj d;
    d.set(str(""), Value::from_int(0));  // a key equal to a hole's blank key
    d.set(str("a"), Value::from_int(1));
    d.set(DictKey::of_int(5), Value::from_int(2));
    d.set(str("b"), Value::from_int(3));
    REQUIRE(d.erase(str("")));  // a hole, blank like the empty key was
    CHECK(d.find(str("")) == nullptr);
    CHECK_FALSE(d.erase(str("")));
    CHECK(d.find(DictKey::of_int(5))->scalar()->i == 2);
    d.set(str(""), Value::from_int(-1));  // back, last
    CHECK(d.find(str(""))->scalar()->i == -1);
    // past kSmall keys: indexed, the holes still skipped
    for (int64_t i = 0; i < static_cast<int64_t>(DictObj::kSmall); ++i) d.set(DictKey::of_int(100 + i), Value::from_int(i));
    CHECK(d.size() == 4 + DictObj::kSmall);
    CHECK(d.find(str("")) != nullptr);
    CHECK(d.find(str("b"))->scalar()->i == 3);
    CHECK(d.find(DictKey::of_int(107))->scalar()->i == 7);
    REQUIRE(d.erase(str("a")));
    CHECK(d.find(str("a")) == nullptr);
    CHECK(d.keys().front() == DictKey::of_int(5));
    CHECK(d.keys()[2] == str(""));
    CHECK(d.find(DictKey::of_int(100))->scalar()->i == 0);
}

TEST_CASE("a dict agrees with a reference map through random stores, removals, lookups and copies") {
    // keys that collide in few bits (multiples of 2^20, equal low 32 bits)
    // and strings, so the hash table's probing, tombstones and rebuilds all run
    auto key_of = [](uint64_t r) {
        switch (r % 4) {
        case 0: return DictKey::of_int(static_cast<int64_t>(r % 97));
        case 1: return DictKey::of_int(static_cast<int64_t>((r % 61) << 20));
        case 2: return DictKey::of_int(static_cast<int64_t>(((r % 13) << 32) | 7));
        default: return DictKey::of_str("k" + std::to_string(r % 89));
        }
    };
    auto name = [](const DictKey& k) { return k.is_int() ? std::to_string(k.i()) : "s" + k.s(); };
    uint64_t seed = 12345;
    auto next = [&] { return seed = seed * 6364136223846793005ULL + 1442695040888963407ULL, seed >> 33; };
    for (int round = 0; round < 20; ++round) {
        DictObj d;
        std::vector<std::pair<std::string, int64_t>> ref;  // in order
        auto ref_find = [&](const std::string& n) {
            return std::find_if(ref.begin(), ref.end(), [&](const auto& e) { return e.first == n; });
        };
        const int steps = 50 + static_cast<int>(next() % 600);
        for (int step = 0; step < steps; ++step) {
            const uint64_t r = next();
            const DictKey k = key_of(r >> 3);
            const std::string n = name(k);
            if (r % 8 < 5) {  // store
                d.set(k, Value::from_int(step));
                if (auto it = ref_find(n); it != ref.end()) it->second = step;
                else ref.emplace_back(n, step);
            } else if (r % 8 < 7) {  // remove
                const bool was = ref_find(n) != ref.end();
                CHECK(d.erase(k) == was);
                if (was) ref.erase(ref_find(n));
            } else {  // a copy goes on alone (copy-on-write copies the table)
                DictObj c = d;
                c.set(DictKey::of_str("only in the copy"), Value::from_int(-1));
                CHECK(d.find(DictKey::of_str("only in the copy")) == nullptr);
                d = c;
                ref.emplace_back("sonly in the copy", -1);
                CHECK(d.erase(DictKey::of_str("only in the copy")));
                ref.pop_back();
            }
            const auto it = ref_find(n);
            const Value* v = d.find(k);
            REQUIRE((v != nullptr) == (it != ref.end()));
            if (v) CHECK(v->scalar()->i == it->second);
            CHECK(d.size() == ref.size());
        }
        REQUIRE(d.keys().size() == ref.size());
        for (size_t i = 0; i < ref.size(); ++i) {
            CHECK(name(d.keys()[i]) == ref[i].first);
            CHECK(d.values()[i].scalar()->i == ref[i].second);
            CHECK(d.find(d.keys()[i]) == &d.values()[i]);
        }
    }
}

TEST_CASE("a string keeps where its characters start until it is appended to") {
    Value s = Value::str("h\xc3\xa9llo");  // "héllo": 5 characters, 6 bytes
    CHECK(s.text_chars().size() == 5);
    CHECK(s.text_chars().at(1) == "\xc3\xa9");
    REQUIRE(s.append_text_unshared("\xe2\x82\xac!"));  // "€!": the table is made again
    CHECK(s.text_chars().size() == 7);
    CHECK(s.text_chars().range(5, 7) == "\xe2\x82\xac!");
    Value a = Value::str("ascii");
    CHECK(a.text_chars().size() == 5);
    REQUIRE(a.append_text_unshared("\xc3\xa9"));  // ASCII no more
    CHECK(a.text_chars().size() == 6);
    CHECK(a.text_chars().at(5) == "\xc3\xa9");
    CHECK(TextChars("\xc3\xa9t\xc3\xa9").size() == 3);  // (a text with no string object: its own table)
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
        // small exponents (pow): 0, 2, 3 and a negative one
        Scalar::of_int(0, DType::I64, true), Scalar::of_int(2, DType::I64, true), Scalar::of_int(3, DType::I32),
        Scalar::of_int(-2, DType::I64),
        // strong f64 with f64, a weak int or a weak f64 (scalar_binary's f64 shortcut)
        Scalar::of_float(3.0, DType::F64, true), Scalar::of_float(-0.0, DType::F64),
        // shift counts of the width or more (bitwise: ints only)
        Scalar::of_int(64, DType::I64, true), Scalar::of_int(70, DType::I64), Scalar::of_int(33, DType::I32),
    };
    const BinaryKind kinds[] = {BinaryKind::Add, BinaryKind::Sub, BinaryKind::Mul, BinaryKind::Div,
                                BinaryKind::FloorDiv, BinaryKind::Mod, BinaryKind::Lt, BinaryKind::Eq,
                                BinaryKind::Ne, BinaryKind::Le, BinaryKind::Gt, BinaryKind::Ge, BinaryKind::Pow,
                                BinaryKind::BitAnd, BinaryKind::BitOr, BinaryKind::BitXor, BinaryKind::LeftShift,
                                BinaryKind::RightShift};
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
