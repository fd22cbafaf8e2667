// The convolution kernels of conv.hpp: im2col / col2im and OpenBLAS's GEMM.
#include "stdlib/conv.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#ifdef __AVX512F__
#include <immintrin.h>
#endif

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

// The work is done in chunks whose column matrix (one group's) stays within
// kChunk elements, so that im2col writes it into the cache the GEMM then
// reads it from: 128 KB in f32 (chunks of up to 16 MB made LeNet's
// convolutions 2-5x slower, docs/performance.md "Convolution"). A chunk is
// several whole samples, or when one sample is larger, a range of one
// sample's output rows. Constants of the shapes, so the weight gradient's
// sums always group the same way.
constexpr int64_t kChunk = int64_t{1} << 15;

// Samples [n0, n0 + nb), output rows [y0, y1) of each.
struct Chunk {
    int64_t n0, nb, y0, y1;
    int64_t per_sample(const Geom& g) const { return (y1 - y0) * g.wo; }  // columns of one sample
};

int64_t chunk_samples(const Geom& g) {
    const int64_t per = std::max<int64_t>(1, g.k() * g.p());
    return std::clamp<int64_t>(kChunk / per, 1, std::max<int64_t>(1, g.n));
}
int64_t chunk_rows(const Geom& g) {
    return std::clamp<int64_t>(kChunk / std::max<int64_t>(1, g.k() * g.wo), 1, std::max<int64_t>(1, g.ho));
}

// The output columns [lo, hi) whose input column ox * sw + x0 lies in [0, w).
std::pair<int64_t, int64_t> valid_cols(const Geom& g, int64_t x0) {
    const int64_t lo = x0 >= 0 ? 0 : (-x0 + g.sw - 1) / g.sw;
    const int64_t hi = g.w - 1 - x0 < 0 ? 0 : (g.w - 1 - x0) / g.sw + 1;
    return {std::min(lo, g.wo), std::clamp(hi, std::min(lo, g.wo), g.wo)};
}

// Visits each (row of the column matrix, sample, output row) of group `grp`
// in chunk c: f(cols_row, plane_row_or_null, lo, hi, x0) with the output
// columns [lo, hi) reading input columns ox * sw + x0 of the plane row.
template <class T, class F>
void for_each_window_row(const Geom& g, T* x, int64_t grp, const Chunk& c, F&& f) {
    const int64_t P = c.per_sample(g), NP = c.nb * P;
    for (int64_t ci = 0; ci < g.cg(); ++ci)
        for (int64_t i = 0; i < g.kh; ++i)
            for (int64_t j = 0; j < g.kw; ++j) {
                const int64_t row = (ci * g.kh + i) * g.kw + j;
                const int64_t x0 = j * g.dw - g.pl;
                const auto [lo, hi] = valid_cols(g, x0);
                for (int64_t s = 0; s < c.nb; ++s) {
                    T* plane = x + ((c.n0 + s) * g.c + grp * g.cg() + ci) * g.h * g.w;
                    for (int64_t oy = c.y0; oy < c.y1; ++oy) {
                        const int64_t iy = oy * g.sh - g.pt + i * g.dh;
                        const int64_t at = row * NP + s * P + (oy - c.y0) * g.wo;
                        f(at, iy < 0 || iy >= g.h ? nullptr : plane + iy * g.w, lo, hi, x0);
                    }
                }
            }
}

// Short rows (an output row: tens of elements) moved with AVX-512 masked
// loads and stores when the kernels are compiled for it (TG_NATIVE_KERNELS):
// a loop's vector body and scalar tail, or a call to memmove, cost more than
// the copy itself at these lengths. Same values either way.
template <class T>
void copy_row(const T* src, T* dst, int64_t n) {
#ifdef __AVX512F__
    if constexpr (std::is_same_v<T, float>) {
        int64_t k = 0;
        for (; k + 16 <= n; k += 16) _mm512_storeu_ps(dst + k, _mm512_loadu_ps(src + k));
        if (k < n) {
            const auto m = static_cast<__mmask16>((1u << (n - k)) - 1);
            _mm512_mask_storeu_ps(dst + k, m, _mm512_maskz_loadu_ps(m, src + k));
        }
        return;
    }
#endif
    for (int64_t k = 0; k < n; ++k) dst[k] = src[k];
}

template <class T>
void zero_row(T* dst, int64_t n) {
#ifdef __AVX512F__
    if constexpr (std::is_same_v<T, float>) {
        int64_t k = 0;
        for (; k + 16 <= n; k += 16) _mm512_storeu_ps(dst + k, _mm512_setzero_ps());
        if (k < n) _mm512_mask_storeu_ps(dst + k, static_cast<__mmask16>((1u << (n - k)) - 1), _mm512_setzero_ps());
        return;
    }
#endif
    for (int64_t k = 0; k < n; ++k) dst[k] = T{0};
}

// dst[0, n) += src[0, n), element by element in order (as the plain loop).
template <class T>
void add_row(const T* src, T* dst, int64_t n) {
#ifdef __AVX512F__
    if constexpr (std::is_same_v<T, float>) {
        int64_t k = 0;
        for (; k + 16 <= n; k += 16)
            _mm512_storeu_ps(dst + k, _mm512_add_ps(_mm512_loadu_ps(dst + k), _mm512_loadu_ps(src + k)));
        if (k < n) {
            const auto m = static_cast<__mmask16>((1u << (n - k)) - 1);
            _mm512_mask_storeu_ps(dst + k, m,
                                  _mm512_add_ps(_mm512_maskz_loadu_ps(m, dst + k), _mm512_maskz_loadu_ps(m, src + k)));
        }
        return;
    }
#endif
    for (int64_t k = 0; k < n; ++k) dst[k] += src[k];
}

// cols (K, chunk columns) = the windows of chunk c of group grp.
template <class T>
void im2col(const Geom& g, const T* x, int64_t grp, const Chunk& c, T* cols) {
    for_each_window_row(g, x, grp, c, [&](int64_t at, const T* src, int64_t lo, int64_t hi, int64_t x0) {
        T* o = cols + at;
        if (!src) {  // a row of the padding
            zero_row(o, g.wo);
            return;
        }
        zero_row(o, lo);
        if (g.sw == 1) copy_row(src + lo + x0, o + lo, hi - lo);
        else
            for (int64_t ox = lo; ox < hi; ++ox) o[ox] = src[ox * g.sw + x0];
        zero_row(o + hi, g.wo - hi);
    });
}

// dx += the windows of cols scattered back (the transpose of im2col).
template <class T>
void col2im(const Geom& g, const T* cols, int64_t grp, const Chunk& c, T* dx) {
    for_each_window_row(g, dx, grp, c, [&](int64_t at, T* dst, int64_t lo, int64_t hi, int64_t x0) {
        if (!dst) return;
        const T* col = cols + at;
        if (g.sw == 1) add_row(col + lo, dst + lo + x0, hi - lo);
        else
            for (int64_t ox = lo; ox < hi; ++ox) dst[ox * g.sw + x0] += col[ox];
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

// f(chunk, grp, cols, block) for each chunk and group, with scratch for one
// group's column matrix and (several samples) its block of y or dy.
template <class T, class F>
void for_each_chunk(const Geom& g, F&& f) {
    const int64_t cs = chunk_samples(g), rows = cs > 1 ? g.ho : chunk_rows(g);
    constexpr DType d = std::is_same_v<T, double> ? DType::F64 : DType::F32;
    Tensor cols = Tensor::empty(d, Shape{g.k() * cs * rows * g.wo});
    Tensor block = Tensor::empty(d, Shape{cs > 1 ? g.og() * cs * g.p() : 0});
    for (int64_t n0 = 0; n0 < g.n; n0 += cs)
        for (int64_t y0 = 0; y0 < g.ho; y0 += rows)
            for (int64_t grp = 0; grp < g.groups; ++grp)
                f(Chunk{n0, std::min(cs, g.n - n0), y0, std::min(y0 + rows, g.ho)}, grp, cols.data<T>(),
                  block.data<T>());
}

// One group's dy in chunk c as an (og, columns) matrix and its leading
// dimension: in place for one sample.
template <class T>
std::pair<const T*, int64_t> dy_block(const Geom& g, const T* dy, T* block, int64_t grp, const Chunk& c) {
    if (c.nb == 1) return {dy + (c.n0 * g.o + grp * g.og()) * g.p() + c.y0 * g.wo, g.p()};
    move_block<T, true>(g, const_cast<T*>(dy), block, grp, c.n0, c.nb);
    return {block, c.nb * g.p()};
}

template <class T>
void forward_t(const Geom& g, const T* x, const T* w, T* y) {
    const int64_t K = g.k(), P = g.p(), og = g.og();
    for_each_chunk<T>(g, [&](const Chunk& c, int64_t grp, T* cols, T* block) {
        im2col(g, x, grp, c, cols);
        const int64_t N = c.nb * c.per_sample(g);
        const T* wg = w + grp * og * K;
        if (c.nb == 1) {
            blas::gemm<T>("conv2d", false, false, og, N, K, wg, K, cols, N, y + (c.n0 * g.o + grp * og) * P + c.y0 * g.wo, T{0}, P);
            return;
        }
        blas::gemm<T>("conv2d", false, false, og, N, K, wg, K, cols, N, block);
        move_block<T, false>(g, y, block, grp, c.n0, c.nb);
    });
}

template <class T>
void input_grad_t(const Geom& g, const T* dy, const T* w, T* dx) {
    const int64_t K = g.k(), og = g.og();
    for_each_chunk<T>(g, [&](const Chunk& c, int64_t grp, T* cols, T* block) {
        const auto [dyg, ld] = dy_block(g, dy, block, grp, c);
        const int64_t N = c.nb * c.per_sample(g);
        blas::gemm<T>("conv2d", true, false, K, N, og, w + grp * og * K, K, dyg, ld, cols);
        col2im(g, cols, grp, c, dx);
    });
}

// dw accumulates over the chunks (beta = 1 into zeros), always grouped the
// same way for the same shapes.
template <class T>
void weight_grad_t(const Geom& g, const T* x, const T* dy, T* dw) {
    const int64_t K = g.k(), og = g.og();
    for_each_chunk<T>(g, [&](const Chunk& c, int64_t grp, T* cols, T* block) {
        im2col(g, x, grp, c, cols);
        const auto [dyg, ld] = dy_block(g, dy, block, grp, c);
        const int64_t N = c.nb * c.per_sample(g);
        blas::gemm<T>("conv2d", false, true, og, K, N, dyg, ld, cols, N, dw + grp * og * K, T{1});
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
