#include "cli/kernel/kernel_main.hpp"

#include "cli/kernel/kernel_interpreter.hpp"

#include <xeus/xkernel.hpp>
#include <xeus/xkernel_configuration.hpp>
#include <xeus/xserver_zmq.hpp>

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <thread>

namespace tg::kernel {

namespace {

// Jupyter interrupts a kernel with SIGINT (kernel.json's interrupt_mode
// "signal"). SIGINT is blocked in every thread (xeus's threads inherit the
// mask) and taken by one thread with sigwait: no handler interrupts ZeroMQ's
// poll (which would throw), and the flag needs no global. The running code
// stops at its next check (tg::Options::interrupt: within milliseconds, also
// in compiled loops).
void take_interrupts(std::atomic<bool>* flag) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set, flag] {
        for (;;) {
            int sig = 0;
            if (sigwait(&set, &sig) == 0 && sig == SIGINT) flag->store(true);
        }
    }).detach();
}

}  // namespace

int run_kernel(const std::string& connection_file, Options options) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(connection_file, ec)) {
        std::fprintf(stderr, "tg: kernel: cannot read the connection file '%s'\n", connection_file.c_str());
        return 2;
    }
    // it lives as long as the process: the signal thread and the interpreter keep it
    static std::atomic<bool> interrupt{false};
    take_interrupts(&interrupt);
    try {
        xeus::xconfiguration config = xeus::load_configuration(connection_file);
        auto interp = std::make_unique<KernelInterpreter>(std::move(options), &interrupt);
        auto context = xeus::make_context<zmq::context_t>();
        xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interp),
                             xeus::make_xserver_zmq);
        kernel.start();
        // Shut down (start returns after shutdown_request): end here, as `tg
        // run` ends (cli/main.cpp), without destroying the kernel. Its
        // destructor tore down ZeroMQ and the interpreter while xeus's
        // threads and a background compile could still run: now and then a
        // SIGSEGV on one of those threads after the last cell.
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(0);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tg: kernel: %s\n", e.what());
        return 1;
    }
}

}  // namespace tg::kernel
