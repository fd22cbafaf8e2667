// The batching rules (interp/batching/batching.hpp): one per op of the op
// table, chosen by the op's kind (element-wise ops, reductions, each shape
// op, ...). A rule gets the operands with the batch axis moved to the
// front (where batched) and gives the op's result for every example, the
// batch axis in front; batching.cpp checks that its type is the batch
// size followed by the op's shape rule applied to one example's types.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

class Runtime;

struct BatchCall {
    BatchCall(Runtime& r, const stdlib::OpDef& o) : rt(r), op(o) {}
    Runtime& rt;
    const stdlib::OpDef& op;
    int64_t size = 0;
    std::vector<Value> in;                   // the batch axis first where batched
    std::vector<bool> batched;
    std::vector<stdlib::TensorType> types;   // one example's
    std::vector<stdlib::Attr> attrs;
    stdlib::TensorType out;                  // one example's result (the op's shape rule)

    // An op applied through dispatch (the next level down).
    Value apply(const stdlib::OpDef& def, std::vector<Value> operands, std::vector<stdlib::Attr> at) const;
    Value apply(stdlib::OtherKind k, std::vector<Value> operands, std::vector<stdlib::Attr> at) const;
    // in[i] with its batch axis (B) even when unbatched (broadcast).
    Value materialized(size_t i) const;
    // v (batch axis first, one example of rank `rank`) with `n` axes of size 1 after the batch axis.
    Value lift(const Value& v, int64_t n) const;
    // v reshaped to (B,) + shape.
    Value with_batch_shape(const Value& v, const stdlib::Shape& shape) const;
};

using BatchRule = Value (*)(BatchCall&);

enum class RuleKind : uint8_t { None, Vectorized, Loop };
struct RuleEntry {
    RuleKind kind = RuleKind::None;
    BatchRule rule = nullptr;
    std::string_view why;  // None: why the op has no rule
};
RuleEntry batch_rule(const stdlib::OpDef& op);

// The op once per example, the results stacked (ops whose batched form
// would need a kernel of their own: linear solves, losses, convolutions
// with a batched kernel, ...).
Value loop_rule(BatchCall& c);

// An axis attribute of one example (rank `rank`) as an axis of the batched
// value: normalized, then shifted past the batch axis.
int64_t batched_axis(int64_t axis, int64_t rank);

// The rules (rules.cpp, rules_linalg.cpp), named by what they batch.
namespace batch_rules {
Value elementwise(BatchCall& c);  // with broadcasting
Value reduce(BatchCall& c);       // axis attribute, keepdims
Value same(BatchCall& c);         // the batch axis is one more leading axis
Value axis1(BatchCall& c);        // an axis attribute after the operand (softmax, flip)
Value axis1_flat(BatchCall& c);   // the same, None meaning the flattened tensor (cumsum, sort)
Value axis2_flat(BatchCall& c);   // the axis attribute third (take, roll, repeat)
Value transpose(BatchCall& c);
Value reshape(BatchCall& c);
Value expand_dims(BatchCall& c);
Value squeeze(BatchCall& c);
Value broadcast_to(BatchCall& c);
Value concat(BatchCall& c);
Value stack(BatchCall& c);
Value tile(BatchCall& c);
Value pad(BatchCall& c);
Value outer(BatchCall& c);
Value norm(BatchCall& c);
Value matmul(BatchCall& c);
Value dot(BatchCall& c);
Value conv(BatchCall& c);         // conv2d, conv_transpose2d: examples' images as one batch
Value pool(BatchCall& c);         // max_pool2d and its indices
}  // namespace batch_rules

}  // namespace tg::interp
