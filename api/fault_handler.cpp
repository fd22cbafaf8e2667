// tg::install_fault_handler (include/tg/tg.hpp): the handlers of the fatal
// signals, modelled on Python's faulthandler — an alternate signal stack,
// the report written with write(2) only (interp/fault_report.hpp), then the
// signal given back to the handler that was there before and raised again,
// so that the process dies of it as it would have.
#include <tg/tg.hpp>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "interp/fault_report.hpp"
#include "interp/runtime.hpp"

namespace tg {

namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr size_t kCount = std::size(kFatalSignals);

// What the handler needs. A signal's disposition is the process's, so is
// this (the one exception to "no global state": a signal handler reaches
// nothing else); install_fault_handler writes it before the handlers exist.
struct Installed {
    bool done = false;
    struct sigaction previous[kCount];
    void (*flush_output)() = nullptr;
};
Installed installed;

// The memory of this thread's alternate signal stack; kept reachable (for
// LeakSanitizer) as long as the thread may fault.
thread_local void* alt_stack = nullptr;

void flush_stdout() {
    // Another thread writing holds the lock: its output may be lost, the
    // report must not wait for it.
    if (::ftrylockfile(stdout) != 0) return;
    std::fflush(stdout);
    ::funlockfile(stdout);
}

void on_fatal_signal(int sig, siginfo_t*, void*) {
    const int saved_errno = errno;
    // Give every signal back first: a fault while reporting ends the process
    // as it would have without this handler.
    for (size_t i = 0; i < kCount; ++i) sigaction(kFatalSignals[i], &installed.previous[i], nullptr);
    if (installed.flush_output) installed.flush_output();
    else flush_stdout();
    interp::Runtime* rt = interp::Runtime::running_on_this_thread();
    interp::write_fault_report(STDERR_FILENO, sig, rt ? rt->frames : nullptr, version());
    errno = saved_errno;
    // Pending until this handler returns (the signal is blocked in it), then
    // delivered to the previous disposition; a hardware fault would also
    // recur on the faulting instruction.
    raise(sig);
}

// The calling thread's alternate signal stack, unless it has one (a
// sanitizer's, a host's): the handler can run when the fault is a stack overflow.
void ensure_alt_stack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    const size_t size = std::max<size_t>(SIGSTKSZ, size_t{64} << 10);
    void* memory = std::malloc(size);
    if (!memory) return;
    stack_t ss{};
    ss.ss_sp = memory;
    ss.ss_size = size;
    if (sigaltstack(&ss, nullptr) == 0) alt_stack = memory;
    else std::free(memory);
}

}  // namespace

void install_fault_handler(void (*flush_output)()) {
    ensure_alt_stack();
    installed.flush_output = flush_output;
    if (installed.done) return;
    struct sigaction sa {};
    sa.sa_sigaction = on_fatal_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < kCount; ++i) sigaction(kFatalSignals[i], &sa, &installed.previous[i]);
    installed.done = true;
}

}  // namespace tg
