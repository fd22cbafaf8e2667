// save under a file-size limit (RLIMIT_FSIZE, as `prlimit --fsize` sets):
// the write past the limit is a clean tg::Error ("File too large"), not a
// death by SIGXFSZ; no temporary file is left; a small save still works; and
// the host's signal mask is as it was (docs/embedding.md "Files"). The
// limit is set in a child process, which reports back by its exit status.
//
// usage: files_size_limit_host    exit 0: as described
#include <tg/tg.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <pthread.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

bool sigxfsz_blocked() {
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, nullptr, &now);
    return sigismember(&now, SIGXFSZ) == 1;
}

// The child: 1 MiB file-size limit, then saves under a file_root. Another
// host thread that does not block SIGXFSZ runs meanwhile: the signal of a
// write is the writing thread's, so it must not reach that one either.
int child(const fs::path& root) {
    rlimit r{1 << 20, 1 << 20};
    if (::setrlimit(RLIMIT_FSIZE, &r) != 0) return 10;
    std::atomic<bool> done{false};
    std::thread other([&] {
        while (!done.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    struct Join {
        std::atomic<bool>& done;
        std::thread& t;
        ~Join() {
            done.store(true);
            t.join();
        }
    } join{done, other};
    tg::Options o;
    o.file_root = root.string();
    tg::Interpreter interp(o);
    for (const char* file : {"big.npy", "big.npz"}) {
        try {
            const std::string x = std::string(file).ends_with(".npz") ? "{'a': ones((1000000,))}" : "ones((1000000,))";
            interp.run_source(std::string("save('") + file + "', " + x + ")\n");
            std::printf("  save %s past the limit: no error\n", file);
            return 11;
        } catch (const tg::Error& e) {
            std::printf("  save %s: %s\n", file, e.message().c_str());
            if (e.message().find("File too large") == std::string::npos) return 12;
        }
    }
    if (sigxfsz_blocked()) return 13;  // the guard restored the mask
    interp.run_source("save('small.npy', ones((10,)))\nprint(load('small.npy').shape)\n");
    return 0;
}

}  // namespace

int main() {
    char tmpl[] = "/tmp/tg-fsize-XXXXXX";
    const fs::path root = mkdtemp(tmpl);
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int code = child(root);
        std::fflush(stdout);
        std::_Exit(code);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    int failures = 0;
    if (WIFSIGNALED(status)) {
        std::printf("FAIL: the child died of signal %d%s\n", WTERMSIG(status),
                    WTERMSIG(status) == SIGXFSZ ? " (SIGXFSZ)" : "");
        ++failures;
    } else if (WEXITSTATUS(status) != 0) {
        std::printf("FAIL: the child exited %d\n", WEXITSTATUS(status));
        ++failures;
    }
    for (const auto& e : fs::directory_iterator(root)) {
        const std::string name = e.path().filename().string();
        if (name != "small.npy") {
            std::printf("FAIL: left behind: %s\n", name.c_str());
            ++failures;
        }
    }
    fs::remove_all(root);
    return failures == 0 ? 0 : 1;
}
