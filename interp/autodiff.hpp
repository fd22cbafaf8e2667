// Reverse-mode automatic differentiation (SPEC §5.5), JAX-style: `grad(f)`
// runs f with its differentiated arguments wrapped as tracked tensors
// (Value::tracked, a GradObj: the primal and its place on a tape). Every op
// dispatch.cpp applies to a tracked operand is recorded on the tape of the
// innermost grad it belongs to; then the tape is walked backwards, applying
// each op's vector-Jacobian rule (stdlib/grad_rules.cpp) through dispatch
// again. So the same machinery differentiates eager code (native if/while,
// recursion: the tape records what ran) and code being traced into a graph
// (the recorded ops are symbolic, the backward ops become graph nodes), and
// a gradient being computed is itself recorded by an outer grad (grad of
// grad). Converted control flow (a cond/while node) carrying a tracked value
// is not differentiated in the graph: the @graph call runs eagerly instead
// (same values; --trace says why).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "interp/value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

class Runtime;

// One recorded application. Inputs are primals (maybe tracked at lower levels).
struct TapeEntry {
    enum class What : uint8_t { Op, Index, IndexAssign } what = What::Op;
    const stdlib::OpDef* op = nullptr;
    std::vector<stdlib::Attr> attrs;
    std::vector<Value> inputs;
    std::vector<uint32_t> in_nodes;  // kNotTracked where the input is not tracked on this tape
    Value out;
    uint32_t out_node = 0;
    std::vector<stdlib::IndexItem> items;  // Index / IndexAssign
    std::vector<Value> dynamic;
};
inline constexpr uint32_t kNotTracked = UINT32_MAX;

struct Tape {
    uint32_t level = 0;
    uint64_t id = 0;
    uint32_t nodes = 0;
    std::vector<TapeEntry> entries;
};

// The innermost live tape `v` is tracked on (0: none).
uint32_t tracked_level(const Runtime& rt, const Value& v);
inline bool any_tracked(std::span<const Value> vs) {
    for (const Value& v : vs)
        if (v.tracked()) return true;
    return false;
}
// Deep (lists, tuples): used for call arguments.
bool has_tracked(const Value& v);
// v without any tracking, at every level (stop_gradient; printing).
Value untracked(const Value& v);

// The recording versions of dispatch's entry points (called by dispatch.cpp
// when an operand is tracked): they compute on the primals and record.
Value tracked_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands,
                 std::vector<stdlib::Attr> attrs);
Value tracked_index(Runtime& rt, const Value& x, std::span<const stdlib::IndexItem> items,
                    std::span<const Value> dynamic);
void tracked_index_assign(Runtime& rt, Value& x, std::span<const stdlib::IndexItem> items, const Value& v,
                          std::span<const Value> dynamic);

// grad, value_and_grad, stop_gradient (SPEC §5.5).
void add_autodiff_builtins(std::vector<std::pair<std::string, Value>>& out);

}  // namespace tg::interp
