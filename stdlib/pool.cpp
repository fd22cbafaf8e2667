// max_pool2d and its gradient's indices (docs/builtins.md, "Neural
// networks"), as PyTorch's: windows of kernel_size with stride (default
// kernel_size), padding (at most half the kernel; padded positions never
// win), dilation and ceil_mode, on (N, C, H, W) or (C, H, W). The gradient
// goes to the first maximum of each window (a NaN wins, as PyTorch):
// _max_pool2d_backward adds the cotangent there; its own gradient takes
// the cotangent at the flat indices _max_pool2d_indices gives (ONNX
// MaxPool's Indices), so gradients of gradients work. avg_pool2d is a depthwise conv2d
// (interp/builtins/nn.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "stdlib/grad.hpp"
#include "stdlib/pool.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

namespace {

using kern::fail;

struct PoolGeom {
    int64_t planes = 0, h = 0, w = 0, ho = 0, wo = 0;
    int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
};

std::pair<int64_t, int64_t> pair_of(const char* arg, const Attr& a) {
    const Shape s = kern::attr_shape("max_pool2d", arg, a);
    if (s.rank() == 1) return {s[0], s[0]};
    if (s.rank() == 2) return {s[0], s[1]};
    fail("max_pool2d", std::string("argument `") + arg + "` must be an int or a pair of ints");
}


// attrs: x, kernel_size, stride, padding, dilation, ceil_mode
PoolGeom pool_geom(const Shape& x, std::span<const Attr> at) {
    if (x.rank() != 3 && x.rank() != 4) fail("max_pool2d", "input must be 3-d (C, H, W) or 4-d (N, C, H, W), got shape " + x.to_string());
    PoolGeom g;
    std::tie(g.kh, g.kw) = pair_of("kernel_size", at[1]);
    std::tie(g.sh, g.sw) = kern::attr_is_none(at[2]) ? std::pair{g.kh, g.kw} : pair_of("stride", at[2]);
    std::tie(g.ph, g.pw) = pair_of("padding", at[3]);
    std::tie(g.dh, g.dw) = pair_of("dilation", at[4]);
    const bool ceil = kern::attr_bool("max_pool2d", "ceil_mode", at[5]);
    if (g.kh < 1 || g.kw < 1) fail("max_pool2d", "kernel_size must be positive");
    if (g.sh < 1 || g.sw < 1) fail("max_pool2d", "stride must be positive");
    if (g.dh < 1 || g.dw < 1) fail("max_pool2d", "dilation must be positive");
    if (2 * g.ph > g.kh || 2 * g.pw > g.kw)
        fail("max_pool2d", "padding (" + std::to_string(g.ph) + ", " + std::to_string(g.pw) +
                               ") must be at most half the kernel size (" + std::to_string(g.kh) + ", " +
                               std::to_string(g.kw) + ")");
    const int r = x.rank();
    g.h = x[r - 2];
    g.w = x[r - 1];
    g.planes = x[0] * (r == 4 ? x[1] : 1);
    g.ho = pooled_size(g.h, g.kh, g.sh, g.ph, g.dh, ceil);
    g.wo = pooled_size(g.w, g.kw, g.sw, g.pw, g.dw, ceil);
    if (g.ho < 1 || g.wo < 1)
        fail("max_pool2d", "the kernel (" + std::to_string(g.kh) + ", " + std::to_string(g.kw) +
                               ") is larger than the padded input (" + std::to_string(g.h + 2 * g.ph) + ", " +
                               std::to_string(g.w + 2 * g.pw) + ")");
    return g;
}

Shape pooled_shape(const Shape& x, const PoolGeom& g) {
    Shape out = x;
    out[x.rank() - 2] = g.ho;
    out[x.rank() - 1] = g.wo;
    return out;
}

// The taps [lo, hi) of a window starting at `start` (stride dilation d)
// that fall inside [0, n).
std::pair<int64_t, int64_t> taps(int64_t start, int64_t k, int64_t d, int64_t n) {
    const int64_t lo = start >= 0 ? 0 : (-start + d - 1) / d;
    const int64_t hi = n - 1 - start < 0 ? 0 : std::min(k, (n - 1 - start) / d + 1);
    return {lo, std::max(lo, hi)};
}

// Every window inside the input (no padding, no ceil_mode overhang).
bool windows_inside(const PoolGeom& g) {
    return g.ph == 0 && g.pw == 0 && (g.ho - 1) * g.sh + (g.kh - 1) * g.dh < g.h &&
           (g.wo - 1) * g.sw + (g.kw - 1) * g.dw < g.w;
}

// for_each_max when every window is inside: the same comparisons in the
// same tap order, without bounds checks and along a row of outputs at a
// time, which the compiler vectorizes (SW: the column stride when known at
// compile time, else 0). The maximum's position is kept as its tap number
// k (32 bits, as wide as an f32 lane) and turned into a position at the
// end of the row. On LeNet's first pool, 2x2 over (64, 6, 28, 28): the
// forward pass 4-5x faster than the general loop, the gradient 2.3x.
template <int64_t SW, class T, class F>
void for_each_max_inside(const PoolGeom& g, const T* x, F&& f) {
    const int64_t sw = SW ? SW : g.sw;
    std::vector<T> best(g.wo);
    std::vector<int32_t> tap(g.wo);
    std::vector<int64_t> offset;  // of tap k from the window's first tap, in the plane
    for (int64_t i = 0; i < g.kh; ++i)
        for (int64_t j = 0; j < g.kw; ++j) offset.push_back(i * g.dh * g.w + j * g.dw);
    for (int64_t pl = 0; pl < g.planes; ++pl)
        for (int64_t oy = 0; oy < g.ho; ++oy) {
            const T* row = x + pl * g.h * g.w + oy * g.sh * g.w;  // the first taps, at ox * sw
            T* __restrict b = best.data();
            int32_t* __restrict t = tap.data();
            for (int64_t ox = 0; ox < g.wo; ++ox) b[ox] = row[ox * sw];
            std::fill(t, t + g.wo, 0);
            for (int64_t k = 1; k < g.kh * g.kw; ++k) {
                const T* __restrict src = row + offset[k];
                for (int64_t ox = 0; ox < g.wo; ++ox) {
                    const T v = src[ox * sw];
                    const bool take = v > b[ox] || v != v;
                    b[ox] = take ? v : b[ox];
                    t[ox] = take ? static_cast<int32_t>(k) : t[ox];
                }
            }
            for (int64_t ox = 0; ox < g.wo; ++ox) f(pl, oy * g.wo + ox, oy * g.sh * g.w + ox * sw + offset[t[ox]], b[ox]);
        }
}

// f(plane, position in the plane's output, position of the maximum in the
// plane, the maximum) for every window: the first maximum, a NaN wins (the
// last one, as PyTorch).
template <class T, class F>
void for_each_max(const PoolGeom& g, const T* x, F&& f) {
    if (windows_inside(g)) {
        if (g.sw == 1) return for_each_max_inside<1>(g, x, f);
        if (g.sw == 2) return for_each_max_inside<2>(g, x, f);
        return for_each_max_inside<0>(g, x, f);
    }
    for (int64_t pl = 0; pl < g.planes; ++pl) {
        const T* plane = x + pl * g.h * g.w;
        for (int64_t oy = 0; oy < g.ho; ++oy) {
            const int64_t y0 = oy * g.sh - g.ph;
            const auto [ilo, ihi] = taps(y0, g.kh, g.dh, g.h);
            for (int64_t ox = 0; ox < g.wo; ++ox) {
                const int64_t x0 = ox * g.sw - g.pw;
                const auto [jlo, jhi] = taps(x0, g.kw, g.dw, g.w);
                T best = std::numeric_limits<T>::lowest();
                if constexpr (std::numeric_limits<T>::has_infinity) best = -std::numeric_limits<T>::infinity();
                int64_t at = (y0 + ilo * g.dh) * g.w + x0 + jlo * g.dw;
                for (int64_t i = ilo; i < ihi; ++i) {
                    const int64_t row = (y0 + i * g.dh) * g.w + x0;
                    for (int64_t j = jlo; j < jhi; ++j) {
                        const T v = plane[row + j * g.dw];
                        if (v > best || v != v) {
                            best = v;
                            at = row + j * g.dw;
                        }
                    }
                }
                f(pl, oy * g.wo + ox, at, best);
            }
        }
    }
}

DType check_dtype(DType d) {
    if (d == DType::Bool) fail("max_pool2d", "input must be numbers, not bool");
    return d;
}

TensorType infer_max_pool(const TypeArgs& a) {
    const TensorType& x = a.inputs[0];
    return {check_dtype(x.dtype), pooled_shape(x.shape, pool_geom(x.shape, a.attrs)), false};
}
TensorType infer_indices(const TypeArgs& a) {
    const TensorType& x = a.inputs[0];
    check_dtype(x.dtype);
    return {DType::I64, pooled_shape(x.shape, pool_geom(x.shape, a.attrs)), false};
}
// _max_pool2d_backward(x, g, kernel_size, ...): g has the pooled shape
TensorType infer_backward(const TypeArgs& a) {
    const TensorType& x = a.inputs[0];
    check_dtype(x.dtype);
    const Shape pooled = pooled_shape(x.shape, pool_geom(x.shape, a.attrs.subspan(1)));
    if (!(a.inputs[1].shape == pooled))
        fail("_max_pool2d_backward", "g of shape " + a.inputs[1].shape.to_string() + " is not the pooled shape " + pooled.to_string());
    return {x.dtype, x.shape, false};
}

enum class PoolOut { Max, Indices, Backward };

// max_pool2d, its indices, or its backward (the cotangent g added at each
// window's maximum of x).
template <PoolOut Out>
Tensor eager_pool(OpContext&, const OpArgs& a) {
    const Tensor x = kern::strong(a.inputs[0]).contiguous();
    check_dtype(x.dtype());
    const PoolGeom g = pool_geom(x.shape(), Out == PoolOut::Backward ? a.attrs.subspan(1) : a.attrs);
    const Shape pooled = pooled_shape(x.shape(), g);
    const DType d = Out == PoolOut::Indices ? DType::I64 : x.dtype();
    Tensor out = Out == PoolOut::Backward ? Tensor::zeros(d, x.shape()) : Tensor::empty(d, pooled);
    if (out.numel() == 0 || g.planes * g.ho * g.wo == 0) return out;
    kern::visit_dtype(x.dtype(), [&](auto t) {
        using T = decltype(t);
        if constexpr (!std::is_same_v<T, bool>) {
            const int64_t plane_in = g.h * g.w, plane_out = g.ho * g.wo;
            if constexpr (Out == PoolOut::Max) {
                T* o = out.data<T>();
                for_each_max(g, x.data<T>(), [&](int64_t pl, int64_t p, int64_t, T best) { o[pl * plane_out + p] = best; });
            } else if constexpr (Out == PoolOut::Indices) {
                int64_t* o = out.data<int64_t>();
                for_each_max(g, x.data<T>(), [&](int64_t pl, int64_t p, int64_t at, T) { o[pl * plane_out + p] = pl * plane_in + at; });
            } else {
                const Tensor gc = cast(kern::strong(a.inputs[1]), d).contiguous();
                const T* gp = gc.data<T>();
                T* o = out.data<T>();
                for_each_max(g, x.data<T>(), [&](int64_t pl, int64_t p, int64_t at, T) { o[pl * plane_in + at] += gp[pl * plane_out + p]; });
            }
        }
    });
    return out;
}

// max_pool2d: dx = the backward op (the cotangent added at each maximum)
void vjp_max_pool(GradBuilder& b, const VjpArgs& a) {
    if (a.wanted.empty() || !a.wanted[0]) return;
    std::vector<Attr> attrs(a.attrs.begin(), a.attrs.end());
    attrs.insert(attrs.begin(), std::monostate{});
    const GradVar in[2] = {a.inputs[0], a.cot};
    a.cots[0] = b.apply(op_of(OtherKind::MaxPool2dBackward), in, std::move(attrs));
}

// the backward op, linear in g: its transpose reads the cotangent at each
// window's maximum (a take at the indices); x only chooses the positions
void vjp_backward(GradBuilder& b, const VjpArgs& a) {
    if (a.wanted.size() < 2 || !a.wanted[1]) return;
    std::vector<Attr> attrs(a.attrs.begin() + 1, a.attrs.end());
    const GradVar in[2] = {a.cot, b.apply(op_of(OtherKind::MaxPool2dIndices), a.inputs.first(1), attrs)};
    a.cots[1] = b.apply(op_of(OtherKind::Take), in, {std::monostate{}, std::monostate{}, std::monostate{}});  // flat take
}

}  // namespace

void register_pool_ops(OpRegistry& r) {
    const std::vector<ParamDef> params = {{"x", ParamKind::Tensor},
                                          {"kernel_size", ParamKind::Shape},
                                          {"stride", ParamKind::Shape, false, std::monostate{}},
                                          {"padding", ParamKind::Shape, false, int64_t{0}},
                                          {"dilation", ParamKind::Shape, false, int64_t{1}},
                                          {"ceil_mode", ParamKind::Bool, false, false}};
    OpDef m{"max_pool2d", params, &infer_max_pool, &eager_pool<PoolOut::Max>, 0,
            "2-d max pooling of x (N, C, H, W) over windows of kernel_size (stride defaults to kernel_size)",
            OtherKind::MaxPool2d};
    m.grad = {GradRule::Vjp, &vjp_max_pool};
    r.add(std::move(m));
    OpDef i{"_max_pool2d_indices", params, &infer_indices, &eager_pool<PoolOut::Indices>, kInternal,
            "flat indices into x of max_pool2d's maxima (the transpose of its gradient)", OtherKind::MaxPool2dIndices};
    i.grad = {GradRule::NoGradient, nullptr};
    r.add(std::move(i));
    std::vector<ParamDef> bparams = params;
    bparams.insert(bparams.begin() + 1, ParamDef{"g", ParamKind::Tensor});
    OpDef bw{"_max_pool2d_backward", bparams, &infer_backward, &eager_pool<PoolOut::Backward>, kInternal,
             "max_pool2d's gradient: g added into zeros like x at each window's maximum", OtherKind::MaxPool2dBackward};
    bw.grad = {GradRule::Vjp, &vjp_backward};
    r.add(std::move(bw));
}

}  // namespace tg::stdlib
