// The host's limits as the runtime's inner loops see them (SPEC §8): the bytes
// of tensor data one interpreter holds (max_memory_bytes), a deadline
// (max_seconds) and the host's interrupt flag.
//
// One Budget per interpreter. While the interpreter runs, its Budget is the
// current one of the running thread (Budget::Scope: a thread-local pointer,
// set and restored around each API entry — not global state, two
// interpreters on two threads each see their own). Every Buffer::allocate
// charges the current budget and gives the bytes back to the same budget when
// the buffer is freed, also after the interpreter is gone (a Budget is
// reference-counted). The allocation that would pass max_bytes throws
// LimitError before any memory is taken.
//
// poll_limits() is the check of the interrupt flag and the deadline: the
// evaluator calls it at every op dispatch, the graph interpreter at every
// node, compiled code at every runtime call and (in batches sized to ~1 ms)
// at loop back edges, long builtins every few thousand elements. It costs a
// thread-local load and a compare when the host set neither.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "stdlib/errors.hpp"

namespace tg::stdlib {

// A limit was reached (memory, time, interrupt). An OpError, so that every
// layer locates it like an op's error.
struct LimitError : OpError {
    using OpError::OpError;
};

class Budget {
public:
    static Budget* create();  // one reference
    void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release();

    // ---- limits (set by the interpreter before a run)
    int64_t max_bytes = 0;         // 0 = no limit
    int64_t deadline_ns = 0;       // monotonic_ns() time; 0 = none
    double max_seconds = 0;        // for the message
    const std::atomic<bool>* interrupt = nullptr;

    int64_t used() const { return used_.load(std::memory_order_relaxed); }
    // Charges `bytes` or throws LimitError (nothing charged) if that passes
    // max_bytes; `what` names the allocation in the message.
    void charge(size_t bytes, const char* what = "a tensor");
    void credit(size_t bytes) { used_.fetch_sub(static_cast<int64_t>(bytes), std::memory_order_relaxed); }

    bool watched() const { return interrupt != nullptr || deadline_ns != 0; }
    // Throws LimitError("interrupted") or the time limit's error.
    void check() const;

    static Budget* current() { return current_; }
    // Makes `b` current on this thread for the scope (null: none).
    class Scope {
    public:
        explicit Scope(Budget* b) : saved_(current_) { current_ = b; }
        ~Scope() { current_ = saved_; }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        Budget* saved_;
    };

    // A cheap monotonic clock (CLOCK_MONOTONIC_COARSE: a few ns, ~1-4 ms resolution).
    static int64_t monotonic_ns();

private:
    Budget() = default;
    std::atomic<int64_t> used_{0};
    std::atomic<int32_t> refs_{1};
    static thread_local Budget* current_;
};

// The interrupt and deadline check (see above).
inline void poll_limits() {
    const Budget* b = Budget::current();
    if (b && b->watched()) b->check();
}

// Counts `n` units of work in a long builtin loop (str of a big list,
// range(), printing) and polls the limits every 4096 units.
class WorkCounter {
public:
    void add(int64_t n = 1) {
        left_ -= n;
        if (left_ <= 0) {
            left_ = 4096;
            poll_limits();
        }
    }

private:
    int64_t left_ = 4096;
};

std::string human_bytes(size_t bytes);  // "64 MiB"

}  // namespace tg::stdlib
