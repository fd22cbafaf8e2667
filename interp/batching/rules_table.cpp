// The batching rule of every op of the table (interp/batching/rules.hpp),
// keyed by its kind, and the rules of matrix products and convolutions.
#include <variant>

#include "interp/batching/rules.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::OtherKind;

namespace batch_rules {

// matmul with NumPy's rules: a vector operand becomes a row (a) or a column
// (b) matrix, batched operands get axes of size 1 after the batch axis up
// to the other's rank (so the batch axis stays leading), and the product is
// reshaped to one example's result (dropping the vectors' axes).
Value matmul(BatchCall& c) {
    Value a = c.in[0], b = c.in[1];
    int64_t ra = c.types[0].shape.rank(), rb = c.types[1].shape.rank();
    if (ra == 1) {
        a = c.apply(OtherKind::ExpandDims, {a}, {std::monostate{}, int64_t{c.batched[0] ? 1 : 0}});
        ra = 2;
    }
    if (rb == 1) {
        b = c.apply(OtherKind::ExpandDims, {b}, {std::monostate{}, int64_t{-1}});
        rb = 2;
    }
    const int64_t m = std::max(ra, rb);
    if (c.batched[0]) a = c.lift(a, m - ra);
    if (c.batched[1]) b = c.lift(b, m - rb);
    return c.with_batch_shape(c.apply(OtherKind::Matmul, {a, b}, {}), c.out.shape);
}

// NumPy's dot is matmul for vectors and matrices; beyond, once per example.
Value dot(BatchCall& c) {
    const int ra = c.types[0].shape.rank(), rb = c.types[1].shape.rank();
    if (ra >= 1 && rb >= 1 && ra <= 2 && rb <= 2) return matmul(c);
    return loop_rule(c);
}

// A convolution or pooling of a batched image batch (N, C, H, W) with an
// unbatched kernel: the examples' images as one batch of B * N.
Value conv(BatchCall& c) {
    for (size_t i = 1; i < c.in.size(); ++i)
        if (c.batched[i]) return loop_rule(c);
    const stdlib::Shape& x = c.types[0].shape;
    std::vector<int64_t> merged{-1};
    for (int i = 1; i < x.rank(); ++i) merged.push_back(x[i]);
    std::vector<Value> in = c.in;
    in[0] = c.apply(OtherKind::Reshape, {c.in[0]}, {std::monostate{}, merged});
    return c.with_batch_shape(c.apply(c.op, in, c.attrs), c.out.shape);
}

Value pool(BatchCall& c) { return conv(c); }

}  // namespace batch_rules

namespace {

constexpr RuleEntry vec(BatchRule r) { return {RuleKind::Vectorized, r, {}}; }
constexpr RuleEntry loop() { return {RuleKind::Loop, loop_rule, {}}; }
constexpr RuleEntry none(std::string_view why) { return {RuleKind::None, nullptr, why}; }

// A switch with no `default:`: a new kind without its rule is a compile error.
RuleEntry other_rule(OtherKind k) {
    namespace r = batch_rules;
    switch (k) {
    case OtherKind::Matmul: return vec(r::matmul);
    case OtherKind::Dot: return vec(r::dot);
    case OtherKind::Outer: return vec(r::outer);
    case OtherKind::Inv: case OtherKind::Det: return vec(r::same);
    // the decompositions take leading batch axes, and their packed factors keep them
    case OtherKind::Svd: case OtherKind::Eigh: case OtherKind::Eig: case OtherKind::Qr: case OtherKind::Cholesky:
    case OtherKind::Slogdet: case OtherKind::Pinv:
        return vec(r::same);
    case OtherKind::Solve: return loop();  // a 1-d b is a vector, a batch of them a matrix
    case OtherKind::Transpose: return vec(r::transpose);
    case OtherKind::Reshape: case OtherKind::Flatten: return vec(r::reshape);
    case OtherKind::ExpandDims: return vec(r::expand_dims);
    case OtherKind::Squeeze: return vec(r::squeeze);
    case OtherKind::BroadcastTo: return vec(r::broadcast_to);
    case OtherKind::Concat: return vec(r::concat);
    case OtherKind::Stack: return vec(r::stack);
    case OtherKind::OneHot: return vec(r::same);
    case OtherKind::Flip: case OtherKind::Softmax: case OtherKind::LogSoftmax: return vec(r::axis1);
    case OtherKind::Sort: case OtherKind::Argsort: case OtherKind::Cumsum: case OtherKind::Cumprod:
        return vec(r::axis1_flat);
    case OtherKind::Roll: case OtherKind::Repeat: case OtherKind::Take: return vec(r::axis2_flat);
    case OtherKind::Tile: return vec(r::tile);
    case OtherKind::Pad: return vec(r::pad);
    case OtherKind::Diag: return loop();  // 1-d and 2-d examples mean different things
    case OtherKind::Tril: case OtherKind::Triu: return vec(r::same);
    case OtherKind::Gather: case OtherKind::Scatter: case OtherKind::ScatterAdd: return loop();
    case OtherKind::Tensor: case OtherKind::Full: return loop();
    case OtherKind::ZerosLike: case OtherKind::OnesLike: return vec(r::same);
    case OtherKind::Zeros: case OtherKind::Ones: case OtherKind::Arange: case OtherKind::Linspace:
    case OtherKind::Eye:
        return none("it has no tensor operand, so it is never batched");
    case OtherKind::RandomUniform: case OtherKind::RandomNormal: case OtherKind::RandomInt:
        return none("a random op has no tensor operand, so it is never batched");
    case OtherKind::CrossEntropy: case OtherKind::Mse: return loop();  // a mean over each example
    case OtherKind::Norm: return vec(r::norm);
    case OtherKind::Conv2d: case OtherKind::ConvTranspose2d: return vec(r::conv);
    case OtherKind::MaxPool2d: case OtherKind::MaxPool2dIndices: return vec(r::pool);
    case OtherKind::Conv2dWeightGrad: case OtherKind::MaxPool2dBackward: case OtherKind::MedianWeights:
        return loop();
    case OtherKind::StackPush: case OtherKind::StackPop: case OtherKind::StackSize:
        return none("the saved-value stack of a graph's loop gradients holds whole tensors, one per iteration");
    }
    return none("unknown op");
}

}  // namespace

RuleEntry batch_rule(const stdlib::OpDef& op) {
    return std::visit(
        [](const auto& k) -> RuleEntry {
            using K = std::decay_t<decltype(k)>;
            if constexpr (std::is_same_v<K, std::monostate>) return none("it has no kind");
            else if constexpr (std::is_same_v<K, stdlib::ReduceKind>) return vec(batch_rules::reduce);
            else if constexpr (std::is_same_v<K, OtherKind>) return other_rule(k);
            else return vec(batch_rules::elementwise);
        },
        op.kind);
}

}  // namespace tg::interp
