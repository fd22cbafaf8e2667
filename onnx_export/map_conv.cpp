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

namespace {

struct Pooled {
    std::string values, indices;  // of the pooled shape (values in dtype `compute`)
    DType compute;
};

// MaxPool of operand 0 with the attributes from `first` on (kernel_size,
// stride, padding, dilation, ceil_mode), on 4-d input (a 3-d one gains a
// batch axis of 1; its flat indices are the same), i32 computed in f64.
Pooled max_pool(ApplyCtx& c, size_t first, const stdlib::Shape& pooled) {
    const DType d = c.in[0].storage;
    if (d == DType::I64) c.fail("ONNX's MaxPool takes no 64-bit integers");
    const DType compute = d == DType::I32 ? DType::F64 : d;
    const auto pair = [&](size_t i) -> std::vector<int64_t> {
        const stdlib::Attr& a = c.attr(first + i);
        if (std::holds_alternative<std::monostate>(a)) return {};
        if (const auto* v = std::get_if<int64_t>(&a)) return {*v, *v};
        const auto& v = std::get<std::vector<int64_t>>(a);
        return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : v;
    };
    const std::vector<int64_t> k = pair(0), given = pair(1), pad = pair(2), dil = pair(3);
    const bool three = c.in[0].type.shape.rank() == 3;
    std::string x = c.arg(0, compute);
    if (three) x = c.e.unsqueeze(x, {0});
    Pooled p{c.e.names().next(), c.e.names().next(), compute};
    c.e.op_outputs("MaxPool", {x}, {p.values, p.indices})
        .attr("kernel_shape", k)
        .attr("strides", given.empty() ? k : given)
        .attr("pads", std::vector<int64_t>{pad[0], pad[1], pad[0], pad[1]})
        .attr("dilations", dil)
        .attr("ceil_mode", int64_t{std::get<bool>(c.attr(first + 4)) ? 1 : 0});
    if (three) {
        p.values = c.e.reshape(p.values, pooled);
        p.indices = c.e.reshape(p.indices, pooled);
    }
    return p;
}

}  // namespace

// max_pool2d (indices = false) or _max_pool2d_indices.
std::string map_max_pool(ApplyCtx& c, bool indices) {
    const Pooled p = max_pool(c, 1, c.out.shape);
    return indices ? p.indices : c.e.cast(p.values, p.compute, c.out_storage);
}

// _max_pool2d_backward: g added at the indices into zeros like x (ScatterElements with add).
std::string map_max_pool_backward(ApplyCtx& c) {
    const stdlib::Shape& xs = c.in[0].type.shape;
    const stdlib::Shape& gs = c.in[1].type.shape;
    const Pooled p = max_pool(c, 2, gs);
    Emitter& e = c.e;
    const std::string zeros = e.op("Expand", {e.scalar(0.0, c.out_storage), e.const_i64({xs.numel()})}).out;
    const std::string flat_idx = e.reshape(p.indices, stdlib::Shape{gs.numel()});
    const std::string flat_g = e.reshape(c.arg(1, c.out_storage), stdlib::Shape{gs.numel()});
    const std::string dx = e.op("ScatterElements", {zeros, flat_idx, flat_g})
                               .attr("axis", int64_t{0})
                               .attr("reduction", std::string("add"))
                               .out;
    return e.reshape(dx, xs);
}

}  // namespace tg::onnx_export
