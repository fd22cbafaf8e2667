// The convolution ops of the table (docs/builtins.md, "Neural networks"):
// conv2d, conv_transpose2d and the weight gradient _conv2d_weight_grad,
// with their gradient rules. The three close under differentiation: each
// one's vector-Jacobian product is made of the other two (JAX's
// conv_general_dilated transpose rules), so gradients of gradients work.
// The builtins users call (bias, "same"/"valid" padding, conv1d) are
// interp/builtins/nn.cpp, over these ops.
#include <string>
#include <vector>

#include "stdlib/conv.hpp"
#include "stdlib/grad.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

namespace {

using conv::Geom;
using conv::Params;

// attrs: x, w, stride, padding, dilation, groups
Params conv_params(std::string_view fn, std::span<const Attr> at) { return conv::read_params(fn, at[2], at[3], at[4], at[5]); }
// attrs: x, w, stride, padding, output_padding, groups, dilation
Params transpose_params(std::span<const Attr> at) {
    return conv::read_params("conv_transpose2d", at[2], at[3], at[6], at[5]);
}
std::pair<int64_t, int64_t> output_padding(std::span<const Attr> at) {
    const Shape s = kern::attr_shape("conv_transpose2d", "output_padding", at[4]);
    if (s.rank() == 1) return {s[0], s[0]};
    if (s.rank() == 2) return {s[0], s[1]};
    kern::fail("conv_transpose2d", "argument `output_padding` must be an int or a pair of ints");
}
// attrs: x, dy, kernel_size, stride, padding, dilation, groups
Params wgrad_params(std::span<const Attr> at) {
    return conv::read_params("_conv2d_weight_grad", at[3], at[4], at[5], at[6]);
}
Geom wgrad_geom(const Shape& x, const Shape& dy, std::span<const Attr> at) {
    const Params p = wgrad_params(at);
    const Shape k = kern::attr_shape("_conv2d_weight_grad", "kernel_size", at[2]);
    if (k.rank() != 2 || dy.rank() != 4) kern::fail("_conv2d_weight_grad", "kernel_size must be a pair, dy 4-d");
    const Geom g = conv::conv_geom("_conv2d_weight_grad", x, Shape{dy[1], x.rank() == 4 ? x[1] / p.groups : 0, k[0], k[1]}, p);
    if (!(Shape{g.n, g.o, g.ho, g.wo} == dy))
        kern::fail("_conv2d_weight_grad", "dy of shape " + dy.to_string() + " does not match the convolution's output " +
                                              Shape{g.n, g.o, g.ho, g.wo}.to_string());
    return g;
}

TensorType infer_conv2d(const TypeArgs& a) {
    const Geom g = conv::conv_geom("conv2d", a.inputs[0].shape, a.inputs[1].shape, conv_params("conv2d", a.attrs));
    return {conv::conv_dtype(a.inputs[0], a.inputs[1]), Shape{g.n, g.o, g.ho, g.wo}, false};
}
Tensor eager_conv2d(OpContext&, const OpArgs& a) {
    const Geom g = conv::conv_geom("conv2d", a.inputs[0].shape(), a.inputs[1].shape(), conv_params("conv2d", a.attrs));
    return conv::forward(g, a.inputs[0], a.inputs[1]);
}

Geom transpose_geom(const Shape& x, const Shape& w, std::span<const Attr> at) {
    const auto [oph, opw] = output_padding(at);
    return conv::transpose_geom("conv_transpose2d", x, w, transpose_params(at), oph, opw);
}
TensorType infer_conv_transpose2d(const TypeArgs& a) {
    const Geom g = transpose_geom(a.inputs[0].shape, a.inputs[1].shape, a.attrs);
    return {conv::conv_dtype(a.inputs[0], a.inputs[1]), Shape{g.n, g.c, g.h, g.w}, false};
}
Tensor eager_conv_transpose2d(OpContext&, const OpArgs& a) {
    return conv::input_grad(transpose_geom(a.inputs[0].shape(), a.inputs[1].shape(), a.attrs), a.inputs[0], a.inputs[1]);
}

TensorType infer_weight_grad(const TypeArgs& a) {
    const Geom g = wgrad_geom(a.inputs[0].shape, a.inputs[1].shape, a.attrs);
    return {conv::conv_dtype(a.inputs[0], a.inputs[1]), Shape{g.o, g.cg(), g.kh, g.kw}, false};
}
Tensor eager_weight_grad(OpContext&, const OpArgs& a) {
    return conv::weight_grad(wgrad_geom(a.inputs[0].shape(), a.inputs[1].shape(), a.attrs), a.inputs[0], a.inputs[1]);
}

// ---- gradient rules

using Var = GradVar;
std::vector<int64_t> pads(const Geom& g) { return {g.pt, g.pl, g.pb, g.pr}; }
bool want(const VjpArgs& a, size_t i) { return i < a.wanted.size() && a.wanted[i]; }

Var cast_to(GradBuilder& b, Var v, DType d) {
    if (b.type(v).dtype == d) return v;
    return b.apply(op_of(ElementwiseKind::AsType), std::span<const Var>(&v, 1), {std::monostate{}, d});
}

// The three ops applied by the rules, with the geometry g's static arguments.
Var apply_conv(GradBuilder& b, Var x, Var w, const Geom& g) {
    const Var in[2] = {x, w};
    return b.apply(op_of(OtherKind::Conv2d), in,
                   {std::monostate{}, std::monostate{}, conv::pair_attr(g.sh, g.sw), pads(g),
                    conv::pair_attr(g.dh, g.dw), g.groups});
}
// The input gradient of the conv g for dy, weight w: conv_transpose2d with
// the output_padding that gives back g's input size.
Var apply_input_grad(GradBuilder& b, Var dy, Var w, const Geom& g) {
    const int64_t oph = g.h - ((g.ho - 1) * g.sh - g.pt - g.pb + g.dh * (g.kh - 1) + 1);
    const int64_t opw = g.w - ((g.wo - 1) * g.sw - g.pl - g.pr + g.dw * (g.kw - 1) + 1);
    const Var in[2] = {dy, w};
    return b.apply(op_of(OtherKind::ConvTranspose2d), in,
                   {std::monostate{}, std::monostate{}, conv::pair_attr(g.sh, g.sw),
                    pads(g), conv::pair_attr(oph, opw), g.groups,
                    conv::pair_attr(g.dh, g.dw)});
}
Var apply_weight_grad(GradBuilder& b, Var x, Var dy, const Geom& g) {
    const Var in[2] = {x, dy};
    return b.apply(op_of(OtherKind::Conv2dWeightGrad), in,
                   {std::monostate{}, std::monostate{}, conv::pair_attr(g.kh, g.kw), conv::pair_attr(g.sh, g.sw),
                    pads(g), conv::pair_attr(g.dh, g.dw), g.groups});
}

// y = conv(x, w): dx = conv_transpose(g, w), dw = weight_grad(x, g)
void vjp_conv2d(GradBuilder& b, const VjpArgs& a) {
    const TensorType xt = b.type(a.inputs[0]), wt = b.type(a.inputs[1]);
    const Geom g = conv::conv_geom("conv2d", xt.shape, wt.shape, conv_params("conv2d", a.attrs));
    if (want(a, 0)) a.cots[0] = cast_to(b, apply_input_grad(b, a.cot, a.inputs[1], g), xt.dtype);
    if (want(a, 1)) a.cots[1] = cast_to(b, apply_weight_grad(b, a.inputs[0], a.cot, g), wt.dtype);
}

// y = conv_transpose(x, w), the adjoint of z = conv(y, w) in its input:
// dx = conv(g, w), dw = weight_grad(g, x)
void vjp_conv_transpose2d(GradBuilder& b, const VjpArgs& a) {
    const TensorType xt = b.type(a.inputs[0]), wt = b.type(a.inputs[1]);
    const Geom g = transpose_geom(xt.shape, wt.shape, a.attrs);
    if (want(a, 0)) a.cots[0] = cast_to(b, apply_conv(b, a.cot, a.inputs[1], g), xt.dtype);
    if (want(a, 1)) a.cots[1] = cast_to(b, apply_weight_grad(b, a.cot, a.inputs[0], g), wt.dtype);
}

// W = weight_grad(x, dy), bilinear: <W, C> = <dy, conv(x, C)> = <x, conv_transpose(dy, C)>
void vjp_weight_grad(GradBuilder& b, const VjpArgs& a) {
    const TensorType xt = b.type(a.inputs[0]), dyt = b.type(a.inputs[1]);
    const Geom g = wgrad_geom(xt.shape, dyt.shape, a.attrs);
    if (want(a, 0)) a.cots[0] = cast_to(b, apply_input_grad(b, a.inputs[1], a.cot, g), xt.dtype);
    if (want(a, 1)) a.cots[1] = cast_to(b, apply_conv(b, a.inputs[0], a.cot, g), dyt.dtype);
}

}  // namespace

void register_conv_ops(OpRegistry& r) {
    const ParamDef x{"x", ParamKind::Tensor}, w{"w", ParamKind::Tensor};
    const ParamDef stride{"stride", ParamKind::Shape, false, int64_t{1}};
    const ParamDef padding{"padding", ParamKind::Shape, false, int64_t{0}};
    const ParamDef dilation{"dilation", ParamKind::Shape, false, int64_t{1}};
    const ParamDef groups{"groups", ParamKind::Int, false, int64_t{1}};
    OpDef c{"conv2d", {x, w, stride, padding, dilation, groups}, &infer_conv2d, &eager_conv2d, 0,
            "2-d convolution (cross-correlation) of x (N, C, H, W) with w (O, C / groups, kH, kW), as PyTorch's",
            OtherKind::Conv2d, Raises::Never, Cost::Contraction};
    c.grad = {GradRule::Vjp, &vjp_conv2d};
    r.add(std::move(c));
    OpDef t{"conv_transpose2d",
            {x, w, stride, padding, {"output_padding", ParamKind::Shape, false, int64_t{0}}, groups, dilation},
            &infer_conv_transpose2d, &eager_conv_transpose2d, 0,
            "transposed 2-d convolution of x (N, C, H, W) with w (C, O / groups, kH, kW): conv2d's input gradient",
            OtherKind::ConvTranspose2d, Raises::Never, Cost::Contraction};
    t.grad = {GradRule::Vjp, &vjp_conv_transpose2d};
    r.add(std::move(t));
    OpDef wg{"_conv2d_weight_grad",
             {x, {"dy", ParamKind::Tensor}, {"kernel_size", ParamKind::Shape}, stride, padding, dilation, groups},
             &infer_weight_grad, &eager_weight_grad, kInternal, "conv2d's weight gradient for input x and dy",
             OtherKind::Conv2dWeightGrad, Raises::Never, Cost::Contraction};
    wg.grad = {GradRule::Vjp, &vjp_weight_grad};
    r.add(std::move(wg));
}

}  // namespace tg::stdlib
