// NumPy's element-wise functions the op table has no row for (docs/numpy.md):
// logical_and/or/xor, fmod, fmax, fmin, hypot, exp2, cbrt, copysign,
// signbit, nan_to_num, array_equal, heaviside, deg2rad/rad2deg (and
// radians/degrees). Each is a composition of table ops chosen to give NumPy's
// value exactly where it can (fmod through `%` of the magnitudes, which is
// exact; f32 hypot and cbrt computed in f64 and rounded once; f64 cbrt with a
// Newton step), so they trace, fuse and differentiate as those ops.
#include <cmath>
#include <limits>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using stdlib::BinaryKind;
using stdlib::DType;
using stdlib::UnaryKind;

Value zero() { return Value::weak_int(0); }

// The common float dtype of two operands: their promotion, f32 for bool and integers
DType float_of(const Value& a, const Value& b) {
    const stdlib::TensorType x = a.tensor_type(), y = b.tensor_type();
    const DType d = stdlib::promote(x.dtype, x.weak, y.dtype, y.weak).dtype;
    return stdlib::is_float(d) ? d : DType::F32;
}

bool is_float_value(const Value& x) { return stdlib::is_float(x.tensor_type().dtype); }

// x < 0, and -0.0 too (its reciprocal is -inf); NaN is False whatever its sign bit
Value signbit(Compose& c, const Value& x) {
    const Value neg = c.bin(BinaryKind::Lt, x, zero());
    if (!is_float_value(x)) return neg;
    const Value neg_zero = c.bin(BinaryKind::BitAnd, c.bin(BinaryKind::Eq, x, zero()),
                                 c.bin(BinaryKind::Lt, c.un(UnaryKind::Reciprocal, x), zero()));
    return c.bin(BinaryKind::BitOr, neg, neg_zero);
}

Value negate_where(Compose& c, const Value& cond, const Value& x) { return c.where(cond, c.un(UnaryKind::Neg, x), x); }

// fmod: C's remainder, the sign of x1: Python's % of the magnitudes (exact,
// no adjustment since both are non-negative), given x1's sign
Value fmod(Compose& c, const Value& a, const Value& b) {
    const Value m = c.bin(BinaryKind::Mod, c.un(UnaryKind::Abs, a), c.un(UnaryKind::Abs, b));
    return negate_where(c, signbit(c, a), m);
}

// fmax / fmin: the other operand where one is NaN
Value fminmax(Compose& c, const Value& a, const Value& b, bool is_max) {
    const Value m = c.bin(is_max ? BinaryKind::Maximum : BinaryKind::Minimum, a, b);
    return c.where(c.un(UnaryKind::IsNan, b), a, c.where(c.un(UnaryKind::IsNan, a), b, m));
}

// hypot: f32 as sqrt(a^2 + b^2) in f64 rounded once (no overflow, NumPy's
// value); f64 scaled by the larger magnitude; inf wins over NaN, as C's
Value hypot(Compose& c, const Value& a, const Value& b) {
    const DType d = float_of(a, b);
    Value h;
    if (d == DType::F32) {
        const Value x = np::astype(c, a, DType::F64), y = np::astype(c, b, DType::F64);
        h = np::astype(c, c.un(UnaryKind::Sqrt, c.add(c.mul(x, x), c.mul(y, y))), DType::F32);
    } else {
        const Value x = c.un(UnaryKind::Abs, np::astype(c, a, d)), y = c.un(UnaryKind::Abs, np::astype(c, b, d));
        const Value hi = c.bin(BinaryKind::Maximum, x, y), lo = c.bin(BinaryKind::Minimum, x, y);
        const Value r = c.div(lo, c.where(c.bin(BinaryKind::Eq, hi, zero()), Compose::num(1.0), hi));
        h = c.mul(hi, c.un(UnaryKind::Sqrt, c.add(Compose::num(1.0), c.mul(r, r))));
    }
    const Value inf = c.bin(BinaryKind::BitOr, c.un(UnaryKind::IsInf, a), c.un(UnaryKind::IsInf, b));
    return c.where(inf, Compose::num(INFINITY), h);
}

// cbrt: |x|^(1/3) with x's sign; f32 computed in f64 and rounded once, f64
// refined by one Newton step (cbrt(27.0) is 3.0), 0 and inf left as they are
Value cbrt(Compose& c, const Value& x0) {
    const DType d = np::float_dtype(x0);
    const Value x = np::astype(c, x0, d == DType::F32 ? DType::F64 : d);
    const Value ax = c.un(UnaryKind::Abs, x);
    Value y = c.bin(BinaryKind::Pow, ax, Compose::num(1.0 / 3.0));
    if (d == DType::F64) {
        const Value y2 = c.mul(y, y);
        const Value step = c.div(c.sub(c.mul(y2, y), ax), c.mul(Compose::num(3.0), y2));
        const Value ok = c.bin(BinaryKind::BitAnd, c.un(UnaryKind::IsFinite, y), c.bin(BinaryKind::Gt, y, zero()));
        y = c.where(ok, c.sub(y, step), y);
    }
    return np::astype(c, negate_where(c, signbit(c, x), y), d);
}

Value copysign(Compose& c, const Value& a, const Value& b) {
    const Value m = c.un(UnaryKind::Abs, np::astype(c, a, float_of(a, b)));
    return negate_where(c, signbit(c, b), m);
}

// heaviside(x1, x2): 0 below zero, x2 at zero, 1 above; NaN stays NaN
Value heaviside(Compose& c, const Value& a0, const Value& b0) {
    const DType d = float_of(a0, b0);
    const Value a = np::astype(c, a0, d), b = np::astype(c, b0, d);
    const Value step = c.where(c.bin(BinaryKind::Lt, a, zero()), Compose::num(0.0),
                               c.where(c.bin(BinaryKind::Gt, a, zero()), Compose::num(1.0), b));
    return c.where(c.un(UnaryKind::IsNan, a), a, step);
}

Value logical(Compose& c, BinaryKind k, const Value& a, const Value& b) {
    return c.bin(k, c.bin(BinaryKind::Ne, a, zero()), c.bin(BinaryKind::Ne, b, zero()));
}

using Binary = Value (*)(Compose&, const Value&, const Value&);
using Unary = Value (*)(Compose&, const Value&);

Value call_binary(Runtime& rt, const CallArgs& a, const std::string& fn, Binary f) {
    const auto args = bind_args(fn, a, {"x1", "x2"}, 2);
    Compose c{rt};
    return f(c, tensor_operand(*args[0], arg(fn, "x1")), tensor_operand(*args[1], arg(fn, "x2")));
}

Value call_unary(Runtime& rt, const CallArgs& a, const std::string& fn, Unary f) {
    const auto args = bind_args(fn, a, {"x"}, 1);
    Compose c{rt};
    return f(c, tensor_operand(*args[0], arg(fn, "x")));
}

// nan_to_num(x, nan=0.0, posinf=None, neginf=None): None is the dtype's largest / smallest finite value
Value nan_to_num(Runtime& rt, const CallArgs& a) {
    const std::string fn = "nan_to_num";
    const auto args = bind_args(fn, a, {"x", "nan", "posinf", "neginf"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    if (!is_float_value(x)) return x;
    const double big = x.tensor_type().dtype == DType::F32 ? std::numeric_limits<float>::max()
                                                           : std::numeric_limits<double>::max();
    auto number = [&](const Value* v, const char* name, double dflt) {
        return Compose::num(is_none(v) ? dflt : static_number(*v, arg(fn, name)));
    };
    Value y = c.where(c.un(UnaryKind::IsNan, x), number(args[1], "nan", 0.0), x);
    y = c.where(c.bin(BinaryKind::Eq, x, Compose::num(INFINITY)), number(args[2], "posinf", big), y);
    return c.where(c.bin(BinaryKind::Eq, x, Compose::num(-INFINITY)), number(args[3], "neginf", -big), y);
}

// array_equal(a1, a2, equal_nan=False): False for different shapes, else all(a1 == a2)
Value array_equal(Runtime& rt, const CallArgs& a) {
    const std::string fn = "array_equal";
    const auto args = bind_args(fn, a, {"a1", "a2", "equal_nan"}, 2);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "a1"));
    const Value y = tensor_operand(*args[1], arg(fn, "a2"));
    const bool equal_nan = args[2] && static_bool(*args[2], arg(fn, "equal_nan"));
    if (!(np::shape_of(x) == np::shape_of(y))) return Value::from_bool(false);
    Value eq = c.bin(BinaryKind::Eq, x, y);
    if (equal_nan)
        eq = c.bin(BinaryKind::BitOr, eq, c.bin(BinaryKind::BitAnd, c.un(UnaryKind::IsNan, x), c.un(UnaryKind::IsNan, y)));
    return np::reduce(c, stdlib::ReduceKind::All, eq, std::nullopt);
}

}  // namespace

void add_np_elementwise_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto binary = [&](const char* name, Binary f) {
        np::add(out, name, [fn = std::string(name), f](Runtime& rt, const CallArgs& a) { return call_binary(rt, a, fn, f); });
    };
    auto unary = [&](const char* name, Unary f) {
        np::add(out, name, [fn = std::string(name), f](Runtime& rt, const CallArgs& a) { return call_unary(rt, a, fn, f); });
    };
    binary("logical_and", [](Compose& c, const Value& a, const Value& b) { return logical(c, BinaryKind::BitAnd, a, b); });
    binary("logical_or", [](Compose& c, const Value& a, const Value& b) { return logical(c, BinaryKind::BitOr, a, b); });
    binary("logical_xor", [](Compose& c, const Value& a, const Value& b) { return logical(c, BinaryKind::BitXor, a, b); });
    binary("fmod", fmod);
    binary("fmax", [](Compose& c, const Value& a, const Value& b) { return fminmax(c, a, b, true); });
    binary("fmin", [](Compose& c, const Value& a, const Value& b) { return fminmax(c, a, b, false); });
    binary("hypot", hypot);
    binary("copysign", copysign);
    binary("heaviside", heaviside);
    unary("signbit", signbit);
    unary("cbrt", cbrt);
    unary("exp2", [](Compose& c, const Value& x) {
        return c.bin(BinaryKind::Pow, Compose::num(2.0), np::astype(c, x, np::float_dtype(x)));
    });
    for (const char* name : {"deg2rad", "radians"})
        unary(name, [](Compose& c, const Value& x) { return c.mul(x, Compose::num(M_PI / 180.0)); });
    for (const char* name : {"rad2deg", "degrees"})
        unary(name, [](Compose& c, const Value& x) { return c.mul(x, Compose::num(180.0 / M_PI)); });
    np::add(out, "nan_to_num", nan_to_num);
    np::add(out, "array_equal", array_equal);
}

}  // namespace tg::interp
