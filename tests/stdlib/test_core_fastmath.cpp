// exp, log, tanh, sigmoid of fastmath.hpp: accuracy in ulps against f64
// references (data/core_unary.txt from NumPy, and libm), special values, and
// the element-wise ops that use them.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "stdlib/elementwise.hpp"
#include "stdlib/fastmath.hpp"
#include "test_core_util.hpp"

using namespace tg::stdlib;
using namespace tg::stdlib::testing;

namespace {

// Distance in units in the last place of T between got and the exact value `want`.
template <class T>
double ulps(T got, double want) {
    if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
    const T w = static_cast<T>(want);  // may round to inf
    if (std::isinf(w) || std::isinf(got)) return got == w ? 0 : 1e9;
    // One ulp at the reference value (the smallest subnormal below the normals).
    const T a = std::fabs(w);
    T ulp = std::nextafter(a, std::numeric_limits<T>::infinity()) - a;
    return std::fabs(static_cast<double>(got) - want) / static_cast<double>(ulp);
}

template <class T>
T apply(const std::string& name, T x) {
    if (name == "exp") return fastmath::exp(x);
    if (name == "log") return fastmath::log(x);
    if (name == "tanh") return fastmath::tanh(x);
    return fastmath::sigmoid(x);
}

}  // namespace

TEST_CASE("fastmath against NumPy references within a few ulps") {
    int checked = 0, failures = 0;
    for (const std::string& line : read_lines("core_unary.txt")) {
        std::istringstream in(line);
        std::string op, dt, xs, rs;
        in >> op >> dt >> xs >> rs;
        if (op != "exp" && op != "log" && op != "tanh" && op != "sigmoid") continue;
        const double x = parse_bits(dt, xs), want = parse_bits("f64", rs);
        double err;
        if (dt == "f32") err = ulps<float>(apply<float>(op, static_cast<float>(x)), want);
        else err = ulps<double>(apply<double>(op, x), want);
        ++checked;
        if (err > 3.0 && ++failures < 20) FAIL_CHECK(line << " -> " << err << " ulps");
    }
    CHECK(checked > 1000);
    CHECK(failures == 0);
}

TEST_CASE("fastmath over dense random ranges (f32 against libm in f64)") {
    std::mt19937_64 gen(42);
    double worst[4] = {};
    const char* names[] = {"exp", "log", "tanh", "sigmoid"};
    for (int i = 0; i < 200000; ++i) {
        const float xe = std::uniform_real_distribution<float>(-103.0f, 88.7f)(gen);
        const float xl = std::ldexp(std::uniform_real_distribution<float>(0.5f, 1.0f)(gen),
                                    std::uniform_int_distribution<int>(-148, 127)(gen));
        const float xt = std::uniform_real_distribution<float>(-12.0f, 12.0f)(gen) *
                         (i % 3 == 0 ? 1e-3f : 1.0f);
        worst[0] = std::max(worst[0], ulps<float>(fastmath::exp(xe), std::exp(static_cast<double>(xe))));
        worst[1] = std::max(worst[1], ulps<float>(fastmath::log(xl), std::log(static_cast<double>(xl))));
        worst[2] = std::max(worst[2], ulps<float>(fastmath::tanh(xt), std::tanh(static_cast<double>(xt))));
        worst[3] = std::max(worst[3], ulps<float>(fastmath::sigmoid(xt * 4), 1.0 / (1.0 + std::exp(-static_cast<double>(xt * 4)))));
    }
    for (int k = 0; k < 4; ++k) {
        INFO(names[k] << " worst f32 error " << worst[k] << " ulps");
        CHECK(worst[k] <= 3.0);
    }
}

TEST_CASE("fastmath over dense random ranges (f64 against libm)") {
    std::mt19937_64 gen(7);
    double worst[4] = {};
    for (int i = 0; i < 200000; ++i) {
        const double xe = std::uniform_real_distribution<double>(-745.0, 709.0)(gen);
        const double xl = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(gen),
                                     std::uniform_int_distribution<int>(-1073, 1024)(gen));
        const double xt = std::uniform_real_distribution<double>(-25.0, 25.0)(gen) * (i % 3 == 0 ? 1e-3 : 1.0);
        worst[0] = std::max(worst[0], ulps<double>(fastmath::exp(xe), std::exp(xe)));
        worst[1] = std::max(worst[1], ulps<double>(fastmath::log(xl), std::log(xl)));
        worst[2] = std::max(worst[2], ulps<double>(fastmath::tanh(xt), std::tanh(xt)));
        worst[3] = std::max(worst[3], ulps<double>(fastmath::sigmoid(xt * 4), 1.0 / (1.0 + std::exp(-xt * 4))));
    }
    // libm itself is within ~1 ulp: allow a few.
    CHECK(worst[0] <= 4.0);
    CHECK(worst[1] <= 4.0);
    CHECK(worst[2] <= 4.0);
    CHECK(worst[3] <= 4.0);
}

TEST_CASE("fastmath special values") {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(fastmath::exp(0.0f) == 1.0f);
    CHECK(fastmath::exp(0.0) == 1.0);
    CHECK(fastmath::exp(-0.0) == 1.0);
    CHECK(fastmath::exp(static_cast<float>(inf)) == static_cast<float>(inf));
    CHECK(fastmath::exp(static_cast<float>(-inf)) == 0.0f);
    CHECK(fastmath::exp(1000.0) == inf);
    CHECK(fastmath::exp(-1000.0) == 0.0);
    CHECK(fastmath::exp(100.0f) == static_cast<float>(inf));
    CHECK(fastmath::exp(-200.0f) == 0.0f);
    CHECK(std::isnan(fastmath::exp(static_cast<float>(nan))));
    CHECK(std::isnan(fastmath::exp(nan)));
    CHECK(fastmath::log(1.0f) == 0.0f);
    CHECK(fastmath::log(1.0) == 0.0);
    CHECK(fastmath::log(0.0f) == static_cast<float>(-inf));
    CHECK(fastmath::log(-0.0) == -inf);
    CHECK(std::isnan(fastmath::log(-1.0f)));
    CHECK(std::isnan(fastmath::log(-1.0)));
    CHECK(fastmath::log(static_cast<float>(inf)) == static_cast<float>(inf));
    CHECK(fastmath::log(inf) == inf);
    CHECK(std::isnan(fastmath::log(nan)));
    CHECK(fastmath::log(5e-324) == std::log(5e-324));
    CHECK(fastmath::tanh(0.0f) == 0.0f);
    CHECK(std::signbit(fastmath::tanh(-0.0)));
    CHECK(fastmath::tanh(inf) == 1.0);
    CHECK(fastmath::tanh(-inf) == -1.0);
    CHECK(fastmath::tanh(static_cast<float>(-inf)) == -1.0f);
    CHECK(fastmath::tanh(30.0f) == 1.0f);
    CHECK(std::isnan(fastmath::tanh(nan)));
    CHECK(fastmath::tanh(1e-30) == 1e-30);
    CHECK(fastmath::sigmoid(0.0f) == 0.5f);
    CHECK(fastmath::sigmoid(inf) == 1.0);
    CHECK(fastmath::sigmoid(-inf) == 0.0);
    CHECK(fastmath::sigmoid(-1000.0f) == 0.0f);
    CHECK(std::isnan(fastmath::sigmoid(nan)));
}

TEST_CASE("element-wise ops use fastmath, and the contiguous loop equals the 0-d path") {
    const int64_t n = 4099;
    Tensor x = Tensor::empty(DType::F32, Shape{n});
    for (int64_t i = 0; i < n; ++i) x.data<float>()[i] = static_cast<float>(i - n / 2) * 0.037f;
    for (UnaryKind k : {UnaryKind::Exp, UnaryKind::Tanh, UnaryKind::Sigmoid, UnaryKind::Log}) {
        Tensor r = unary(k, x);
        bool same = true;
        for (int64_t i = 0; i < n; ++i) {
            const float xi = x.data<float>()[i];
            const float one = unary(k, Tensor::scalar(static_cast<double>(xi), DType::F32)).data<float>()[0];
            const float ri = r.data<float>()[i];
            same = same && (bits_of(one) == bits_of(ri) || (std::isnan(one) && std::isnan(ri)));
        }
        CHECK_MESSAGE(same, unary_name(k));
    }
}

TEST_CASE("other float functions against NumPy (libm)") {
    int failures = 0;
    std::map<std::string, int> checked;
    for (const std::string& line : read_lines("core_unary.txt")) {
        std::istringstream in(line);
        std::string op, dt, xs, rs;
        in >> op >> dt >> xs >> rs;
        // every unary op of the table the data has (the fastmath ones have their own test above)
        if (op == "exp" || op == "log" || op == "tanh" || op == "sigmoid") continue;
        const OpDef* def = find_op(op);
        REQUIRE_MESSAGE(def != nullptr, op);
        const UnaryKind k = std::get<UnaryKind>(def->kind);
        const DType d = *dtype_from_name(dt);
        const double x = parse_bits(dt, xs), want = parse_bits("f64", rs);
        const double got = unary(k, Tensor::scalar(x, d)).item_f64();
        const double err = d == DType::F32 ? ulps<float>(static_cast<float>(got), want) : ulps<double>(got, want);
        // NumPy uses SVML (<= 4 ulps) for sin/cos on AVX-512 machines; libm is the C++ side.
        if (err > ((op == "sin" || op == "cos") ? 4.0 : 1.0) && ++failures < 20) FAIL_CHECK(line << " -> got " << got << ", " << err << " ulps");
        ++checked[op];
    }
    CHECK(failures == 0);
    for (const char* op : {"log2", "log10", "asin", "acos", "atan", "sinh", "cosh", "erf", "gelu", "gelu_tanh",
                           "softplus", "trunc", "reciprocal"})
        CHECK_MESSAGE(checked[op] >= 400, op);  // the element-wise math has its references
}

