#include "lang/stack_bounds.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

extern "C" void* __libc_stack_end;  // glibc: the initial stack pointer of the main thread

namespace tg::lang {

namespace {

StackBounds ask() {
    StackBounds b;
    if (::getpid() == static_cast<pid_t>(::syscall(SYS_gettid))) {
        rlimit rl{};
        if (::getrlimit(RLIMIT_STACK, &rl) == 0 && __libc_stack_end) {
            // an unlimited stack still grows only until it meets another mapping: assume 64 MiB
            const size_t size = rl.rlim_cur == RLIM_INFINITY ? size_t{64} << 20 : static_cast<size_t>(rl.rlim_cur);
            // the environment and arguments sit above __libc_stack_end, inside the same limit
            const size_t usable = size > (size_t{256} << 10) ? size - (size_t{128} << 10) : size / 2;
            b.low = static_cast<const char*>(__libc_stack_end) - usable;
            b.size = usable;
            return b;
        }
    }
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return b;
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr) {
        b.low = static_cast<const char*>(addr);
        b.size = size;
    }
    pthread_attr_destroy(&attr);
    return b;
}

}  // namespace

const StackBounds& stack_bounds() {
    thread_local const StackBounds bounds = ask();
    return bounds;
}

}  // namespace tg::lang
