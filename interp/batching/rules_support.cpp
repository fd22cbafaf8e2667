// BatchCall's helpers and the loop rule (interp/batching/rules.hpp).
#include <string>

#include "interp/batching/rules.hpp"
#include "interp/dispatch.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::OtherKind;

Value BatchCall::apply(const stdlib::OpDef& def, std::vector<Value> operands, std::vector<Attr> at) const {
    stdlib::complete_attrs(def, at);
    return run_op(rt, def, operands, std::move(at));
}

Value BatchCall::apply(OtherKind k, std::vector<Value> operands, std::vector<Attr> at) const {
    return apply(stdlib::op_of(k), std::move(operands), std::move(at));
}

Value BatchCall::materialized(size_t i) const {
    if (batched[i]) return in[i];
    const stdlib::TensorType t = in[i].tensor_type();
    std::vector<int64_t> shape{size};
    shape.insert(shape.end(), t.shape.begin(), t.shape.end());
    Value x = apply(OtherKind::ExpandDims, {in[i]}, {std::monostate{}, int64_t{0}});
    return apply(OtherKind::BroadcastTo, {x}, {std::monostate{}, shape});
}

Value BatchCall::lift(const Value& v, int64_t n) const {
    if (n <= 0) return v;
    std::vector<int64_t> axes;
    for (int64_t i = 1; i <= n; ++i) axes.push_back(i);
    return apply(OtherKind::ExpandDims, {v}, {std::monostate{}, axes});
}

Value BatchCall::with_batch_shape(const Value& v, const stdlib::Shape& shape) const {
    std::vector<int64_t> dims{size};
    dims.insert(dims.end(), shape.begin(), shape.end());
    if (v.tensor_type().shape == stdlib::Shape(dims)) return v;
    return apply(OtherKind::Reshape, {v}, {std::monostate{}, dims});
}

int64_t batched_axis(int64_t axis, int64_t rank) { return (axis < 0 ? axis + rank : axis) + 1; }

Value loop_rule(BatchCall& c) {
    std::vector<Value> results;
    for (int64_t b = 0; b < c.size; ++b) {
        stdlib::IndexItem at;
        at.index = b;
        std::vector<Value> operands;
        for (size_t i = 0; i < c.in.size(); ++i)
            operands.push_back(c.batched[i] ? index_tensor(c.rt, c.in[i], std::span<const stdlib::IndexItem>(&at, 1))
                                            : c.in[i]);
        results.push_back(c.apply(c.op, operands, c.attrs));
    }
    return c.apply(OtherKind::Stack, results, {std::monostate{}, int64_t{0}});
}

}  // namespace tg::interp
