// max_pool2d and its gradient's indices (docs/builtins.md, "Neural
// networks"), as PyTorch's: windows of kernel_size with stride (default
// kernel_size), padding (at most half the kernel; padded positions never
// win), dilation and ceil_mode, on (N, C, H, W) or (C, H, W). The gradient
// goes to the first maximum of each window (a NaN wins, as PyTorch):
// _max_pool2d_indices gives its flat index into x (ONNX MaxPool's Indices),
// and the rule scatter-adds the cotangent there, so gradients of gradients
// are those of the scatter. avg_pool2d is a depthwise conv2d
// (interp/builtins/nn.cpp).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "stdlib/grad.hpp"
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

int64_t pooled(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1;
    int64_t out = (ceil ? (span + s - 1) / s : span / s) + 1;
    if (ceil && (out - 1) * s >= in + p) --out;  // the last window must start inside the input or the left padding
    return out;
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
    g.ho = pooled(g.h, g.kh, g.sh, g.ph, g.dh, ceil);
    g.wo = pooled(g.w, g.kw, g.sw, g.pw, g.dw, ceil);
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

// The window maxima (Indices = false) or their flat indices into x.
template <class T, bool Indices>
void pool_kernel(const PoolGeom& g, const T* x, std::conditional_t<Indices, int64_t, T>* out) {
    for (int64_t pl = 0; pl < g.planes; ++pl) {
        const T* plane = x + pl * g.h * g.w;
        for (int64_t oy = 0; oy < g.ho; ++oy)
            for (int64_t ox = 0; ox < g.wo; ++ox) {
                T best = std::numeric_limits<T>::lowest();
                if constexpr (std::numeric_limits<T>::has_infinity) best = -std::numeric_limits<T>::infinity();
                int64_t at = -1;
                for (int64_t i = 0; i < g.kh; ++i) {
                    const int64_t iy = oy * g.sh - g.ph + i * g.dh;
                    if (iy < 0 || iy >= g.h) continue;
                    for (int64_t j = 0; j < g.kw; ++j) {
                        const int64_t ix = ox * g.sw - g.pw + j * g.dw;
                        if (ix < 0 || ix >= g.w) continue;
                        const T v = plane[iy * g.w + ix];
                        if (at < 0 || v > best || v != v) {
                            best = v;
                            at = iy * g.w + ix;
                        }
                    }
                }
                auto& o = out[(pl * g.ho + oy) * g.wo + ox];
                if constexpr (Indices) o = pl * g.h * g.w + at;
                else o = best;
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

template <bool Indices>
Tensor eager_pool(OpContext&, const OpArgs& a) {
    const Tensor x = kern::strong(a.inputs[0]).contiguous();
    check_dtype(x.dtype());
    const PoolGeom g = pool_geom(x.shape(), a.attrs);
    Tensor out = Tensor::empty(Indices ? DType::I64 : x.dtype(), pooled_shape(x.shape(), g));
    if (out.numel() == 0) return out;
    kern::visit_dtype(x.dtype(), [&](auto t) {
        using T = decltype(t);
        if constexpr (!std::is_same_v<T, bool>) {
            if constexpr (Indices) pool_kernel<T, true>(g, x.data<T>(), out.data<int64_t>());
            else pool_kernel<T, false>(g, x.data<T>(), out.data<T>());
        }
    });
    return out;
}

// dx = the cotangent scatter-added at each window's maximum
void vjp_max_pool(GradBuilder& b, const VjpArgs& a) {
    if (a.wanted.empty() || !a.wanted[0]) return;
    const TensorType xt = b.type(a.inputs[0]);
    std::vector<Attr> attrs(a.attrs.begin(), a.attrs.end());
    const GradVar idx = b.apply(op_of(OtherKind::MaxPool2dIndices), a.inputs.first(1), attrs);
    auto flat = [&](GradVar v) {
        return b.apply(op_of(OtherKind::Reshape), std::span<const GradVar>(&v, 1),
                       {std::monostate{}, std::vector<int64_t>{b.type(v).shape.numel()}});
    };
    const GradVar zeros = zeros_of(b, {xt.dtype, Shape{xt.shape.numel()}, false});
    const GradVar in[3] = {zeros, flat(idx), flat(a.cot)};
    const GradVar dx = b.apply(op_of(OtherKind::ScatterAdd), in, {std::monostate{}, std::monostate{}, std::monostate{}, int64_t{0}});
    a.cots[0] = b.apply(op_of(OtherKind::Reshape), std::span<const GradVar>(&dx, 1),
                        {std::monostate{}, std::vector<int64_t>(xt.shape.begin(), xt.shape.end())});
}

}  // namespace

void register_pool_ops(OpRegistry& r) {
    const std::vector<ParamDef> params = {{"x", ParamKind::Tensor},
                                          {"kernel_size", ParamKind::Shape},
                                          {"stride", ParamKind::Shape, false, std::monostate{}},
                                          {"padding", ParamKind::Shape, false, int64_t{0}},
                                          {"dilation", ParamKind::Shape, false, int64_t{1}},
                                          {"ceil_mode", ParamKind::Bool, false, false}};
    OpDef m{"max_pool2d", params, &infer_max_pool, &eager_pool<false>, 0,
            "2-d max pooling of x (N, C, H, W) over windows of kernel_size (stride defaults to kernel_size)",
            OtherKind::MaxPool2d};
    m.grad = {GradRule::Vjp, &vjp_max_pool};
    r.add(std::move(m));
    OpDef i{"_max_pool2d_indices", params, &infer_indices, &eager_pool<true>, kInternal,
            "flat indices into x of max_pool2d's maxima (its gradient)", OtherKind::MaxPool2dIndices};
    i.grad = {GradRule::NoGradient, nullptr};
    r.add(std::move(i));
}

}  // namespace tg::stdlib
