// Vectorizable exp, log, tanh and sigmoid for f32 and f64, used by the eager
// kernels. Branch-free (selects, no calls), so loops over them vectorize.
//
// The JIT (codegen/) emits exactly these algorithms, so eager and compiled
// results are bit-identical: keep every operation and its order as written.
// stdlib is compiled with -ffp-contract=off (no FMA contraction); compiled
// code must not contract or reassociate these operations either.
//
// Accuracy (tests/stdlib/test_core_fastmath.cpp): within 3 ulps of the
// correctly rounded result over the whole range, with IEEE special values
// (exp(-inf) = 0, exp(inf) = inf, log(0) = -inf, log(x < 0) = nan,
// tanh(+-inf) = +-1, sigmoid(-inf) = 0, NaN in -> NaN out).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tg::stdlib::fastmath {

namespace detail {

template <class T> struct Bits;
template <> struct Bits<float> {
    using Int = int32_t;
    static constexpr int kMantissa = 23;
    static constexpr Int kBias = 127;
    static constexpr Int kExpMask = 0xff;
};
template <> struct Bits<double> {
    using Int = int64_t;
    static constexpr int kMantissa = 52;
    static constexpr Int kBias = 1023;
    static constexpr Int kExpMask = 0x7ff;
};

// 2^k for k in the normal exponent range.
template <class T>
inline T pow2i(typename Bits<T>::Int k) {
    using B = Bits<T>;
    return std::bit_cast<T>(static_cast<typename B::Int>((k + B::kBias) << B::kMantissa));
}

}  // namespace detail

// exp(x) = 2^n * e^r with n = round(x / ln 2), r = x - n ln 2 (Cody-Waite
// split of ln 2), e^r by its Taylor polynomial (degree 7 for f32, 13 for
// f64; |r| <= 0.35), and 2^n applied as two factors so that overflow gives
// inf and underflow rounds once into the subnormals.
template <class T>
inline T exp(T x) {
    using B = detail::Bits<T>;
    using I = typename B::Int;
    constexpr bool f32 = sizeof(T) == 4;
    constexpr T lo = f32 ? T(-104.0) : T(-746.0);  // exp(lo) rounds to 0
    constexpr T hi = f32 ? T(89.0) : T(710.0);     // exp(hi) overflows to inf
    constexpr T log2e = T(1.4426950408889634);
    constexpr T ln2_hi = f32 ? T(0.693359375) : T(6.93145751953125e-1);
    constexpr T ln2_lo = f32 ? T(-2.12194440e-4) : T(1.42860682030941723212e-6);
    constexpr T shifter = f32 ? T(12582912.0) : T(6755399441055744.0);  // 1.5 * 2^mantissa
    T xc = x < lo ? lo : x;  // NaN passes through both
    xc = xc > hi ? hi : xc;
    const T t = xc * log2e + shifter;  // rounds xc * log2e to an integer in the low bits
    const T n = t - shifter;
    const I ni = std::bit_cast<I>(t) - std::bit_cast<I>(shifter);
    const T r = (xc - n * ln2_hi) - n * ln2_lo;
    T p;
    if constexpr (f32) {
        p = T(1.0 / 5040);
        p = p * r + T(1.0 / 720);
        p = p * r + T(1.0 / 120);
        p = p * r + T(1.0 / 24);
        p = p * r + T(1.0 / 6);
        p = p * r + T(0.5);
        p = p * r + T(1);
        p = p * r + T(1);
    } else {
        p = T(1.0 / 6227020800.0);  // 1/13!
        p = p * r + T(1.0 / 479001600.0);
        p = p * r + T(1.0 / 39916800.0);
        p = p * r + T(1.0 / 3628800.0);
        p = p * r + T(1.0 / 362880.0);
        p = p * r + T(1.0 / 40320.0);
        p = p * r + T(1.0 / 5040.0);
        p = p * r + T(1.0 / 720.0);
        p = p * r + T(1.0 / 120.0);
        p = p * r + T(1.0 / 24.0);
        p = p * r + T(1.0 / 6.0);
        p = p * r + T(0.5);
        p = p * r + T(1);
        p = p * r + T(1);
    }
    const I n1 = ni >> 1, n2 = ni - n1;
    return p * detail::pow2i<T>(n1) * detail::pow2i<T>(n2);
}

// log(x) = e ln 2 + log(m), m in [sqrt(1/2), sqrt(2)), with fdlibm's
// reduction: f = m - 1, s = f / (2 + f), log(m) = f - (hf - s (hf + R(s^2))),
// hf = f^2 / 2, R(z) = 2z/3 + 2z^2/5 + ... (the atanh series; 6 terms for
// f32, 11 for f64).
template <class T>
inline T log(T x) {
    using B = detail::Bits<T>;
    using I = typename B::Int;
    constexpr bool f32 = sizeof(T) == 4;
    constexpr T ln2_hi = f32 ? T(0.693359375) : T(6.93147180369123816490e-01);
    constexpr T ln2_lo = f32 ? T(-2.12194440e-4) : T(1.90821492927058770002e-10);
    constexpr T sqrt2 = T(1.4142135623730951);
    // Subnormals: scale into the normal range first.
    const bool tiny = x < std::numeric_limits<T>::min();
    const T xs = tiny ? x * detail::pow2i<T>(B::kMantissa) : x;
    const I bits = std::bit_cast<I>(xs);
    I e = ((bits >> B::kMantissa) & B::kExpMask) - B::kBias - (tiny ? I(B::kMantissa) : I(0));
    T m = std::bit_cast<T>(static_cast<I>((bits & ((I(1) << B::kMantissa) - 1)) | (B::kBias << B::kMantissa)));
    const bool big = m > sqrt2;
    m = big ? m * T(0.5) : m;
    e = big ? e + 1 : e;
    const T f = m - T(1);
    const T s = f / (T(2) + f);
    const T z = s * s;
    T R;
    if constexpr (f32) {
        R = T(2.0 / 13);
        R = R * z + T(2.0 / 11);
        R = R * z + T(2.0 / 9);
        R = R * z + T(2.0 / 7);
        R = R * z + T(2.0 / 5);
        R = R * z + T(2.0 / 3);
    } else {
        R = T(2.0 / 23);
        R = R * z + T(2.0 / 21);
        R = R * z + T(2.0 / 19);
        R = R * z + T(2.0 / 17);
        R = R * z + T(2.0 / 15);
        R = R * z + T(2.0 / 13);
        R = R * z + T(2.0 / 11);
        R = R * z + T(2.0 / 9);
        R = R * z + T(2.0 / 7);
        R = R * z + T(2.0 / 5);
        R = R * z + T(2.0 / 3);
    }
    R = R * z;
    const T hf = T(0.5) * f * f;
    const T de = static_cast<T>(e);
    T r = de * ln2_hi - ((hf - (s * (hf + R) + de * ln2_lo)) - f);
    r = x < T(0) ? std::numeric_limits<T>::quiet_NaN() : r;
    r = x == T(0) ? -std::numeric_limits<T>::infinity() : r;
    r = x == std::numeric_limits<T>::infinity() ? x : r;
    r = x != x ? x : r;
    return r;
}

// tanh: for |x| < 0.625 an odd polynomial / rational function of x^2
// (Cephes tanhf / tanh), otherwise 1 - 2 / (exp(2|x|) + 1); the sign of x is
// copied onto the result.
template <class T>
inline T tanh(T x) {
    constexpr bool f32 = sizeof(T) == 4;
    const T a = std::fabs(x);
    const T large = T(1) - T(2) / (exp(a + a) + T(1));
    const T z = a * a;
    T small;
    if constexpr (f32) {
        T p = T(-5.70498872745e-3);
        p = p * z + T(2.06390887954e-2);
        p = p * z + T(-5.37397155531e-2);
        p = p * z + T(1.33314422036e-1);
        p = p * z + T(-3.33332819422e-1);
        small = p * z * a + a;
    } else {
        T p = T(-9.64399179425052238628e-1);
        p = p * z + T(-9.92877231001918586564e1);
        p = p * z + T(-1.61468768441708447952e3);
        T q = z + T(1.12811678491632931402e2);
        q = q * z + T(2.23548839060100448583e3);
        q = q * z + T(4.84406305325125486048e3);
        small = a + a * z * (p / q);
    }
    const T r = a < T(0.625) ? small : large;
    return std::copysign(r, x);
}

// sigmoid(x) = 1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0, e = exp(-|x|):
// no overflow and full relative accuracy in both tails.
template <class T>
inline T sigmoid(T x) {
    const T e = exp(-std::fabs(x));
    const T s = T(1) / (T(1) + e);
    return x >= T(0) ? s : e * s;
}

}  // namespace tg::stdlib::fastmath
