// ONNX mappings of the convolution and pooling ops (stdlib/conv_ops.cpp,
// stdlib/pool.cpp): Conv, ConvTranspose, and MaxPool with its Indices output
// (the flat positions tg's _max_pool2d_indices gives). The weight gradient
// is a Conv over the batch axis: dW^T = conv(x^T, dy^T) with stride and
// dilation swapped, cropped to the kernel.
#include <string>
#include <vector>

#include "onnx_export/mapping.hpp"
#include "stdlib/conv.hpp"

namespace tg::onnx_export {

using stdlib::DType;

namespace {

std::vector<int64_t> pads(const stdlib::conv::Geom& g) { return {g.pt, g.pl, g.pb, g.pr}; }

stdlib::conv::Params conv_params(const ApplyCtx& c, size_t stride, size_t padding, size_t dilation, size_t groups) {
    return stdlib::conv::read_params(c.node.def->name, c.attr(stride), c.attr(padding), c.attr(dilation), c.attr(groups));
}

}  // namespace

std::string map_conv2d(ApplyCtx& c) {
    const auto p = conv_params(c, 2, 3, 4, 5);
    const auto g = stdlib::conv::conv_geom("conv2d", c.in[0].type.shape, c.in[1].type.shape, p);
    return c.e.op("Conv", {c.arg(0, c.out_storage), c.arg(1, c.out_storage)})
        .attr("strides", std::vector<int64_t>{g.sh, g.sw})
        .attr("dilations", std::vector<int64_t>{g.dh, g.dw})
        .attr("pads", pads(g))
        .attr("group", g.groups)
        .out;
}

std::string map_conv_transpose2d(ApplyCtx& c) {
    const auto p = conv_params(c, 2, 3, 6, 5);
    const stdlib::Shape op = c.out.shape;  // output_padding from the result's size
    const auto& x = c.in[0].type.shape;
    const auto& w = c.in[1].type.shape;
    const int64_t oph = op[2] - ((x[2] - 1) * p.sh - p.pt - p.pb + p.dh * (w[2] - 1) + 1);
    const int64_t opw = op[3] - ((x[3] - 1) * p.sw - p.pl - p.pr + p.dw * (w[3] - 1) + 1);
    return c.e.op("ConvTranspose", {c.arg(0, c.out_storage), c.arg(1, c.out_storage)})
        .attr("strides", std::vector<int64_t>{p.sh, p.sw})
        .attr("dilations", std::vector<int64_t>{p.dh, p.dw})
        .attr("pads", std::vector<int64_t>{p.pt, p.pl, p.pb, p.pr})
        .attr("output_padding", std::vector<int64_t>{oph, opw})
        .attr("group", p.groups)
        .out;
}

// dW (O, C, kh, kw) for groups = 1: x (N, C, H, W) read as C images of N
// channels, dy (N, O, Ho, Wo) as O filters of N channels; the conv's
// stride is the dilation and its dilation the stride. Its result
// (C, O, kh', kw') has kh' >= kh (rows of the padded input no window
// reached), so it is cropped, then transposed.
std::string map_conv2d_weight_grad(ApplyCtx& c) {
    const auto p = conv_params(c, 3, 4, 5, 6);
    if (p.groups != 1) c.fail("the weight gradient of a grouped convolution is not mapped yet");
    const int64_t kh = c.out.shape[2], kw = c.out.shape[3];
    Emitter& e = c.e;
    const std::vector<int64_t> swap = {1, 0, 2, 3};
    const std::string xt = e.op("Transpose", {c.arg(0, c.out_storage)}).attr("perm", swap).out;
    const std::string dyt = e.op("Transpose", {c.arg(1, c.out_storage)}).attr("perm", swap).out;
    const std::string full = e.op("Conv", {xt, dyt})
                                 .attr("strides", std::vector<int64_t>{p.dh, p.dw})
                                 .attr("dilations", std::vector<int64_t>{p.sh, p.sw})
                                 .attr("pads", std::vector<int64_t>{p.pt, p.pl, p.pb, p.pr})
                                 .out;
    const std::string cropped = e.op("Slice", {full, e.const_i64({0, 0}), e.const_i64({kh, kw}), e.const_i64({2, 3})}).out;
    return e.op("Transpose", {cropped}).attr("perm", swap).out;
}

// max_pool2d (Indices = false) or _max_pool2d_indices: MaxPool on 4-d input
// (a 3-d one gains a batch axis of 1), i32 computed in f64 (exact).
std::string map_max_pool(ApplyCtx& c, bool indices) {
    const DType d = c.in[0].storage;
    if (d == DType::I64) c.fail("ONNX's MaxPool takes no 64-bit integers");
    const DType compute = d == DType::I32 ? DType::F64 : d;
    const auto pair = [&](size_t i, int64_t otherwise_from) -> std::vector<int64_t> {
        const stdlib::Attr& a = c.attr(i);
        if (std::holds_alternative<std::monostate>(a)) return {-1, otherwise_from};
        if (const auto* v = std::get_if<int64_t>(&a)) return {*v, *v};
        const auto& v = std::get<std::vector<int64_t>>(a);
        return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : v;
    };
    const std::vector<int64_t> k = pair(1, 0);
    std::vector<int64_t> s = pair(2, 0);
    if (s[0] < 0) s = k;
    const std::vector<int64_t> pad = pair(3, 0), dil = pair(4, 0);
    const bool three = c.in[0].type.shape.rank() == 3;
    std::string x = c.arg(0, compute);
    if (three) x = c.e.unsqueeze(x, {0});
    const std::string out = c.e.names().next(), idx = c.e.names().next();
    c.e.op_outputs("MaxPool", {x}, {out, idx})
        .attr("kernel_shape", k)
        .attr("strides", s)
        .attr("pads", std::vector<int64_t>{pad[0], pad[1], pad[0], pad[1]})
        .attr("dilations", dil)
        .attr("ceil_mode", int64_t{std::get<bool>(c.attr(5)) ? 1 : 0});
    std::string r = indices ? idx : c.e.cast(out, compute, c.out_storage);
    if (three) r = c.e.reshape(r, c.out.shape);
    return r;
}

}  // namespace tg::onnx_export
