// norm(x, ord=None, axis=None, keepdims=False) with all of NumPy's orders
// (docs/numpy.md, "Linear algebra"): it replaces the table op `norm`'s
// builtin (stdlib/norm.cpp: ord None, 1, 2, inf over one axis, Frobenius)
// and calls that op where it can (its ONNX mapping and gradient then
// apply); the other vector orders (0, -inf, any p) and the matrix norms
// (over two axes, or a 2-d tensor with axis None: 'fro', 'nuc', 1, -1, 2,
// -2, inf, -inf) are compositions — the 2-norms and the nuclear norm of the
// singular values (the SVD op), the others of sums of |x| — that trace and
// differentiate as their ops.
#include <cmath>
#include <sstream>
#include <string>

#include "interp/builtins/np_linalg.hpp"
#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::rank_of;
using np::shape_of;
using stdlib::Attr;
using stdlib::OtherKind;
using stdlib::ReduceKind;
using stdlib::Shape;
using stdlib::UnaryKind;

struct Ord {
    enum Kind { None, Fro, Nuc, Number } kind = None;
    double p = 0;
    std::string text;  // as written, for errors: "'fro'", "3"
    bool is(double v) const { return kind == Number && p == v; }
};

Ord ord_arg(const Value* v) {
    Ord o;
    if (is_none(v)) return o;
    if (const std::optional<std::string> s = string_arg(*v)) {
        o.text = "'" + *s + "'";
        if (*s == "fro" || *s == "f") o.kind = Ord::Fro;
        else if (*s == "nuc") o.kind = Ord::Nuc;
        else throw Error("norm: ord=" + o.text + " is not a norm order (strings: 'fro', 'nuc')");
        return o;
    }
    o.kind = Ord::Number;
    o.p = static_number(*v, arg("norm", "ord"));
    std::ostringstream t;
    if (std::isinf(o.p)) t << (o.p > 0 ? "inf" : "-inf");
    else t << o.p;
    o.text = t.str();
    return o;
}

// The table op: ord None, 1, 2 or inf over `axes`
Value table_norm(Compose& c, const Value& x, const Ord& o, const Attr& axes, bool keepdims) {
    Attr ord = std::monostate{};
    if (o.kind == Ord::Number) ord = o.p;
    return c.op(stdlib::op_of(OtherKind::Norm), {x}, {ord, axes, keepdims});
}

Value vector_norm(Compose& c, const Value& x, const Ord& o, int64_t axis, bool keepdims) {
    const Attr axes = std::vector<int64_t>{axis};
    if (o.kind == Ord::None || o.is(1) || o.is(2) || o.is(INFINITY)) return table_norm(c, x, o, axes, keepdims);
    if (o.kind != Ord::Number)
        throw Error("norm: ord=" + o.text + " is a matrix norm; over one axis, ord is a number (NumPy: \"Invalid norm order for vectors\")");
    const Value ax = c.un(UnaryKind::Abs, np::astype(c, x, np::float_dtype(x)));
    if (o.is(-INFINITY)) return np::red(c, ReduceKind::Min, ax, axes, keepdims);
    if (o.is(0))
        return np::astype(c, np::red(c, ReduceKind::Sum, c.un(UnaryKind::LogicalNot, c.un(UnaryKind::LogicalNot, ax)), axes, keepdims),
                          np::float_dtype(ax));
    const Value sum = np::red(c, ReduceKind::Sum, c.bin(stdlib::BinaryKind::Pow, ax, Compose::num(o.p)), axes, keepdims);
    return c.bin(stdlib::BinaryKind::Pow, sum, Compose::num(1.0 / o.p));
}

// NumPy's _multi_svd_norm: the singular values of x with axes r, c moved last
Value singular_values(Compose& c, const Value& x, int64_t r, int64_t col) {
    std::vector<int64_t> perm;
    for (int64_t d = 0; d < rank_of(x); ++d)
        if (d != r && d != col) perm.push_back(d);
    perm.push_back(r);
    perm.push_back(col);
    return np::singular_values(c, np::transpose(c, np::astype(c, x, np::float_dtype(x)), perm), false);
}

Value matrix_norm(Compose& c, const Value& x, const Ord& o, int64_t r, int64_t col, bool keepdims) {
    const Attr both = std::vector<int64_t>{r, col};
    if (o.kind == Ord::None || o.kind == Ord::Fro) return table_norm(c, x, Ord{}, both, keepdims);
    Value out;
    if (o.kind == Ord::Nuc || o.is(2) || o.is(-2)) {
        const ReduceKind k = o.kind == Ord::Nuc ? ReduceKind::Sum : o.is(2) ? ReduceKind::Max : ReduceKind::Min;
        out = np::reduce(c, k, singular_values(c, x, r, col), -1);
    } else if (o.is(1) || o.is(-1) || o.is(INFINITY) || o.is(-INFINITY)) {
        const bool cols = o.is(1) || o.is(-1);  // the largest column sum, or row sum
        const int64_t summed = cols ? r : col, other = cols ? col : r;
        const Value sums = np::reduce(c, ReduceKind::Sum, c.un(UnaryKind::Abs, np::astype(c, x, np::float_dtype(x))), summed);
        out = np::reduce(c, o.p > 0 ? ReduceKind::Max : ReduceKind::Min, sums, other > summed ? other - 1 : other);
    } else {
        throw Error("norm: ord=" + o.text + " is not a matrix norm (over two axes: None, 'fro', 'nuc', 1, -1, 2, -2, inf, -inf)");
    }
    if (!keepdims) return out;
    Shape s = shape_of(x);
    s[static_cast<int>(r)] = 1;
    s[static_cast<int>(col)] = 1;
    return c.reshape(out, s);
}

Value norm(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "norm";
    const auto args = bind_args(fn, ca, {"x", "ord", "axis", "keepdims"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const Ord o = ord_arg(args[1]);
    const bool keepdims = args[3] && static_bool(*args[3], arg(fn, "keepdims"));
    const int nd = rank_of(x);
    std::vector<int64_t> axes;
    if (is_none(args[2])) {
        if (o.kind == Ord::None || (o.kind == Ord::Fro && nd == 2)) return table_norm(c, x, o, std::monostate{}, keepdims);
        for (int64_t d = 0; d < nd; ++d) axes.push_back(d);
    } else {
        axes = np::axes_arg(*args[2], arg(fn, "axis"), fn, nd);
    }
    if (axes.size() == 1) return vector_norm(c, x, o, axes[0], keepdims);
    if (axes.size() == 2) return matrix_norm(c, x, o, axes[0], axes[1], keepdims);
    throw Error(fn + ": ord=" + o.text + " over " + std::to_string(axes.size()) +
                " axes: a norm is over one axis (a vector norm) or two (a matrix norm); give `axis`");
}

}  // namespace

void add_np_norm_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add_replacing(out, "norm", norm, stdlib::op_of(OtherKind::Norm));
}

}  // namespace tg::interp
