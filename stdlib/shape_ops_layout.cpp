// Layout ops of docs/builtins.md with NumPy's semantics: flip roll tile repeat pad
// diag tril triu. Each has one plan function that both the shape rule (no
// data) and the kernel use, so the static shape of a graph node is the shape
// the kernel gives. Results keep x's dtype (a weak scalar becomes strong).
#include <algorithm>
#include <string>

#include "stdlib/gather_map.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

using kern::fail;
using kern::normalize_axis;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

std::vector<int64_t> ints_of(const Attr& a) {
    if (auto* i = std::get_if<int64_t>(&a)) return {*i};
    if (auto* v = std::get_if<std::vector<int64_t>>(&a)) return *v;
    return {};
}

TensorType same(const TensorType& x, Shape s) { return {x.dtype, s, false}; }

// ---- flip: the axes reversed (all when axis is None)
std::vector<bool> flip_axes(const Shape& x, const Attr& axis) {
    std::vector<bool> f(static_cast<size_t>(x.rank()), kern::attr_is_none(axis));
    if (!kern::attr_is_none(axis))
        for (int a : kern::attr_axes("flip", axis, x.rank())) f[static_cast<size_t>(a)] = true;
    return f;
}
TensorType infer_flip(const TypeArgs& a) {
    flip_axes(a.inputs[0].shape, a.attrs[1]);
    return same(a.inputs[0], a.inputs[0].shape);
}
Tensor eager_flip(OpContext&, const OpArgs& a) {
    const Tensor& x = a.inputs[0];
    const std::vector<bool> f = flip_axes(x.shape(), a.attrs[1]);
    const Shape& s = x.shape();
    return kern::gather_map(x, s, [&](const int64_t* i, int64_t* j) {
        for (int d = 0; d < s.rank(); ++d) j[d] = f[static_cast<size_t>(d)] ? s[d] - 1 - i[d] : i[d];
        return true;
    });
}

// ---- roll: elements shifted along axes, wrapping around (axis None: the
// flattened tensor). Shifts and axes pair up as NumPy broadcasts them; shifts
// of a repeated axis add up.
std::vector<int64_t> roll_shifts(const Shape& x, const Attr& shift_attr, const Attr& axis_attr) {
    std::vector<int64_t> shift = ints_of(shift_attr);
    if (shift.empty()) fail("roll", "argument `shift` must be an int or a tuple of ints");
    std::vector<int64_t> total(static_cast<size_t>(x.rank()), 0);
    if (kern::attr_is_none(axis_attr)) {
        if (shift.size() != 1) fail("roll", "argument `shift` must be one int when axis is None");
        return {shift[0]};
    }
    std::vector<int64_t> axes = ints_of(axis_attr);
    if (shift.size() != axes.size() && shift.size() != 1 && axes.size() != 1)
        fail("roll", "arguments `shift` and `axis` have different lengths (" + str(int64_t(shift.size())) + " and " +
                         str(int64_t(axes.size())) + ")");
    const size_t n = std::max(shift.size(), axes.size());
    for (size_t k = 0; k < n; ++k) {
        int ax = normalize_axis("roll", axes[axes.size() == 1 ? 0 : k], x.rank());
        total[static_cast<size_t>(ax)] += shift[shift.size() == 1 ? 0 : k];
    }
    return total;
}
TensorType infer_roll(const TypeArgs& a) {
    roll_shifts(a.inputs[0].shape, a.attrs[1], a.attrs[2]);
    return same(a.inputs[0], a.inputs[0].shape);
}
int64_t wrap(int64_t v, int64_t n) { return n == 0 ? 0 : ((v % n) + n) % n; }
Tensor eager_roll(OpContext&, const OpArgs& a) {
    const Tensor x = kern::strong(a.inputs[0]);
    const std::vector<int64_t> sh = roll_shifts(x.shape(), a.attrs[1], a.attrs[2]);
    if (kern::attr_is_none(a.attrs[2])) {
        const Tensor flat = kern::reshaped(x, Shape{x.numel()});
        const int64_t n = x.numel();
        Tensor r = kern::gather_map(flat, flat.shape(), [&](const int64_t* i, int64_t* j) {
            j[0] = wrap(i[0] - sh[0], n);
            return true;
        });
        return kern::reshaped(r, x.shape());
    }
    const Shape& s = x.shape();
    return kern::gather_map(x, s, [&](const int64_t* i, int64_t* j) {
        for (int d = 0; d < s.rank(); ++d) j[d] = wrap(i[d] - sh[static_cast<size_t>(d)], s[d]);
        return true;
    });
}

// ---- tile: x repeated reps[d] times along each axis; the shorter of x's
// shape and reps is padded with leading 1s (NumPy).
struct TilePlan {
    Shape x, out;  // x's shape with leading 1s, the result's shape
};
TilePlan plan_tile(const Shape& xs, const Attr& reps_attr) {
    std::vector<int64_t> reps = ints_of(reps_attr);
    for (int64_t r : reps)
        if (r < 0) fail("tile", "argument `reps` has a negative count " + str(r));
    const int rank = std::max(xs.rank(), static_cast<int>(reps.size()));
    if (rank > kMaxRank) fail("tile", "the result would have more than 8 dimensions");
    TilePlan p;
    for (int d = 0; d < rank; ++d) {
        const int dx = d - (rank - xs.rank()), dr = d - (rank - static_cast<int>(reps.size()));
        const int64_t n = dx >= 0 ? xs[dx] : 1, r = dr >= 0 ? reps[static_cast<size_t>(dr)] : 1;
        p.x.push_back(n);
        p.out.push_back(n * r);
    }
    (void)p.out.numel();
    return p;
}
TensorType infer_tile(const TypeArgs& a) { return same(a.inputs[0], plan_tile(a.inputs[0].shape, a.attrs[1]).out); }
Tensor eager_tile(OpContext&, const OpArgs& a) {
    const TilePlan p = plan_tile(a.inputs[0].shape(), a.attrs[1]);
    const Tensor x = kern::reshaped(kern::strong(a.inputs[0]), p.x);
    return kern::gather_map(x, p.out, [&](const int64_t* i, int64_t* j) {
        for (int d = 0; d < p.x.rank(); ++d) j[d] = i[d] % p.x[d];
        return true;
    });
}

// ---- repeat: each element repeated n times (or counts[k] times for the
// k-th one) along axis (axis None: the flattened tensor).
// The map from a result position to x's position is kept as the counts'
// running sums (one per x position, never one per result position: a large
// repetition must not build an index as large as its result before the
// result's allocation is checked against the memory limit).
struct RepeatPlan {
    int axis = 0;
    Shape in, out;               // x's shape (flattened when axis is None), the result's
    int64_t uniform = 0;         // every count, when they are all the same (> 0)
    std::vector<int64_t> ends;   // otherwise: ends[k] = counts[0] + ... + counts[k]
    int64_t source(int64_t i) const {  // result position along axis -> x position
        if (uniform > 0) return i / uniform;
        return std::upper_bound(ends.begin(), ends.end(), i) - ends.begin();
    }
};
RepeatPlan plan_repeat(const Shape& xs, const Attr& n_attr, const Attr& axis_attr) {
    RepeatPlan p;
    if (kern::attr_is_none(axis_attr)) {
        p.in = Shape{xs.numel()};
    } else {
        p.in = xs;
        p.axis = normalize_axis("repeat", kern::attr_int("repeat", "axis", axis_attr), xs.rank());
    }
    const int64_t len = p.in[p.axis];
    std::vector<int64_t> counts = ints_of(n_attr);
    if (counts.size() == 1) counts.assign(static_cast<size_t>(len), counts[0]);
    if (static_cast<int64_t>(counts.size()) != len)
        fail("repeat", "argument `n` has " + str(int64_t(counts.size())) + " counts for an axis of size " + str(len));
    int64_t total = 0;
    p.ends.reserve(counts.size());
    for (int64_t c : counts) {
        if (c < 0) fail("repeat", "argument `n` has a negative count " + str(c));
        if (total + c > (int64_t(1) << 40)) fail("repeat", "the result is too large");
        total += c;
        p.ends.push_back(total);
    }
    if (!counts.empty() && counts[0] > 0 && std::all_of(counts.begin(), counts.end(), [&](int64_t c) { return c == counts[0]; })) {
        p.uniform = counts[0];
        p.ends.clear();
    }
    p.out = p.in;
    p.out[p.axis] = total;
    (void)p.out.numel();
    return p;
}
TensorType infer_repeat(const TypeArgs& a) {
    return same(a.inputs[0], plan_repeat(a.inputs[0].shape, a.attrs[1], a.attrs[2]).out);
}
Tensor eager_repeat(OpContext&, const OpArgs& a) {
    const RepeatPlan p = plan_repeat(a.inputs[0].shape(), a.attrs[1], a.attrs[2]);
    const Tensor x = kern::reshaped(kern::strong(a.inputs[0]), p.in);
    return kern::gather_map(x, p.out, [&](const int64_t* i, int64_t* j) {
        for (int d = 0; d < p.in.rank(); ++d) j[d] = d == p.axis ? p.source(i[d]) : i[d];
        return true;
    });
}

// ---- pad (constant mode): widths arrive canonical (ParamKind::Widths):
// [before, after] for every axis, or one pair per axis.
std::vector<int64_t> pad_widths(const Shape& xs, const Attr& w) {
    std::vector<int64_t> v = ints_of(w);
    const size_t r = static_cast<size_t>(xs.rank());
    if (v.size() == 2) {
        std::vector<int64_t> all;
        for (size_t d = 0; d < r; ++d) all.insert(all.end(), v.begin(), v.end());
        v = all;
    } else if (v.size() != 2 * r) {
        fail("pad", "argument `widths` has " + str(int64_t(v.size() / 2)) + " (before, after) pairs for a tensor of rank " +
                        str(int64_t(r)));
    }
    for (int64_t x : v)
        if (x < 0) fail("pad", "argument `widths` has a negative width " + str(x));
    return v;
}
Shape pad_shape(const Shape& xs, const std::vector<int64_t>& w) {
    Shape out;
    for (int d = 0; d < xs.rank(); ++d) out.push_back(xs[d] + w[size_t(2 * d)] + w[size_t(2 * d + 1)]);
    (void)out.numel();
    return out;
}
TensorType infer_pad(const TypeArgs& a) {
    return same(a.inputs[0], pad_shape(a.inputs[0].shape, pad_widths(a.inputs[0].shape, a.attrs[1])));
}
Tensor eager_pad(OpContext&, const OpArgs& a) {
    const Tensor& x = a.inputs[0];
    const std::vector<int64_t> w = pad_widths(x.shape(), a.attrs[1]);
    const double value = kern::attr_number("pad", "value", a.attrs[2]);
    const Shape& s = x.shape();
    return kern::gather_map(
        x, pad_shape(s, w),
        [&](const int64_t* i, int64_t* j) {
            for (int d = 0; d < s.rank(); ++d) {
                j[d] = i[d] - w[size_t(2 * d)];
                if (j[d] < 0 || j[d] >= s[d]) return false;
            }
            return true;
        },
        value);
}

// ---- diag: a 1-d x as the diagonal of a square matrix; a 2-d x's diagonal
Shape diag_shape(const Shape& xs) {
    if (xs.rank() == 1) return Shape{xs[0], xs[0]};
    if (xs.rank() == 2) return Shape{std::min(xs[0], xs[1])};
    fail("diag", "argument `x` must be 1-d or 2-d, got shape " + xs.to_string());
}
TensorType infer_diag(const TypeArgs& a) { return same(a.inputs[0], diag_shape(a.inputs[0].shape)); }
Tensor eager_diag(OpContext&, const OpArgs& a) {
    const Tensor& x = a.inputs[0];
    const bool build = x.rank() == 1;
    return kern::gather_map(x, diag_shape(x.shape()), [&](const int64_t* i, int64_t* j) {
        j[0] = i[0];
        if (build) return i[0] == i[1];
        j[1] = i[0];
        return true;
    });
}

// ---- tril / triu: zeros above (below) the k-th diagonal of the last two
// axes; a 1-d x is first broadcast to a square matrix, as NumPy does.
template <bool Lower>
Shape tri_shape(const Shape& xs) {
    const char* fn = Lower ? "tril" : "triu";
    if (xs.rank() == 0) fail(fn, "argument `x` must have at least 1 dimension, got a 0-d tensor");
    if (xs.rank() == 1) return Shape{xs[0], xs[0]};
    return xs;
}
template <bool Lower>
TensorType infer_tri(const TypeArgs& a) {
    kern::attr_int(Lower ? "tril" : "triu", "k", a.attrs[1]);
    return same(a.inputs[0], tri_shape<Lower>(a.inputs[0].shape));
}
template <bool Lower>
Tensor eager_tri(OpContext&, const OpArgs& a) {
    const Tensor& x = a.inputs[0];
    const int64_t k = kern::attr_int(Lower ? "tril" : "triu", "k", a.attrs[1]);
    const Shape out = tri_shape<Lower>(x.shape());
    const int r = out.rank();
    const bool vec = x.rank() == 1;
    return kern::gather_map(x, out, [&](const int64_t* i, int64_t* j) {
        const int64_t diff = i[r - 1] - i[r - 2];
        if (Lower ? diff > k : diff < k) return false;
        if (vec) j[0] = i[1];
        else
            for (int d = 0; d < r; ++d) j[d] = i[d];
        return true;
    });
}

}  // namespace

void register_layout_ops(OpRegistry& r) {
    const Attr none = std::monostate{};
    r.add({"flip", {{"x", ParamKind::Tensor}, {"axis", ParamKind::Axis, false, none}}, &infer_flip, &eager_flip, 0,
           "reverse the order of elements along the given axes (all of them when axis is None)", OtherKind::Flip});
    r.add({"roll",
           {{"x", ParamKind::Tensor}, {"shift", ParamKind::Axis}, {"axis", ParamKind::Axis, false, none}},
           &infer_roll, &eager_roll, 0,
           "shift elements along axes, wrapping around (the flattened tensor when axis is None)", OtherKind::Roll});
    r.add({"tile", {{"x", ParamKind::Tensor}, {"reps", ParamKind::Shape}}, &infer_tile, &eager_tile, 0,
           "repeat the whole tensor reps[d] times along each axis", OtherKind::Tile});
    r.add({"repeat",
           {{"x", ParamKind::Tensor}, {"n", ParamKind::Shape}, {"axis", ParamKind::Axis, false, none}},
           &infer_repeat, &eager_repeat, 0,
           "repeat each element n times (or n[i] times) along axis (the flattened tensor when axis is None)",
           OtherKind::Repeat});
    r.add({"pad",
           {{"x", ParamKind::Tensor}, {"widths", ParamKind::Widths}, {"value", ParamKind::Scalar, false, int64_t{0}}},
           &infer_pad, &eager_pad, 0, "pad with a constant: widths n, (before, after), or one pair per axis",
           OtherKind::Pad});
    r.add({"diag", {{"x", ParamKind::Tensor}}, &infer_diag, &eager_diag, 0,
           "a 1-d tensor as a diagonal matrix; the diagonal of a 2-d tensor", OtherKind::Diag});
    r.add({"tril", {{"x", ParamKind::Tensor}, {"k", ParamKind::Int, false, int64_t{0}}}, &infer_tri<true>,
           &eager_tri<true>, 0, "the lower triangle of the last two axes (zeros above the k-th diagonal)",
           OtherKind::Tril});
    r.add({"triu", {{"x", ParamKind::Tensor}, {"k", ParamKind::Int, false, int64_t{0}}}, &infer_tri<false>,
           &eager_tri<false>, 0, "the upper triangle of the last two axes (zeros below the k-th diagonal)",
           OtherKind::Triu});
}

}  // namespace tg::stdlib
