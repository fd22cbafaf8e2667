// The convolution kernels of conv.hpp: im2col / col2im and OpenBLAS's GEMM.
#include "stdlib/conv.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "stdlib/blas.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib::conv {

using kern::fail;

namespace {

std::string pair_text(int64_t a, int64_t b) { return Shape{a, b}.to_string(); }

// An int or a pair of ints (stride, dilation, kernel_size).
std::pair<int64_t, int64_t> read_pair(std::string_view fn, std::string_view arg, const Attr& a) {
    if (const auto* i = std::get_if<int64_t>(&a)) return {*i, *i};
    if (const auto* v = std::get_if<std::vector<int64_t>>(&a)) {
        if (v->size() == 1) return {(*v)[0], (*v)[0]};
        if (v->size() == 2) return {(*v)[0], (*v)[1]};
    }
    fail(fn, "argument `" + std::string(arg) + "` must be an int or a pair of ints");
}

int64_t out_size(int64_t in, int64_t pad, int64_t k, int64_t s, int64_t d) {
    const int64_t span = in + pad - d * (k - 1) - 1;
    return span < 0 ? 0 : span / s + 1;
}

// Samples per GEMM: as many as keep one group's column matrix within 4M
// elements (16 MB in f32), at least one. A constant of the shapes, so the
// weight gradient's sums always group the same way.
int64_t chunk_samples(const Geom& g) {
    const int64_t per = std::max<int64_t>(1, g.k() * g.p());
    return std::clamp<int64_t>((int64_t{1} << 22) / per, 1, std::max<int64_t>(1, g.n));
}

// The output columns [lo, hi) whose input column ox * sw + x0 lies in [0, w).
std::pair<int64_t, int64_t> valid_cols(const Geom& g, int64_t x0) {
    const int64_t lo = x0 >= 0 ? 0 : (-x0 + g.sw - 1) / g.sw;
    const int64_t hi = g.w - 1 - x0 < 0 ? 0 : (g.w - 1 - x0) / g.sw + 1;
    return {std::min(lo, g.wo), std::clamp(hi, std::min(lo, g.wo), g.wo)};
}

// Visits each (row of the column matrix, sample, output row) of group `grp`:
// f(cols_row, plane_row_or_null, lo, hi, x0) with the output columns
// [lo, hi) reading input columns ox * sw + x0 of the plane row.
template <class T, class F>
void for_each_window_row(const Geom& g, T* x, int64_t grp, int64_t n0, int64_t nb, F&& f) {
    const int64_t P = g.p(), NP = nb * P;
    for (int64_t ci = 0; ci < g.cg(); ++ci)
        for (int64_t i = 0; i < g.kh; ++i)
            for (int64_t j = 0; j < g.kw; ++j) {
                const int64_t row = (ci * g.kh + i) * g.kw + j;
                const int64_t x0 = j * g.dw - g.pl;
                const auto [lo, hi] = valid_cols(g, x0);
                for (int64_t s = 0; s < nb; ++s) {
                    T* plane = x + ((n0 + s) * g.c + grp * g.cg() + ci) * g.h * g.w;
                    for (int64_t oy = 0; oy < g.ho; ++oy) {
                        const int64_t iy = oy * g.sh - g.pt + i * g.dh;
                        const int64_t at = row * NP + s * P + oy * g.wo;
                        f(at, iy < 0 || iy >= g.h ? nullptr : plane + iy * g.w, lo, hi, x0);
                    }
                }
            }
}

// cols (K, nb * P) = the windows of samples [n0, n0 + nb) of group grp.
template <class T>
void im2col(const Geom& g, const T* x, int64_t grp, int64_t n0, int64_t nb, T* cols) {
    for_each_window_row(g, x, grp, n0, nb, [&](int64_t at, const T* src, int64_t lo, int64_t hi, int64_t x0) {
        T* o = cols + at;
        if (!src) {
            std::fill(o, o + g.wo, T{0});
            return;
        }
        std::fill(o, o + lo, T{0});
        if (g.sw == 1) std::copy(src + lo + x0, src + hi + x0, o + lo);
        else
            for (int64_t ox = lo; ox < hi; ++ox) o[ox] = src[ox * g.sw + x0];
        std::fill(o + hi, o + g.wo, T{0});
    });
}

// dx += the windows of cols scattered back (the transpose of im2col).
template <class T>
void col2im(const Geom& g, const T* cols, int64_t grp, int64_t n0, int64_t nb, T* dx) {
    for_each_window_row(g, dx, grp, n0, nb, [&](int64_t at, T* dst, int64_t lo, int64_t hi, int64_t x0) {
        if (!dst) return;
        const T* c = cols + at;
        for (int64_t ox = lo; ox < hi; ++ox) dst[ox * g.sw + x0] += c[ox];
    });
}

// One group's block of y or dy, (og, nb * P), from or to the (n, o, P) layout.
template <class T, bool ToBlock>
void move_block(const Geom& g, T* nchw, T* block, int64_t grp, int64_t n0, int64_t nb) {
    const int64_t P = g.p(), NP = nb * P;
    for (int64_t s = 0; s < nb; ++s)
        for (int64_t oc = 0; oc < g.og(); ++oc) {
            T* a = nchw + ((n0 + s) * g.o + grp * g.og() + oc) * P;
            T* b = block + oc * NP + s * P;
            if constexpr (ToBlock) std::copy(a, a + P, b);
            else std::copy(b, b + P, a);
        }
}

// f(n0, nb, grp, cols, block) for each chunk of samples [n0, n0 + nb) and
// group, with scratch for one group's column matrix and (nb > 1) its block
// of y or dy.
template <class T, class F>
void for_each_chunk(const Geom& g, F&& f) {
    const int64_t cs = chunk_samples(g);
    std::vector<T> cols(static_cast<size_t>(g.k() * cs * g.p()));
    std::vector<T> block(cs > 1 ? static_cast<size_t>(g.og() * cs * g.p()) : 0);
    for (int64_t n0 = 0; n0 < g.n; n0 += cs)
        for (int64_t grp = 0; grp < g.groups; ++grp) f(n0, std::min(cs, g.n - n0), grp, cols.data(), block.data());
}

// One group's dy as an (og, nb * P) matrix: in place for one sample.
template <class T>
const T* dy_block(const Geom& g, const T* dy, T* block, int64_t grp, int64_t n0, int64_t nb) {
    if (nb == 1) return dy + (n0 * g.o + grp * g.og()) * g.p();
    move_block<T, true>(g, const_cast<T*>(dy), block, grp, n0, nb);
    return block;
}

template <class T>
void forward_t(const Geom& g, const T* x, const T* w, T* y) {
    const int64_t K = g.k(), P = g.p(), og = g.og();
    for_each_chunk<T>(g, [&](int64_t n0, int64_t nb, int64_t grp, T* cols, T* block) {
        im2col(g, x, grp, n0, nb, cols);
        T* out = nb == 1 ? y + (n0 * g.o + grp * og) * P : block;
        blas::gemm<T>("conv2d", false, false, og, nb * P, K, w + grp * og * K, K, cols, nb * P, out);
        if (nb > 1) move_block<T, false>(g, y, block, grp, n0, nb);
    });
}

template <class T>
void input_grad_t(const Geom& g, const T* dy, const T* w, T* dx) {
    const int64_t K = g.k(), P = g.p(), og = g.og();
    for_each_chunk<T>(g, [&](int64_t n0, int64_t nb, int64_t grp, T* cols, T* block) {
        const T* dyg = dy_block(g, dy, block, grp, n0, nb);
        blas::gemm<T>("conv2d", true, false, K, nb * P, og, w + grp * og * K, K, dyg, nb * P, cols);
        col2im(g, cols, grp, n0, nb, dx);
    });
}

// dw accumulates over the chunks (beta = 1 into zeros), always grouped the
// same way for the same shapes.
template <class T>
void weight_grad_t(const Geom& g, const T* x, const T* dy, T* dw) {
    const int64_t K = g.k(), P = g.p(), og = g.og();
    for_each_chunk<T>(g, [&](int64_t n0, int64_t nb, int64_t grp, T* cols, T* block) {
        im2col(g, x, grp, n0, nb, cols);
        const T* dyg = dy_block(g, dy, block, grp, n0, nb);
        blas::gemm<T>("conv2d", false, true, og, K, nb * P, dyg, nb * P, cols, nb * P, dw + grp * og * K, T{1});
    });
}

// Runs f<T> on the operands cast to dtype d and made contiguous.
template <class F>
Tensor dispatch(DType d, const Shape& out, const Tensor& a, const Tensor& b, bool zero, F&& f) {
    Tensor ca = cast(a, d).contiguous(), cb = cast(b, d).contiguous();
    Tensor r = zero ? Tensor::zeros(d, out) : Tensor::empty(d, out);
    if (r.numel() == 0) return r;
    if (d == DType::F64) f(ca.data<double>(), cb.data<double>(), r.data<double>());
    else f(ca.data<float>(), cb.data<float>(), r.data<float>());
    return r;
}

DType dtype_of(const Tensor& a, const Tensor& b) {
    return conv_dtype({a.dtype(), a.shape(), a.weak()}, {b.dtype(), b.shape(), b.weak()});
}

}  // namespace

Params read_params(std::string_view fn, const Attr& stride, const Attr& padding, const Attr& dilation,
                   const Attr& groups) {
    Params p;
    std::tie(p.sh, p.sw) = read_pair(fn, "stride", stride);
    std::tie(p.dh, p.dw) = read_pair(fn, "dilation", dilation);
    if (const auto* v = std::get_if<std::vector<int64_t>>(&padding); v && v->size() == 4) {
        p.pt = (*v)[0], p.pl = (*v)[1], p.pb = (*v)[2], p.pr = (*v)[3];
    } else {
        const auto [ph, pw] = read_pair(fn, "padding", padding);
        p.pt = p.pb = ph;
        p.pl = p.pr = pw;
    }
    p.groups = kern::attr_int(fn, "groups", groups);
    if (p.sh < 1 || p.sw < 1) fail(fn, "stride must be positive, got " + pair_text(p.sh, p.sw));
    if (p.dh < 1 || p.dw < 1) fail(fn, "dilation must be positive, got " + pair_text(p.dh, p.dw));
    if (p.pt < 0 || p.pl < 0 || p.pb < 0 || p.pr < 0) fail(fn, "padding must not be negative");
    if (p.groups < 1) fail(fn, "groups must be at least 1, got " + std::to_string(p.groups));
    return p;
}

std::vector<int64_t> pair_attr(int64_t a, int64_t b) { return {a, b}; }

Geom conv_geom(std::string_view fn, const Shape& x, const Shape& w, const Params& p) {
    if (x.rank() != 4) fail(fn, "input must be 4-d (N, C, H, W), got shape " + x.to_string());
    if (w.rank() != 4)
        fail(fn, "weight must be 4-d (out_channels, in_channels / groups, kH, kW), got shape " + w.to_string());
    if (w[2] < 1 || w[3] < 1) fail(fn, "the kernel size must be positive, got weight shape " + w.to_string());
    Geom g{x[0], x[1], x[2], x[3], w[0], w[2], w[3], p.groups, p.sh, p.sw, p.pt, p.pl, p.pb, p.pr, p.dh, p.dw};
    if (g.c != w[1] * g.groups)
        fail(fn, "input has " + std::to_string(g.c) + " channels but weight expects " + std::to_string(w[1] * g.groups) +
                     " (groups=" + std::to_string(g.groups) + ", weight shape " + w.to_string() + ")");
    if (g.o % g.groups != 0)
        fail(fn, "weight has " + std::to_string(g.o) + " output channels, which groups=" + std::to_string(g.groups) +
                     " does not divide");
    g.ho = out_size(g.h, g.pt + g.pb, g.kh, g.sh, g.dh);
    g.wo = out_size(g.w, g.pl + g.pr, g.kw, g.sw, g.dw);
    if (g.ho < 1 || g.wo < 1)
        fail(fn, "the kernel " + pair_text(g.kh, g.kw) + " with dilation " + pair_text(g.dh, g.dw) +
                     " is larger than the padded input " + pair_text(g.h + g.pt + g.pb, g.w + g.pl + g.pr));
    return g;
}

Geom transpose_geom(std::string_view fn, const Shape& x, const Shape& w, const Params& p, int64_t oph, int64_t opw) {
    if (x.rank() != 4) fail(fn, "input must be 4-d (N, C, H, W), got shape " + x.to_string());
    if (w.rank() != 4)
        fail(fn, "weight must be 4-d (in_channels, out_channels / groups, kH, kW), got shape " + w.to_string());
    if (w[2] < 1 || w[3] < 1) fail(fn, "the kernel size must be positive, got weight shape " + w.to_string());
    if (x[1] != w[0])
        fail(fn, "input has " + std::to_string(x[1]) + " channels but weight expects " + std::to_string(w[0]) +
                     " (weight shape " + w.to_string() + ")");
    if (w[0] % p.groups != 0)
        fail(fn, "weight has " + std::to_string(w[0]) + " input channels, which groups=" + std::to_string(p.groups) +
                     " does not divide");
    if (oph < 0 || opw < 0 || oph >= p.sh || opw >= p.sw)
        fail(fn, "output_padding " + pair_text(oph, opw) + " must be smaller than the stride " + pair_text(p.sh, p.sw));
    const int64_t h = (x[2] - 1) * p.sh - p.pt - p.pb + p.dh * (w[2] - 1) + 1 + oph;
    const int64_t wd = (x[3] - 1) * p.sw - p.pl - p.pr + p.dw * (w[3] - 1) + 1 + opw;
    if (h < 1 || wd < 1)
        fail(fn, "the padding " + pair_text(p.pt + p.pb, p.pl + p.pr) + " leaves an output of size " + pair_text(h, wd));
    // the conv whose input gradient this is: weight (in, out / groups) read as (o, c / groups)
    Geom g{x[0], w[1] * p.groups, h, wd, w[0], w[2], w[3], p.groups, p.sh, p.sw, p.pt, p.pl, p.pb, p.pr, p.dh, p.dw};
    g.ho = x[2];
    g.wo = x[3];
    return g;
}

DType conv_dtype(const TensorType& a, const TensorType& b) {
    const DType d = promote(a.dtype, a.weak, b.dtype, b.weak).dtype;
    return is_float(d) ? d : DType::F32;
}

Tensor forward(const Geom& g, const Tensor& x, const Tensor& w) {
    return dispatch(dtype_of(x, w), Shape{g.n, g.o, g.ho, g.wo}, x, w, g.k() == 0,
                    [&](const auto* px, const auto* pw, auto* py) {
                        if (g.k() > 0) forward_t(g, px, pw, py);
                    });
}

Tensor input_grad(const Geom& g, const Tensor& dy, const Tensor& w) {
    return dispatch(dtype_of(dy, w), Shape{g.n, g.c, g.h, g.w}, dy, w, true,
                    [&](const auto* pdy, const auto* pw, auto* pdx) {
                        if (g.k() > 0 && g.p() > 0 && g.og() > 0) input_grad_t(g, pdy, pw, pdx);
                    });
}

Tensor weight_grad(const Geom& g, const Tensor& x, const Tensor& dy) {
    return dispatch(dtype_of(x, dy), Shape{g.o, g.cg(), g.kh, g.kw}, x, dy, true,
                    [&](const auto* px, const auto* pdy, auto* pdw) {
                        if (g.n > 0 && g.p() > 0) weight_grad_t(g, px, pdy, pdw);
                    });
}

}  // namespace tg::stdlib::conv
