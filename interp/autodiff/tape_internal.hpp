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

// (transforms.cpp) Calls a tg function value with positional arguments.
Value call_function(Runtime& rt, const Value& f, const std::vector<Value>& args, lang::Loc loc);
// The tensor leaves of a tree (lists, tuples, dicts), in order; None and
// non-tensors are skipped.
void tensor_leaves(const Value& v, std::vector<Value>& out);
bool is_container(const Value& v);

}  // namespace tg::interp::ad
