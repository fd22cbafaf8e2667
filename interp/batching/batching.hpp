// Batching (docs/training.md "vmap"), JAX-style: `vmap(f)(xs)` calls f with
// its mapped arguments wrapped as batched tensors (Value::batched, a
// BatchObj: the value holding every example, the axis they are stacked
// along, and which vmap they belong to). A batched tensor looks like one
// example (its tensor_type() has no batch axis); every op dispatch.cpp
// applies to one is rewritten by the op's batching rule
// (interp/batching/rules.cpp, keyed by the op's kind) into ops on the
// values with the batch axis, through dispatch again. So vmap works in
// eager code and while a @graph function is traced (the rewritten ops are
// graph nodes), nests (a value batched at a lower level is an ordinary
// operand to an outer rule), and composes with grad in both orders: tapes
// and vmaps take their serials from one counter, and an operation meets the
// innermost live transformation among its operands first.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

class Runtime;

// One example's type: b's value's type without the batch axis.
stdlib::TensorType example_type(const BatchObj& b);
// What reading a batched tensor's data (print, float(), a native `if`) raises.
[[noreturn]] void batched_data_error(const Value& v);

// Deep (lists, tuples, dicts): for call arguments.
bool has_batched(const Value& v);
// A tensor batched by a vmap (looking through grad's wrappers): a condition
// on it runs as interp/batching/batched_control.cpp converts it.
bool is_batched_condition(const Value& v);
// Tracked or batched, deep.
bool has_transformed(const Value& v);
inline bool any_transformed(std::span<const Value> vs) {
    for (const Value& v : vs)
        if (v.transformed()) return true;
    return false;
}

// Which transformation an operation on these operands meets first: true
// when the innermost live one is a vmap (then batched_op), false when it is
// a grad's tape (tracked_op).
bool batch_on_top(const Runtime& rt, std::span<const Value> operands);

// The batching versions of dispatch's entry points.
Value batched_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands,
                 std::vector<stdlib::Attr> attrs);
Value batched_index(Runtime& rt, const Value& x, std::span<const stdlib::IndexItem> items,
                    std::span<const Value> dynamic);
void batched_index_assign(Runtime& rt, Value& x, std::span<const stdlib::IndexItem> items, const Value& v,
                          std::span<const Value> dynamic);

// The batching rule's status of an op, for the coverage test and docs:
// "vectorized", "loop" (once per example, stacked), "none: <why>".
std::string batch_rule_status(const stdlib::OpDef& op);

// vmap (docs/training.md "vmap").
void add_vmap_builtins(std::vector<std::pair<std::string, Value>>& out);

}  // namespace tg::interp
