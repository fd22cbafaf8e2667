// What a script may touch: the module loader callback (Options::load_module)
// and the one path check of the file builtins (interp::check_file_path):
// each way out of file_root is an error.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "stdlib/file_open.hpp"
#include "stdlib/npy.hpp"

#include <zlib.h>

namespace fs = std::filesystem;

namespace {

// A fresh folder tree: base/root (the file root, with data.txt, sub/, an
// inner symlink) and base/outside (secret.txt), plus symlinks leading out.
struct Tree {
    fs::path base, root, outside;
    Tree() {
        char tmpl[] = "/tmp/tg-files-XXXXXX";
        base = mkdtemp(tmpl);
        root = base / "root";
        outside = base / "outside";
        fs::create_directories(root / "sub");
        fs::create_directories(outside);
        std::ofstream(root / "data.txt") << "1 2 3\n";
        std::ofstream(root / "sub" / "inner.txt") << "4\n";
        std::ofstream(outside / "secret.txt") << "secret\n";
        fs::create_symlink(outside / "secret.txt", root / "link_out");  // a file symlink leading out
        fs::create_directory_symlink(outside, root / "dir_out");        // a folder symlink leading out
        fs::create_symlink("sub/inner.txt", root / "link_in");          // stays inside
        fs::create_symlink(outside / "new.txt", root / "dangling");     // leads nowhere (yet), outside
    }
    ~Tree() { fs::remove_all(base); }
    tg::interp::Options options() const {
        tg::interp::Options o;
        o.file_root = root.string();
        return o;
    }
};

std::string check(const tg::interp::Options& o, const std::string& p) { return tg::interp::check_file_path(o, p); }

// The message of the error check_file_path throws ("" if none).
std::string error_of(const tg::interp::Options& o, const std::string& p) {
    try {
        tg::interp::check_file_path(o, p);
    } catch (const tg::interp::Error& e) {
        return e.message();
    }
    return "";
}

}  // namespace

TEST_CASE("file root: paths inside are allowed and resolved") {
    Tree t;
    auto o = t.options();
    const std::string root = fs::canonical(t.root).string();
    CHECK(check(o, "data.txt") == root + "/data.txt");
    CHECK(check(o, "sub/inner.txt") == root + "/sub/inner.txt");
    CHECK(check(o, "sub/../data.txt") == root + "/data.txt");
    CHECK(check(o, "new_file.npy") == root + "/new_file.npy");  // to be created by save
    CHECK(check(o, (t.root / "data.txt").string()) == root + "/data.txt");
    CHECK(check(o, "link_in") == root + "/sub/inner.txt");
    // without a root, a path is used as given
    tg::interp::Options any;
    CHECK(check(any, "../anything") == "../anything");
}

TEST_CASE("file root: every escape is an error") {
    Tree t;
    auto o = t.options();
    auto outside = [&](const std::string& p) {
        CAPTURE(p);
        CHECK(error_of(o, p).find("outside the file root") != std::string::npos);
    };
    outside("/etc/passwd");                                 // an absolute path elsewhere
    outside((t.outside / "secret.txt").string());
    outside("../outside/secret.txt");                       // ..
    outside("sub/../../outside/secret.txt");
    outside("nonexistent/../../outside/secret.txt");        // .. through a folder that does not exist
    outside("..");
    outside("link_out");                                    // a symlink that leads out
    outside("dir_out/secret.txt");                          // through a folder symlink that leads out
    outside("dir_out/new.txt");
    outside("dangling");                                    // a symlink that leads nowhere (save would create outside)
    // the root's own name as a prefix is not inside: root2 is not under root
    fs::create_directories(t.base / "root2");
    outside("../root2/x");
}

TEST_CASE("allow_files = false makes every file an error") {
    tg::interp::Options o;
    o.allow_files = false;
    CHECK(error_of(o, "data.txt").find("files are disabled") != std::string::npos);
    tg::interp::Options e;
    CHECK(error_of(e, "") == "the file name is empty");
}

TEST_CASE("module loader: a host serves modules from memory") {
    std::map<std::string, std::string> modules = {
        {"util", "def twice(x):\n    return x * 2\n"},
        {"deep", "import util\nval = util.twice(21)\n"},
        {"broken", "def f(:\n"},
    };
    std::vector<std::string> asked;
    std::string out;
    tg::Options o;
    o.write_output = [&](std::string_view s) { out += s; };
    o.load_module = [&](const std::string& name, const std::string& importer) -> std::optional<tg::ModuleSource> {
        asked.push_back(name + "<" + importer);
        if (name == "forbidden") throw tg::HostError("not allowed here");
        auto it = modules.find(name);
        if (it == modules.end()) return std::nullopt;
        return tg::ModuleSource{"mem/" + name + ".tg", it->second};
    };
    tg::Interpreter interp(o);
    interp.run_source("import deep\nimport util\nprint(deep.val, util.twice(1))\n", "main.tg");
    CHECK(out == "42 2\n");
    // each module loaded once; the importer's path is the module's path
    CHECK(asked == std::vector<std::string>{"deep<", "util<mem/deep.tg", "util<"});
    try {
        interp.run_source("x = 1\nimport nothere\n", "main.tg");
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.message() == "no module named `nothere`");
        CHECK(e.line() == 2);
    }
    CHECK_THROWS_WITH_AS(interp.run_source("import forbidden\n"), doctest::Contains("not allowed here"), tg::Error);
    try {
        interp.run_source("import broken\n", "main.tg");
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.file() == "mem/broken.tg");
    }
    out.clear();
    interp.run_source("print(util.twice(5))\n");
    CHECK(out == "10\n");
}

TEST_CASE("module loader: the file system loader is the default") {
    Tree t;
    std::ofstream(t.root / "helper.tg") << "k = 7\n";
    tg::Options o;
    std::string out;
    o.write_output = [&](std::string_view s) { out += s; };
    o.load_module = tg::file_module_loader({t.root.string()}, false);
    tg::Interpreter interp(o);
    interp.run_source("import helper\nprint(helper.k)\n");
    CHECK(out == "7\n");
    const std::string expected = "no module named `nope` (looked for nope.tg in ., " + t.root.string() + ")";
    try {
        interp.run_source("import nope\n");
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.message() == expected);
    }
}

namespace {

// Runs `code` in an interpreter whose file root is t.root; returns the error
// message ("" if it ran), with the output in `out`.
std::string run_in_root(const Tree& t, const std::string& code, std::string* out = nullptr) {
    tg::Options o;
    o.file_root = t.root.string();
    o.write_output = [out](std::string_view s) {
        if (out) *out += s;
    };
    tg::Interpreter interp(o);
    try {
        interp.run_source(code, "files.tg");
    } catch (const tg::Error& e) {
        return e.message();
    }
    return "";
}

}  // namespace

TEST_CASE("load, save, loadtxt: inside the file root they work") {
    Tree t;
    std::ofstream(t.root / "table.csv") << "1,2\n3,4\n";
    std::string out;
    CHECK(run_in_root(t,
                      "save(\"w.npy\", tensor([1.5, 2.5]))\n"
                      "save(\"sub/p.npz\", {\"w\": load(\"w.npy\")})\n"
                      "print(load(\"sub/p.npz\")[\"w\"], loadtxt(\"table.csv\").shape)\n",
                      &out) == "");
    CHECK(out == "[1.5, 2.5] (2, 2)\n");
    CHECK(fs::exists(t.root / "w.npy"));
    CHECK(fs::exists(t.root / "sub" / "p.npz"));
}

TEST_CASE("load, save, loadtxt: every way out of the file root is an error") {
    Tree t;
    // something valid to read just outside, so only the path check can refuse it
    std::ofstream(t.outside / "x.csv") << "1,2\n";
    fs::create_symlink(t.outside / "x.csv", t.root / "csv_out");
    fs::create_symlink(t.outside / "new.npy", t.root / "dangling.npy");  // save would create outside
    const std::string abs_outside = (t.outside / "x.csv").string();
    const std::vector<std::string> calls = {
        "load(\"../outside/x.npy\")",
        "load(\"" + (t.outside / "x.npy").string() + "\")",
        "load(\"dir_out/x.npy\")",
        "save(\"../outside/new.npy\", 1)",
        "save(\"" + (t.outside / "new.npz").string() + "\", {\"a\": 1})",
        "save(\"dir_out/new.npy\", 1)",
        "save(\"dangling.npy\", 1)",
        "loadtxt(\"../outside/x.csv\")",
        "loadtxt(\"" + abs_outside + "\")",
        "loadtxt(\"csv_out\")",
        "loadtxt(\"dir_out/x.csv\")",
        // the dataset formats go through the same opener
        "load(\"../outside/x.npy.gz\")",
        "load(\"dir_out/train-images-idx3-ubyte.gz\")",
        "load(\"" + (t.outside / "t10k-labels-idx1-ubyte").string() + "\")",
        "loadtxt(\"../outside/x.csv.gz\")",
    };
    for (const std::string& call : calls) {
        CAPTURE(call);
        const std::string e = run_in_root(t, call + "\n");
        const std::string fn = call.substr(0, call.find('('));
        CHECK(e.rfind(fn + ": ", 0) == 0);
        CHECK(e.find("outside the file root") != std::string::npos);
    }
    // nothing was written outside
    CHECK(!fs::exists(t.outside / "new.npy"));
    CHECK(!fs::exists(t.outside / "new.npz"));
}

TEST_CASE("load, save, loadtxt: allow_files = false refuses them all") {
    tg::Options o;
    o.allow_files = false;
    tg::Interpreter interp(o);
    for (const std::string call : {"load(\"a.npy\")", "save(\"a.npy\", 1)", "loadtxt(\"a.csv\")", "load(\"a-ubyte.gz\")",
                                   "loadtxt(\"a.csv.gz\")"}) {
        CAPTURE(call);
        try {
            interp.run_source(call + "\n", "files.tg");
            FAIL("no error");
        } catch (const tg::Error& e) {
            CHECK(e.message() == call.substr(0, call.find('(')) +
                                     ": files are disabled in this interpreter (allow_files = false)");
            CHECK(e.line() == 1);
            CHECK(e.col() == 1);
        }
    }
}

TEST_CASE("load and loadtxt: what a valid file needs counts against the memory limit") {
    Tree t;
    CHECK(run_in_root(t, "save(\"big.npy\", zeros((100000,), dtype=f64))\n") == "");
    {
        std::ofstream csv(t.root / "big.csv");
        for (int i = 0; i < 20000; ++i) csv << i << "," << i << "\n";
    }
    tg::Options o;
    o.file_root = t.root.string();
    o.max_memory_bytes = 64 * 1024;
    tg::Interpreter interp(o);
    for (const std::string call : {"load(\"big.npy\")", "loadtxt(\"big.csv\")"}) {
        CAPTURE(call);
        try {
            interp.run_source("x = " + call + "\n", "files.tg");
            FAIL("no error");
        } catch (const tg::Error& e) {
            CHECK(e.message().find("memory limit exceeded") != std::string::npos);
            CHECK(e.col() == 5);
        }
    }
    // still usable: a small file loads (the text read counts while it is parsed)
    std::ofstream(t.root / "small.csv") << "1,2\n";
    interp.run_source("y = loadtxt(\"small.csv\")\n", "files.tg");
}

TEST_CASE("save: a read-only file is refused, a writable one keeps its mode") {
    Tree t;
    CHECK(run_in_root(t, "save('ro.npy', tensor([1.0]))\nsave('rw.npy', tensor([1.0]))\n") == "");
    fs::permissions(t.root / "ro.npy", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    fs::permissions(t.root / "rw.npy", fs::perms::owner_read | fs::perms::owner_write);
    const std::string e = run_in_root(t, "save('ro.npy', tensor([2.0]))\n");
    CHECK(e == "save: 'ro.npy': cannot write: the file is read-only (its mode has no write permission)");
    std::string out;
    CHECK(run_in_root(t, "save('rw.npy', tensor([2.0]))\nprint(load('ro.npy'), load('rw.npy'))\n", &out) == "");
    CHECK(out == "[1.0] [2.0]\n");
    CHECK(fs::status(t.root / "rw.npy").permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    // nothing left beside them
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(t.root)) files += e.path().extension() == ".tmp" ? 1 : 0;
    CHECK(files == 0);
}

TEST_CASE("file root opener: each component is resolved inside the root") {
    Tree t;
    auto error_of_open = [](const tg::stdlib::FileRoot& r, const std::string& p) -> std::string {
        try {
            r.open_for_reading(p);
        } catch (const tg::stdlib::FileError& e) {
            return e.what();
        }
        return "";
    };
    for (bool use_openat2 : {true, false}) {
        CAPTURE(use_openat2);
        const tg::stdlib::FileRoot r(t.root.string(), use_openat2);
        CHECK(r.open_for_reading("data.txt").size == 6);
        CHECK(r.open_for_reading("sub/inner.txt").size == 2);
        CHECK(error_of_open(r, "../outside/secret.txt") == "it leads outside the file root");
        CHECK(error_of_open(r, (t.outside / "secret.txt").string()) == "it leads outside the file root");
        CHECK(error_of_open(r, "sub") == "it is a folder");
        CHECK(error_of_open(r, "missing.txt") == "cannot open: No such file or directory");
        if (use_openat2) {
            // symlinks are followed while they stay inside
            CHECK(r.open_for_reading("link_in").size == 2);
            CHECK(error_of_open(r, "link_out") == "it leads outside the file root");
            CHECK(error_of_open(r, "dir_out/secret.txt") == "it leads outside the file root");
        } else {
            // the walk of old kernels follows no symlink at all
            for (const char* p : {"link_in", "link_out", "dir_out/secret.txt"}) {
                CAPTURE(p);
                CHECK(error_of_open(r, p).find("symlink") != std::string::npos);
            }
        }
    }
}

TEST_CASE("load: a member past the memory limit (a zip bomb) names the file and the member") {
    Tree t;
    CHECK(run_in_root(t, "save('big.npz', {'a': zeros((3000000,))})\n") == "");  // 12 MB
    tg::Options o;
    o.file_root = t.root.string();
    o.max_memory_bytes = 8 << 20;
    tg::Interpreter interp(o);
    try {
        interp.run_source("x = load('big.npz')\n");
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.message().rfind("load: 'big.npz': member 'a.npy': memory limit exceeded", 0) == 0);
    }
}

TEST_CASE("load: a gzip bomb past the memory limit is an error at the call, before it is all in memory") {
    Tree t;
    {
        // 64 MiB of zeros in ~64 KiB, as a .npy whose header says so: only the memory limit stops it
        gzFile gz = gzopen((t.root / "bomb.npy.gz").c_str(), "wb9");
        REQUIRE(gz);
        const std::string header = tg::stdlib::npy_header(tg::stdlib::DType::F64, tg::stdlib::Shape{8 << 20});
        gzwrite(gz, header.data(), static_cast<unsigned>(header.size()));
        const std::string zeros(1 << 20, '\0');
        for (int i = 0; i < 64; ++i) gzwrite(gz, zeros.data(), static_cast<unsigned>(zeros.size()));
        gzclose(gz);
    }
    CHECK(fs::file_size(t.root / "bomb.npy.gz") < (size_t{256} << 10));
    tg::Options o;
    o.file_root = t.root.string();
    o.max_memory_bytes = 8 << 20;
    tg::Interpreter interp(o);
    try {
        interp.run_source("x = 1\ny = load('bomb.npy.gz')\n", "bomb.tg");
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.message().rfind("load: 'bomb.npy.gz': memory limit exceeded: decompressing it (", 0) == 0);
        CHECK(e.message().find("would pass max_memory_bytes = 8.0 MiB") != std::string::npos);
        CHECK(e.line() == 2);
        CHECK(e.col() == 5);
    }
    CHECK(interp.memory_bytes() < (1 << 20));  // all given back
}
