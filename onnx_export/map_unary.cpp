// Element-wise unary ops. ONNX has most of them; the others are short
// compositions with tg's edge cases (sign and relu keep NaN, trunc, expm1 and
// log1p accurate near 0, softplus without overflow).
#include "onnx_export/mapping.hpp"

namespace tg::onnx_export {

using stdlib::DType;
using stdlib::UnaryKind;

// log(1 + y) loses every digit for small y: there, y - y^2/2 + y^3/3
std::string log1p(Emitter& e, const std::string& y, DType d) {
    auto f = [&](const char* op, const std::string& a) { return e.op(op, {a}).out; };
    auto f2 = [&](const char* op, const std::string& a, const std::string& b) { return e.op(op, {a, b}).out; };
    auto num = [&](double v) { return e.scalar(v, d); };
    const std::string small = f2("Less", f("Abs", y), num(1e-4));
    const std::string y2 = f2("Mul", y, y);
    const std::string series =
        f2("Add", f2("Sub", y, f2("Mul", y2, num(0.5))), f2("Mul", f2("Mul", y2, y), num(1.0 / 3)));
    return e.where(small, series, f("Log", f2("Add", y, num(1))));
}

std::string map_unary(ApplyCtx& c, UnaryKind k) {
    Emitter& e = c.e;
    const DType d = c.out_storage;
    const DType in = c.in[0].storage;
    const bool is_bool = in == DType::Bool;
    const bool is_float = stdlib::is_float(d);
    auto f = [&](const char* op, const std::string& a) { return e.op(op, {a}).out; };
    auto f2 = [&](const char* op, const std::string& a, const std::string& b) { return e.op(op, {a, b}).out; };
    auto num = [&](double v) { return e.scalar(v, d); };
    auto log1p = [&](const std::string& y) { return onnx_export::log1p(e, y, d); };
    const std::string x = c.arg(0, stdlib::is_predicate(k) ? in : d);
    switch (k) {
        case UnaryKind::Neg: return f("Neg", x);
        case UnaryKind::Invert: return is_bool ? f("Not", x) : f2("Sub", f("Neg", x), num(1));  // ~x == -x - 1
        case UnaryKind::LogicalNot: return f("Not", e.nonzero(x, in));
        case UnaryKind::Abs: return is_bool ? x : f("Abs", x);
        case UnaryKind::Exp: return f("Exp", x);
        case UnaryKind::Log: return f("Log", x);
        case UnaryKind::Sqrt: return f("Sqrt", x);
        case UnaryKind::Sin: return f("Sin", x);
        case UnaryKind::Cos: return f("Cos", x);
        case UnaryKind::Tan: return f("Tan", x);
        case UnaryKind::Tanh: return f("Tanh", x);
        case UnaryKind::Sigmoid: return f("Sigmoid", x);
        case UnaryKind::Asin: return f("Asin", x);
        case UnaryKind::Acos: return f("Acos", x);
        case UnaryKind::Atan: return f("Atan", x);
        case UnaryKind::Sinh: return f("Sinh", x);
        case UnaryKind::Cosh: return f("Cosh", x);
        case UnaryKind::Erf: return f("Erf", x);
        case UnaryKind::Reciprocal: return f("Reciprocal", x);
        case UnaryKind::Rsqrt: return f("Reciprocal", f("Sqrt", x));
        case UnaryKind::Log2: return f2("Div", f("Log", x), num(0.69314718055994530942));
        case UnaryKind::Log10: return f2("Div", f("Log", x), num(2.30258509299404568402));
        case UnaryKind::Expm1: {
            // exp(x) - 1 loses every digit near 0: there, x + x^2/2 + x^3/6
            const std::string small = f2("Less", f("Abs", x), num(1e-4));
            const std::string x2 = f2("Mul", x, x);
            const std::string series =
                f2("Add", x, f2("Add", f2("Mul", x2, num(0.5)), f2("Mul", f2("Mul", x2, x), num(1.0 / 6))));
            return e.where(small, series, f2("Sub", f("Exp", x), num(1)));
        }
        case UnaryKind::Log1p: return log1p(x);
        case UnaryKind::Relu:  // x < 0 ? 0 : x (NaN stays NaN)
            return is_bool ? x : e.where(f2("Less", x, num(0)), num(0), x);
        case UnaryKind::Floor: return is_float ? f("Floor", x) : x;
        case UnaryKind::Ceil: return is_float ? f("Ceil", x) : x;
        case UnaryKind::Round: return is_float ? f("Round", x) : x;  // ONNX rounds half to even too
        case UnaryKind::Trunc: return is_float ? e.where(f2("Less", x, num(0)), f("Ceil", x), f("Floor", x)) : x;
        case UnaryKind::Sign:
            if (is_bool) return x;
            return is_float ? e.where(f("IsNaN", x), x, f("Sign", x)) : f("Sign", x);
        case UnaryKind::Square: return is_bool ? x : f2("Mul", x, x);
        case UnaryKind::IsNan: return stdlib::is_float(in) ? f("IsNaN", x) : f("Not", f2("Equal", x, x));
        case UnaryKind::IsInf: return stdlib::is_float(in) ? f("IsInf", x) : f("Not", f2("Equal", x, x));
        case UnaryKind::IsFinite:
            return stdlib::is_float(in) ? f("Not", f2("Or", f("IsNaN", x), f("IsInf", x))) : f2("Equal", x, x);
        case UnaryKind::Gelu:  // 0.5 x (1 + erf(x / sqrt(2)))
            return f2("Mul", f2("Mul", x, num(0.5)),
                      f2("Add", num(1), f("Erf", f2("Mul", x, num(0.70710678118654752440)))));
        case UnaryKind::GeluTanh: {
            const std::string cube = f2("Mul", f2("Mul", x, x), x);
            const std::string inner = f2("Mul", num(0.79788456080286535588), f2("Add", x, f2("Mul", cube, num(0.044715))));
            return f2("Mul", f2("Mul", x, num(0.5)), f2("Add", num(1), f("Tanh", inner)));
        }
        case UnaryKind::Softplus: {  // max(x, 0) + log1p(exp(-|x|)), which never overflows
            const std::string pos = e.where(f2("Less", x, num(0)), num(0), x);
            return f2("Add", pos, log1p(f("Exp", f("Neg", f("Abs", x)))));
        }
    }
    c.fail("no mapping");
}

}  // namespace tg::onnx_export
