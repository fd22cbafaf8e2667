// norm(x, ord=None, axis=None, keepdims=False) (docs/builtins.md): NumPy's vector
// norms — ord None or 2 the Euclidean norm (over all elements when axis is
// None: the Frobenius norm of a matrix; also over a pair of axes when ord is
// None), ord 1 the sum of absolute values, ord inf the largest one. Matrix
// norms (an ord over two axes, or over all of a 2-d tensor) are an error that
// says what is supported: the builtin `norm` (interp/builtins/np_linalg_norm.cpp)
// computes them and the other vector orders, calling this op where it can.
// Floats keep their dtype; bool and integers give f32.
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "stdlib/elementwise.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/reduce.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

namespace {

using kern::fail;

enum class Ord { Two, One, Inf };

constexpr const char* kSupported =
    "supported: ord None, 1, 2 or inf as vector norms (over one axis, or all of a 0-d or 1-d tensor), and ord None "
    "over two axes or all elements (Frobenius)";

std::string ord_text(const Attr& ord) {
    if (auto* i = std::get_if<int64_t>(&ord)) return std::to_string(*i);
    if (auto* d = std::get_if<double>(&ord)) {
        if (std::isinf(*d)) return *d > 0 ? "inf" : "-inf";
        std::ostringstream s;
        s << *d;
        return s.str();
    }
    return "None";
}

// Which norm, and the axes it reduces (an Axis attr), after the checks.
Ord plan(const Attr& ord, const Attr& axis, const Shape& shape) {
    const int rank = shape.rank();
    const bool none = kern::attr_is_none(ord);
    int n_axes = rank;
    if (std::holds_alternative<int64_t>(axis)) n_axes = 1;
    if (auto* v = std::get_if<std::vector<int64_t>>(&axis)) {
        n_axes = static_cast<int>(v->size());
        if (n_axes != 1 && n_axes != 2) fail("norm", "axis must be None, an int or a pair of ints");
    }
    kern::attr_axes("norm", axis, rank);  // bounds and repeats
    if (none) return Ord::Two;
    const double p = kern::attr_number("norm", "ord", ord);
    Ord o;
    if (p == 2) o = Ord::Two;
    else if (p == 1) o = Ord::One;
    else if (std::isinf(p) && p > 0) o = Ord::Inf;
    else fail("norm", "ord=" + ord_text(ord) + " is not supported; " + kSupported);
    if (n_axes >= 2)
        fail("norm", "ord=" + ord_text(ord) + " over " + (kern::attr_is_none(axis) ? "all axes of a " + std::to_string(rank) + "-d tensor" : std::string("two axes")) +
                         " is a matrix norm, which is not supported; " + kSupported);
    if (o == Ord::Inf)  // the largest |x| of no elements: like max, there is no identity
        for (int d : kern::attr_axes("norm", axis, rank))
            if (shape[d] == 0)
                fail("norm", "ord=inf of a tensor of shape " + shape.to_string() +
                                 " with no elements (there is no identity)");
    return o;
}

DType norm_dtype(DType x) { return is_float(x) ? x : DType::F32; }

TensorType infer_norm(const TypeArgs& a) {
    const TensorType& x = a.inputs[0];
    plan(a.attrs[1], a.attrs[2], x.shape);
    const bool keepdims = kern::attr_bool("norm", "keepdims", a.attrs[3]);
    TensorType t = reduce_type(ReduceKind::Sum, x, a.attrs[2], keepdims);
    return {norm_dtype(x.dtype), t.shape, false};
}

Tensor eager_norm(OpContext&, const OpArgs& a) {
    const Tensor x = cast(kern::strong(a.inputs[0]), norm_dtype(a.inputs[0].dtype()));
    const Ord o = plan(a.attrs[1], a.attrs[2], x.shape());
    const bool keepdims = kern::attr_bool("norm", "keepdims", a.attrs[3]);
    switch (o) {
        case Ord::Two: return unary(UnaryKind::Sqrt, reduce(ReduceKind::Sum, unary(UnaryKind::Square, x), a.attrs[2], keepdims));
        case Ord::One: return reduce(ReduceKind::Sum, unary(UnaryKind::Abs, x), a.attrs[2], keepdims);
        case Ord::Inf: return reduce(ReduceKind::Max, unary(UnaryKind::Abs, x), a.attrs[2], keepdims);
    }
    fail("norm", "unknown ord");
}

}  // namespace

void register_norm_ops(OpRegistry& r) {
    r.add(OpDef{"norm",
                {{"x", ParamKind::Tensor},
                 {"ord", ParamKind::Scalar, false, std::monostate{}},
                 {"axis", ParamKind::Axis, false, std::monostate{}},
                 {"keepdims", ParamKind::Bool, false, false}},
                &infer_norm,
                &eager_norm,
                0,
                "vector norm (ord None or 2: Euclidean, 1: sum of |x|, inf: max |x|) over axis; all elements: Frobenius "
                "(the builtin `norm` adds the other orders and the matrix norms)",
                OtherKind::Norm});
}

}  // namespace tg::stdlib
