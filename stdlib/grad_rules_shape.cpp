// Gradient rules of the layout, selection and solve ops (shape_ops_layout.cpp,
// select_ops.cpp, linalg_solve.cpp), written in tg ops like every rule
// (stdlib/grad.hpp). Gathers differentiate to scatter-adds, expressed as a
// product with a 0/1 matrix: one_hot(indices) for take and sort (whose
// indices are data), a constant for repeat (whose indices are static).
#include <array>
#include <numeric>
#include <string>

#include "stdlib/cast.hpp"
#include "stdlib/grad.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

namespace {

using Var = GradVar;

const OpDef& op(std::string_view name) {
    const OpDef* d = find_op(name);
    if (!d) throw std::logic_error("gradient rules: no op " + std::string(name));
    return *d;
}

std::vector<int64_t> dims(const Shape& s) { return {s.begin(), s.end()}; }
std::vector<int64_t> ints(const Attr& a) {
    if (auto* i = std::get_if<int64_t>(&a)) return {*i};
    if (auto* v = std::get_if<std::vector<int64_t>>(&a)) return *v;
    return {};
}
bool want(const VjpArgs& a, size_t i) { return i < a.wanted.size() && a.wanted[i]; }
int64_t prod(const Shape& s, int from, int to) {
    int64_t p = 1;
    for (int d = from; d < to; ++d) p *= s[d];
    return p;
}

struct Ops {
    GradBuilder& b;
    Var apply1(std::string_view name, Var x, std::vector<Attr> attrs) {
        attrs.insert(attrs.begin(), std::monostate{});
        return b.apply(op(name), std::span<const Var>(&x, 1), std::move(attrs));
    }
    Var apply2(std::string_view name, Var x, Var y, std::vector<Attr> attrs = {}) {
        Var in[2] = {x, y};
        attrs.insert(attrs.begin(), 2, std::monostate{});
        return b.apply(op(name), in, std::move(attrs));
    }
    Var reshape(Var x, const Shape& s) {
        if (b.type(x).shape == s) return x;
        return apply1("reshape", x, {dims(s)});
    }
    Var sum(Var x, int64_t axis) { return apply1("sum", x, {std::vector<int64_t>{axis}, false}); }
    Var cast(Var x, DType d) {
        if (b.type(x).dtype == d && !b.type(x).weak) return x;
        return apply1("astype", x, {d});
    }
    Var matmul(Var x, Var y) { return apply2("matmul", x, y); }
    Var mul(Var x, Var y) { return b.apply(binary_op(BinaryKind::Mul), std::array<Var, 2>{x, y}, {}); }
    Var neg(Var x) { return apply1("neg", x, {}); }
    // x with its last two axes swapped
    Var swap_last(Var x) {
        const int r = b.type(x).shape.rank();
        std::vector<int64_t> perm(static_cast<size_t>(r));
        std::iota(perm.begin(), perm.end(), 0);
        std::swap(perm[size_t(r - 1)], perm[size_t(r - 2)]);
        return apply1("transpose", x, {perm});
    }
};

// g summed over the copies of x a gather made along one axis of x (of
// shape `in`): g is seen as (P, L_out, S) around the gathered positions, and
// gx = M^T g with the 0/1 matrix M (L_out, L_in) of the gather (M[o, i] = 1
// where output o came from input i).
Var scatter_add(Ops& o, Var g, int axis, const Shape& in, int64_t l_out, Var m) {
    const int64_t P = prod(in, 0, axis), S = prod(in, axis + 1, in.rank());
    Var g3 = o.reshape(g, Shape{P, l_out, S});
    Var gx = o.matmul(o.swap_last(m), g3);  // (L_in, L_out) @ (P, L_out, S)
    return o.reshape(gx, in);
}

// The shape a gather along `axis` (an Axis attr: None flattens) sees, and the axis.
std::pair<Shape, int> gather_axis(const Shape& x, const Attr& axis_attr) {
    const bool flat = std::holds_alternative<std::monostate>(axis_attr);
    const Shape in = flat ? Shape{x.numel()} : x;
    int axis = flat ? 0 : static_cast<int>(ints(axis_attr)[0]);
    if (axis < 0) axis += in.rank();
    return {in, axis};
}

void vjp_flip(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    if (want(a, 0)) a.cots[0] = o.apply1("flip", a.cot, {a.attrs[1]});
}

void vjp_roll(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    std::vector<int64_t> back = ints(a.attrs[1]);
    for (int64_t& s : back) s = -s;
    if (want(a, 0)) a.cots[0] = o.apply1("roll", a.cot, {back, a.attrs[2]});
}

// tile: the copies summed, one axis at a time ((P, reps, n, S) -> (P, n, S))
void vjp_tile(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Shape xs = b.type(a.inputs[0]).shape;
    Var g = a.cot;
    Shape gs = b.type(g).shape;
    const int lead = gs.rank() - xs.rank();  // axes tile added in front
    for (int d = 0; d < gs.rank(); ++d) {
        const int64_t n = d < lead ? 1 : xs[d - lead];
        if (gs[d] == n) continue;
        const int64_t reps = n == 0 ? 0 : gs[d] / n;
        const int64_t P = prod(gs, 0, d), S = prod(gs, d + 1, gs.rank());
        g = o.sum(o.reshape(g, Shape{P, reps, n, S}), 1);
        gs[d] = n;
        g = o.reshape(g, gs);
    }
    a.cots[0] = o.reshape(g, xs);
}

void vjp_repeat(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const TensorType xt = b.type(a.inputs[0]);
    const auto [in, axis] = gather_axis(xt.shape, a.attrs[2]);
    std::vector<int64_t> counts = ints(a.attrs[1]);
    const int64_t len = in[axis];
    if (counts.size() == 1) counts.assign(static_cast<size_t>(len), counts[0]);
    const int64_t total = std::accumulate(counts.begin(), counts.end(), int64_t{0});
    Tensor m64 = Tensor::zeros(DType::F64, Shape{total, len});
    for (int64_t i = 0, row = 0; i < len; ++i)
        for (int64_t c = 0; c < counts[size_t(i)]; ++c) m64.data<double>()[(row++) * len + i] = 1;
    Var m = b.constant(cast(m64, b.type(a.cot).dtype));
    a.cots[0] = o.reshape(scatter_add(o, a.cot, axis, in, total, m), xt.shape);
}

void vjp_pad(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    const Shape xs = b.type(a.inputs[0]).shape;
    std::vector<int64_t> w = ints(a.attrs[1]);
    std::vector<IndexItem> items;
    for (int d = 0; d < xs.rank(); ++d) {
        const int64_t before = w.size() == 2 ? w[0] : w[size_t(2 * d)];
        IndexItem it;
        it.kind = IndexItem::Slice;
        it.lo = before;
        it.hi = before + xs[d];
        items.push_back(it);
    }
    a.cots[0] = items.empty() ? a.cot : b.index(a.cot, items);
}

void vjp_diag(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Shape xs = b.type(a.inputs[0]).shape;
    Var d = o.apply1("diag", a.cot, {});
    if (xs.rank() == 2) {
        const int64_t k = std::min(xs[0], xs[1]);
        if (xs[0] != xs[1]) d = o.apply1("pad", d, {std::vector<int64_t>{0, xs[0] - k, 0, xs[1] - k}, int64_t{0}});
    }
    a.cots[0] = d;
}

template <bool Lower>
void vjp_tri(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    Var g = o.apply1(Lower ? "tril" : "triu", a.cot, {a.attrs[1]});
    // a 1-d x was broadcast along the rows
    if (b.type(a.inputs[0]).shape.rank() == 1) g = o.sum(g, 0);
    a.cots[0] = g;
}

// take: g scattered back to the positions it came from (indices mod L, so
// negative ones count from the end, as the kernel reads them)
void vjp_take(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const TensorType xt = b.type(a.inputs[0]);
    const auto [in, axis] = gather_axis(xt.shape, a.attrs[2]);
    const int64_t len = in[axis];
    const DType gd = b.type(a.cot).dtype;
    if (len == 0 || xt.shape.numel() == 0) {
        a.cots[0] = zeros_of(b, {gd, xt.shape, false});
        return;
    }
    const int64_t m = b.type(a.inputs[1]).shape.numel();
    Var idx = o.reshape(a.inputs[1], Shape{m});
    idx = b.apply(binary_op(BinaryKind::Mod), std::array<Var, 2>{idx, b.constant(Tensor::weak_int(len))}, {});
    Var hot = o.apply1("one_hot", idx, {len, gd});  // (m, L)
    a.cots[0] = o.reshape(scatter_add(o, a.cot, axis, in, m, hot), xt.shape);
}

// sort: g sent back through the permutation argsort(x) (one_hot(perm)
// (..., L, L) along the sorted axis, moved last)
void vjp_sort(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const TensorType xt = b.type(a.inputs[0]);
    const Shape in = b.type(a.out).shape;
    const int r = in.rank();
    int axis = std::holds_alternative<std::monostate>(a.attrs[1]) ? 0 : static_cast<int>(ints(a.attrs[1])[0]);
    if (axis < 0) axis += r;
    Var x = o.reshape(a.inputs[0], in);
    Var perm = o.apply1("argsort", x, {int64_t{axis}});
    std::vector<int64_t> to_last(static_cast<size_t>(r)), back(static_cast<size_t>(r));
    for (int d = 0, k = 0; d < r; ++d)
        if (d != axis) to_last[size_t(k++)] = d;
    to_last[size_t(r - 1)] = axis;
    for (int d = 0; d < r; ++d) back[size_t(to_last[size_t(d)])] = d;
    const DType gd = b.type(a.cot).dtype;
    Var g = o.apply1("transpose", a.cot, {to_last});
    Var p = o.apply1("transpose", perm, {to_last});
    const int64_t len = in[axis];
    Var hot = o.apply1("one_hot", p, {len, gd});  // (..., L, L): hot[..., i, j] = perm[i] == j
    Shape row = b.type(g).shape;
    Shape g1;
    for (int d = 0; d < r - 1; ++d) g1.push_back(row[d]);
    g1.push_back(1);
    g1.push_back(len);
    Var gx = o.reshape(o.matmul(o.reshape(g, g1), hot), row);
    a.cots[0] = o.reshape(o.apply1("transpose", gx, {back}), xt.shape);
}

// inv: d(A^-1) = -A^-1 dA A^-1, so gA = -Y^T g Y^T
void vjp_inv(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    Var yt = o.swap_last(a.out);
    a.cots[0] = o.cast(o.neg(o.matmul(o.matmul(yt, a.cot), yt)), b.type(a.inputs[0]).dtype);
}

// solve: x = A^-1 B, so gB = A^-T g and gA = -gB x^T (a vector b as a column)
void vjp_solve(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    const TensorType at = b.type(a.inputs[0]), bt = b.type(a.inputs[1]);
    const bool vec = bt.shape.rank() == at.shape.rank() - 1;
    Shape col = b.type(a.out).shape;
    if (vec) col.push_back(1);
    Var g = o.reshape(a.cot, col), x = o.reshape(a.out, col);
    Var gb = o.apply2("solve", o.swap_last(a.inputs[0]), g);
    if (want(a, 0)) a.cots[0] = unbroadcast(b, o.neg(o.matmul(gb, o.swap_last(x))), at);
    if (want(a, 1)) {
        Shape bcol = bt.shape;
        if (vec) bcol.push_back(1);
        a.cots[1] = o.reshape(unbroadcast(b, gb, {bt.dtype, bcol, false}), bt.shape);
    }
}

// det: d det(A) = det(A) tr(A^-1 dA), so gA = g det(A) A^-T
void vjp_det(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    Shape s = b.type(a.out).shape;
    s.push_back(1);
    s.push_back(1);
    Var scale = o.reshape(o.mul(a.cot, a.out), s);
    Var invt = o.swap_last(o.apply1("inv", a.inputs[0], {}));
    a.cots[0] = o.cast(o.mul(scale, invt), b.type(a.inputs[0]).dtype);
}

}  // namespace

void attach_shape_grad_rules(OpRegistry& r) {
    auto vjp = [&](std::string_view name, VjpFn fn) { r.set_grad(name, GradRule{GradRule::Vjp, fn}); };
    vjp("flip", &vjp_flip);
    vjp("roll", &vjp_roll);
    vjp("tile", &vjp_tile);
    vjp("repeat", &vjp_repeat);
    vjp("pad", &vjp_pad);
    vjp("diag", &vjp_diag);
    vjp("tril", &vjp_tri<true>);
    vjp("triu", &vjp_tri<false>);
    vjp("take", &vjp_take);
    vjp("sort", &vjp_sort);
    vjp("inv", &vjp_inv);
    vjp("solve", &vjp_solve);
    vjp("det", &vjp_det);
    r.set_grad("argsort", GradRule{GradRule::NoGradient, nullptr});  // integer indices
}

}  // namespace tg::stdlib
