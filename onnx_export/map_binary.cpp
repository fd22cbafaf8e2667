// Element-wise binary ops, where, clip and astype. Both operands are first
// converted to the dtype tg computes in (the promoted dtype; weak scalars are
// already resolved by the tracer), then:
//   //, % — Python's floor division and modulo (the sign of the divisor),
//           built from ONNX's truncating Div / fmod as tg's kernels do;
//   maximum, minimum — NaN propagates (ONNX's Max / Min need not);
//   bool + and * — or / and (NumPy's), order comparisons on bool via i32.
// Integer bitwise ops have no ONNX op before opset 18: an export error;
// << and >> go through BitShift on the unsigned type (shift below).
#include "onnx_export/mapping.hpp"

namespace tg::onnx_export {

using stdlib::BinaryKind;
using stdlib::DType;

std::string nan_max(Emitter& e, const std::string& a, const std::string& b, DType d, bool is_max) {
    const char* op = is_max ? "Max" : "Min";
    if (d == DType::Bool) return e.op(is_max ? "Or" : "And", {a, b}).out;
    if (!stdlib::is_float(d)) return e.op(op, {a, b}).out;
    // tg (and NumPy): a if it is NaN or wins, else b
    const std::string wins = e.op(is_max ? "Greater" : "Less", {a, b}).out;
    return e.where(e.op("Or", {wins, e.op("IsNaN", {a}).out}).out, a, b);
}

namespace {

std::string floor_div(Emitter& e, const std::string& a, const std::string& b, DType d) {
    auto f2 = [&](const char* op, const std::string& x, const std::string& y) { return e.op(op, {x, y}).out; };
    const std::string zero = e.scalar(0, d), one = e.scalar(1, d);
    if (!stdlib::is_float(d)) {
        // truncated quotient, one less when the remainder's sign differs from b's
        const std::string q = f2("Div", a, b);
        const std::string r = f2("Sub", a, f2("Mul", q, b));
        const std::string adjust = f2("And", e.op("Not", {f2("Equal", r, zero)}).out,
                                      f2("Xor", f2("Less", r, zero), f2("Less", b, zero)));
        return e.where(adjust, f2("Sub", q, one), q);
    }
    // CPython's float_floor_div
    const std::string mod = e.op("Mod", {a, b}).attr("fmod", int64_t{1}).out;
    std::string div = f2("Div", f2("Sub", a, mod), b);
    const std::string adjust = f2("And", e.op("Not", {f2("Equal", mod, zero)}).out,
                                  f2("Xor", f2("Less", b, zero), f2("Less", mod, zero)));
    div = e.where(adjust, f2("Sub", div, one), div);
    std::string fl = e.op("Floor", {div}).out;
    fl = e.where(f2("Greater", f2("Sub", div, fl), e.scalar(0.5, d)), f2("Add", fl, one), fl);
    return e.where(f2("Equal", b, zero), f2("Div", a, b), fl);
}

std::string py_mod(Emitter& e, const std::string& a, const std::string& b, DType d) {
    if (!stdlib::is_float(d)) return e.op("Mod", {a, b}).attr("fmod", int64_t{0}).out;  // ONNX: the sign of b
    auto f2 = [&](const char* op, const std::string& x, const std::string& y) { return e.op(op, {x, y}).out; };
    const std::string zero = e.scalar(0, d);
    const std::string mod = e.op("Mod", {a, b}).attr("fmod", int64_t{1}).out;
    const std::string adjust = f2("And", e.op("Not", {f2("Equal", mod, zero)}).out,
                                  f2("Xor", f2("Less", b, zero), f2("Less", mod, zero)));
    return e.where(f2("Equal", b, zero), mod, e.where(adjust, f2("Add", mod, b), mod));
}

// atan2(y, x) from atan(y / x) and the quadrant.
std::string atan2(Emitter& e, const std::string& y, const std::string& x, DType d) {
    auto f2 = [&](const char* op, const std::string& a, const std::string& b) { return e.op(op, {a, b}).out; };
    const std::string zero = e.scalar(0, d), pi = e.scalar(3.14159265358979323846, d);
    const std::string base = e.op("Atan", {f2("Div", y, x)}).out;
    const std::string y_neg = f2("Less", y, zero);
    const std::string left = e.where(y_neg, f2("Sub", base, pi), f2("Add", base, pi));
    const std::string on_axis = f2("Mul", e.op("Sign", {y}).out, e.scalar(1.57079632679489661923, d));
    return e.where(f2("Less", x, zero), left, e.where(f2("Equal", x, zero), on_axis, base));
}

// tg's (NumPy's) logaddexp: the larger plus log1p(exp(-|a - b|)); equal
// operands give a + log(2), so inf and inf stay inf. A NaN operand makes
// the difference NaN, and with it the result.
std::string logaddexp(Emitter& e, const std::string& a, const std::string& b, DType d) {
    auto f = [&](const char* op, const std::string& x) { return e.op(op, {x}).out; };
    auto f2 = [&](const char* op, const std::string& x, const std::string& y) { return e.op(op, {x, y}).out; };
    const std::string diff = f2("Sub", a, b);
    const std::string larger = e.where(f2("Greater", diff, e.scalar(0, d)), a, b);
    const std::string general = f2("Add", larger, log1p(e, f("Exp", f("Neg", f("Abs", diff))), d));
    const std::string same = f2("Add", a, e.scalar(0.693147180559945309417232121458176568, d));
    return e.where(f2("Equal", a, b), same, general);
}

// a << b / a >> b (elem::LeftShift / RightShift): ONNX's BitShift takes
// unsigned integers only, so the bits go through the unsigned type of the
// same width. A count of the width or more is clamped (the result of BitShift
// is not defined there); an arithmetic right shift of a negative a is
// ~((~a) >> b), with ~a written -1 - a (no integer Not before opset 18).
std::string shift(Emitter& e, const std::string& a, const std::string& b, DType d, bool left) {
    auto f2 = [&](const char* op, const std::string& x, const std::string& y) { return e.op(op, {x, y}).out; };
    const int64_t width = d == DType::I32 ? 32 : 64;
    const int64_t unsigned_type = d == DType::I32 ? 12 : 13;  // onnx.TensorProto UINT32 / UINT64
    auto to_unsigned = [&](const std::string& x) { return e.op("Cast", {x}).attr("to", unsigned_type).out; };
    auto from_unsigned = [&](const std::string& x) { return e.op("Cast", {x}).attr("to", int64_t{onnx_type(d)}).out; };
    const std::string count = to_unsigned(f2("Min", b, e.scalar(static_cast<double>(width - 1), d)));
    auto bit_shift = [&](const std::string& x) {
        return from_unsigned(e.op("BitShift", {to_unsigned(x), count}).attr("direction", std::string(left ? "LEFT" : "RIGHT")).out);
    };
    const std::string zero = e.scalar(0, d);
    if (left) return e.where(f2("GreaterOrEqual", b, e.scalar(static_cast<double>(width), d)), zero, bit_shift(a));
    const std::string minus_one = e.scalar(-1, d);
    const std::string negative = f2("Less", a, zero);
    const std::string shifted = bit_shift(e.where(negative, f2("Sub", minus_one, a), a));
    return e.where(negative, f2("Sub", minus_one, shifted), shifted);
}

DType compute_dtype(const stdlib::TensorType& a, const stdlib::TensorType& b) {
    const stdlib::Promoted p = stdlib::promote(a.dtype, a.weak, b.dtype, b.weak);
    return p.weak ? stdlib::weak_compute_dtype(p.dtype) : p.dtype;
}

}  // namespace

std::string map_binary(ApplyCtx& c, BinaryKind k) {
    Emitter& e = c.e;
    const DType d = stdlib::is_comparison(k) ? compute_dtype(c.in[0].type, c.in[1].type) : c.out_storage;
    const std::string a = c.arg(0, d), b = c.arg(1, d);
    const bool is_bool = d == DType::Bool;
    auto f2 = [&](const char* op, const std::string& x, const std::string& y) { return e.op(op, {x, y}).out; };
    // order comparisons have no bool version in ONNX
    auto ordered = [&](const char* op) {
        return is_bool ? f2(op, e.cast(a, d, DType::I32), e.cast(b, d, DType::I32)) : f2(op, a, b);
    };
    switch (k) {
        case BinaryKind::Add: return f2(is_bool ? "Or" : "Add", a, b);
        case BinaryKind::Sub: return f2("Sub", a, b);
        case BinaryKind::Mul: return f2(is_bool ? "And" : "Mul", a, b);
        case BinaryKind::Div: return f2("Div", a, b);
        case BinaryKind::FloorDiv: return floor_div(e, a, b, d);
        case BinaryKind::Mod: return py_mod(e, a, b, d);
        case BinaryKind::Pow: return f2("Pow", a, b);
        case BinaryKind::Maximum: return nan_max(e, a, b, d, true);
        case BinaryKind::Minimum: return nan_max(e, a, b, d, false);
        case BinaryKind::Eq: return f2("Equal", a, b);
        case BinaryKind::Ne: return e.op("Not", {f2("Equal", a, b)}).out;
        case BinaryKind::Lt: return ordered("Less");
        case BinaryKind::Le: return ordered("LessOrEqual");
        case BinaryKind::Gt: return ordered("Greater");
        case BinaryKind::Ge: return ordered("GreaterOrEqual");
        case BinaryKind::BitAnd:
        case BinaryKind::BitOr:
        case BinaryKind::BitXor:
            if (!is_bool) c.fail("ONNX opset 17 has no bitwise ops on integers (only on bool)");
            return f2(k == BinaryKind::BitAnd ? "And" : k == BinaryKind::BitOr ? "Or" : "Xor", a, b);
        case BinaryKind::LeftShift: return shift(e, a, b, d, true);
        case BinaryKind::RightShift: return shift(e, a, b, d, false);
        case BinaryKind::Atan2: return atan2(e, a, b, d);
        case BinaryKind::Logaddexp: return logaddexp(e, a, b, d);
    }
    c.fail("no mapping");
}

std::string map_select(ApplyCtx& c, stdlib::ElementwiseKind k) {
    Emitter& e = c.e;
    const DType d = c.out_storage;
    switch (k) {
        case stdlib::ElementwiseKind::Where:
            return e.select(e.nonzero(c.in[0].name, c.in[0].storage), c.arg(1, d), c.arg(2, d), d);
        case stdlib::ElementwiseKind::Clip: {
            const DType m = compute_dtype(c.in[0].type, c.in[1].type);
            const std::string lo = nan_max(e, c.arg(0, m), c.arg(1, m), m, true);
            return nan_max(e, e.cast(lo, m, d), c.arg(2, d), d, false);
        }
        case stdlib::ElementwiseKind::AsType:
            if (d == DType::Bool) return e.nonzero(c.in[0].name, c.in[0].storage);
            return c.arg(0, d);  // Cast truncates floats toward zero, as tg does
    }
    c.fail("no mapping");
}

}  // namespace tg::onnx_export
