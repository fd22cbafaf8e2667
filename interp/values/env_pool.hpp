// Frames (Env) of finished calls, kept for the next call.
//
// Every call of a tg function needs an Env: its local slots, shared so that
// a closure made in the call can keep it alive. Making one per call (a
// shared_ptr's block and the slots' vector) was a third of a recursive
// function's time (docs/performance.md "Ordinary programs"); a frame from
// the pool comes with its slots' capacity. A frame returns to the pool only
// when nothing else refers to it: a closure that outlives its call keeps
// its frame for itself.
//
// Two ways to keep them: a list of free frames (take / give), for calls
// that take a frame before their arguments are evaluated, and one frame per
// call depth (take_at / release), for calls whose arguments are evaluated
// first — body code's and the tree walker's common ones (interp/calls.cpp).
#pragma once

#include <array>
#include <memory>
#include <new>
#include <vector>

#include "interp/values/value.hpp"

namespace tg::interp {

class EnvPool {
public:
    // A frame of `slots` undefined slots, lexically inside `parent`.
    std::shared_ptr<Env> take(const FunctionFacts* facts, const std::shared_ptr<Env>& parent, size_t slots) {
        std::shared_ptr<Env> env;
        if (free_.empty()) {
            env = std::make_shared<Env>();
        } else {
            env = std::move(free_.back());
            free_.pop_back();
        }
        if (env->slots.size() != slots) env->slots.resize(slots);  // (a frame of the same function: as given)
        env->parent = parent;
        env->facts = facts;
        return env;
    }
    // The frame of a call that returned: kept when nothing else refers to
    // it. Its values are released now, as they would be with the frame.
    void give(std::shared_ptr<Env>&& env) {
        if (!env || env.use_count() != 1 || free_.size() >= kKept) return;
        emptied(*env);
        free_.push_back(std::move(env));
    }

    // The frame of a call whose arguments are evaluated before it
    // (Evaluator::call_body_code, call_evaluated, call_direct) at call depth
    // `depth` (Runtime::depth, which that call raises before any tg code
    // runs: no two such frames at one depth are alive at once), as take()
    // makes it. The frame kept at that depth is used again: no
    // reference count changes and no list of free frames to pop and push
    // (a tenth of a recursive call's instructions). The reference stays
    // valid until release(it).
    [[gnu::always_inline]] std::shared_ptr<Env>& take_at(size_t depth, const FunctionFacts* facts,
                                                          const std::shared_ptr<Env>& parent, size_t slots) {
        std::shared_ptr<Env>& env = at_depth(depth);
        if (!env) [[unlikely]] env = std::make_shared<Env>();
        if (env->slots.size() != slots) env->slots.resize(slots);
        env->parent = parent;
        env->facts = facts;
        return env;
    }
    // That call returned: its values released now; the frame kept for the
    // next call at that depth, unless something else (a closure) holds it.
    [[gnu::always_inline]] static void release(std::shared_ptr<Env>& env) {
        if (env.use_count() != 1) {
            env.reset();  // (the closure's now)
            return;
        }
        emptied(*env);
    }

private:
    // A finished call's frame as a new one: its values released now, as
    // they would be with the frame, every slot undefined, the size kept.
    [[gnu::always_inline]] static void emptied(Env& env) {
        for (Value& v : env.slots) {
            v.~Value();
            new (&v) Value();
        }
        env.parent.reset();
        env.facts = nullptr;
        env.traced = false;
    }
    static constexpr size_t kKept = 64;  // recursion deeper than this allocates again
    std::vector<std::shared_ptr<Env>> free_;
    // The frames kept per depth, in blocks that never move (a frame's
    // reference outlives deeper calls, which may add blocks).
    static constexpr size_t kBlock = 64;
    using Block = std::array<std::shared_ptr<Env>, kBlock>;
    std::vector<std::unique_ptr<Block>> by_depth_;
    std::shared_ptr<Env>& at_depth(size_t depth) {
        const size_t b = depth / kBlock;
        if (b >= by_depth_.size()) [[unlikely]] add_blocks(b);
        return (*by_depth_[b])[depth % kBlock];
    }
    [[gnu::noinline]] void add_blocks(size_t b) {
        while (b >= by_depth_.size()) by_depth_.push_back(std::make_unique<Block>());
    }
};

}  // namespace tg::interp
