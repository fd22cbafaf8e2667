// The ops of an OtherKind: linear algebra, shapes, gathers and scatters, nn
// helpers and creation, one mapping function each, chosen by a switch over
// the kind (route, below) that names every kind and has no `default:`: a
// new kind without its case is a compile error, and an op with no mapping
// says why (mapping_status; tests/onnx/test_mapping_coverage.cpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string_view>

#include "onnx_export/export.hpp"
#include "onnx_export/mapping.hpp"

namespace tg::onnx_export {

using stdlib::DType;
using stdlib::OtherKind;

namespace {

using MapFn = std::string (*)(ApplyCtx&);

int64_t norm_axis(int64_t a, int rank) { return a < 0 ? a + rank : a; }

std::string matmul(ApplyCtx& c) {
    if (c.out_storage == DType::Bool) c.fail("ONNX's MatMul takes no bool operands");
    return c.e.op("MatMul", {c.arg(0, c.out_storage), c.arg(1, c.out_storage)}).out;
}

// NumPy's dot: a matmul while b has at most 2 axes; beyond, the sum over
// a's last axis and b's second-to-last, as an Einsum.
std::string dot(ApplyCtx& c) {
    const int ra = c.in[0].type.shape.rank(), rb = c.in[1].type.shape.rank();
    if (ra == 0 || rb == 0) return c.e.op("Mul", {c.arg(0, c.out_storage), c.arg(1, c.out_storage)}).out;
    if (rb <= 2) return matmul(c);
    if (c.out_storage == DType::Bool) c.fail("ONNX's Einsum takes no bool operands");
    std::string a, b;
    char next = 'a';
    for (int i = 0; i + 1 < ra; ++i) a += next++;
    for (int i = 0; i + 2 < rb; ++i) b += next++;
    const char last = next;
    const std::string eq = a + 'z' + "," + b + "z" + last + "->" + a + b + last;
    return c.e.op("Einsum", {c.arg(0, c.out_storage), c.arg(1, c.out_storage)}).attr("equation", eq).out;
}

// det: ONNX's Det (float operands; tg's result dtype already is one).
std::string det(ApplyCtx& c) { return c.e.op("Det", {c.arg(0, c.out_storage)}).out; }

std::string outer(ApplyCtx& c) {
    Emitter& e = c.e;
    const std::string a = e.reshape(c.arg(0, c.out_storage), stdlib::Shape{c.in[0].type.shape.numel(), 1});
    const std::string b = e.reshape(c.arg(1, c.out_storage), stdlib::Shape{1, c.in[1].type.shape.numel()});
    return e.op(c.out_storage == DType::Bool ? "And" : "Mul", {a, b}).out;
}

std::string transpose(ApplyCtx& c) {
    const int rank = c.in[0].type.shape.rank();
    std::vector<int64_t> perm;
    if (std::holds_alternative<std::monostate>(c.attr(1))) {
        for (int d = rank - 1; d >= 0; --d) perm.push_back(d);
    } else {
        perm = c.axes(1, rank);
    }
    return c.e.op("Transpose", {c.arg(0, c.out_storage)}).attr("perm", perm).out;
}

// reshape, expand_dims, squeeze, flatten: the result's shape (static, or computed for dynamic dims).
std::string reshape(ApplyCtx& c) { return c.reshape_out(c.arg(0, c.out_storage)); }

std::string broadcast_to(ApplyCtx& c) { return c.expand_out(c.arg(0, c.out_storage)); }

std::string concat(ApplyCtx& c) {
    std::vector<std::string> xs;
    for (size_t i = 0; i < c.in.size(); ++i) xs.push_back(c.arg(i, c.out_storage));
    const int64_t axis = norm_axis(c.attr_int(1), c.out.shape.rank());
    return c.e.op("Concat", xs).attr("axis", axis).out;
}

std::string stack(ApplyCtx& c) {
    const int64_t axis = norm_axis(c.attr_int(1), c.out.shape.rank());
    std::vector<std::string> xs;
    for (size_t i = 0; i < c.in.size(); ++i) xs.push_back(c.e.unsqueeze(c.arg(i, c.out_storage), {axis}));
    return c.e.op("Concat", xs).attr("axis", axis).out;
}

std::string flip(ApplyCtx& c) {
    const std::vector<int64_t> axes = c.axes(1, c.in[0].type.shape.rank());
    if (axes.empty()) return c.arg(0, c.out_storage);
    const size_t n = axes.size();
    Emitter& e = c.e;
    return e.op("Slice", {c.arg(0, c.out_storage), e.const_i64(std::vector<int64_t>(n, -1)),
                          e.const_i64(std::vector<int64_t>(n, std::numeric_limits<int64_t>::min())),
                          e.const_i64(axes), e.const_i64(std::vector<int64_t>(n, -1))})
        .out;
}

std::string tile(ApplyCtx& c) {
    const auto* reps0 = std::get_if<std::vector<int64_t>>(&c.attr(1));
    std::vector<int64_t> reps = reps0 ? *reps0 : std::vector<int64_t>{c.attr_int(1)};
    const stdlib::Shape& xs = c.in[0].type.shape;
    std::string x = c.arg(0, c.out_storage);
    const int rank = std::max<int>(xs.rank(), static_cast<int>(reps.size()));
    if (xs.rank() < rank) {  // leading axes of size 1, as NumPy
        stdlib::Shape s;
        for (int i = xs.rank(); i < rank; ++i) s.push_back(1);
        for (int64_t d : xs) s.push_back(d);
        x = c.e.reshape(x, s);
    }
    reps.insert(reps.begin(), static_cast<size_t>(rank) - reps.size(), 1);
    return c.e.op("Tile", {x, c.e.const_i64(reps)}).out;
}

// tril / triu: a static mask over the last two axes.
template <bool Lower>
std::string tri(ApplyCtx& c) {
    const stdlib::Shape& s = c.in[0].type.shape;
    const int64_t rows = s[s.rank() - 2], cols = s[s.rank() - 1], k = c.attr_int(1);
    stdlib::Tensor mask = stdlib::Tensor::zeros(DType::Bool, stdlib::Shape{rows, cols});
    bool* m = mask.data<bool>();
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) m[i * cols + j] = Lower ? j - i <= k : j - i >= k;
    Emitter& e = c.e;
    return e.select(e.constant(mask), c.arg(0, c.out_storage), e.scalar(0, c.out_storage), c.out_storage);
}

std::string take(ApplyCtx& c) {
    Emitter& e = c.e;
    std::string x = c.arg(0, c.out_storage);
    int64_t axis = 0;
    if (std::holds_alternative<std::monostate>(c.attr(2)))
        x = e.reshape(x, stdlib::Shape{c.in[0].type.shape.numel()});
    else
        axis = c.axes(2, c.in[0].type.shape.rank())[0];
    return e.op("Gather", {x, c.arg(1, DType::I64)}).attr("axis", axis).out;
}

std::string gather(ApplyCtx& c) {
    const int64_t axis = norm_axis(c.attr_int(2), c.in[0].type.shape.rank());
    return c.e.op("Gather", {c.arg(0, c.out_storage), c.arg(1, DType::I64)}).attr("axis", axis).out;
}

// _scatter / _scatter_add along `axis`: ScatterND on x with that axis moved to the front.
template <bool Add>
std::string scatter(ApplyCtx& c) {
    Emitter& e = c.e;
    const stdlib::Shape& xs = c.in[0].type.shape;
    const int rank = xs.rank();
    const int64_t axis = norm_axis(c.attr_int(3), rank);
    const int ri = c.in[1].type.shape.rank();
    std::vector<int64_t> front{axis}, back(static_cast<size_t>(rank));
    for (int64_t d = 0; d < rank; ++d)
        if (d != axis) front.push_back(d);
    for (int64_t d = 0; d < rank; ++d) back[static_cast<size_t>(front[static_cast<size_t>(d)])] = d;
    std::vector<int64_t> vperm;  // the index axes of values first
    for (int64_t d = axis; d < axis + ri; ++d) vperm.push_back(d);
    for (int64_t d = 0; d < rank - 1 + ri; ++d)
        if (d < axis || d >= axis + ri) vperm.push_back(d);
    const std::string idx = c.arg(1, DType::I64);
    const std::string wrapped = e.where(e.op("Less", {idx, e.scalar_i64(0)}).out,
                                        e.op("Add", {idx, e.scalar_i64(xs[static_cast<int>(axis)])}).out, idx);
    const std::string xt = e.op("Transpose", {c.arg(0, c.out_storage)}).attr("perm", front).out;
    const std::string vt = e.op("Transpose", {c.arg(2, c.out_storage)}).attr("perm", vperm).out;
    Built s = e.op("ScatterND", {xt, e.unsqueeze(wrapped, {-1}), vt});
    if (Add) s.attr("reduction", std::string("add"));
    return e.op("Transpose", {s.out}).attr("perm", back).out;
}

std::string softmax(ApplyCtx& c) {
    const int64_t axis = norm_axis(c.attr_int(1), c.in[0].type.shape.rank());
    return c.e.op("Softmax", {c.arg(0, c.out_storage)}).attr("axis", axis).out;
}

std::string log_softmax(ApplyCtx& c) {
    const int64_t axis = norm_axis(c.attr_int(1), c.in[0].type.shape.rank());
    return c.e.op("LogSoftmax", {c.arg(0, c.out_storage)}).attr("axis", axis).out;
}

// The mean over all elements, as a 0-d tensor.
std::string mean_all(Emitter& e, const std::string& x, int rank) {
    std::vector<int64_t> axes(static_cast<size_t>(rank));
    std::iota(axes.begin(), axes.end(), int64_t{0});
    if (axes.empty()) return x;
    return e.op("ReduceMean", {x}).attr("axes", axes).attr("keepdims", int64_t{0}).out;
}

// The mean over the rows of -log_softmax(logits)[label].
std::string cross_entropy(ApplyCtx& c) {
    Emitter& e = c.e;
    const int rank = c.in[0].type.shape.rank();
    const std::string lsm = e.op("LogSoftmax", {c.arg(0, c.out_storage)}).attr("axis", int64_t{rank - 1}).out;
    const std::string labels = e.unsqueeze(c.arg(1, DType::I64), {-1});
    const std::string picked = e.op("GatherElements", {lsm, labels}).attr("axis", int64_t{rank - 1}).out;
    return e.op("Neg", {mean_all(e, picked, rank)}).out;
}

std::string mse(ApplyCtx& c) {
    Emitter& e = c.e;
    const std::string diff = e.op("Sub", {c.arg(0, c.out_storage), c.arg(1, c.out_storage)}).out;
    const int rank = std::max(c.in[0].type.shape.rank(), c.in[1].type.shape.rank());
    return mean_all(e, e.op("Mul", {diff, diff}).out, rank);
}

std::string one_hot(ApplyCtx& c) {
    Emitter& e = c.e;
    const int64_t n = c.attr_int(1);
    std::vector<int64_t> classes(static_cast<size_t>(n));
    std::iota(classes.begin(), classes.end(), int64_t{0});
    const std::string hot = e.op("Equal", {e.unsqueeze(c.arg(0, DType::I64), {-1}), e.const_i64(classes)}).out;
    return e.cast(hot, DType::Bool, c.out_storage);
}

std::string full(ApplyCtx& c) {
    std::vector<int64_t> dims(c.out.shape.begin(), c.out.shape.end());
    return c.e.op("Expand", {c.arg(0, c.out_storage), c.e.const_i64(dims)}).out;
}

// zeros_like / ones_like: the result depends on x's type only.
std::string zeros_like(ApplyCtx& c) {
    if (!c.out_shape.empty()) return c.expand_out(c.e.scalar(0, c.out_storage));
    return c.e.constant(stdlib::Tensor::zeros(c.out_storage, c.out.shape));
}

std::string ones_like(ApplyCtx& c) { return c.expand_out(c.e.scalar(1, c.out_storage)); }

// roll, repeat, pad, diag: every result element is one element of x or the
// fill value. The op's own kernel, run on x's positions (1-based; 0 is the
// fill), gives the static map, and one Gather applies it. Pad's fill is its
// `value` argument, given to the kernel as 0 (the mark of a fill).
template <bool Pad>
std::string by_positions(ApplyCtx& c) {
    Emitter& e = c.e;
    const stdlib::OpDef& def = *c.node.def;
    const int64_t n = c.in[0].type.shape.numel();
    stdlib::Tensor pos = stdlib::Tensor::empty(DType::I64, c.in[0].type.shape);
    std::iota(pos.data<int64_t>(), pos.data<int64_t>() + n, int64_t{1});
    std::vector<stdlib::Attr> attrs = c.node.attrs;
    double fill = 0;
    if (Pad) {
        fill = c.attr_number(2, 0);
        attrs[2] = int64_t{0};
    }
    stdlib::OpContext ctx;
    const stdlib::Tensor map = def.eager(ctx, stdlib::OpArgs{std::span<const stdlib::Tensor>(&pos, 1), attrs}).contiguous();
    const int64_t m = map.numel();
    stdlib::Tensor index = stdlib::Tensor::empty(DType::I64, map.shape());
    stdlib::Tensor keep = stdlib::Tensor::empty(DType::Bool, map.shape());
    bool any_fill = false;
    for (int64_t i = 0; i < m; ++i) {
        const int64_t p = map.data<int64_t>()[i];
        index.data<int64_t>()[i] = p > 0 ? p - 1 : 0;
        keep.data<bool>()[i] = p > 0;
        any_fill = any_fill || p == 0;
    }
    const std::string flat = e.reshape(c.arg(0, c.out_storage), stdlib::Shape{n});
    const std::string gathered = e.op("Gather", {flat, e.constant(index)}).attr("axis", int64_t{0}).out;
    if (!any_fill) return gathered;
    return e.select(e.constant(keep), gathered, e.scalar(fill, c.out_storage), c.out_storage);
}

// zeros, ones, arange, linspace, eye: no tensor operand, so the value is known now.
std::string computed_now(ApplyCtx& c) {
    stdlib::OpContext ctx;
    return c.e.constant(c.node.def->eager(ctx, stdlib::OpArgs{{}, c.node.attrs}));
}

// How an op of kind k is exported: the function that maps it, or why none does.
struct Route {
    MapFn map = nullptr;
    std::string_view unmapped;  // the reason, when map is null

    Route() = default;
    Route(MapFn f) : map(f) {}  // implicit, for `return {matmul};`
    Route(std::nullptr_t, std::string_view why) : unmapped(why) {}
};

Route route(OtherKind k) {
    using K = OtherKind;
    switch (k) {
        case K::Matmul: return {matmul};
        case K::Dot: return {dot};
        case K::Outer: return {outer};
        case K::Det: return {det};
        case K::Transpose: return {transpose};
        case K::Reshape: case K::ExpandDims: case K::Squeeze: case K::Flatten: return {reshape};
        case K::BroadcastTo: return {broadcast_to};
        case K::Concat: return {concat};
        case K::Stack: return {stack};
        case K::OneHot: return {one_hot};
        case K::Flip: return {flip};
        case K::Tile: return {tile};
        case K::Tril: return {tri<true>};
        case K::Triu: return {tri<false>};
        case K::Roll: case K::Repeat: case K::Diag: return {by_positions<false>};
        case K::Pad: return {by_positions<true>};
        case K::Take: return {take};
        case K::Gather: return {gather};
        case K::Scatter: return {scatter<false>};
        case K::ScatterAdd: return {scatter<true>};
        case K::Sort: return {map_sort};
        case K::Argsort: return {map_argsort};
        case K::Cumsum: return {map_cumsum};
        case K::Cumprod: return {map_cumprod};
        case K::Norm: return {map_norm};
        case K::Conv2d: return {map_conv2d};
        case K::ConvTranspose2d: return {map_conv_transpose2d};
        case K::Conv2dWeightGrad: return {map_conv2d_weight_grad};
        case K::MaxPool2d: return {[](ApplyCtx& c) { return map_max_pool(c, false); }};
        case K::MaxPool2dIndices: return {[](ApplyCtx& c) { return map_max_pool(c, true); }};
        case K::MaxPool2dBackward: return {map_max_pool_backward};
        case K::Softmax: return {softmax};
        case K::LogSoftmax: return {log_softmax};
        case K::CrossEntropy: return {cross_entropy};
        case K::Mse: return {mse};
        case K::Full: return {full};
        case K::ZerosLike: return {zeros_like};
        case K::OnesLike: return {ones_like};
        case K::Zeros: case K::Ones: case K::Arange: case K::Linspace: case K::Eye: return {computed_now};
        case K::Inv:
            return {nullptr, "opset 17 has no matrix inverse, and tg raises on a singular matrix, which a "
                             "composition could not"};
        case K::Solve:
            return {nullptr, "opset 17 has no linear solve, and tg raises on a singular matrix, which a "
                             "composition could not"};
        case K::Svd: case K::Eigh: case K::Eig: case K::Qr: case K::Cholesky: case K::Slogdet: case K::Pinv:
            return {nullptr, "opset 17 has no matrix decomposition (SVD, eigen, QR, Cholesky, LU), and tg raises on "
                             "matrices LAPACK rejects, which a composition could not"};
        case K::Tensor:
            return {nullptr, "never a node of a traced graph: its data is constant, so the tracer computes it "
                             "(and cannot take a traced value as data)"};
        case K::RandomUniform: case K::RandomNormal: case K::RandomInt:
            return {nullptr, "ONNX's random ops cannot reproduce tg's random stream (the exporter rejects "
                             "random ops before mapping: draw the numbers outside and pass them in)"};
        case K::StackPush: case K::StackPop: case K::StackSize:
            return {nullptr, "a gradient's saved values: the backward loop reads them in an order ONNX's Loop "
                             "cannot express (the exporter rejects them before mapping)"};
        case K::MedianWeights:
            return {nullptr, "not mapped yet: the weights of median's gradient, so a gradient of median "
                             "cannot be exported"};
    }
    return {};
}

}  // namespace

std::string map_other(ApplyCtx& c, OtherKind k) {
    const Route r = route(k);
    if (!r.map) c.fail("it has no ONNX mapping");
    return r.map(c);
}

MappingStatus mapping_status(const stdlib::OpDef& def) {
    // Every element-wise and reduction kind is a case of the switch (with no
    // `default:`) of map_unary, map_binary, map_select or map_reduce.
    struct Status {
        MappingStatus operator()(stdlib::UnaryKind) const { return {true, {}}; }
        MappingStatus operator()(stdlib::BinaryKind) const { return {true, {}}; }
        MappingStatus operator()(stdlib::ReduceKind) const { return {true, {}}; }
        MappingStatus operator()(stdlib::ElementwiseKind) const { return {true, {}}; }
        MappingStatus operator()(OtherKind k) const {
            const Route r = route(k);
            return {r.map != nullptr, r.unmapped};
        }
        MappingStatus operator()(std::monostate) const { return {false, "the op has no kind (stdlib/op_kinds.hpp)"}; }
    };
    return std::visit(Status{}, def.kind);
}

}  // namespace tg::onnx_export
