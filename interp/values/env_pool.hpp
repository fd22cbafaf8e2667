// Frames (Env) of finished calls, kept for the next call.
//
// Every call of a tg function needs an Env: its local slots, shared so that
// a closure made in the call can keep it alive. Making one per call (a
// shared_ptr's block and the slots' vector) was a third of a recursive
// function's time (docs/performance.md "Ordinary programs"); a frame from
// the pool comes with its slots' capacity. A frame returns to the pool only
// when nothing else refers to it: a closure that outlives its call keeps
// its frame for itself.
#pragma once

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
        for (Value& v : env->slots) {  // undefined again, the size kept for the next call
            v.~Value();
            new (&v) Value();
        }
        env->parent.reset();
        env->facts = nullptr;
        env->traced = false;
        free_.push_back(std::move(env));
    }

private:
    static constexpr size_t kKept = 64;  // recursion deeper than this allocates again
    std::vector<std::shared_ptr<Env>> free_;
};

}  // namespace tg::interp
