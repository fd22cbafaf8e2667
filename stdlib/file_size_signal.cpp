#include "stdlib/file_size_signal.hpp"

#include <csignal>
#include <ctime>
#include <pthread.h>

namespace tg::stdlib {

namespace {

sigset_t only_sigxfsz() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGXFSZ);
    return s;
}

bool sigxfsz_pending() {
    sigset_t p;
    sigemptyset(&p);
    return sigpending(&p) == 0 && sigismember(&p, SIGXFSZ) == 1;
}

}  // namespace

FileSizeSignalGuard::FileSizeSignalGuard() {
    const sigset_t s = only_sigxfsz();
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &s, &old);
    was_blocked_ = sigismember(&old, SIGXFSZ) == 1;
    // a SIGXFSZ the host left pending is the host's: never consume it
    was_pending_ = was_blocked_ && sigxfsz_pending();
}

FileSizeSignalGuard::~FileSizeSignalGuard() {
    const sigset_t s = only_sigxfsz();
    if (!was_pending_ && sigxfsz_pending()) {
        // raised by our write (the kernel sends it to the writing thread): take it
        const timespec now{0, 0};
        (void)sigtimedwait(&s, nullptr, &now);
    }
    if (!was_blocked_) pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
}

}  // namespace tg::stdlib
