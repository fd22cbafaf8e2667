// What the transformations built on the tape (interp/autodiff/transforms.cpp:
// vjp, jvp, jacobians, custom_vjp, checkpoint) share with grad
// (interp/autodiff/autodiff.cpp). Not for the rest of the interpreter: it
// uses autodiff.hpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "interp/autodiff/autodiff.hpp"
#include "interp/runtime.hpp"
#include "tracer/graph.hpp"

namespace tg::tracer {
struct CloneMap;
}

namespace tg::interp::ad {

// The tape of one call being differentiated: pushed on the runtime's stack of
// live tapes for the call of f, popped on every exit. The tape may outlive
// the scope (vjp keeps it for its backward function).
struct TapeScope {
    Runtime& rt;
    std::shared_ptr<Tape> tape;
    bool active = true;
    explicit TapeScope(Runtime& r) : rt(r), tape(std::make_shared<Tape>()) {
        tape->level = static_cast<uint32_t>(rt.tapes.size() + 1);
        tape->id = ++rt.tape_serial;
        rt.tapes.push_back(tape.get());
    }
    void pop() {
        if (active) rt.tapes.pop_back();
        active = false;
    }
    ~TapeScope() { pop(); }
    TapeScope(const TapeScope&) = delete;
    TapeScope& operator=(const TapeScope&) = delete;
};

bool is_live(const Runtime& rt, const GradObj& g);
// v seen from tape `level`: its primal and node when tracked there.
Value primal_at_level(const Runtime& rt, const Value& v, uint32_t level, uint32_t* node);
Value track(Tape& tape, Value primal);
Value zeros_of(Runtime& rt, const stdlib::TensorType& t);
Value cast_to(Runtime& rt, const Value& v, stdlib::DType d);
Value add_values(Runtime& rt, const Value& a, const Value& b);
// The reverse sweep of `tape` from several seeds (node, cotangent): the
// cotangent of every node (Undefined: zero).
std::vector<Value> backward_from(Runtime& rt, const Tape& tape, const std::vector<std::pair<uint32_t, Value>>& seeds);
// grad's view of an argument: its float tensor leaves tracked on `tape`
// (appended to `leaves`), None an empty subtree; `what` names a leaf by path.
Value track_tree(Tape& tape, const Value& v, const std::string& what, std::vector<Value>& leaves);
// The gradient with the structure of `arg` from the cotangents (zeros where none).
Value gradient_of(Runtime& rt, const Value& arg, const std::vector<Value>& cot, size_t& k, const std::vector<Value>& leaves);
// v without tape `id`'s tracking (the outputs of a differentiated call).
Value without_tape(const Value& v, uint64_t id);
// "an f32 tensor of shape (2,)", "a list": for messages.
std::string describe(const Value& v);

// ---- converted loops (autodiff.cpp's while_vjp)
// The cotangents a loop's backward starts from, after the token: per
// differentiated leaf its result's, then a zero sum per outer value read.
std::vector<tracer::ValueId> backward_loop_inits(Runtime& rt, const TapeEntry& e, const std::vector<Value>& cot);
// The backward loop (not finished) from `inits` (the token first): it runs
// while the saved-value stack is above `floor`, popping one iteration's
// residuals at a time. `cot_size`: the tape's node count; `moved`: the copy
// of the forward body that saved them, if it is not the forward loop's own.
tracer::NodeId build_backward_loop(Runtime& rt, const TapeEntry& e, size_t cot_size, std::span<const tracer::ValueId> inits,
                                   const Value& floor, const tracer::CloneMap* moved);
// Finishes a backward cond/while: the token goes on; `count` results from `first` on.
std::vector<Value> finish_backward(TraceState& T, tracer::NodeId node, size_t first, size_t count);
// The _stack_push nodes of a loop (and of the loops nested in it) go.
void drop_loop_saves(tracer::Graph& g, const TapeEntry& e);

// ---- a bound on a converted loop's saved values (loop_checkpoint.cpp,
// docs/training.md "Bounding a loop's saved values")
// At the loop's record: `every` (the tape's loop_checkpoint) applies unless
// running the body again could differ (random ops, host calls); then the
// values its body reads from outside are noted.
void plan_loop_checkpoint(Runtime& rt, WhileData& d, int64_t every);
// The backward of a bounded loop (and the forward loop's rewrite).
std::vector<Value> checkpointed_while_vjp(Runtime& rt, const TapeEntry& e, const std::vector<Value>& cot);
// The records of loops nested in `entries` now name their copies in `moved`.
void remap_moved_loops(std::vector<TapeEntry>& entries, const tracer::CloneMap& moved);

// (transforms.cpp) Calls a tg function value with positional arguments.
Value call_function(Runtime& rt, const Value& f, const std::vector<Value>& args, lang::Loc loc);
// The tensor leaves of a tree (lists, tuples, dicts), in order; None and
// non-tensors are skipped.
void tensor_leaves(const Value& v, std::vector<Value>& out);
bool is_container(const Value& v);

}  // namespace tg::interp::ad
