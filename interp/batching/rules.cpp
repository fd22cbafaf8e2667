// The batching rules of the op table's kinds (interp/batching/rules.hpp).
// Most ops batch by keeping the batch axis first and shifting their axis
// attributes past it; an op whose batched form would need a kernel of its
// own runs once per example (loop_rule); ops that never see a batched
// operand, or cannot, have none (batch_rule says why).
#include <numeric>
#include <string>

#include "interp/batching/rules.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::OtherKind;
using stdlib::Shape;

namespace {

int64_t rank_of(const BatchCall& c, size_t i) { return c.types[i].shape.rank(); }

// The batched form of an axis attribute (None: every axis of one example).
Attr shifted_axes(const Attr& axis, int64_t rank) {
    if (const int64_t* a = std::get_if<int64_t>(&axis)) return batched_axis(*a, rank);
    std::vector<int64_t> out;
    if (const auto* v = std::get_if<std::vector<int64_t>>(&axis)) {
        for (int64_t a : *v) out.push_back(batched_axis(a, rank));
    } else {
        for (int64_t a = 1; a <= rank; ++a) out.push_back(a);
    }
    return out;
}

bool is_none(const Attr& a) { return std::holds_alternative<std::monostate>(a); }

// An op whose axis None means "of the flattened tensor": each example
// flattened (B, -1), the op along axis 1, the result reshaped to one
// example's result type.
Value along_flattened(BatchCall& c, size_t axis_attr) {
    Value flat = c.apply(OtherKind::Reshape, {c.in[0]}, {std::monostate{}, std::vector<int64_t>{c.size, -1}});
    std::vector<Attr> at = c.attrs;
    at[axis_attr] = int64_t{1};
    std::vector<Value> in{flat};
    for (size_t i = 1; i < c.in.size(); ++i) in.push_back(c.in[i]);
    return c.with_batch_shape(c.apply(c.op, in, at), c.out.shape);
}

}  // namespace

namespace batch_rules {

// Element-wise ops with broadcasting: a batched operand of lower rank than
// the result gets axes of size 1 after its batch axis, so broadcasting
// aligns one example's axes; unbatched operands broadcast as they are.
Value elementwise(BatchCall& c) {
    std::vector<Value> in;
    for (size_t i = 0; i < c.in.size(); ++i)
        in.push_back(c.batched[i] ? c.lift(c.in[i], c.out.shape.rank() - rank_of(c, i)) : c.in[i]);
    return c.apply(c.op, in, c.attrs);
}

// Reductions: the axes shifted past the batch axis; argmax and argmin over
// all elements index the flattened example.
Value reduce(BatchCall& c) {
    const auto k = std::get<stdlib::ReduceKind>(c.op.kind);
    const bool flat_index = k == stdlib::ReduceKind::Argmax || k == stdlib::ReduceKind::Argmin;
    if (is_none(c.attrs[1]) && (flat_index || rank_of(c, 0) == 0)) {
        std::vector<Attr> at = c.attrs;
        at[2] = false;  // keepdims: the shape is one example's result's anyway
        c.attrs = at;
        return along_flattened(c, 1);
    }
    std::vector<Attr> at = c.attrs;
    at[1] = shifted_axes(c.attrs[1], rank_of(c, 0));
    return c.apply(c.op, {c.in[0]}, at);
}

// An op with one axis attribute at `axis_attr` (an int, a tuple, or None
// meaning every axis or the flattened tensor), on its first operand.
template <size_t AxisAttr, bool NoneFlattens>
Value with_axis(BatchCall& c) {
    for (size_t i = 1; i < c.in.size(); ++i)
        if (c.batched[i]) return loop_rule(c);
    if (NoneFlattens && is_none(c.attrs[AxisAttr])) return along_flattened(c, AxisAttr);
    std::vector<Attr> at = c.attrs;
    at[AxisAttr] = shifted_axes(c.attrs[AxisAttr], rank_of(c, 0));
    return c.apply(c.op, c.in, at);
}

// Ops that act on each example's trailing axes or element by element with
// no axis attribute (inv, det, tril, one_hot, zeros_like): the batch axis
// is one more leading axis.
Value same(BatchCall& c) { return c.apply(c.op, c.in, c.attrs); }

Value transpose(BatchCall& c) {
    const int64_t r = rank_of(c, 0);
    std::vector<int64_t> perm{0};
    if (const auto* axes = std::get_if<std::vector<int64_t>>(&c.attrs[1])) {
        for (int64_t a : *axes) perm.push_back(batched_axis(a, r));
    } else {
        for (int64_t a = r; a >= 1; --a) perm.push_back(a);
    }
    return c.apply(c.op, {c.in[0]}, {std::monostate{}, perm});
}

Value reshape(BatchCall& c) { return c.with_batch_shape(c.in[0], c.out.shape); }

Value expand_dims(BatchCall& c) {
    std::vector<Attr> at = c.attrs;
    at[1] = shifted_axes(c.attrs[1], c.out.shape.rank());
    return c.apply(c.op, {c.in[0]}, at);
}

Value broadcast_to(BatchCall& c) {
    Value x = c.lift(c.in[0], c.out.shape.rank() - rank_of(c, 0));
    std::vector<int64_t> shape{c.size};
    shape.insert(shape.end(), c.out.shape.begin(), c.out.shape.end());
    return c.apply(c.op, {x}, {std::monostate{}, shape});
}

// concat and stack: every operand with the batch axis; the axis shifted.
template <bool Stack>
Value join(BatchCall& c) {
    std::vector<Value> in;
    for (size_t i = 0; i < c.in.size(); ++i) in.push_back(c.materialized(i));
    const int64_t rank = rank_of(c, 0) + (Stack ? 1 : 0);
    return c.apply(c.op, in, {std::monostate{}, batched_axis(std::get<int64_t>(c.attrs[1]), rank)});
}

Value tile(BatchCall& c) {
    const auto& reps = std::get<std::vector<int64_t>>(c.attrs[1]);
    const int64_t r = rank_of(c, 0), k = static_cast<int64_t>(reps.size()), m = std::max(r, k);
    std::vector<int64_t> all(static_cast<size_t>(1 + m - k), 1);
    all.insert(all.end(), reps.begin(), reps.end());
    return c.apply(c.op, {c.lift(c.in[0], m - r)}, {std::monostate{}, all});
}

Value pad(BatchCall& c) {
    const auto& w = std::get<std::vector<int64_t>>(c.attrs[1]);
    const int64_t r = rank_of(c, 0);
    std::vector<int64_t> all{0, 0};
    if (static_cast<int64_t>(w.size()) == 2 * r) {
        all.insert(all.end(), w.begin(), w.end());
    } else {
        for (int64_t i = 0; i < r; ++i) all.insert(all.end(), w.begin(), w.begin() + 2);
    }
    std::vector<Attr> at = c.attrs;
    at[1] = all;
    return c.apply(c.op, {c.in[0]}, at);
}

Value squeeze(BatchCall& c) {
    if (!is_none(c.attrs[1])) return with_axis<1, false>(c);
    std::vector<int64_t> axes;
    for (int i = 0; i < c.types[0].shape.rank(); ++i)
        if (c.types[0].shape[i] == 1) axes.push_back(i + 1);
    if (axes.empty()) return c.in[0];
    return c.apply(c.op, {c.in[0]}, {std::monostate{}, axes});
}

Value outer(BatchCall& c) {
    Value a = c.batched[0] ? c.apply(OtherKind::Reshape, {c.in[0]}, {std::monostate{}, std::vector<int64_t>{c.size, -1, 1}})
                           : c.apply(OtherKind::Reshape, {c.in[0]}, {std::monostate{}, std::vector<int64_t>{-1, 1}});
    Value b = c.batched[1] ? c.apply(OtherKind::Reshape, {c.in[1]}, {std::monostate{}, std::vector<int64_t>{c.size, 1, -1}})
                           : c.apply(OtherKind::Reshape, {c.in[1]}, {std::monostate{}, std::vector<int64_t>{-1}});
    return c.apply(stdlib::op_of(stdlib::BinaryKind::Mul), {a, b}, {});
}

Value axis1(BatchCall& c) { return with_axis<1, false>(c); }
Value axis1_flat(BatchCall& c) { return with_axis<1, true>(c); }
Value axis2_flat(BatchCall& c) { return with_axis<2, true>(c); }
Value concat(BatchCall& c) { return join<false>(c); }
Value stack(BatchCall& c) { return join<true>(c); }
Value norm(BatchCall& c) { return is_none(c.attrs[2]) ? loop_rule(c) : with_axis<2, false>(c); }

}  // namespace batch_rules

}  // namespace tg::interp
