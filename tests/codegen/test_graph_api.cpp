// tg::Graph (include/tg/tg.hpp): a .tgx file written by `tg export` loaded
// and run from C++ — linked without the interpreter (this executable has
// only tg_codegen and tg_tracer), compiled or on the reference interpreter,
// from 8 threads at once; results equal `tg run`'s bit for bit. A large
// graph run from 4 threads at once, each call split over the process's
// thread pool, gives the one-thread bytes.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

const char* kModel = R"(@graph
def model(x, w, n):
    h = tanh(x @ w)
    i = 0
    while i < n:
        h = h * 0.5 + 1.0 / (i + 1)
        i += 1
    assert n < 100, "too many steps"
    return h, sum(h)

x = reshape(arange(6.0), (2, 3)) / 8.0
w = reshape(arange(12.0), (3, 4)) / 16.0 - 0.5
)";

struct Folder {
    fs::path dir;
    Folder() {
        char tmpl[] = "/tmp/tg-graph-api-XXXXXX";
        dir = mkdtemp(tmpl);
        std::ofstream(dir / "model.tg") << kModel;
    }
    ~Folder() { fs::remove_all(dir); }
    // Runs the tg command in the folder; returns its stdout.
    std::string tg(const std::string& args, int& status) const {
        const std::string cmd = "cd '" + dir.string() + "' && TG_CACHE_DIR='" + (dir / "cache").string() + "' '" + TG_CLI +
                                "' " + args + " 2>&1";
        FILE* p = popen(cmd.c_str(), "r");
        std::string out;
        std::array<char, 4096> buf;
        size_t n;
        while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
        status = pclose(p);
        return out;
    }
};

tg::Tensor inputs_x() {
    std::vector<float> v(6);
    for (int i = 0; i < 6; ++i) v[i] = float(i) / 8.0f;  // exact, as arange(6.0) / 8.0
    return tg::Tensor::from_floats(v, {2, 3});
}
tg::Tensor inputs_w() {
    std::vector<float> v(12);
    for (int i = 0; i < 12; ++i) v[i] = float(i) / 16.0f - 0.5f;  // exact
    return tg::Tensor::from_floats(v, {3, 4});
}

// What `tg run` computes: repr of each output (a 2-D one spans lines), each
// followed by a line `---`, for n = 0..3.
std::vector<std::string> expected(const Folder& f) {
    std::ofstream(f.dir / "check.tg") << kModel
                                      << "for n in range(4):\n    h, s = model(x, w, n)\n"
                                         "    print(repr(h))\n    print(\"---\")\n    print(repr(s))\n    print(\"---\")\n";
    int status = 0;
    std::istringstream out(f.tg("run check.tg", status));
    REQUIRE(status == 0);
    std::vector<std::string> reprs;
    std::string current;
    for (std::string l; std::getline(out, l);) {
        if (l != "---") {
            current += (current.empty() ? "" : "\n") + l;
            continue;
        }
        reprs.push_back(current);
        current.clear();
    }
    REQUIRE(reprs.size() == 8);
    return reprs;
}

std::vector<std::string> reprs(const tg::Graph& g, int64_t n) {
    std::vector<std::string> out;
    for (const tg::Tensor& t : g.run({inputs_x(), inputs_w(), tg::Tensor::scalar(n)})) out.push_back(t.repr());
    return out;
}

}  // namespace

TEST_CASE("tg::Graph: runs a file written by tg export, bit-identical to tg run, from 8 threads") {
    Folder f;
    int status = 0;
    const std::string log = f.tg("export model.tg --function model --args 'f32[2,3] f32[3,4] i64[]' -o model.tgx", status);
    INFO(log);
    REQUIRE(status == 0);
    const std::vector<std::string> want = expected(f);

    for (bool no_jit : {false, true}) {
        tg::GraphOptions o;
        o.no_jit = no_jit;
        o.cache_dir = (f.dir / "cache").string();
        const tg::Graph g = tg::Graph::load((f.dir / "model.tgx").string(), o);
        CHECK(g.name() == "model");
        REQUIRE(g.inputs().size() == 3);
        CHECK(g.inputs()[0].name == "x");
        CHECK(g.inputs()[1].shape == std::vector<int64_t>{3, 4});
        CHECK(g.inputs()[2].dtype == tg::DType::I64);
        REQUIRE(g.outputs().size() == 2);
        CHECK(g.outputs()[0].name == "result[0]");
        CHECK(g.outputs()[1].shape.empty());
        for (int64_t n = 0; n < 4; ++n) {
            const std::vector<std::string> got = reprs(g, n);
            CHECK(got[0] == want[size_t(2 * n)]);
            CHECK(got[1] == want[size_t(2 * n + 1)]);
        }
        // one loaded graph, 8 threads at once, each checking every result
        std::vector<int> wrong(8, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t)
            threads.emplace_back([&, t] {
                for (int k = 0; k < 40; ++k) {
                    const int64_t n = (t + k) % 4;
                    const std::vector<std::string> got = reprs(g, n);
                    if (got[0] != want[size_t(2 * n)] || got[1] != want[size_t(2 * n + 1)]) ++wrong[size_t(t)];
                }
            });
        for (std::thread& t : threads) t.join();
        CHECK(wrong == std::vector<int>(8, 0));
    }
}

TEST_CASE("tg::Graph: a large fused loop and sum on GraphOptions::threads 1 and 3, from 4 threads at once: one result") {
    Folder f;
    std::ofstream(f.dir / "big.tg") << "@graph\ndef big(x):\n    y = tanh(x * 0.5 + 1.0) * sigmoid(x) - x * x\n"
                                       "    return y, (y * 3.0).sum()\n";
    int status = 0;
    const std::string log = f.tg("export big.tg --function big --args 'f32[300007]' -o big.tgx", status);
    INFO(log);
    REQUIRE(status == 0);
    std::vector<float> v(300007);
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(int(i % 2001) - 1000) / 256.0f;
    const tg::Tensor x = tg::Tensor::from_floats(v, {300007});
    auto bytes = [](const std::vector<tg::Tensor>& ys) {
        std::string b;
        for (const tg::Tensor& y : ys) b.append(static_cast<const char*>(y.data()), size_t(y.size()) * (y.dtype() == tg::DType::F32 ? 4 : 8));
        return b;
    };
    tg::GraphOptions one;
    one.cache_dir = (f.dir / "cache").string();
    one.threads = 1;
    const std::string want = bytes(tg::Graph::load((f.dir / "big.tgx").string(), one).run({x}));
    tg::GraphOptions three = one;
    three.threads = 3;
    const tg::Graph g = tg::Graph::load((f.dir / "big.tgx").string(), three);
    std::vector<int> wrong(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int k = 0; k < 10; ++k)
                if (bytes(g.run({x})) != want) ++wrong[size_t(t)];
        });
    for (std::thread& t : threads) t.join();
    CHECK(wrong == std::vector<int>(4, 0));
}

TEST_CASE("tg::Graph: wrong inputs, run-time errors and bad files are tg::Error") {
    Folder f;
    int status = 0;
    f.tg("export model.tg --function model --args 'f32[2,3] f32[3,4] i64[]' -o model.tgx", status);
    REQUIRE(status == 0);
    tg::GraphOptions o;
    o.cache_dir = (f.dir / "cache").string();
    const tg::Graph g = tg::Graph::load((f.dir / "model.tgx").string(), o);
    CHECK_THROWS_WITH(g.run({inputs_x(), inputs_w()}), doctest::Contains("takes 3 inputs but 2 were given"));
    CHECK_THROWS_WITH(g.run({inputs_w(), inputs_w(), tg::Tensor::scalar(int64_t{1})}),
                      doctest::Contains("input `x`: expected shape (2, 3) and dtype f32, given shape (3, 4)"));
    // a failed assert reports the model's source line, from the file alone
    try {
        g.run({inputs_x(), inputs_w(), tg::Tensor::scalar(int64_t{200})});
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.message() == "assertion failed: too many steps");
        CHECK(e.line() == 8);
        CHECK(std::string(e.what()).find("assert n < 100") != std::string::npos);
    }
    CHECK_THROWS_WITH(tg::Graph::load((f.dir / "model.tg").string()), doctest::Contains("not a .tgx file"));
    CHECK_THROWS_WITH(tg::Graph::load((f.dir / "missing.tgx").string()), doctest::Contains("cannot open"));
    std::ifstream in(f.dir / "model.tgx", std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes.resize(bytes.size() / 2);
    CHECK_THROWS_WITH(tg::Graph::from_bytes(std::as_bytes(std::span(bytes))), doctest::Contains("truncated"));
}
