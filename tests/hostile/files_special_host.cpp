// Special files and bad host calls must end in a tg::Error, never block,
// read without bound or crash the host (docs/embedding.md "Files"): a FIFO,
// a folder and /dev/zero given to load, loadtxt and tg::Graph::load (with
// and without a file_root), and Tensor::from_floats with a span shorter
// than its shape. Each case runs in a child process so that a crash or a
// hang is seen as such (the parent kills a child stuck for 20 s).
//
// usage: files_special_host    exit 0: every case a clean tg::Error
#include <tg/tg.hpp>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr int kHangSeconds = 20;  // generous: each case takes milliseconds when it is right

// Runs `body` in a child; true if it returned a tg::Error whose message has `expected`.
bool refused(const std::string& name, const std::string& expected, const std::function<void()>& body) {
    std::fflush(stdout);
    const pid_t child = ::fork();
    if (child == 0) {
        ::alarm(kHangSeconds);  // a blocked open() or read() dies of SIGALRM
        try {
            body();
            std::printf("  %s: no error\n", name.c_str());
            std::_Exit(3);
        } catch (const tg::Error& e) {
            const bool ok = e.message().find(expected) != std::string::npos;
            std::printf("  %s: %s\n", name.c_str(), e.message().c_str());
            std::fflush(stdout);
            std::_Exit(ok ? 0 : 4);
        } catch (const std::exception& e) {
            std::printf("  %s: not a tg::Error: %s\n", name.c_str(), e.what());
            std::fflush(stdout);
            std::_Exit(5);
        }
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) {
        std::printf("FAIL %s: killed by signal %d%s\n", name.c_str(), WTERMSIG(status),
                    WTERMSIG(status) == SIGALRM ? " (it blocked)" : "");
        return false;
    }
    if (WEXITSTATUS(status) != 0) {
        std::printf("FAIL %s: exit %d (expected a tg::Error with \"%s\")\n", name.c_str(), WEXITSTATUS(status),
                    expected.c_str());
        return false;
    }
    return true;
}

void run(const fs::path& root, bool confined, const std::string& code) {
    tg::Options o;
    if (confined) o.file_root = root.string();
    tg::Interpreter interp(o);
    interp.run_source(code, "special.tg");
}

}  // namespace

int main() {
    char tmpl[] = "/tmp/tg-special-XXXXXX";
    const fs::path root = mkdtemp(tmpl);
    ::mkfifo((root / "fifo.npy").c_str(), 0600);
    ::mkfifo((root / "fifo.npz").c_str(), 0600);
    ::mkfifo((root / "fifo.csv").c_str(), 0600);
    ::mkfifo((root / "fifo.tgx").c_str(), 0600);
    fs::create_directories(root / "folder.tgx");
    fs::create_directories(root / "folder.npy");
    fs::create_symlink("/dev/zero", root / "zero.npy");  // leads out: refused inside a root anyway

    int failures = 0;
    auto expect = [&](const std::string& name, const std::string& expected, const std::function<void()>& body) {
        if (!refused(name, expected, body)) ++failures;
    };
    for (bool confined : {true, false}) {
        const std::string p = confined ? "" : root.string() + "/";
        const std::string tag = confined ? " (file_root)" : "";
        expect("load fifo.npy" + tag, "FIFO", [&] { run(root, confined, "load('" + p + "fifo.npy')\n"); });
        expect("load fifo.npz" + tag, "FIFO", [&] { run(root, confined, "load('" + p + "fifo.npz')\n"); });
        expect("load fifo.tgx" + tag, "FIFO", [&] { run(root, confined, "load('" + p + "fifo.tgx')\n"); });
        expect("loadtxt fifo.csv" + tag, "FIFO", [&] { run(root, confined, "loadtxt('" + p + "fifo.csv')\n"); });
        expect("load folder.npy" + tag, "folder", [&] { run(root, confined, "load('" + p + "folder.npy')\n"); });
    }
    expect("loadtxt /dev/zero", "device", [&] { run(root, false, "loadtxt('/dev/zero')\n"); });
    expect("load /dev/zero via a symlink", "", [&] { run(root, false, "load('" + (root / "zero.npy").string() + "')\n"); });
    expect("Graph::load fifo", "FIFO", [&] { tg::Graph::load((root / "fifo.tgx").string()); });
    expect("Graph::load folder", "folder", [&] { tg::Graph::load((root / "folder.tgx").string()); });
    expect("Graph::load /dev/zero", "device", [&] { tg::Graph::load("/dev/zero"); });
    expect("Graph::load missing", "No such file", [&] { tg::Graph::load((root / "missing.tgx").string()); });
    expect("from_floats span of 1, shape 50000000", "50000000 elements", [&] {
        const float one[1] = {1.0f};
        tg::Tensor::from_floats(one, {50000000});
    });
    expect("from_floats span of 6, shape (2, 2)", "4 elements", [&] {
        const float six[6] = {};
        tg::Tensor::from_floats(six, {2, 2});
    });
    fs::remove_all(root);
    std::printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
