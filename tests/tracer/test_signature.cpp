// Signatures (docs/graph.md "Signatures and the cache") and their differences (the retrace messages;
// the cache itself: test_trace_cache.cpp).
#include <doctest/doctest.h>

#include <string>

#include "tracer/signature.hpp"

using namespace tg::tracer;
using tg::stdlib::DType;
using tg::stdlib::Shape;

namespace {
ArgDesc t(DType d, Shape s) { return ArgDesc::tensor(d, s); }
ArgDesc str(const std::string& v) { return ArgDesc::value("str:" + v, "'" + v + "'"); }
Signature sig(std::vector<NamedArg> args, std::vector<NamedArg> captures = {}) { return {std::move(args), std::move(captures)}; }
}  // namespace

TEST_CASE("signature: equal descriptions are equal and hash equally") {
    Signature a = sig({{"x", t(DType::F32, {3})}, {"xs", ArgDesc::list({t(DType::F32, {}), t(DType::I64, {2})})}, {"mode", str("a")}});
    Signature b = a;
    CHECK(a == b);
    CHECK(a.hash() == b.hash());
    CHECK(a.to_string() == "x: f32[3], xs: [f32[], i64[2]], mode: 'a'");
    Signature c = sig({{"p", ArgDesc::tuple({t(DType::F64, {2, 2})})}}, {{"w", t(DType::F32, {4})}});
    CHECK(c.to_string() == "p: (f64[2,2],) | captured w: f32[4]");
}

TEST_CASE("signature: every part of the key matters") {
    Signature base = sig({{"x", t(DType::F32, {3})}, {"xs", ArgDesc::list({t(DType::F32, {})})}, {"mode", str("a")}},
                         {{"scale", ArgDesc::value("int:2", "2")}});
    auto changed = [&](auto edit) {
        Signature s = base;
        edit(s);
        return !(s == base);
    };
    CHECK(changed([](Signature& s) { s.args[0].desc.shape = Shape{4}; }));
    CHECK(changed([](Signature& s) { s.args[0].desc.dtype = DType::F64; }));
    CHECK(changed([](Signature& s) { s.args[1].desc.items.push_back(t(DType::F32, {})); }));
    CHECK(changed([](Signature& s) { s.args[1].desc.kind = ArgDesc::Kind::Tuple; }));
    CHECK(changed([](Signature& s) { s.args[2].desc = str("b"); }));
    CHECK(changed([](Signature& s) { s.captures[0].desc = ArgDesc::value("int:3", "3"); }));
    // Only the key of a static value counts, not how it is displayed.
    CHECK_FALSE(changed([](Signature& s) { s.args[2].desc.display = "other"; }));
}

TEST_CASE("signature: differences read like docs/graph.md's retrace messages") {
    Signature a = sig({{"x", t(DType::F32, {3})}});
    Signature b = sig({{"x", t(DType::F32, {4})}});
    CHECK(differences(a, b) == std::vector<std::string>{"argument `x`: shape (3,) → (4,)"});
    Signature c = sig({{"x", t(DType::F64, {2, 2})}});
    CHECK(differences(a, c) == std::vector<std::string>{"argument `x`: dtype f32 → f64, shape (3,) → (2, 2)"});
    Signature l1 = sig({{"xs", ArgDesc::list({t(DType::F32, {}), t(DType::F32, {3})})}, {"m", str("a")}});
    Signature l2 = sig({{"xs", ArgDesc::list({t(DType::F32, {}), t(DType::I32, {3})})}, {"m", str("b")}});
    CHECK(differences(l1, l2) ==
          std::vector<std::string>{"argument `xs[1]`: dtype f32 → i32", "argument `m`: 'a' → 'b'"});
    Signature l3 = sig({{"xs", ArgDesc::list({t(DType::F32, {})})}, {"m", str("a")}});
    CHECK(differences(l1, l3) == std::vector<std::string>{"argument `xs`: length 2 → 1"});
    Signature k1 = sig({{"x", t(DType::F32, {})}}, {{"w", ArgDesc::value("bind:1", "f32[4]")}});
    Signature k2 = sig({{"x", t(DType::F32, {})}}, {{"w", ArgDesc::value("bind:2", "f32[4]")}, {"b", t(DType::F32, {})}});
    CHECK(differences(k1, k2) == std::vector<std::string>{"captured `w`: f32[4] → f32[4]", "captured `b`: new (f32[])"});
    CHECK(differences(k2, k1).back() == "captured `b`: no longer given");
    Signature n = sig({{"x", str("s")}});
    CHECK(differences(a, n) == std::vector<std::string>{"argument `x`: f32[3] → 's'"});
    CHECK(differences(a, a).empty());
    CHECK(distance(l1, l2) == 2);
}

TEST_CASE("signature: dicts count by their keys, in order, and their values") {
    auto d = [](std::vector<std::string> keys, std::vector<ArgDesc> values) {
        return ArgDesc::dict(std::move(keys), std::move(values));
    };
    Signature a = sig({{"p", d({"'w'", "'b'"}, {t(DType::F32, {2, 3}), t(DType::F32, {3})})}});
    CHECK(a.to_string() == "p: {'w': f32[2,3], 'b': f32[3]}");
    Signature same = a;
    CHECK(a == same);
    CHECK(a.hash() == same.hash());
    // another order of the same keys is another signature (printing and iteration follow it)
    Signature swapped = sig({{"p", d({"'b'", "'w'"}, {t(DType::F32, {3}), t(DType::F32, {2, 3})})}});
    CHECK_FALSE(a == swapped);
    CHECK(differences(a, swapped) == std::vector<std::string>{"argument `p`: keys ['w', 'b'] → ['b', 'w']"});
    Signature more = sig({{"p", d({"'w'", "'b'", "3"}, {t(DType::F32, {2, 3}), t(DType::F32, {3}), str("x")})}});
    CHECK(differences(a, more) == std::vector<std::string>{"argument `p`: keys ['w', 'b'] → ['w', 'b', 3]"});
    Signature reshaped = sig({{"p", d({"'w'", "'b'"}, {t(DType::F32, {2, 4}), t(DType::F32, {3})})}});
    CHECK(differences(a, reshaped) == std::vector<std::string>{"argument `p['w']`: shape (2, 3) → (2, 4)"});
    CHECK(distance(a, reshaped) == 1);
    // a list and a dict of the same values differ in kind
    Signature as_list = sig({{"p", ArgDesc::list({t(DType::F32, {2, 3}), t(DType::F32, {3})})}});
    CHECK(differences(a, as_list) == std::vector<std::string>{"argument `p`: dict → list"});
}
