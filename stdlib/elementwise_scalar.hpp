// The element functions of every element-wise op: one definition of what
// each op computes per element, used by the 0-d fast path and by the loops.
// Integer arithmetic is done in unsigned types so overflow wraps without UB.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "stdlib/fastmath.hpp"

namespace tg::stdlib::elem {

template <class T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class T>
using U = std::make_unsigned_t<T>;

// ---- binary

struct Add {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_same_v<T, bool>) return a || b;
        else if constexpr (kIsInt<T>) return static_cast<T>(U<T>(a) + U<T>(b));
        else return a + b;
    }
};
struct Sub {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_same_v<T, bool>) return a != b;  // unreachable: rejected by the signature
        else if constexpr (kIsInt<T>) return static_cast<T>(U<T>(a) - U<T>(b));
        else return a - b;
    }
};
struct Mul {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_same_v<T, bool>) return a && b;
        else if constexpr (kIsInt<T>) return static_cast<T>(U<T>(a) * U<T>(b));
        else return a * b;
    }
};
struct Div {  // float only (ints are converted to f32 first)
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T>) return a / b;
        else return a;  // unreachable
    }
};
// Python's floor division. Integers: b != 0 is checked by the caller;
// INT_MIN // -1 wraps. Floats: NumPy's npy_divmod (b == 0 gives a / b).
struct FloorDiv {
    template <class T> static T f(T a, T b) {
        if constexpr (kIsInt<T>) {
            if (b == -1) return static_cast<T>(U<T>(0) - U<T>(a));
            T q = a / b, r = a % b;
            return (r != 0 && ((r < 0) != (b < 0))) ? T(q - 1) : q;
        } else if constexpr (std::is_floating_point_v<T>) {
            if (b == 0) return a / b;
            T mod = std::fmod(a, b);
            T div = (a - mod) / b;
            if (mod != 0) {
                if ((b < 0) != (mod < 0)) div -= T(1);
            }
            T floordiv;
            if (div != 0) {
                floordiv = std::floor(div);
                if (div - floordiv > T(0.5)) floordiv += T(1);
            } else {
                floordiv = std::copysign(T(0), a / b);
            }
            return floordiv;
        } else {
            return a;  // unreachable
        }
    }
};
// Python's modulo: the sign follows the divisor.
struct Mod {
    template <class T> static T f(T a, T b) {
        if constexpr (kIsInt<T>) {
            if (b == -1) return T(0);
            T r = a % b;
            return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
        } else if constexpr (std::is_floating_point_v<T>) {
            T mod = std::fmod(a, b);
            if (b == 0) return mod;
            if (mod != 0) {
                if ((b < 0) != (mod < 0)) mod += b;
            } else {
                mod = std::copysign(T(0), b);
            }
            return mod;
        } else {
            return a;  // unreachable
        }
    }
};
// Integers: b >= 0 is checked by the caller; wraps on overflow.
struct Pow {
    template <class T> static T f(T a, T b) {
        if constexpr (kIsInt<T>) {
            U<T> base = U<T>(a), result = 1;
            U<T> e = U<T>(b);
            while (e) {
                if (e & 1) result *= base;
                base *= base;
                e >>= 1;
            }
            return static_cast<T>(result);
        } else if constexpr (std::is_floating_point_v<T>) {
            return std::pow(a, b);
        } else {
            return a;  // unreachable
        }
    }
};
// NaN-propagating, like NumPy's maximum / minimum; between equal values
// (0.0 and -0.0) the second operand, as NumPy gives.
struct Maximum {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T>) return (a > b || a != a) ? a : b;
        else return a > b ? a : b;
    }
};
struct Minimum {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T>) return (a < b || a != a) ? a : b;
        else return a < b ? a : b;
    }
};
struct Eq { template <class T> static bool f(T a, T b) { return a == b; } };
struct Ne { template <class T> static bool f(T a, T b) { return a != b; } };
struct Lt { template <class T> static bool f(T a, T b) { return a < b; } };
struct Le { template <class T> static bool f(T a, T b) { return a <= b; } };
struct Gt { template <class T> static bool f(T a, T b) { return a > b; } };
struct Ge { template <class T> static bool f(T a, T b) { return a >= b; } };
struct BitAnd {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T>) return a;  // unreachable
        else return static_cast<T>(a & b);
    }
};
struct BitOr {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T>) return a;  // unreachable
        else return static_cast<T>(a | b);
    }
};
// NumPy's arctan2 (libm's atan2: the quadrant from the signs of both).
struct Atan2 { template <class T> static T f(T y, T x) { if constexpr (std::is_floating_point_v<T>) return std::atan2(y, x); else return y; } };
// NumPy's npy_logaddexp: the larger plus log1p(exp(-|a - b|)), which never
// overflows; equal operands give a + log(2) (so inf and inf give inf, not NaN).
struct Logaddexp {
    template <class T>
    static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T>) {
            if (a == b) return a + T(0.693147180559945309417232121458176568L);
            const T d = a - b;
            if (d > 0) return a + std::log1p(std::exp(-d));
            if (d <= 0) return b + std::log1p(std::exp(d));
            return d;  // NaN
        } else {
            return a;  // never reached: the signature makes integers f32
        }
    }
};
struct BitXor {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T>) return a;  // unreachable
        else return static_cast<T>(a ^ b);
    }
};
// NumPy's npy_lshift / npy_rshift: a count of the width or more shifts
// everything out (0; -1 for a negative a shifted right). A negative count
// never arrives: the row's integer check raises first. Shifted as unsigned,
// so bits leave at the top without undefined behaviour (the result wraps).
struct LeftShift {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bool>) return a;  // unreachable
        else {
            using UT = std::make_unsigned_t<T>;
            if (b < 0 || b >= T(sizeof(T) * 8)) return T(0);
            return static_cast<T>(static_cast<UT>(static_cast<UT>(a) << b));
        }
    }
};
struct RightShift {
    template <class T> static T f(T a, T b) {
        if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bool>) return a;  // unreachable
        else {
            if (b < 0 || b >= T(sizeof(T) * 8)) return a < 0 ? T(-1) : T(0);
            return static_cast<T>(a >> b);  // arithmetic on signed values (C++20)
        }
    }
};

// ---- unary (R is the result type, T the compute type)

// Float functions are only called with float T (ints are converted to f32
// first); the integer instantiations exist but never run.
template <class T, class F>
inline T float_only(T x, F f) {
    if constexpr (std::is_floating_point_v<T>) return f(x);
    else return x;
}

struct Neg {
    template <class T> static T f(T x) {
        if constexpr (kIsInt<T>) return static_cast<T>(U<T>(0) - U<T>(x));
        else if constexpr (std::is_same_v<T, bool>) return x;  // unreachable
        else return -x;
    }
};
struct Invert {
    template <class T> static T f(T x) {
        if constexpr (std::is_same_v<T, bool>) return !x;
        else if constexpr (kIsInt<T>) return static_cast<T>(~x);
        else return x;  // unreachable
    }
};
struct LogicalNot { template <class T> static bool f(T x) { return x == T(0); } };
struct Abs {
    template <class T> static T f(T x) {
        if constexpr (kIsInt<T>) return x < 0 ? static_cast<T>(U<T>(0) - U<T>(x)) : x;
        else if constexpr (std::is_same_v<T, bool>) return x;
        else return std::fabs(x);
    }
};
struct Exp { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return fastmath::exp(v); }); } };
struct Log { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return fastmath::log(v); }); } };
struct Expm1 { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::expm1(v); }); } };
struct Log1p { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::log1p(v); }); } };
struct Sqrt { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::sqrt(v); }); } };
struct Rsqrt { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return decltype(v)(1) / std::sqrt(v); }); } };
struct Sin { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::sin(v); }); } };
struct Cos { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::cos(v); }); } };
struct Tan { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::tan(v); }); } };
struct Tanh { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return fastmath::tanh(v); }); } };
struct Sigmoid { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return fastmath::sigmoid(v); }); } };
struct Relu {
    template <class T> static T f(T x) {
        if constexpr (std::is_same_v<T, bool>) return x;
        else return x < T(0) ? T(0) : x;  // NaN stays NaN
    }
};
struct Floor {
    template <class T> static T f(T x) {
        if constexpr (std::is_floating_point_v<T>) return std::floor(x);
        else return x;
    }
};
struct Ceil {
    template <class T> static T f(T x) {
        if constexpr (std::is_floating_point_v<T>) return std::ceil(x);
        else return x;
    }
};
// Half to even (NumPy's round): nearbyint in the default rounding mode.
struct Round {
    template <class T> static T f(T x) {
        if constexpr (std::is_floating_point_v<T>) return std::nearbyint(x);
        else return x;
    }
};
struct Sign {
    template <class T> static T f(T x) {
        if constexpr (std::is_same_v<T, bool>) return x;
        // NumPy's: +0 for both zeros, NaN stays NaN
        else if constexpr (std::is_floating_point_v<T>) return x > T(0) ? T(1) : (x < T(0) ? T(-1) : (x == T(0) ? T(0) : x));
        else return static_cast<T>((x > 0) - (x < 0));
    }
};
struct Square {
    template <class T> static T f(T x) { return Mul::f(x, x); }
};
struct IsNan {
    template <class T> static bool f(T x) {
        if constexpr (std::is_floating_point_v<T>) return x != x;
        else return false;
    }
};
struct IsFinite {
    template <class T> static bool f(T x) {
        if constexpr (std::is_floating_point_v<T>) return x - x == T(0);  // false for inf and NaN
        else return true;
    }
};
struct IsInf {
    template <class T> static bool f(T x) {
        if constexpr (std::is_floating_point_v<T>) return std::fabs(x) == std::numeric_limits<T>::infinity();
        else return false;
    }
};
// libm's functions (what NumPy calls for these): compiled code calls these
// functors through the runtime, so it is bit-identical to eager.
struct Log2 { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::log2(v); }); } };
struct Log10 { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::log10(v); }); } };
struct Asin { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::asin(v); }); } };
struct Acos { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::acos(v); }); } };
struct Atan { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::atan(v); }); } };
struct Sinh { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::sinh(v); }); } };
struct Cosh { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::cosh(v); }); } };
struct Erf { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return std::erf(v); }); } };
// x * Phi(x), Phi the standard normal CDF, as 0.5 * x * erfc(-x / sqrt(2))
// (1 + erf(...) would cancel to 0 for x << 0). Computed in f64 also for f32:
// erfc's argument carries |x|^2 / 2 times its rounding error into the result.
struct Gelu {
    template <class T> static T f(T x) {
        return float_only<T>(x, [](auto v) {
            const double d = static_cast<double>(v);
            return static_cast<decltype(v)>(0.5 * d * std::erfc(-d * 0.70710678118654752440));
        });
    }
};
// The tanh approximation of gelu (PyTorch's approximate="tanh"),
// 0.5 * x * (1 + tanh(u)) with u = sqrt(2 / pi) * (x + 0.044715 x^3),
// computed as x / (1 + exp(-2u)) (the same without the cancellation at x << 0), in f64.
struct GeluTanh {
    template <class T> static T f(T x) {
        return float_only<T>(x, [](auto v) {
            const double d = static_cast<double>(v);
            const double u = 0.79788456080286535588 * (d + 0.044715 * d * d * d);
            return static_cast<decltype(v)>(d / (1.0 + std::exp(-2.0 * u)));
        });
    }
};
// NumPy's logaddexp(x, 0): x + log1p(exp(-x)) above 0, log1p(exp(x)) below;
// in f64 also for f32 (correctly rounded then, where f32 steps lose an ulp).
struct Softplus {
    template <class T> static T f(T x) {
        return float_only<T>(x, [](auto v) {
            const double d = static_cast<double>(v);
            double r = d;  // NaN
            if (d == 0) r = 0.69314718055994530942;
            else if (d > 0) r = d + std::log1p(std::exp(-d));
            else if (d < 0) r = std::log1p(std::exp(d));
            return static_cast<decltype(v)>(r);
        });
    }
};
struct Trunc {
    template <class T> static T f(T x) {
        if constexpr (std::is_floating_point_v<T>) return std::trunc(x);
        else return x;
    }
};
struct Reciprocal { template <class T> static T f(T x) { return float_only<T>(x, [](auto v) { return decltype(v)(1) / v; }); } };

}  // namespace tg::stdlib::elem
