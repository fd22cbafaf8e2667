// A file_root raced from another thread (docs/embedding.md "Files"): while
// one thread swaps a folder inside the root with a symlink leading out of
// it (renameat2 RENAME_EXCHANGE, so the name always exists), the other
// calls load and save through that folder thousands of times. Not one load
// may return the outside file, not one save may write outside, and no
// temporary file may be left outside.
//
// usage: paths_race_host [ITERATIONS]    exit 0: no escape
#include <tg/tg.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

size_t files_in(const fs::path& dir) {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
    return n;
}

}  // namespace

int main(int argc, char** argv) {
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 3000;
    char tmpl[] = "/tmp/tg-race-XXXXXX";
    const fs::path base = mkdtemp(tmpl);
    const fs::path root = base / "root", outside = base / "outside";
    fs::create_directories(root / "d");
    fs::create_directories(outside);
    fs::create_directory_symlink(outside, root / "link");  // leads out

    tg::Options o;
    o.file_root = root.string();
    tg::Interpreter interp(o);
    // the same file name inside (value 1) and outside (value 666)
    interp.run_source("save('d/x.npy', tensor([1.0]))\n");
    {
        tg::Options any;
        tg::Interpreter free_interp(any);
        free_interp.run_source("save('" + (outside / "x.npy").string() + "', tensor([666.0]))\n");
    }
    const size_t outside_files = files_in(outside);

    std::atomic<bool> stop{false};
    std::atomic<long> swaps{0};
    std::thread swapper([&] {
        const std::string d = (root / "d").string(), l = (root / "link").string();
        while (!stop.load()) {
            if (::renameat2(AT_FDCWD, d.c_str(), AT_FDCWD, l.c_str(), RENAME_EXCHANGE) == 0) ++swaps;
        }
    });

    long escapes = 0, loads_ok = 0, saves_ok = 0, refused = 0;
    for (int i = 0; i < iterations; ++i) {
        try {
            interp.run_source("y = load('d/x.npy')\n");
            if (interp.get("y").as_tensor().item() != 1.0) ++escapes;
            ++loads_ok;
        } catch (const tg::Error&) {
            ++refused;  // "outside the file root", "no such file": both fine
        }
        try {
            interp.run_source("save('d/s.npy', tensor([2.0]))\n");
            ++saves_ok;
        } catch (const tg::Error&) {
            ++refused;
        }
    }
    stop.store(true);
    swapper.join();

    const size_t written_outside = files_in(outside) - outside_files;
    std::string outside_value;
    {
        tg::Options any;
        tg::Interpreter check(any);
        check.run_source("v = load('" + (outside / "x.npy").string() + "')\n");
        outside_value = check.get("v").str();
    }
    std::printf("%d iterations, %ld swaps: %ld loads and %ld saves done, %ld refused; %ld escapes, %zu files written "
                "outside, outside x.npy = %s\n",
                iterations, swaps.load(), loads_ok, saves_ok, refused, escapes, written_outside, outside_value.c_str());
    fs::remove_all(base);
    const bool ok = escapes == 0 && written_outside == 0 && outside_value == "[666.0]" && swaps.load() > 0 &&
                    loads_ok > 0 && saves_ok > 0;
    return ok ? 0 : 1;
}
