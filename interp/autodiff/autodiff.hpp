// Reverse-mode automatic differentiation (docs/training.md), JAX-style: `grad(f)`
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
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::stdlib {
class Budget;
}

namespace tg::interp {

class Runtime;

struct CondData;
struct WhileData;

// One recorded application. Inputs are primals (maybe tracked at lower levels).
struct TapeEntry {
    enum class What : uint8_t { Op, Index, IndexAssign, Cond, While, Custom } what = What::Op;
    const stdlib::OpDef* op = nullptr;
    std::vector<stdlib::Attr> attrs;
    std::vector<Value> inputs;
    std::vector<uint32_t> in_nodes;  // kNotTracked where the input is not tracked on this tape
    Value out;
    uint32_t out_node = 0;
    std::vector<stdlib::IndexItem> items;  // Index / IndexAssign
    std::vector<Value> dynamic;
    std::shared_ptr<const CondData> cond;  // Cond: in_nodes are the outer values its branches read
    std::shared_ptr<const WhileData> loop;  // While: in_nodes are the inits, then the outer values the body reads
    std::shared_ptr<const struct CustomRule> custom;  // Custom: in_nodes are the arguments' tensor leaves
};
inline constexpr uint32_t kNotTracked = UINT32_MAX;

// A converted `if` (a cond node) that values being differentiated go
// through. Its branches' tape entries are kept apart; the values they need
// that only exist inside a branch were added to the forward cond's results
// (residuals, as JAX's partial evaluation of cond does), so the backward is
// a cond on the same predicate whose branches run their own entries back.
struct CondData {
    Value pred;                             // the symbolic bool[] predicate
    std::vector<TapeEntry> branch[2];
    std::vector<uint32_t> leaf_nodes[2];    // per tracked output: its node in branch b (kNotTracked: none)
    std::vector<uint32_t> out_nodes;        // per tracked output: the cond result's node
    std::vector<stdlib::TensorType> in_types;  // per in_node of the entry
};

// A call whose backward is given, not taped (interp/autodiff/transforms.cpp):
// custom_vjp's bwd, or checkpoint's recomputation. The entry's in_nodes are
// the nodes of the arguments' tensor leaves (in tree order); `backward`
// receives the cotangent of each tensor leaf of the outputs (Undefined where
// none reached it) and returns one cotangent per in_node (Undefined: zero).
struct CustomRule {
    std::function<std::vector<Value>(Runtime&, const std::vector<Value>& out_cotangents)> backward;
    Value out;                       // the primal outputs (their tree and types)
    std::vector<uint32_t> out_nodes;  // per tensor leaf of `out`: its node (kNotTracked: none)
};

// The entries are charged to the interpreter's memory budget as they are
// recorded (max_memory_bytes, docs/embedding.md: a differentiated loop without a step
// limit would otherwise grow the tape without bound) and credited when the
// tape ends.
struct Tape {
    uint32_t level = 0;
    uint64_t id = 0;
    uint32_t nodes = 0;
    std::vector<TapeEntry> entries;
    // grad's loop_checkpoint (docs/training.md "Bounding a loop's saved
    // values"): 0, or k for the converted loops this tape differentiates.
    int64_t loop_checkpoint = 0;

    Tape() = default;
    Tape(const Tape&) = delete;
    Tape& operator=(const Tape&) = delete;
    ~Tape();
    // Charges e's estimated size (LimitError past the limit: nothing recorded), then appends it.
    void push(TapeEntry e);

private:
    stdlib::Budget* budget_ = nullptr;  // the budget charged (the one current at the first push)
    size_t charged_ = 0;
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

// ---- converted `if` (interp/tracing/autograph.cpp's trace_cond): the tape length
// before each branch, then the merge's bookkeeping.
std::vector<size_t> tape_marks(const Runtime& rt);
// Drops what was recorded after `marks` (a rolled-back trace attempt).
void truncate_tapes(Runtime& rt, const std::vector<size_t>& marks);
// After both branches ran (marks: before branch 0, before branch 1, after
// branch 1): the entries recorded in each branch, taken off the innermost
// tape, or nothing to do. Throws an Unsupported trace error for what the
// graph cannot differentiate (nested tapes, nested converted control flow).
struct CondTape {
    uint32_t level = 0;
    std::vector<TapeEntry> branch[2];
};
// `force`: a branch yields a tracked value (perhaps one from before the cond).
std::optional<CondTape> take_branch_entries(Runtime& rt, const std::vector<size_t> marks[3], bool force);
// The values inside branch region `b` (ids for which `inside` is true) the
// entries of branch b read: they become extra results of the cond.
std::vector<Value> branch_residuals(const CondTape& t, int b, const std::function<bool(uint32_t)>& inside);
// Records the cond: `sides[j]` the value each branch yields for result j
// (tracked ones were unwrapped by the caller, who kept their nodes in
// `leaf_nodes`), `results` the cond's results for them (wrapped here where a
// side was tracked), `residual_results` the results for each branch's
// residuals, in branch_residuals' order.
void record_cond(Runtime& rt, CondTape t, uint32_t pred, const std::vector<uint32_t> leaf_nodes[2],
                 const std::vector<Value> leaf_primals[2], std::vector<Value>& results, const std::vector<Value> residuals[2],
                 const std::vector<Value> residual_results[2]);

// A converted `while` that values being differentiated are carried through.
// The forward loop pushes, at the end of every iteration, the values the
// body's entries read (residuals) onto the run's saved-value stack; the
// backward is a loop that runs until the stack is back at its size before
// the forward loop (inner loops pop their own values), popping each
// iteration's residuals and running the body's entries back: memory
// proportional to the iterations run.
//
// With a bound k (grad's loop_checkpoint; interp/autodiff/loop_checkpoint.cpp)
// the forward loop saves instead its carried values every k iterations and
// its iteration count at the end; the backward runs the stretches of k
// iterations last first, each recomputed from its saved start by a copy of
// the forward body (which saves that stretch's residuals), then swept back
// as above.
struct WhileData {
    std::vector<TapeEntry> body;
    std::vector<uint32_t> arg_nodes;    // per differentiated carried leaf: its node at the body's start
    std::vector<uint32_t> yield_nodes;  // per leaf: the node the body yields for it (kNotTracked: none)
    std::vector<uint32_t> out_nodes;    // per leaf: the loop result's node
    std::vector<stdlib::TensorType> leaf_types;
    std::vector<Value> residuals;       // in push order
    std::vector<uint32_t> push_nodes;   // the forward body's _stack_push node of each residual
    Value saved_before;                 // i64[]: the stack's size before the forward loop
    std::vector<stdlib::TensorType> in_types;  // per in_node of the entry
    // The forward `while` node (a tracer::NodeId): where the loop runs before
    // its backward does — inside an enclosing bounded loop, its copy there.
    uint32_t node = UINT32_MAX;
    int64_t every = 0;  // the bound k; 0: every iteration's residuals are saved
    // (every > 0) The values from outside the loop its body reads, as graph
    // ids in the body the forward runs (`node`'s), and as values the
    // backward reads (remapped like residuals, by an enclosing cond or loop).
    std::vector<uint32_t> capture_ids;
    std::vector<Value> captures;
};

// trace_while's bookkeeping. A carried leaf is differentiated when its init
// or what the body yields for it is tracked at the innermost tape.
struct LoopTape {
    uint32_t level = 0;
    std::vector<TapeEntry> body;
};
// The body's entries (recorded between the marks), taken off the innermost
// tape; Unsupported trace errors for what the graph cannot differentiate.
LoopTape take_body_entries(Runtime& rt, const std::vector<size_t>& before, const std::vector<size_t>& after);
std::vector<Value> body_residuals(const LoopTape& t, const std::function<bool(uint32_t)>& inside);
// A fresh node of the innermost tape (for the body's arguments and the loop's results).
Value track_new(Runtime& rt, Value primal);
void record_while(Runtime& rt, LoopTape t, std::shared_ptr<WhileData> d, const std::vector<uint32_t>& init_nodes,
                  const std::vector<Value>& init_primals, const std::vector<Value>& yield_primals);

// grad, value_and_grad, stop_gradient (docs/training.md).
void add_autodiff_builtins(std::vector<std::pair<std::string, Value>>& out);
// vjp, jvp, jacfwd, jacrev, hessian, custom_vjp, defvjp, checkpoint (interp/autodiff/transforms.cpp).
void add_transform_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_custom_rule_builtins(std::vector<std::pair<std::string, Value>>& out);  // (custom_rules.cpp)

}  // namespace tg::interp
