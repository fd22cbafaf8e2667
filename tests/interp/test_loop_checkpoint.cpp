// grad(f, loop_checkpoint=k) bounds what a converted loop's gradient keeps
// on the run's saved-value stack (docs/training.md "Bounding a loop's saved
// values"): the graphs of value_and_grad through a loop, with and without
// the bound, exported by `concrete` and run on the reference interpreter and
// as compiled code, give the same bits, and the stack's peak
// (stdlib/saved_stack.hpp) falls from iterations x residuals to
// iterations / k states + k iterations' residuals.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "codegen/compiler.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/tgx.hpp"

namespace fs = std::filesystem;
using tg::stdlib::DType;
using tg::stdlib::Tensor;

namespace {

// x carried (64 f32) with the loop counter i; 2 residuals of 64 f32 per iteration (x, tanh's result).
const char* kSource = R"(def walk(w, x, n):
    i = 0
    while i < n:
        x = x + 0.001 * tanh(w * x + 0.5)
        i += 1
    return x

def sim(w, x, n):
    x = walk(w, x, n)
    return mean(x * x)

def plain(w, x, n):
    return value_and_grad(sim, argnums=(0, 1))(w, x, n)

def bounded(w, x, n):
    return value_and_grad(sim, argnums=(0, 1), loop_checkpoint=K)(w, x, n)

def outer(w, x, n):
    j = 0
    while j < n:
        x = walk(w, x, j % 7)
        j += 1
    return mean(x)

def nested(w, x, n):
    return value_and_grad(outer, argnums=(0, 1), loop_checkpoint=K)(w, x, n)

def nested_plain(w, x, n):
    return value_and_grad(outer, argnums=(0, 1))(w, x, n)

for name, fn in [("plain", plain), ("bounded", bounded), ("nested", nested), ("nested_plain", nested_plain)]:
    save(name + ".tgx", concrete(fn, spec((64,)), spec((64,)), spec((), i64)))
)";

struct Run {
    std::vector<Tensor> out;
    size_t peak_values = 0, peak_bytes = 0;
};

struct Graphs {
    fs::path dir;
    explicit Graphs(int k) {
        char tmpl[] = "/tmp/tg-loop-ckpt-XXXXXX";
        dir = mkdtemp(tmpl);
        tg::Options o;
        o.file_root = dir.string();
        tg::Interpreter in(o);
        std::string src = kSource;
        src.replace(src.find("K)"), 1, std::to_string(k));
        src.replace(src.find("K)"), 1, std::to_string(k));
        in.run_source(src, "make.tg");
    }
    ~Graphs() { fs::remove_all(dir); }
    tg::tracer::GraphFunction read(const std::string& name) const {
        std::ifstream f(dir / (name + ".tgx"), std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        return tg::tracer::read_tgx({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()});
    }
};

std::vector<Tensor> inputs(int64_t n) {
    Tensor w = Tensor::empty(DType::F32, tg::stdlib::Shape{64}), x = Tensor::empty(DType::F32, tg::stdlib::Shape{64});
    for (int i = 0; i < 64; ++i) {
        w.data<float>()[i] = float(std::sin(i * 0.3));
        x.data<float>()[i] = float(std::cos(i * 0.7));
    }
    return {w, x, Tensor::scalar(n)};
}

Run run(const tg::tracer::GraphFunction& f, int64_t n, bool compiled) {
    tg::tracer::RunContext ctx;
    Run r;
    if (compiled) {
        tg::codegen::JitOptions o;
        o.object_cache = false;
        tg::codegen::Compiler c(o);
        auto code = c.compile(*f.graph, f.name);
        r.out = code->run(inputs(n), ctx);
    } else {
        r.out = tg::tracer::run_graph(*f.graph, inputs(n), ctx);
    }
    CHECK(ctx.saved.values.empty());  // every saved value was popped
    r.peak_values = ctx.saved.peak_values;
    r.peak_bytes = ctx.saved.peak_bytes;
    return r;
}

bool same_bits(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        const size_t bytes = size_t(a[i].numel()) * tg::stdlib::dtype_size(a[i].dtype());
        if (a[i].dtype() != b[i].dtype() || a[i].numel() != b[i].numel() ||
            std::memcmp(a[i].raw_data(), b[i].raw_data(), bytes) != 0)
            return false;
    }
    return true;
}

}  // namespace

TEST_CASE("loop_checkpoint: the same gradient, and the saved stack's peak bounded by n / k + k") {
    const int k = 100;
    Graphs g(k);
    const auto plain = g.read("plain"), bounded = g.read("bounded");
    for (bool compiled : {false, true}) {
        CAPTURE(compiled);
        for (int64_t n : {0, 1, 99, 100, 101, 10000}) {
            CAPTURE(n);
            const Run a = run(plain, n, compiled), b = run(bounded, n, compiled);
            CHECK(same_bits(a.out, b.out));
            // without the bound: 2 residuals per iteration
            CHECK(a.peak_values == size_t(2 * n));
            // with it: the carried x and i of each stretch started, the count, then one
            // stretch's residuals (the stretch's own start popped by then)
            const int64_t stretches = (n + k - 1) / k;
            CHECK(int64_t(b.peak_values) <= std::max(2 * stretches + 1, 2 * (stretches - 1) + 2 * std::min<int64_t>(n, k)));
        }
        const Run a = run(plain, 10000, compiled), b = run(bounded, 10000, compiled);
        CHECK(b.peak_bytes * 40 < a.peak_bytes);  // 5.12 MB -> ~77 KB
    }
}

TEST_CASE("loop_checkpoint: nested converted loops, both bounded") {
    Graphs g(3);
    const auto plain = g.read("nested_plain"), bounded = g.read("nested");
    for (bool compiled : {false, true}) {
        CAPTURE(compiled);
        for (int64_t n : {0, 1, 5, 40}) {
            CAPTURE(n);
            const Run a = run(plain, n, compiled), b = run(bounded, n, compiled);
            CHECK(same_bits(a.out, b.out));
            if (n == 40) CHECK(b.peak_values * 3 < a.peak_values);
        }
    }
}
