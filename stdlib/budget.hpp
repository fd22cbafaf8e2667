// The host's limits as the runtime's inner loops see them (docs/embedding.md): the bytes
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
// Lists, tuples, dicts and strings are charged too, approximately: a
// container its slots (capacity x sizeof(Value)), a string its characters
// (Charge, below). A builtin that builds a big one checks the size first
// (Budget::fits), so the limit refuses it before it is allocated.
//
// poll_limits() is the check of the interrupt flag and the deadline: the
// evaluator calls it at every op dispatch, the graph interpreter at every
// node, compiled code at every runtime call and (in batches sized to ~1 ms)
// at loop back edges. Builtins that loop over elements call spend_work(n)
// with the work they are about to do (elements or bytes): the budget keeps
// one counter per interpreter and reads the clock once per kWorkQuantum
// units, however the work is split between calls — so the limits act by
// elapsed time, not by a count of calls. Both cost a thread-local load and a
// compare when the host set neither.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
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
    // An attached debugger's pause request (docs/debugging.md "Pause"): when
    // set, check() calls on_pause, which stops the program where it is —
    // also inside compiled code — and returns when it goes on.
    const std::atomic<bool>* pause = nullptr;
    std::function<void()> on_pause;

    int64_t used() const { return used_.load(std::memory_order_relaxed); }
    // Charges `bytes` or throws LimitError (nothing charged) if that passes
    // max_bytes; `what` names the allocation in the message.
    void charge(size_t bytes, const char* what = "a tensor");
    void credit(size_t bytes) { used_.fetch_sub(static_cast<int64_t>(bytes), std::memory_order_relaxed); }

    // Throws the memory limit's error if `bytes` more would pass max_bytes
    // (nothing charged): the check before a big list or string is built.
    void check_fits(size_t bytes, const char* what) const;

    bool watched() const { return interrupt != nullptr || deadline_ns != 0 || pause != nullptr; }
    // Throws LimitError("interrupted") or the time limit's error.
    void check() const;
    // `units` of work (elements or bytes) about to be done: checks the limits
    // once per kWorkQuantum units (see above).
    static constexpr int64_t kWorkQuantum = int64_t(1) << 16;
    void spend(int64_t units) {
        work_left_ -= units;
        if (work_left_ < 0) [[unlikely]] {
            work_left_ = kWorkQuantum;
            check();
        }
    }

    // ---- the cache of freed large mappings (stdlib/mapping_cache.hpp),
    // per interpreter: buffers charged to this budget give their mapping
    // back here; trimmed when the interpreter is idle and emptied when it is
    // destroyed (closed: later frees unmap at once).
    class MappingCache& mappings() { return *mappings_; }
    void trim_mappings(size_t keep_bytes);
    void close_mappings();

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
    Budget();
    ~Budget();
    std::atomic<int64_t> used_{0};
    int64_t work_left_ = kWorkQuantum;  // only the running thread touches it
    class MappingCache* mappings_;
    std::atomic<int32_t> refs_{1};
    static thread_local Budget* current_;
};

// The interrupt and deadline check (see above).
inline void poll_limits() {
    const Budget* b = Budget::current();
    if (b && b->watched()) b->check();
}

// `units` of work about to be done by a builtin (see above).
inline void spend_work(int64_t units) {
    Budget* b = Budget::current();
    if (b && b->watched()) b->spend(units);
}

// The memory limit's check before building a list or string of `bytes`.
inline void check_fits(size_t bytes, const char* what) {
    if (const Budget* b = Budget::current(); b && b->max_bytes > 0) b->check_fits(bytes, what);
}

// The charge of one list, tuple, dict or string (see above): held by the
// object, given back to the same budget when it is destroyed (on any thread,
// also after the interpreter is gone). Charged to the current budget; none
// (free) outside a run.
//
// Only an interpreter with a memory limit counts them (with none, a Charge
// costs one thread-local load).
class Charge {
public:
    Charge() = default;
    Charge(const Charge& o) { set(o.bytes_, o.what_); }  // a copy is charged anew
    Charge(Charge&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_), what_(o.what_) {
        o.budget_ = nullptr;
        o.bytes_ = 0;
    }
    Charge& operator=(const Charge& o) {
        if (this != &o) set(o.bytes_, o.what_);
        return *this;
    }
    Charge& operator=(Charge&& o) noexcept {
        if (this == &o) return *this;
        clear();
        budget_ = o.budget_;
        bytes_ = o.bytes_;
        what_ = o.what_;
        o.budget_ = nullptr;
        o.bytes_ = 0;
        return *this;
    }
    ~Charge() { clear(); }
    // Charges `bytes` in place of the current charge (throws LimitError,
    // keeping the old charge, when the difference passes the limit).
    void set(size_t bytes, const char* what) {
        what_ = what;
        if (bytes == bytes_) return;
        if (!budget_) {
            Budget* b = Budget::current();
            if (!b || b->max_bytes <= 0) return;
            budget_ = b;
            budget_->retain();
        }
        if (bytes > bytes_) budget_->charge(bytes - bytes_, what);
        else budget_->credit(bytes_ - bytes);
        bytes_ = bytes;
    }

private:
    void clear() {
        if (!budget_) return;
        budget_->credit(bytes_);
        budget_->release();
        budget_ = nullptr;
        bytes_ = 0;
    }
    Budget* budget_ = nullptr;
    size_t bytes_ = 0;
    const char* what_ = "a list";
};

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
