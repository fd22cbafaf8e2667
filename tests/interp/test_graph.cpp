// @graph through the embedding API: traced, cached, retraced, logged; the
// same results as eager; the tracer's fallbacks and errors.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <unistd.h>

namespace {
struct Run {
    std::string out, log;
    tg::Interpreter interp;
    // sync_jit: compiled code from the first call (tiering has its own test below)
    explicit Run(bool eager = false, bool sync_jit = true, bool no_cache = false)
        : interp(options(eager, sync_jit, no_cache)) {}
    tg::Options options(bool eager, bool sync_jit, bool no_cache) {
        tg::Options o;
        o.write_output = [this](std::string_view s) { out += s; };
        o.write_log = [this](std::string_view s) { log += s; };
        o.trace = true;
        o.eager = eager;
        o.sync_jit = sync_jit;
        o.no_cache = no_cache;
        return o;
    }
    size_t count(const std::string& what) const {
        size_t n = 0;
        for (size_t p = log.find(what); p != std::string::npos; p = log.find(what, p + 1)) ++n;
        return n;
    }
};

const char* kProgram = R"(
@graph
def f(x, n):
    acc = zeros_like(x)
    i = 0
    while i < n:
        if acc.sum() > 10.0:
            break
        acc = acc + x * i
        print("step", i, acc)
        i += 1
    return acc, i
a, k = f(tensor([1.0, 2.0]), 3)
b, j = f(tensor([1.0, 2.0]), 10)
c, m = f(tensor([1.0, 2.0, 3.0]), 2)
print(a, k, b, j, c, m)
)";
}  // namespace

TEST_CASE("a @graph function computes and prints what eager does, with one trace per signature") {
    Run graph, eager(true);
    graph.interp.run_source(kProgram, "p.tg");
    eager.interp.run_source(kProgram, "p.tg");
    CHECK(graph.out == eager.out);
    CHECK(graph.count("\ntrace f(") + graph.count("trace f(") >= 1);
    CHECK(graph.count("retrace f(") == 1);  // the third call has a new shape
    CHECK(graph.count("shape (2,) → (3,)") == 1);
    CHECK(graph.count("= while") >= 1);
    CHECK(graph.count("= cond") >= 1);
    CHECK(eager.log.empty());  // nothing traced when eager
}

TEST_CASE("a @graph function called from C++ runs its graph") {
    Run r;
    r.interp.run_source("@graph\ndef g(x):\n    return x * 2.0 if x.sum() > 0 else -x\n");
    tg::Value y = r.interp.call("g", {tg::Value(tg::Tensor::wrap(nullptr, tg::DType::F32, {0}))});
    CHECK(y.str() == "[]");
    r.interp.run_source("print(g(tensor([1.0, -3.0])), g(tensor([2.0, 1.0])))\n");
    CHECK(r.out == "[-1.0, 3.0] [4.0, 2.0]\n");
}

TEST_CASE("rebinding a captured module variable retraces") {
    Run r;
    r.interp.run_source("k = 2.0\n@graph\ndef g(x):\n    return x * k\nprint(g(1.0))\nk = 5.0\nprint(g(1.0))\n");
    CHECK(r.out == "2.0\n5.0\n");
    CHECK(r.count("captured `k` was rebound: 2.0 → 5.0") == 1);
}

TEST_CASE("host functions inside @graph make the call run eagerly") {
    Run r;
    int calls = 0;
    r.interp.define("host", [&](std::span<const tg::Value> a) {
        ++calls;
        return a[0];
    });
    r.interp.run_source("@graph\ndef g(x):\n    return host(x) + 1\nprint(g(1), g(2))\n");
    CHECK(r.out == "2 3\n");
    CHECK(calls == 2);
    CHECK(r.count("runs eagerly") == 2);
}

TEST_CASE("a recursion too deep to trace runs eagerly once, without tracing each nested call again") {
    // Each nested call used to try a trace of its own that recursed to the
    // limit again: ~500,000 traced calls, seconds, before eager's error.
    // (A limit of 200 frames: under AddressSanitizer 1,000 frames of the
    // tracer would exhaust the test thread's native stack first.)
    std::string out, log;
    tg::Options o;
    o.write_output = [&out](std::string_view s) { out += s; };
    o.write_log = [&log](std::string_view s) { log += s; };
    o.trace = true;
    o.max_call_depth = 200;
    tg::Interpreter interp(o);
    auto count = [&](const std::string& what) {
        size_t n = 0;
        for (size_t p = log.find(what); p != std::string::npos; p = log.find(what, p + 1)) ++n;
        return n;
    };
    CHECK_THROWS_WITH(interp.run_source("@graph\ndef f(n):\n    return f(n + 1)\nprint(f(1))\n"),
                      doctest::Contains("maximum recursion depth exceeded (more than 200 nested calls)"));
    CHECK(count("runs eagerly: maximum recursion depth") == 1);
    // a recursion with a dynamic base case still computes eager's value
    interp.run_source(R"(
@graph
def fact(n):
    if n <= 1:
        return tensor(1)
    return n * fact(n - 1)
print(fact(tensor(10)))
)");
    CHECK(out == "3628800\n");
}

TEST_CASE("trace-time errors name the variable and the loop") {
    Run r;
    try {
        r.interp.run_source("@graph\ndef g(x):\n    h = x\n    while h.sum() < 100.0:\n        h = concat([h, h])\n    return h\ng(tensor([1.0]))\n",
                            "g.tg");
        FAIL("expected an error");
    } catch (const tg::Error& e) {
        CHECK(std::string(e.message()) == "`h` changes shape from (1,) to (2,) in the loop at g.tg:4:5 (run with "
                                          "--eager to execute this function without tracing)");
        CHECK(e.line() == 4);
    }
    Run eager(true);
    eager.interp.run_source("@graph\ndef g(x):\n    h = x\n    while h.sum() < 100.0:\n        h = concat([h, h])\n    return h\nprint(g(tensor([1.0])).shape)\n");
    CHECK(eager.out == "(128,)\n");
}

TEST_CASE("a for loop over static bounds whose conversion fails is unrolled, and --trace says why") {
    // docs/graph.md "Static and dynamic": `h` changes shape each iteration, so no `while` node can carry it
    const char* src = "@graph\ndef g(x):\n    h = x\n    for i in range(3):\n        h = concat([h, h])\n    return h\n"
                      "print(g(tensor([1.0])).shape)\n";
    Run r;
    r.interp.run_source(src, "g.tg");
    CHECK(r.out == "(8,)\n");
    CHECK(r.count("unrolled the loop at g.tg:4:5 (`h` changes shape from (1,) to (2,)") == 1);
    CHECK(r.count(": 3 iterations, ") == 1);
    // with dynamic bounds the same loop is an error, not unrolled
    Run d;
    CHECK_THROWS_WITH_AS(d.interp.run_source("@graph\ndef g(x, n):\n    h = x\n    for i in range(n):\n        h = concat([h, h])\n"
                                             "    return h\ng(tensor([1.0]), 3)\n", "g.tg"),
                         doctest::Contains("`h` changes shape from (1,) to (2,) in the loop at g.tg:4:5"), tg::Error);
}

TEST_CASE("two interpreters trace independently") {
    Run a, b;
    a.interp.run_source("@graph\ndef g(x):\n    return x + 1\n");
    b.interp.run_source("@graph\ndef g(x):\n    return x - 1\n");
    a.interp.run_source("print(g(1.0))\n");
    b.interp.run_source("print(g(1.0))\n");
    CHECK(a.out == "2.0\n");
    CHECK(b.out == "0.0\n");
    CHECK(a.count("trace g(") == 1);
    CHECK(b.count("trace g(") == 1);
}

TEST_CASE("graphs() shows each trace of a @graph function, as text or DOT") {
    Run r;
    r.interp.run_source("@graph\ndef g(x):\n    return x.sum()\ng(ones((2,)))\ng(ones((3,)))\ndef plain(x):\n    return x\n");
    auto texts = r.interp.graphs("g");
    REQUIRE(texts.size() == 2);
    CHECK(texts[0].find("# x: f32[2]") == 0);
    CHECK(texts[1].find("func @g(") != std::string::npos);
    CHECK(r.interp.graphs("g", true)[0].find("digraph") != std::string::npos);
    CHECK_THROWS_AS(r.interp.graphs("plain"), tg::Error);
    CHECK_THROWS_AS(r.interp.graphs("nothing"), tg::Error);
}

TEST_CASE("a step limit stops a compiled @graph loop with eager's error, without limits the loop counts nothing") {
    const char* loop = "@graph\ndef spin(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\nprint(spin(100000000))\n";
    for (bool jit : {true, false}) {
        tg::Options o;
        std::string out;
        o.write_output = [&](std::string_view s) { out += s; };
        o.max_steps = 50000;
        o.no_jit = !jit;
        tg::Interpreter interp(o);
        try {
            interp.run_source(loop, "spin.tg");
            FAIL("no error");
        } catch (const tg::Error& e) {
            INFO("jit " << jit);
            CHECK(std::string(e.what()).find("step limit exceeded") != std::string::npos);
        }
        CHECK(out.empty());
    }
    Run r;
    r.interp.run_source("@graph\ndef spin(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\nprint(spin(3000))\n");
    CHECK(r.out == "3000\n");
}

TEST_CASE("compiled code is released with its interpreter, and two interpreters compile independently") {
    const char* pa = "@graph\ndef g(x):\n    return tanh(x) * 2.0\nprint(g(tensor([0.5, 1.0])))\n";
    const char* pb = "@graph\ndef g(x):\n    return tanh(x) * 3.0\nprint(g(tensor([0.5, 1.0])))\n";
    Run ea(true), eb(true);
    ea.interp.run_source(pa);
    eb.interp.run_source(pb);
    for (int k = 0; k < 3; ++k) {
        Run a, b;
        a.interp.run_source(pa);
        b.interp.run_source(pb);
        CHECK(a.out == ea.out);
        CHECK(b.out == eb.out);
        CHECK(a.out != b.out);
        CHECK(a.count("compile ") == 1);
    }
}

TEST_CASE("tiering: a small @graph function starts on the graph interpreter and switches to native code, the output "
          "never changes") {
    const char* program = "@graph\ndef g(x):\n    return (tanh(x) * 2.0 + x).sum()\nx = tensor([0.5, 1.0, -2.0])\n";
    Run eager(true);
    eager.interp.run_source(std::string(program) + "print(g(x))\n");
    Run t(false, false, true);  // no object cache: a hit would load the code at once
    t.interp.run_source(std::string(program) + "print(g(x))\n");
    CHECK(t.count("compile: in the background") == 1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    int calls = 1;
    while (t.count("native code ready") == 0 && std::chrono::steady_clock::now() < deadline) {
        t.interp.run_source("print(g(x))\n");
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(t.count("native code ready") == 1);
    t.interp.run_source("print(g(x))\n");  // on native code
    ++calls;
    std::string want;
    for (int i = 0; i < calls; ++i) want += eager.out;
    CHECK(t.out == want);
    CHECK(t.count("native code ready") == 1);

    // a function with a while loop compiles before its first call
    t.interp.run_source("@graph\ndef h(n):\n    i = 0\n    while i < n:\n        i += 1\n    return i\nprint(h(5))\n");
    CHECK(t.count("compile: in the background") == 1);
    CHECK(t.log.find("(lowering ") != std::string::npos);
}

TEST_CASE("a first call whose code is in the object cache prints the same whether the JIT session is made yet or not") {
    // A new interpreter makes its JIT session on its worker thread (the
    // resolver starts it at `@graph`); a first call that comes before it is
    // made runs on the graph interpreter while the cached object loads
    // (docs/performance.md "Compiled code"). Which engine ran depends on
    // timing; what is printed does not.
    namespace fs = std::filesystem;
    const fs::path cache = fs::temp_directory_path() / ("tg-first-call-" + std::to_string(::getpid()));
    fs::remove_all(cache);
    const std::string program =
        "@graph\ndef g(x):\n    return (tanh(x) * 2.0).sum() + (x @ x.T).sum()\nx = ones((4, 3)) * 0.25\nprint(g(x))\nprint(g(x))\n";
    Run eager(true);
    eager.interp.run_source(program);
    auto options = [&](bool sync_jit) {
        tg::Options o;
        o.trace = true;
        o.sync_jit = sync_jit;
        o.cache_dir = cache.string();
        return o;
    };
    {
        tg::Options o = options(true);  // fills the cache
        std::string out;
        o.write_output = [&](std::string_view s) { out += s; };
        tg::Interpreter(o).run_source(program);
        CHECK(out == eager.out);
    }
    for (int k = 0; k < 5; ++k) {
        std::string out, log;
        tg::Options o = options(false);
        o.write_output = [&](std::string_view s) { out += s; };
        o.write_log = [&](std::string_view s) { log += s; };
        tg::Interpreter(o).run_source(program);
        CHECK(out == eager.out);
        // the first call on the graph interpreter, or on the code loaded before it (--trace says which)
        const bool interpreted = log.find("compile: in the background") != std::string::npos;
        CHECK((interpreted || log.find("(object cache hit)") != std::string::npos));
    }
    fs::remove_all(cache);
}
