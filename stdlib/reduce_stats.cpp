// var, std and median (docs/builtins.md): reductions that need a whole lane at once
// (two passes, or a selection), so they run on "lanes": the reduced axes moved
// last and made contiguous, one lane per output element. Also the weights of
// median's gradient (the internal op _median_weights).
//
// NumPy's semantics with tg's dtypes: floats keep their dtype, bool and
// integers give f32 (NumPy: f64). var = sum((x - mean)^2) / max(n - ddof, 0)
// (so n <= ddof gives inf, or NaN when the sum is 0, as NumPy); sums are
// accumulated in f64. median of an even count is the mean of the two middle
// elements computed in the dtype (NumPy's mean of two); any NaN in a lane
// makes its median NaN; an empty lane gives NaN for all three.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stdlib/reduce.hpp"
#include "stdlib/reduce_runs.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

namespace {

// x (cast to dtype c) with the reduced axes last, contiguous: `out` lanes of
// `n` elements each.
struct Lanes {
    Tensor data;
    int64_t count = 0, n = 0;
};

Lanes lanes_of(const Tensor& x, const std::vector<int>& axes, DType c) {
    Tensor xc = cast(x, c);
    Shape shape;
    Strides strides;
    Lanes l;
    l.n = 1;
    for (int d = 0; d < x.rank(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
            shape.push_back(x.shape()[d]);
            strides.push_back(xc.strides()[d]);
        }
    for (int d : axes) {
        shape.push_back(x.shape()[d]);
        strides.push_back(xc.strides()[d]);
        l.n *= x.shape()[d];
    }
    l.data = x.rank() == 0 ? xc.contiguous() : xc.view(shape, strides, 0).contiguous();
    l.count = l.n == 0 ? 0 : l.data.numel() / l.n;
    return l;
}

Shape kept_shape(const Shape& in, const std::vector<int>& axes, bool keepdims) {
    Shape s;
    for (int d = 0; d < in.rank(); ++d) {
        const bool red = std::find(axes.begin(), axes.end(), d) != axes.end();
        if (!red) s.push_back(in[d]);
        else if (keepdims) s.push_back(1);
    }
    return s;
}

// sum((x - mean)^2) / max(n - ddof, 0), accumulated in f64 (n >= 1).
template <class C>
double variance(const C* p, int64_t n, double ddof) {
    const double mean = runs::pairwise_sum<double>(p, n) / static_cast<double>(n);
    double ss = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(p[i]) - mean;
        ss += d * d;
    }
    return ss / std::max(static_cast<double>(n) - ddof, 0.0);
}

// The median of p[0..n) (n >= 1), in C; buf is scratch.
template <class C>
C median_of(const C* p, int64_t n, std::vector<C>& buf) {
    buf.assign(p, p + n);
    for (C v : buf)
        if (v != v) return v;
    std::nth_element(buf.begin(), buf.begin() + n / 2, buf.end());
    const C hi = buf[static_cast<size_t>(n / 2)];
    if (n % 2) return hi;
    const C lo = *std::max_element(buf.begin(), buf.begin() + n / 2);  // the largest of the lower half
    return (lo + hi) / C(2);
}

// C: the compute type (f32 for f32 input, f64 for the others).
template <class C>
Tensor stat_lanes(ReduceKind k, const Tensor& x, const std::vector<int>& axes, bool keepdims, double ddof,
                  DType out_dtype) {
    Tensor out = Tensor::empty(out_dtype, kept_shape(x.shape(), axes, keepdims));
    if (out.numel() == 0) return out;
    const Lanes l = lanes_of(x, axes, kern::dtype_of<C>());
    std::vector<C> buf;
    for (int64_t o = 0; o < out.numel(); ++o) {
        const C* p = l.data.data<C>() + o * l.n;
        double r = std::numeric_limits<double>::quiet_NaN();
        if (l.n > 0) {
            if (k == ReduceKind::Median) r = static_cast<double>(median_of(p, l.n, buf));
            else if (k == ReduceKind::Var) r = variance(p, l.n, ddof);
            else r = std::sqrt(variance(p, l.n, ddof));
        }
        if (out_dtype == DType::F64) out.data<double>()[o] = r;
        else out.data<float>()[o] = static_cast<float>(r);
    }
    return out;
}

// Per lane: 1 / (count) on the elements equal to the middle value (odd n),
// 1/2 shared among those equal to each of the two middle values (even n;
// 1 shared when they are equal); NaN across a lane with a NaN.
template <class C>
void median_weights_lane(const C* p, int64_t n, C* w, std::vector<C>& buf) {
    buf.assign(p, p + n);
    bool nan = false;
    for (C v : buf) nan = nan || v != v;
    if (nan) {
        std::fill(w, w + n, std::numeric_limits<C>::quiet_NaN());
        return;
    }
    std::nth_element(buf.begin(), buf.begin() + n / 2, buf.end());
    const C hi = buf[static_cast<size_t>(n / 2)];
    const C lo = n % 2 ? hi : *std::max_element(buf.begin(), buf.begin() + n / 2);
    int64_t n_lo = 0, n_hi = 0;
    for (int64_t i = 0; i < n; ++i) {
        n_lo += p[i] == lo;
        n_hi += p[i] == hi;
    }
    for (int64_t i = 0; i < n; ++i) {
        C v = 0;
        if (lo == hi) v = p[i] == hi ? C(1) / C(n_hi) : C(0);
        else v = p[i] == lo ? C(0.5) / C(n_lo) : p[i] == hi ? C(0.5) / C(n_hi) : C(0);
        w[i] = v;
    }
}

}  // namespace

Tensor reduce_stat(ReduceKind k, const Tensor& x, const std::vector<int>& axes, bool keepdims, double ddof) {
    if (x.dtype() == DType::F32) return stat_lanes<float>(k, x, axes, keepdims, ddof, DType::F32);
    return stat_lanes<double>(k, x, axes, keepdims, ddof, x.dtype() == DType::F64 ? DType::F64 : DType::F32);
}

Tensor median_weights(const Tensor& x0, const Attr& axis) {
    const Tensor x = kern::strong(x0);
    const std::vector<int> axes = kern::attr_axes("median", axis, x.rank());
    const DType d = is_float(x.dtype()) ? x.dtype() : DType::F32;
    // The weights in lane order, then moved back to x's layout.
    Tensor w;
    auto run = [&](auto c) {
        using C = decltype(c);
        const Lanes l = lanes_of(x, axes, kern::dtype_of<C>());
        w = Tensor::empty(kern::dtype_of<C>(), l.data.shape());
        std::vector<C> buf;
        for (int64_t o = 0; o < l.count; ++o)
            median_weights_lane(l.data.data<C>() + o * l.n, l.n, w.data<C>() + o * l.n, buf);
    };
    if (d == DType::F64) run(double{});
    else run(float{});
    // w's axes are (kept..., reduced...): give each of x's axes its stride in w.
    Strides ws = contiguous_strides(w.shape());
    Strides back;
    for (int dim = 0; dim < x.rank(); ++dim) back.push_back(0);
    int at = 0;
    for (int dim = 0; dim < x.rank(); ++dim)
        if (std::find(axes.begin(), axes.end(), dim) == axes.end()) back[dim] = ws[at++];
    for (int dim : axes) back[dim] = ws[at++];
    if (x.rank() == 0) return w;
    return cast(w.view(x.shape(), back, 0), d).contiguous();
}

}  // namespace tg::stdlib
