// The extent of the calling thread's native stack, so that deep recursion
// (the grammar, the evaluator) becomes a tg error instead of a crash.
#pragma once

#include <cstddef>

namespace tg::lang {

struct StackBounds {
    const char* low = nullptr;  // lowest usable address; null when unknown
    size_t size = 0;
};

// Cached per thread. For the main thread it comes from the stack's end
// (glibc's __libc_stack_end) and RLIMIT_STACK: pthread_getattr_np would read
// /proc/self/maps, ~0.25 ms of every process start.
const StackBounds& stack_bounds();

}  // namespace tg::lang
