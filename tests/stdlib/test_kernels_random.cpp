// Philox-4x32-10 and the random ops: known answers, reproducibility, the
// documented stream layout, and distribution sanity.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "stdlib/op_table.hpp"
#include "stdlib/random.hpp"

using namespace tg::stdlib;

namespace {

// Random123's kat_vectors for philox4x32 10: counter, key -> output.
struct Kat {
    std::array<uint32_t, 4> ctr;
    std::array<uint32_t, 2> key;
    std::array<uint32_t, 4> out;
};
const Kat kKats[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

Tensor call(const char* op, Rng& rng, std::vector<Attr> attrs) {
    const OpDef* def = find_op(op);
    REQUIRE(def != nullptr);
    for (size_t i = attrs.size(); i < def->params.size(); ++i) attrs.push_back(def->params[i].default_value);
    OpContext ctx{&rng};
    return def->eager(ctx, OpArgs{{}, attrs});
}

std::vector<double> values(const Tensor& t) {
    std::vector<double> v;
    for (int64_t i = 0; i < t.numel(); ++i) {
        switch (t.dtype()) {
        case DType::I64: v.push_back(static_cast<double>(t.data<int64_t>()[i])); break;
        case DType::I32: v.push_back(t.data<int32_t>()[i]); break;
        case DType::F64: v.push_back(t.data<double>()[i]); break;
        default: v.push_back(t.data<float>()[i]); break;
        }
    }
    return v;
}

void mean_std(const std::vector<double>& v, double& mean, double& std) {
    double s = 0, s2 = 0;
    for (double x : v) s += x;
    mean = s / static_cast<double>(v.size());
    for (double x : v) s2 += (x - mean) * (x - mean);
    std = std::sqrt(s2 / static_cast<double>(v.size()));
}

}  // namespace

TEST_CASE("philox4x32_10 matches Random123's known-answer vectors") {
    for (const Kat& k : kKats) CHECK(philox4x32_10(k.ctr, k.key) == k.out);
    // The 64-bit key / counter convenience form.
    CHECK(philox4x32(0, 0) == kKats[0].out);
    CHECK(philox4x32(0x299f31d0a4093822ull, 0x85a308d3243f6a88ull) ==
          philox4x32_10({0x243f6a88, 0x85a308d3, 0, 0}, {0xa4093822, 0x299f31d0}));
}

TEST_CASE("random ops: same seed, same numbers, the stream advances") {
    for (const char* op : {"random_uniform", "random_normal"}) {
        Rng a(42), b(42);
        std::vector<double> x1 = values(call(op, a, {std::vector<int64_t>{3, 5}}));
        std::vector<double> y1 = values(call(op, b, {std::vector<int64_t>{3, 5}}));
        CHECK(x1 == y1);
        CHECK(a.counter() == 4);  // 15 values: ceil(15 / 4) blocks
        std::vector<double> x2 = values(call(op, a, {std::vector<int64_t>{3, 5}}));
        CHECK(x2 != x1);
        a.reseed(42);
        CHECK(values(call(op, a, {std::vector<int64_t>{3, 5}})) == x1);
        Rng c(43);
        CHECK(values(call(op, c, {std::vector<int64_t>{3, 5}})) != x1);
    }
    Rng a(7), b(7);
    CHECK(values(call("random_int", a, {int64_t{4}, int64_t{0}, int64_t{10}})) ==
          values(call("random_int", b, {int64_t{4}, int64_t{0}, int64_t{10}})));
}

TEST_CASE("random ops follow the documented stream layout") {
    Rng rng(2024);
    rng.set_counter(10);
    Tensor u = call("random_uniform", rng, {int64_t{9}, 2.0, 5.0});
    CHECK(rng.counter() == 13);
    for (int64_t i = 0; i < 9; ++i) {
        uint32_t w = philox4x32(2024, 10 + static_cast<uint64_t>(i / 4))[i % 4];
        float unit = static_cast<float>(w >> 8) * (1.0f / 16777216.0f);
        CHECK(u.data<float>()[i] == static_cast<float>(2.0 + 3.0 * static_cast<double>(unit)));
    }
    Tensor z = call("random_normal", rng, {int64_t{6}, 1.0, 2.0});
    CHECK(rng.counter() == 15);
    for (int64_t i = 0; i < 6; ++i) {
        auto w = philox4x32(2024, 13 + static_cast<uint64_t>(i / 4));
        int64_t pair = (i / 2) % 2;
        double u1 = (static_cast<double>(w[2 * pair] >> 8) + 1.0) / 16777216.0;
        double u2 = static_cast<double>(w[2 * pair + 1] >> 8) / 16777216.0;
        double r = std::sqrt(-2.0 * std::log(u1)), t = 2.0 * M_PI * u2;
        double zz = i % 2 == 0 ? r * std::cos(t) : r * std::sin(t);
        CHECK(z.data<float>()[i] == static_cast<float>(1.0 + 2.0 * zz));
    }
    Tensor k = call("random_int", rng, {int64_t{5}, int64_t{-3}, int64_t{4}});
    CHECK(rng.counter() == 17);
    for (int64_t i = 0; i < 5; ++i) {
        uint32_t w = philox4x32(2024, 15 + static_cast<uint64_t>(i / 4))[i % 4];
        CHECK(k.data<int64_t>()[i] == -3 + static_cast<int64_t>((uint64_t{w} * 7) >> 32));
    }
    // A range above 2^32 uses two words per element: ceil(n / 2) blocks.
    Tensor big = call("random_int", rng, {int64_t{3}, int64_t{0}, int64_t{1} << 40});
    CHECK(rng.counter() == 19);
    for (int64_t i = 0; i < 3; ++i) {
        auto w = philox4x32(2024, 17 + static_cast<uint64_t>(i / 2));
        uint64_t v = uint64_t{w[2 * (i % 2)]} | (uint64_t{w[2 * (i % 2) + 1]} << 32);
        CHECK(big.data<int64_t>()[i] == static_cast<int64_t>(v % (uint64_t{1} << 40)));
    }
    // Empty shapes draw nothing.
    call("random_uniform", rng, {std::vector<int64_t>{0, 3}});
    CHECK(rng.counter() == 19);
}

TEST_CASE("element i depends only on (key, first counter, i)") {
    std::vector<float> all(103), part(40);
    fill_uniform_f32(5, 100, 103, 0.0, 1.0, all.data());
    // Elements 60..99 start at block 100 + 15.
    fill_uniform_f32(5, 115, 40, 0.0, 1.0, part.data());
    for (int i = 0; i < 40; ++i) CHECK(part[i] == all[60 + i]);
    std::vector<float> na(11), nb(4);
    fill_normal_f32(9, 3, 11, 0.0, 1.0, na.data());
    fill_normal_f32(9, 4, 4, 0.0, 1.0, nb.data());
    for (int i = 0; i < 4; ++i) CHECK(nb[i] == na[4 + i]);
}

TEST_CASE("distributions: mean and std over 1e5 samples") {
    for (DType d : {DType::F32, DType::F64}) {
        Rng rng(1);
        const int64_t n = 100000;
        double m, s;
        std::vector<double> u = values(call("random_uniform", rng, {int64_t{n}, -1.0, 3.0, d}));
        mean_std(u, m, s);
        CHECK(m == doctest::Approx(1.0).epsilon(0.01));
        CHECK(s == doctest::Approx(4.0 / std::sqrt(12.0)).epsilon(0.01));
        for (double x : u) {
            REQUIRE(x >= -1.0);
            REQUIRE(x < 3.0);
        }
        std::vector<double> z = values(call("random_normal", rng, {int64_t{n}, 2.0, 0.5, d}));
        mean_std(z, m, s);
        CHECK(m == doctest::Approx(2.0).epsilon(0.005));
        CHECK(s == doctest::Approx(0.5).epsilon(0.01));
        int within1 = 0;
        for (double x : z) within1 += std::fabs(x - 2.0) < 0.5;
        CHECK(static_cast<double>(within1) / n == doctest::Approx(0.6827).epsilon(0.01));
        const DType di = d == DType::F64 ? DType::I32 : DType::I64;
        std::vector<double> k = values(call("random_int", rng, {int64_t{n}, int64_t{-2}, int64_t{3}, di}));
        std::vector<int> hist(5);
        for (double x : k) {
            REQUIRE(x >= -2);
            REQUIRE(x < 3);
            ++hist[static_cast<int>(x) + 2];
        }
        for (int h : hist) CHECK(static_cast<double>(h) / n == doctest::Approx(0.2).epsilon(0.03));
    }
}

TEST_CASE("random ops: dtypes, shapes and errors") {
    const OpDef* u = find_op("random_uniform");
    const OpDef* r = find_op("random_int");
    REQUIRE(u);
    REQUIRE(r);
    CHECK((u->flags & kRandom) != 0);
    Attr shape = std::vector<int64_t>{2, 3};
    std::vector<Attr> ua{shape, 0.0, 1.0, DType::F32};
    TensorType t = u->infer(TypeArgs{{}, ua});
    CHECK(t.dtype == DType::F32);
    CHECK(t.shape == Shape{2, 3});
    std::vector<Attr> ra{shape, int64_t{5}, int64_t{5}, DType::I64};
    CHECK_THROWS_WITH_AS(r->infer(TypeArgs{{}, ra}), "random_int: high (5) must be greater than low (5)", OpError);
    Rng rng(0);
    OpContext ctx{&rng};
    CHECK_THROWS_WITH_AS(r->eager(ctx, OpArgs{{}, ra}), "random_int: high (5) must be greater than low (5)", OpError);
    OpContext none;
    CHECK_THROWS_AS(u->eager(none, OpArgs{{}, ua}), OpError);
    std::vector<Attr> neg{std::vector<int64_t>{-1}, 0.0, 1.0, DType::F32};
    CHECK_THROWS_WITH_AS(u->infer(TypeArgs{{}, neg}), "random_uniform: shape has a negative dimension -1", OpError);
    std::vector<Attr> inf{shape, 0.0, INFINITY, DType::F32};
    CHECK_THROWS_WITH_AS(u->infer(TypeArgs{{}, inf}), "random_uniform: high must be finite", OpError);
    std::vector<Attr> ia{shape, int64_t{0}, int64_t{3}, std::monostate{}};
    CHECK(r->infer(TypeArgs{{}, ia}).dtype == DType::I64);  // dtype=None: the default
    ia[3] = DType::I32;
    CHECK(r->infer(TypeArgs{{}, ia}).dtype == DType::I32);
    ua[3] = DType::F64;
    CHECK(u->infer(TypeArgs{{}, ua}).dtype == DType::F64);
    ua[3] = DType::I64;
    CHECK_THROWS_WITH_AS(u->infer(TypeArgs{{}, ua}), "random_uniform: dtype must be f32 or f64, not i64", OpError);
    ia[3] = DType::F32;
    CHECK_THROWS_WITH_AS(r->infer(TypeArgs{{}, ia}), "random_int: dtype must be i64, i32 or bool, not f32", OpError);
    std::vector<Attr> wide{shape, int64_t{0}, int64_t{1} << 31, DType::I32};  // high is exclusive: fits
    CHECK(r->infer(TypeArgs{{}, wide}).dtype == DType::I32);
    wide[2] = (int64_t{1} << 31) + 1;
    CHECK_THROWS_WITH_AS(r->infer(TypeArgs{{}, wide}),
                         "random_int: low and high must be within [-2147483648, 2147483648] for dtype i32, got [0, 2147483649)",
                         OpError);
}

TEST_CASE("f64 draws: 53 random bits each, in the documented layout") {
    Rng rng(2024);
    rng.set_counter(10);
    Tensor u = call("random_uniform", rng, {int64_t{5}, 2.0, 5.0, DType::F64});
    CHECK(u.dtype() == DType::F64);
    CHECK(rng.counter() == 13);  // ceil(5 / 2) blocks
    for (int64_t i = 0; i < 5; ++i) {
        auto w = philox4x32(2024, 10 + static_cast<uint64_t>(i / 2));
        uint64_t v = uint64_t{w[2 * (i % 2)]} | (uint64_t{w[2 * (i % 2) + 1]} << 32);
        CHECK(u.data<double>()[i] == 2.0 + 3.0 * std::ldexp(static_cast<double>(v >> 11), -53));
    }
    Tensor z = call("random_normal", rng, {int64_t{3}, 1.0, 2.0, DType::F64});
    CHECK(rng.counter() == 15);
    for (int64_t i = 0; i < 3; ++i) {
        auto w = philox4x32(2024, 13 + static_cast<uint64_t>(i / 2));
        uint64_t v1 = uint64_t{w[0]} | (uint64_t{w[1]} << 32), v2 = uint64_t{w[2]} | (uint64_t{w[3]} << 32);
        double u1 = std::ldexp(static_cast<double>((v1 >> 11) + 1), -53), u2 = std::ldexp(static_cast<double>(v2 >> 11), -53);
        double r = std::sqrt(-2.0 * std::log(u1)), t = 2.0 * M_PI * u2;
        CHECK(z.data<double>()[i] == 1.0 + 2.0 * (i % 2 == 0 ? r * std::cos(t) : r * std::sin(t)));
    }
    // Bits below f32's precision: a draw in [0, 1) that is a multiple of 2^-24
    // has probability 2^-29; of 1000 draws, none should be (an f32 draw cast up always is).
    Tensor many = call("random_uniform", rng, {int64_t{1000}, 0.0, 1.0, DType::F64});
    int below_f32 = 0;
    for (int64_t i = 0; i < 1000; ++i) {
        const double x = many.data<double>()[i];
        below_f32 += std::ldexp(x, 24) != std::floor(std::ldexp(x, 24));
        CHECK(static_cast<double>(static_cast<float>(x)) != x);
    }
    CHECK(below_f32 == 1000);
}

TEST_CASE("random_int with dtype bool draws the numbers of i64 as False and True") {
    Rng a(11), b(11);
    Tensor kb = call("random_int", a, {int64_t{9}, int64_t{0}, int64_t{2}, DType::Bool});
    Tensor k64 = call("random_int", b, {int64_t{9}, int64_t{0}, int64_t{2}, DType::I64});
    CHECK(kb.dtype() == DType::Bool);
    for (int64_t i = 0; i < 9; ++i) CHECK(int64_t{kb.data<bool>()[i]} == k64.data<int64_t>()[i]);
    CHECK(a.counter() == b.counter());
    const OpDef* r = find_op("random_int");
    std::vector<Attr> wide{std::vector<int64_t>{2}, int64_t{0}, int64_t{3}, DType::Bool};
    CHECK_THROWS_WITH_AS(r->infer(TypeArgs{{}, wide}), "random_int: low and high must be within [0, 2] for dtype bool, got [0, 3)",
                         OpError);
    wide[1] = int64_t{-1};
    wide[2] = int64_t{1};
    CHECK_THROWS_AS(r->infer(TypeArgs{{}, wide}), OpError);
}

TEST_CASE("random_int with dtype i32 draws the numbers of i64") {
    for (auto [lo, hi] : {std::pair<int64_t, int64_t>{-3, 4}, {-(int64_t{1} << 31), int64_t{1} << 31}}) {
        Rng a(11), b(11);
        Tensor k32 = call("random_int", a, {int64_t{9}, lo, hi, DType::I32});
        Tensor k64 = call("random_int", b, {int64_t{9}, lo, hi, DType::I64});
        CHECK(k32.dtype() == DType::I32);
        CHECK(values(k32) == values(k64));
        CHECK(a.counter() == b.counter());
    }
}
