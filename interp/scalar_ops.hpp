// The scalar fast path of binary() and compare(): arithmetic and comparisons
// on unboxed 0-d values (interp::Scalar), no stdlib::Tensor built at all.
//
// Inline because it is the interpreter's hottest code: `s = s + (i * i) % 7`
// runs three of these per iteration, and a call plus the general promotion
// cost as much as the arithmetic. Same semantics as stdlib::binary's 0-d
// path (same promotion, docs/builtins.md; the same element functions, so integers
// wrap); every case not covered here (bool, integer division by zero, an
// integer to a negative power...) returns false and the caller takes the
// general path.
#pragma once

#include <type_traits>

#include "interp/values/value.hpp"
#include "stdlib/elementwise_scalar.hpp"  // stdlib's one definition of each op per element

namespace tg::interp {

namespace scalar_detail {

template <class T>
T as(const Scalar& s) {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(s.f);
    else return static_cast<T>(s.i);
}

// Computes in T; the result has dtype `rdt`, weak when `rweak`.
template <class T>
inline bool typed(stdlib::BinaryKind k, const Scalar& a, const Scalar& b, stdlib::DType rdt, bool rweak, Scalar& out) {
    using B = stdlib::BinaryKind;
    namespace elem = stdlib::elem;
    const T x = as<T>(a), y = as<T>(b);
    // (the head written in place, as one 16-bit store: `out = Scalar::of_int(...)`
    // copied dtype and weak as two byte stores, and the caller's 16-bit load
    // of them waited for both)
    auto put = [&](T v) {
        out.set_head(rdt, rweak);
        if constexpr (std::is_floating_point_v<T>) out.f = static_cast<double>(v);
        else out.i = static_cast<int64_t>(v);
        return true;
    };
    auto put_bool = [&](bool v) {
        out.set_head(stdlib::DType::Bool, false);
        out.i = v ? 1 : 0;
        return true;
    };
    switch (k) {
    case B::Add: return put(elem::Add::f(x, y));
    case B::Sub: return put(elem::Sub::f(x, y));
    case B::Mul: return put(elem::Mul::f(x, y));
    case B::Div:
        if constexpr (std::is_floating_point_v<T>) return put(elem::Div::f(x, y));
        return false;
    case B::FloorDiv:
        if (!std::is_floating_point_v<T> && y == 0) return false;
        return put(elem::FloorDiv::f(x, y));
    case B::Mod:
        if (!std::is_floating_point_v<T> && y == 0) return false;
        return put(elem::Mod::f(x, y));
    case B::Pow:  // (an int to a negative power is the general path's error)
        if (!std::is_floating_point_v<T> && y < 0) return false;
        return put(elem::Pow::f(x, y));
    case B::Eq: return put_bool(x == y);
    case B::Ne: return put_bool(x != y);
    case B::Lt: return put_bool(x < y);
    case B::Le: return put_bool(x <= y);
    case B::Gt: return put_bool(x > y);
    case B::Ge: return put_bool(x >= y);
    case B::Maximum: return put(elem::Maximum::f(x, y));  // max(a, b) on numbers (interp/scalar_builtins.hpp)
    case B::Minimum: return put(elem::Minimum::f(x, y));
    // (ints only: on floats these are the general path's error; a negative
    // shift count too)
    case B::BitAnd:
        if constexpr (std::is_floating_point_v<T>) return false;
        else return put(elem::BitAnd::f(x, y));
    case B::BitOr:
        if constexpr (std::is_floating_point_v<T>) return false;
        else return put(elem::BitOr::f(x, y));
    case B::BitXor:
        if constexpr (std::is_floating_point_v<T>) return false;
        else return put(elem::BitXor::f(x, y));
    case B::LeftShift:
        if constexpr (std::is_floating_point_v<T>) return false;
        else return y >= 0 && put(elem::LeftShift::f(x, y));
    case B::RightShift:
        if constexpr (std::is_floating_point_v<T>) return false;
        else return y >= 0 && put(elem::RightShift::f(x, y));
    default: return false;  // not on the fast path: the general path computes it (no kind is lost here)
    }
}

// An int with a float (`2 * x`, `i * 0.5`, `x > 4`): the promotion of
// stdlib::promote (a float result: an int operand takes the float's dtype, a
// weak float with a strong int gives f32), both operands converted to the
// compute dtype first, as stdlib::binary's 0-d path does.
template <class T>
inline T as_compute(const Scalar& s) {
    return stdlib::is_float(s.dtype) ? static_cast<T>(s.f) : static_cast<T>(s.i);
}
inline bool int_with_float(stdlib::BinaryKind k, const Scalar& a, const Scalar& b, Scalar& out) {
    using stdlib::DType;
    const stdlib::Promoted p = stdlib::promote(a.dtype, a.weak, b.dtype, b.weak);
    if (!stdlib::is_float(p.dtype)) return false;
    const DType compute = p.weak ? stdlib::weak_compute_dtype(p.dtype) : p.dtype;
    Scalar x = a, y = b;  // the operands in the compute dtype's kind (typed() reads .f for floats)
    if (compute == DType::F32) {
        x.f = static_cast<double>(as_compute<float>(a));
        y.f = static_cast<double>(as_compute<float>(b));
        return typed<float>(k, x, y, p.dtype, p.weak, out);
    }
    x.f = as_compute<double>(a);
    y.f = as_compute<double>(b);
    return typed<double>(k, x, y, p.dtype, p.weak, out);
}

// Operands of different dtypes.
inline bool promoted(stdlib::BinaryKind k, const Scalar& a, const Scalar& b, Scalar& out) {
    using stdlib::DType;
    if (a.dtype == DType::Bool || b.dtype == DType::Bool) return false;
    const bool af = stdlib::is_float(a.dtype);
    if (af != stdlib::is_float(b.dtype)) return int_with_float(k, a, b, out);
    // Within one kind, promotion is simple (docs/builtins.md): a weak operand takes
    // the other's dtype, two strong ones the larger, two weak ones stay weak
    // (computed as i64 / f64). Same as stdlib::promote for these cases.
    DType rd;
    const bool rw = a.weak && b.weak;
    if (rw) rd = af ? DType::F32 : DType::I64;
    else if (a.weak) rd = b.dtype;
    else if (b.weak) rd = a.dtype;
    else rd = a.dtype > b.dtype ? a.dtype : b.dtype;
    const DType compute = rw ? (af ? DType::F64 : DType::I64) : rd;
    switch (compute) {
    case DType::I64: return typed<int64_t>(k, a, b, rd, rw, out);
    case DType::I32: return typed<int32_t>(k, a, b, rd, rw, out);
    case DType::F32: return typed<float>(k, a, b, rd, rw, out);
    case DType::F64: return typed<double>(k, a, b, rd, rw, out);
    default: return false;
    }
}

}  // namespace scalar_detail

// Returns false for every case it does not cover (the general path then runs).
// (always inline: in run_code's loop the compiler's own budget dropped it
// whenever the loop grew, and a call per operation cost ~5 % of a call-heavy program)
[[gnu::always_inline]] inline bool scalar_binary(stdlib::BinaryKind k, const Scalar& a, const Scalar& b, Scalar& out) {
    using stdlib::DType;
    // tg's ints (i64, weak or not: the result is i64, weak only when both
    // are) skip the promotion — what promoted() would decide for them.
    if (a.dtype == DType::I64 && b.dtype == DType::I64)
        return scalar_detail::typed<int64_t>(k, a, b, DType::I64, a.weak && b.weak, out);
    // A strong f64 with an f64, a weak int or a weak float (`zr * zr`,
    // `2 * zr`, `x - 1.5`): the result is a strong f64, computed in double —
    // what promoted() and int_with_float() decide for them, without the
    // general promotion. (A weak float holds its double: promoted() reads it as is.)
    if (const bool a64 = a.dtype == DType::F64 && !a.weak, b64 = b.dtype == DType::F64 && !b.weak; a64 || b64) {
        const Scalar& other = a64 ? b : a;
        if (other.dtype == DType::F64 || (other.weak && (other.dtype == DType::I64 || other.dtype == DType::F32))) {
            Scalar x = a, y = b;
            if (x.dtype == DType::I64) x.f = static_cast<double>(a.i);
            if (y.dtype == DType::I64) y.f = static_cast<double>(b.i);
            return scalar_detail::typed<double>(k, x, y, DType::F64, false, out);
        }
    }
    return scalar_detail::promoted(k, a, b, out);
}

// -a for a number (stdlib's Neg: the same dtype, a weak operand stays
// weak, ints wrap, the sign of a float's zero flips); false for a bool (the
// general path's error).
[[gnu::always_inline]] inline bool scalar_negate(const Scalar& a, Scalar& out) {
    using stdlib::DType;
    switch (a.dtype) {
    case DType::I64: out = a, out.i = stdlib::elem::Neg::f(a.i); return true;
    case DType::I32: out = a, out.i = stdlib::elem::Neg::f(static_cast<int32_t>(a.i)); return true;
    case DType::F32: case DType::F64: out = a, out.f = -a.f; return true;
    default: return false;
    }
}

}  // namespace tg::interp
