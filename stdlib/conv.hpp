// 2-d convolution in NCHW, as PyTorch's conv2d: im2col + one BLAS GEMM per
// group and cache-sized chunk of samples or output rows (the measurement
// behind the choice is in docs/performance.md, "Convolution"). The three
// kernels below are the forward pass, the input gradient (which is also
// conv_transpose2d's forward pass) and the weight gradient; eager code, the
// graph interpreter and compiled code all call them, so every mode gives
// the same bits.
#pragma once

#include <cstdint>
#include <string_view>

#include "stdlib/op_table.hpp"

namespace tg::stdlib::conv {

// The geometry of one convolution y = conv(x, w): x (n, c, h, w), weight
// (o, c / groups, kh, kw), y (n, o, ho, wo). Pads are (top, left, bottom,
// right), ONNX's order.
struct Geom {
    int64_t n = 0, c = 0, h = 0, w = 0;
    int64_t o = 0, kh = 0, kw = 0;
    int64_t groups = 1;
    int64_t sh = 1, sw = 1, pt = 0, pl = 0, pb = 0, pr = 0, dh = 1, dw = 1;
    int64_t ho = 0, wo = 0;
    int64_t cg() const { return c / groups; }
    int64_t og() const { return o / groups; }
    int64_t k() const { return cg() * kh * kw; }  // rows of one group's column matrix
    int64_t p() const { return ho * wo; }         // output positions per sample and channel
};

// Static arguments of the conv ops, as the op table gives them: stride and
// dilation an int or a pair, padding an int, a pair (symmetric) or
// (top, left, bottom, right).
struct Params {
    int64_t sh = 1, sw = 1, pt = 0, pl = 0, pb = 0, pr = 0, dh = 1, dw = 1, groups = 1;
};
Params read_params(std::string_view fn, const Attr& stride, const Attr& padding, const Attr& dilation,
                   const Attr& groups);
std::vector<int64_t> pair_attr(int64_t a, int64_t b);

// The geometry of y = conv(x, w) from the shapes, checked; errors name the
// argument ("conv2d: input has 3 channels but weight expects 1 (groups=1)").
Geom conv_geom(std::string_view fn, const Shape& x, const Shape& w, const Params& p);
// The geometry of conv_transpose2d(x, w): the conv whose input gradient it
// is, with input height and width grown by output_padding.
Geom transpose_geom(std::string_view fn, const Shape& x, const Shape& w, const Params& p, int64_t oph, int64_t opw);

// The compute dtype of two operands: the promoted float dtype (bool and
// integers give f32).
DType conv_dtype(const TensorType& a, const TensorType& b);

// y = conv(x, w) (x, w contiguous, of dtype T).
Tensor forward(const Geom& g, const Tensor& x, const Tensor& w);
// dx = the input gradient of conv for dy (n, o, ho, wo): also conv_transpose2d.
Tensor input_grad(const Geom& g, const Tensor& dy, const Tensor& w);
// dw = the weight gradient of conv for input x and dy.
Tensor weight_grad(const Geom& g, const Tensor& x, const Tensor& dy);

}  // namespace tg::stdlib::conv
