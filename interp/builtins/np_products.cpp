// NumPy's products and diagonals (docs/numpy.md): tensordot, kron, diagonal,
// trace, cross. Compositions of table ops (transpose, reshape, matmul, take,
// index views, element-wise arithmetic): they trace, fuse and differentiate
// as those ops.
#include <algorithm>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::rank_of;
using np::shape_of;
using stdlib::Shape;

// x with the axes `last` moved to the end (front = false) or the front, as a matrix
Value as_matrix(Compose& c, const Value& x, const std::vector<int64_t>& axes, bool front, Shape& free) {
    std::vector<int64_t> order;
    int64_t k = 1, rest = 1;
    for (int64_t d = 0; d < rank_of(x); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
            order.push_back(d);
            free.push_back(shape_of(x)[static_cast<int>(d)]);
            rest *= shape_of(x)[static_cast<int>(d)];
        }
    for (int64_t d : axes) k *= shape_of(x)[static_cast<int>(d)];
    order.insert(front ? order.begin() : order.end(), axes.begin(), axes.end());
    return c.reshape(np::transpose(c, x, order), front ? Shape{k, rest} : Shape{rest, k});
}

// tensordot(a, b, axes=2): the last `axes` axes of a against the first of b,
// or the pair of axis lists (axes_a, axes_b)
Value tensordot(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "tensordot";
    const auto args = bind_args(fn, ca, {"a", "b", "axes"}, 2);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "a"));
    const Value b = tensor_operand(*args[1], arg(fn, "b"));
    std::vector<int64_t> axa, axb;
    if (args[2] && args[2]->is_sequence()) {
        if (args[2]->items().size() != 2) throw Error(arg(fn, "axes") + " must be an int or a pair of axis lists");
        axa = np::axes_arg(args[2]->items()[0], arg(fn, "axes"), fn, rank_of(a));
        axb = np::axes_arg(args[2]->items()[1], arg(fn, "axes"), fn, rank_of(b));
    } else {
        const int64_t n = args[2] ? to_int(*args[2], arg(fn, "axes")) : 2;
        if (n < 0 || n > rank_of(a) || n > rank_of(b))
            throw Error(fn + ": cannot contract " + std::to_string(n) + " axes of tensors of shapes " +
                        shape_of(a).to_string() + " and " + shape_of(b).to_string());
        for (int64_t i = 0; i < n; ++i) axa.push_back(rank_of(a) - n + i), axb.push_back(i);
    }
    if (axa.size() != axb.size()) throw Error(fn + ": the two axis lists of `axes` must have the same length");
    for (size_t i = 0; i < axa.size(); ++i)
        if (shape_of(a)[static_cast<int>(axa[i])] != shape_of(b)[static_cast<int>(axb[i])])
            throw Error(fn + ": shape mismatch: axis " + std::to_string(axa[i]) + " of " + shape_of(a).to_string() +
                        " and axis " + std::to_string(axb[i]) + " of " + shape_of(b).to_string() + " differ");
    Shape free;
    const Value am = as_matrix(c, a, axa, false, free);
    const Value bm = as_matrix(c, b, axb, true, free);
    return c.reshape(np::matmul(c, am, bm), free);
}

// kron(a, b): a's axes interleaved with b's (the shorter shape padded with
// leading 1s), the outer product, merged pairwise
Value kron(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "kron";
    const auto args = bind_args(fn, ca, {"a", "b"}, 2);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "a"));
    const Value b = tensor_operand(*args[1], arg(fn, "b"));
    const int r = std::max(rank_of(a), rank_of(b));
    auto padded = [r](const Shape& s) {
        Shape out;
        for (int i = 0; i < r - s.rank(); ++i) out.push_back(1);
        for (int64_t d : s) out.push_back(d);
        return out;
    };
    const Shape sa = padded(shape_of(a)), sb = padded(shape_of(b));
    Shape ia, ib, merged;
    for (int i = 0; i < r; ++i) {
        ia.push_back(sa[i]), ia.push_back(1);
        ib.push_back(1), ib.push_back(sb[i]);
        merged.push_back(sa[i] * sb[i]);
    }
    return c.reshape(c.mul(c.reshape(a, ia), c.reshape(b, ib)), merged);
}

// diagonal(x, offset=0, axis1=0, axis2=1): the two axes moved to the end,
// merged, and the diagonal's positions taken (the result's last axis);
// trace: its sum
Value diagonal(Runtime& rt, const CallArgs& ca, bool is_trace) {
    const std::string fn = is_trace ? "trace" : "diagonal";
    const auto args = bind_args(fn, ca, {"x", "offset", "axis1", "axis2"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const int r = rank_of(x);
    if (r < 2) throw Error(fn + ": argument `x` must have at least 2 axes, got shape " + shape_of(x).to_string());
    const int64_t offset = args[1] ? to_int(*args[1], arg(fn, "offset")) : 0;
    const int64_t a1 = np::norm_axis(fn, args[2] ? to_int(*args[2], arg(fn, "axis1")) : 0, r);
    const int64_t a2 = np::norm_axis(fn, args[3] ? to_int(*args[3], arg(fn, "axis2")) : 1, r);
    if (a1 == a2) throw Error(fn + ": axis1 and axis2 cannot be the same axis (" + std::to_string(a1) + ")");
    std::vector<int64_t> order;
    Shape s;
    for (int64_t d = 0; d < r; ++d)
        if (d != a1 && d != a2) order.push_back(d), s.push_back(shape_of(x)[static_cast<int>(d)]);
    const int64_t n = shape_of(x)[static_cast<int>(a1)], m = shape_of(x)[static_cast<int>(a2)];
    order.push_back(a1), order.push_back(a2);
    s.push_back(n * m);
    const Value flat = c.reshape(np::transpose(c, x, order), s);
    const Value d = c.take(flat, np::indices(np::diagonal_positions(n, m, offset)).tensor(), -1);
    return is_trace ? np::reduce(c, stdlib::ReduceKind::Sum, d, -1) : d;
}

// cross(a, b, axis=-1): of 3-vectors (a 2-vector's third component is 0; two
// 2-vectors give the z component alone, as NumPy 1.x)
Value cross(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "cross";
    const auto args = bind_args(fn, ca, {"a", "b", "axis"}, 2);
    Compose c{rt};
    const int64_t axis = args[2] ? to_int(*args[2], arg(fn, "axis")) : -1;
    std::vector<Value> comps[2];
    for (int k = 0; k < 2; ++k) {
        const Value x = tensor_operand(*args[k], arg(fn, k == 0 ? "a" : "b"));
        if (rank_of(x) == 0) throw Error(fn + ": argument `" + (k == 0 ? "a" : "b") + "` must have at least 1 axis");
        const int64_t ax = np::norm_axis(fn, axis, rank_of(x));
        const int64_t dim = shape_of(x)[static_cast<int>(ax)];
        if (dim != 2 && dim != 3)
            throw Error(fn + ": the vectors along the axis must have 2 or 3 components, got " + std::to_string(dim) +
                        " in argument `" + (k == 0 ? "a" : "b") + "` of shape " + shape_of(x).to_string());
        for (int64_t i = 0; i < dim; ++i) comps[k].push_back(np::at(c, x, ax, i));
    }
    auto z = [&](int k) { return comps[k].size() == 3 ? comps[k][2] : Value::weak_int(0); };
    const std::vector<Value>& u = comps[0];
    const std::vector<Value>& v = comps[1];
    const Value cz = c.sub(c.mul(u[0], v[1]), c.mul(u[1], v[0]));
    if (u.size() == 2 && v.size() == 2) return cz;
    const Value cx = c.sub(c.mul(u[1], z(1)), c.mul(z(0), v[1]));
    const Value cy = c.sub(c.mul(z(0), v[0]), c.mul(u[0], z(1)));
    const Value out = np::stack(c, {cx, cy, cz}, -1);
    return np::move_axis(c, out, rank_of(out) - 1, np::norm_axis(fn, axis, rank_of(out)));
}

}  // namespace

std::vector<int64_t> np::diagonal_positions(int64_t n, int64_t m, int64_t offset) {
    const int64_t len = std::max<int64_t>(0, offset >= 0 ? std::min(n, m - offset) : std::min(n + offset, m));
    std::vector<int64_t> pos;
    for (int64_t i = 0; i < len; ++i) pos.push_back(offset >= 0 ? i * m + i + offset : (i - offset) * m + i);
    return pos;
}

void add_np_product_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add(out, "tensordot", tensordot);
    np::add(out, "kron", kron);
    np::add(out, "diagonal", [](Runtime& rt, const CallArgs& a) { return diagonal(rt, a, false); });
    np::add(out, "trace", [](Runtime& rt, const CallArgs& a) { return diagonal(rt, a, true); });
    np::add(out, "cross", cross);
}

}  // namespace tg::interp
