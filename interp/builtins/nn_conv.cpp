// The convolution-shaped builtins of docs/builtins.md ("Neural networks"),
// with PyTorch's torch.nn.functional arguments, over the table's conv2d,
// conv_transpose2d and take: conv2d and conv_transpose2d add the bias and
// the "same"/"valid" paddings to the table ops; conv1d is conv2d on a
// height of 1; avg_pool2d is conv2d with a kernel of ones divided by
// PyTorch's divisor; interpolate gathers rows and columns with take.
#include <algorithm>
#include <cmath>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/op_table.hpp"
#include "stdlib/pool.hpp"

namespace tg::interp {

namespace {

using stdlib::Attr;
using stdlib::OtherKind;
using stdlib::Shape;

std::string arg_name(const std::string& fn, const char* name) { return fn + ": argument `" + name + "`"; }

// PyTorch's paddings: an int, a pair, "valid" (none) or "same" (stride 1:
// the output keeps the input's size; an odd total puts the extra row at the
// bottom / right, as PyTorch). As (top, left, bottom, right).
std::vector<int64_t> read_padding(const std::string& fn, const Value* v, const Shape& kernel,
                                  const std::vector<int64_t>& stride, const std::vector<int64_t>& dilation) {
    const size_t n = kernel.rank();
    std::vector<int64_t> before(n, 0), after(n, 0);
    if (v == nullptr) {
    } else if (auto s = string_arg(*v)) {
        if (*s == "same") {
            for (size_t d = 0; d < n; ++d) {
                if (stride[d] != 1) throw Error(fn + ": padding=\"same\" needs stride 1, as PyTorch's");
                const int64_t total = dilation[d] * (kernel[d] - 1);
                before[d] = total / 2;
                after[d] = total - before[d];
            }
        } else if (*s != "valid") {
            throw Error(fn + ": argument `padding` must be an int, a tuple of ints, \"same\" or \"valid\", not \"" + *s +
                        "\"");
        }
    } else {
        before = after = static_ints(*v, arg_name(fn, "padding"), n);
    }
    if (n == 1) return {0, before[0], 0, after[0]};
    return {before[0], before[1], after[0], after[1]};
}

// b (out_channels,) added along axis 1 of y.
Value add_bias(Compose& c, const std::string& fn, const Value& y, const Value* b) {
    if (is_none(b)) return y;
    const Value bias = tensor_operand(*b, arg_name(fn, "b"));
    const Shape ys = y.tensor_type().shape;
    if (!(bias.tensor_type().shape == Shape{ys[1]}))
        throw Error(fn + ": bias must have shape " + Shape{ys[1]}.to_string() + " (one per output channel), got " +
                    bias.tensor_type().shape.to_string());
    Shape s;
    for (int d = 0; d < ys.rank(); ++d) s.push_back(d == 1 ? ys[1] : 1);
    return c.add(y, c.reshape(bias, s));
}

// x with a leading axis of 1 when it is unbatched (rank `batched` - 1), and
// whether it was.
std::pair<Value, bool> batched(Compose& c, const std::string& fn, const Value& x, int rank) {
    const Shape s = x.tensor_type().shape;
    if (s.rank() == rank) return {x, false};
    if (s.rank() != rank - 1)
        throw Error(fn + ": input must be " + std::to_string(rank) + "-d (N, C, ...) or " + std::to_string(rank - 1) +
                    "-d without the batch axis, got shape " + s.to_string());
    Shape b{1};
    for (int64_t d : s) b.push_back(d);
    return {c.reshape(x, b), true};
}

Value unbatched(Compose& c, const Value& y, bool was) {
    if (!was) return y;
    const Shape s = y.tensor_type().shape;
    return c.reshape(y, Shape(std::span<const int64_t>(s.begin() + 1, s.end())));
}

// conv1d and conv2d (spatial = 1 or 2): conv1d runs conv2d on a height of 1.
Value conv_nd(Runtime& rt, const CallArgs& a, const std::string& fn, int spatial) {
    const auto args = bind_args(fn, a, {"x", "w", "b", "stride", "padding", "dilation", "groups"}, 2);
    Compose c{rt};
    auto [x, was] = batched(c, fn, tensor_operand(*args[0], arg_name(fn, "x")), spatial + 2);
    Value w = tensor_operand(*args[1], arg_name(fn, "w"));
    const Shape ws = w.tensor_type().shape;
    if (ws.rank() != spatial + 2)
        throw Error(fn + ": weight must be " + std::to_string(spatial + 2) +
                    "-d (out_channels, in_channels / groups, " + (spatial == 1 ? "kW" : "kH, kW") + "), got shape " +
                    ws.to_string());
    const size_t n = static_cast<size_t>(spatial);
    const auto stride = args[3] ? static_ints(*args[3], arg_name(fn, "stride"), n) : std::vector<int64_t>(n, 1);
    const auto dilation = args[5] ? static_ints(*args[5], arg_name(fn, "dilation"), n) : std::vector<int64_t>(n, 1);
    const int64_t groups = args[6] ? to_int(*args[6], arg_name(fn, "groups")) : 1;
    const auto pads = read_padding(fn, args[4], Shape(std::span<const int64_t>(ws.begin() + 2, ws.end())), stride, dilation);
    std::vector<int64_t> s2 = stride, d2 = dilation;
    if (spatial == 1) {
        const Shape xs = x.tensor_type().shape;
        x = c.reshape(x, Shape{xs[0], xs[1], 1, xs[2]});
        w = c.reshape(w, Shape{ws[0], ws[1], 1, ws[2]});
        s2 = {1, stride[0]};
        d2 = {1, dilation[0]};
    }
    Value y = c.op(stdlib::op_of(OtherKind::Conv2d), {x, w}, {Attr{s2}, Attr{pads}, Attr{d2}, Attr{groups}});
    if (spatial == 1) {
        const Shape ys = y.tensor_type().shape;
        y = c.reshape(y, Shape{ys[0], ys[1], ys[3]});
    }
    return unbatched(c, add_bias(c, fn, y, args[2]), was);
}

Value conv_transpose2d(Runtime& rt, const CallArgs& a) {
    const std::string fn = "conv_transpose2d";
    const auto args =
        bind_args(fn, a, {"x", "w", "b", "stride", "padding", "output_padding", "groups", "dilation"}, 2);
    Compose c{rt};
    auto [x, was] = batched(c, fn, tensor_operand(*args[0], arg_name(fn, "x")), 4);
    const Value w = tensor_operand(*args[1], arg_name(fn, "w"));
    std::vector<Attr> attrs;
    const char* names[] = {"stride", "padding", "output_padding", "groups", "dilation"};
    const int64_t defaults[] = {1, 0, 0, 1, 1};
    for (int i = 0; i < 5; ++i) {
        const Value* v = args[3 + static_cast<size_t>(i)];
        if (i == 3) attrs.push_back(v ? to_int(*v, arg_name(fn, names[i])) : defaults[i]);
        else attrs.push_back(v ? static_ints(*v, arg_name(fn, names[i]), 2) : std::vector<int64_t>(2, defaults[i]));
    }
    const Value y = c.op(stdlib::op_of(OtherKind::ConvTranspose2d), {x, w}, std::move(attrs));
    return unbatched(c, add_bias(c, fn, y, args[2]), was);
}

// PyTorch's avg_pool2d divisor of each output position (pooling's
// avg_pool2d_out_frame): the window clipped to the padded input, or to the
// input itself without count_include_pad.
stdlib::Tensor avg_divisors(int64_t h, int64_t w, int64_t ho, int64_t wo, const std::vector<int64_t>& k,
                            const std::vector<int64_t>& s, const std::vector<int64_t>& p, bool include_pad,
                            stdlib::DType d) {
    stdlib::Tensor t = stdlib::Tensor::empty(stdlib::DType::F64, Shape{ho, wo});
    for (int64_t oy = 0; oy < ho; ++oy)
        for (int64_t ox = 0; ox < wo; ++ox) {
            int64_t y0 = oy * s[0] - p[0], x0 = ox * s[1] - p[1];
            int64_t y1 = std::min(y0 + k[0], h + p[0]), x1 = std::min(x0 + k[1], w + p[1]);
            const int64_t padded = (y1 - y0) * (x1 - x0);
            y0 = std::max<int64_t>(y0, 0), x0 = std::max<int64_t>(x0, 0);
            y1 = std::min(y1, h), x1 = std::min(x1, w);
            t.data<double>()[oy * wo + ox] = static_cast<double>(include_pad ? padded : (y1 - y0) * (x1 - x0));
        }
    return stdlib::cast(t, d);
}


Value avg_pool2d(Runtime& rt, const CallArgs& a) {
    const std::string fn = "avg_pool2d";
    const auto args = bind_args(
        fn, a, {"x", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"}, 2);
    Compose c{rt};
    auto [x, was] = batched(c, fn, tensor_operand(*args[0], arg_name(fn, "x")), 4);
    const auto k = static_ints(*args[1], arg_name(fn, "kernel_size"), 2);
    const auto s = is_none(args[2]) ? k : static_ints(*args[2], arg_name(fn, "stride"), 2);
    const auto p = args[3] ? static_ints(*args[3], arg_name(fn, "padding"), 2) : std::vector<int64_t>{0, 0};
    const bool ceil = args[4] && static_bool(*args[4], arg_name(fn, "ceil_mode"));
    const bool include_pad = !args[5] || static_bool(*args[5], arg_name(fn, "count_include_pad"));
    if (k[0] < 1 || k[1] < 1 || s[0] < 1 || s[1] < 1) throw Error(fn + ": kernel_size and stride must be positive");
    if (p[0] < 0 || p[1] < 0 || 2 * p[0] > k[0] || 2 * p[1] > k[1])
        throw Error(fn + ": padding must be at least 0 and at most half the kernel size");
    const Shape xs = x.tensor_type().shape;
    const int64_t ho = stdlib::pooled_size(xs[2], k[0], s[0], p[0], 1, ceil);
    const int64_t wo = stdlib::pooled_size(xs[3], k[1], s[1], p[1], 1, ceil);
    if (ho < 1 || wo < 1) throw Error(fn + ": the kernel is larger than the padded input " + xs.to_string());
    // every plane as an image of one channel, summed by a kernel of ones
    const stdlib::DType d = stdlib::is_float(x.tensor_type().dtype) ? x.tensor_type().dtype : stdlib::DType::F32;
    const Value planes = c.reshape(x, Shape{xs[0] * xs[1], 1, xs[2], xs[3]});
    stdlib::Tensor ones_f64 = stdlib::Tensor::empty(stdlib::DType::F64, Shape{1, 1, k[0], k[1]});
    std::fill(ones_f64.data<double>(), ones_f64.data<double>() + ones_f64.numel(), 1.0);
    const Value ones(stdlib::cast(ones_f64, d));
    const int64_t pb = std::max<int64_t>(0, (ho - 1) * s[0] + k[0] - xs[2] - p[0]);
    const int64_t pr = std::max<int64_t>(0, (wo - 1) * s[1] + k[1] - xs[3] - p[1]);
    const Value sums = c.op(stdlib::op_of(OtherKind::Conv2d), {planes, ones},
                            {s, std::vector<int64_t>{p[0], p[1], pb, pr}, std::vector<int64_t>{1, 1}, int64_t{1}});
    Value divisor(avg_divisors(xs[2], xs[3], ho, wo, k, s, p, include_pad, d));
    if (!is_none(args[6])) {
        const int64_t by = to_int(*args[6], arg_name(fn, "divisor_override"));
        if (by == 0) throw Error(fn + ": divisor_override must not be 0");
        divisor = Value(stdlib::Tensor::scalar(static_cast<double>(by), d));
    }
    return unbatched(c, c.reshape(c.div(sums, divisor), Shape{xs[0], xs[1], ho, wo}), was);
}

}  // namespace

void add_nn_conv_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const std::string& name, BuiltinFn fn, const stdlib::OpDef* opdef = nullptr) {
        auto b = std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), opdef});
        b->adds_params = opdef != nullptr;
        out.emplace_back(name, Value::builtin(std::move(b)));
    };
    // replace the table ops' builtins: they add the bias and PyTorch's paddings
    add("conv2d", [](Runtime& rt, const CallArgs& a) { return conv_nd(rt, a, "conv2d", 2); },
        &stdlib::op_of(OtherKind::Conv2d));
    add("conv_transpose2d", conv_transpose2d, &stdlib::op_of(OtherKind::ConvTranspose2d));
    add("conv1d", [](Runtime& rt, const CallArgs& a) { return conv_nd(rt, a, "conv1d", 1); });
    add("avg_pool2d", avg_pool2d);
}

}  // namespace tg::interp
