// Gradient rules of the layout, selection and solve ops (shape_ops_layout.cpp,
// select_ops.cpp, linalg_solve.cpp), written in tg ops like every rule
// (stdlib/grad.hpp). Gathers differentiate to scatter-adds (take's
// transpose is the indexing's `_scatter_add` into zeros: O(size), also for
// repeat's static positions); sort to a take through the inverse permutation.
#include <array>
#include <numeric>
#include <string>

#include "stdlib/cast.hpp"
#include "stdlib/grad.hpp"
#include "stdlib/grad_ops.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

namespace {

using Var = GradVar;

using Ops = GradOps;
using grad_ops::dims;
using grad_ops::want;

std::vector<int64_t> ints(const Attr& a) {
    if (auto* i = std::get_if<int64_t>(&a)) return {*i};
    if (auto* v = std::get_if<std::vector<int64_t>>(&a)) return *v;
    return {};
}
int64_t prod(const Shape& s, int from, int to) {
    int64_t p = 1;
    for (int d = from; d < to; ++d) p *= s[d];
    return p;
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
    if (want(a, 0)) a.cots[0] = o.apply1(op_of(OtherKind::Flip), a.cot, {a.attrs[1]});
}

void vjp_roll(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    std::vector<int64_t> back = ints(a.attrs[1]);
    for (int64_t& s : back) s = -s;
    if (want(a, 0)) a.cots[0] = o.apply1(op_of(OtherKind::Roll), a.cot, {back, a.attrs[2]});
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
    // the (static) position in x of each result element along the axis
    Tensor src = Tensor::empty(DType::I64, Shape{total});
    for (int64_t i = 0, at = 0; i < len; ++i)
        for (int64_t c = 0; c < counts[size_t(i)]; ++c) src.data<int64_t>()[at++] = i;
    a.cots[0] = o.reshape(o.take_adjoint(a.cot, b.constant(src), len, axis), xt.shape);
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
    Var d = o.apply1(op_of(OtherKind::Diag), a.cot, {});
    if (xs.rank() == 2) {
        const int64_t k = std::min(xs[0], xs[1]);
        if (xs[0] != xs[1]) d = o.apply1(op_of(OtherKind::Pad), d, {std::vector<int64_t>{0, xs[0] - k, 0, xs[1] - k}, int64_t{0}});
    }
    a.cots[0] = d;
}

template <bool Lower>
void vjp_tri(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    Var g = o.apply1(op_of(Lower ? OtherKind::Tril : OtherKind::Triu), a.cot, {a.attrs[1]});
    // a 1-d x was broadcast along the rows
    if (b.type(a.inputs[0]).shape.rank() == 1) g = o.sum(g, 0);
    a.cots[0] = g;
}

// take: g summed back into the positions it was read from
void vjp_take(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const TensorType xt = b.type(a.inputs[0]);
    const auto [in, axis] = gather_axis(xt.shape, a.attrs[2]);
    a.cots[0] = o.reshape(o.take_adjoint(a.cot, a.inputs[1], in[axis], axis), xt.shape);
}


// sort: out[i] = x[perm[i]] along the axis (perm = argsort(x)), so
// gx[j] = g[inv[j]] with the inverse permutation inv = argsort(perm): a take
// from the flattened g at inv plus each row's offset (the axis moved last).
void vjp_sort(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const TensorType xt = b.type(a.inputs[0]);
    const auto [in, axis] = gather_axis(xt.shape, a.attrs[1]);
    const int r = in.rank();
    std::vector<int64_t> to_last, back(static_cast<size_t>(r));
    for (int d = 0; d < r; ++d)
        if (d != axis) to_last.push_back(d);
    to_last.push_back(axis);
    for (int d = 0; d < r; ++d) back[size_t(to_last[size_t(d)])] = d;
    const int64_t len = in[axis], rows = len == 0 ? 0 : in.numel() / len;
    Var perm = o.apply1(op_of(OtherKind::Transpose), o.apply1(op_of(OtherKind::Argsort), o.reshape(a.inputs[0], in), {int64_t{axis}}), {to_last});
    Var inv = o.reshape(o.apply1(op_of(OtherKind::Argsort), perm, {int64_t{-1}}), Shape{rows, len});
    Tensor offsets = Tensor::empty(DType::I64, Shape{rows, 1});
    for (int64_t i = 0; i < rows; ++i) offsets.data<int64_t>()[i] = i * len;
    Var flat = b.apply(binary_op(BinaryKind::Add), std::array<Var, 2>{inv, b.constant(offsets)}, {});
    Var g = o.reshape(o.apply1(op_of(OtherKind::Transpose), a.cot, {to_last}), Shape{rows * len});
    Var gx = o.apply2(op_of(OtherKind::Take), g, flat, {std::monostate{}});  // (rows, len)
    const Shape moved = b.type(perm).shape;
    a.cots[0] = o.reshape(o.apply1(op_of(OtherKind::Transpose), o.reshape(gx, moved), {back}), xt.shape);
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
    Var gb = o.apply2(op_of(OtherKind::Solve), o.swap_last(a.inputs[0]), g);
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
    Var invt = o.swap_last(o.apply1(op_of(OtherKind::Inv), a.inputs[0], {}));
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
