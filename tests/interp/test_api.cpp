// The public embedding API: interpreters, variables, calls, host functions, errors.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <atomic>
#include <string>
#include <vector>

namespace {
struct Captured {
    std::string out;
    tg::Interpreter interp;
    explicit Captured(tg::Options o = {}) : interp(with_output(std::move(o), out)) {}
    static tg::Options with_output(tg::Options o, std::string& out) {
        o.write_output = [&out](std::string_view s) { out += s; };
        return o;
    }
};
}  // namespace

TEST_CASE("two interpreters in one process are independent") {
    Captured a, b;
    a.interp.run_source("x = 1\nseed(3)\nr = random_uniform((2,))\n");
    b.interp.run_source("x = 2\nseed(3)\nr = random_uniform((2,))\n");
    a.interp.run_source("print(x)\n");
    b.interp.run_source("print(x)\n");
    CHECK(a.out == "1\n");
    CHECK(b.out == "2\n");
    CHECK(a.interp.get("r").str() == b.interp.get("r").str());
    b.interp.define("only_in_b", [](std::span<const tg::Value>) { return tg::Value(int64_t{5}); });
    CHECK_THROWS_AS(a.interp.run_source("only_in_b()\n"), tg::Error);
    b.interp.run_source("print(only_in_b())\n");
    CHECK(b.out == "2\n5\n");
}

TEST_CASE("variables can be read and bound, functions called with tensors") {
    Captured c;
    std::vector<float> data = {1.0f, 2.0f, 3.0f};
    c.interp.set("v", tg::Tensor::wrap(data.data(), tg::DType::F32, {3}));
    c.interp.run_source("def scale(x, k=2.0):\n    return x * k\ns = v.sum()\n");
    CHECK(c.interp.get("s").as_tensor().item() == 6.0);
    tg::Tensor y = c.interp.call("scale", {c.interp.get("v")}).as_tensor();
    REQUIRE(y.size() == 3);
    CHECK(y.data_as<float>()[2] == 6.0f);
    CHECK(data[2] == 3.0f);  // wrapped host memory is never written
    c.interp.run_source("v[0] = 100.0\n");
    CHECK(data[0] == 1.0f);  // copy-on-write, not into the host's buffer
    CHECK(c.interp.has("scale"));
    CHECK_FALSE(c.interp.has("nope"));
}

TEST_CASE("wrapped memory is released when the last tensor is gone") {
    bool released = false;
    std::vector<double> data = {1.0, 2.0};
    {
        Captured c;
        c.interp.set("w", tg::Tensor::wrap(data.data(), tg::DType::F64, {2}, [&] { released = true; }));
        c.interp.run_source("t = w * 2\n");
    }
    CHECK(released);
}

TEST_CASE("errors carry message, location and traceback") {
    Captured c;
    try {
        c.interp.run_source("def f(a):\n    return a // 0\n\nf(1)\n", "e.tg");
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.message() == "integer division by zero");
        CHECK(e.file() == "e.tg");
        CHECK(e.line() == 2);
        CHECK(e.col() == 14);
        REQUIRE(e.traceback().size() == 2);
        CHECK(e.traceback()[0].function == "f");
        CHECK(e.traceback()[1].function == "<module>");
        CHECK(e.traceback()[1].line == 4);
        CHECK(e.rendered().rfind("e.tg:2:14: error: integer division by zero\n", 0) == 0);
    }
}

TEST_CASE("host function errors point at the tg call site") {
    Captured c;
    c.interp.define("fail_now", [](std::span<const tg::Value>) -> tg::Value { throw tg::HostError("bad input"); });
    try {
        c.interp.run_source("x = 1\ny = fail_now(x)\n", "h.tg");
        FAIL("no error");
    } catch (const tg::Error& e) {
        CHECK(e.message() == "fail_now: bad input");
        CHECK(e.line() == 2);
        CHECK(e.col() == 5);
    }
}

TEST_CASE("limits: call depth and steps end with an error, not a crash") {
    tg::Options o;
    o.max_call_depth = 50;
    Captured c(o);
    CHECK_THROWS_WITH_AS(c.interp.run_source("def f(n):\n    return f(n + 1)\nf(0)\n"),
                         doctest::Contains("maximum recursion depth"), tg::Error);
    tg::Options s;
    s.max_steps = 10000;
    Captured d(s);
    CHECK_THROWS_WITH_AS(d.interp.run_source("while True:\n    pass\n"), doctest::Contains("step limit"), tg::Error);
}

TEST_CASE("argument binding errors name the function and the parameter") {
    Captured c;
    c.interp.run_source("def f(a, b=1):\n    return a + b\n");
    CHECK_THROWS_WITH_AS(c.interp.run_source("f()\n"), doctest::Contains("f: missing argument `a`"), tg::Error);
    CHECK_THROWS_WITH_AS(c.interp.run_source("f(1, z=2)\n"), doctest::Contains("f: unknown keyword argument `z`"),
                         tg::Error);
    CHECK_THROWS_WITH_AS(c.interp.run_source("f(1, a=2)\n"), doctest::Contains("f: argument `a` given twice"),
                         tg::Error);
    CHECK_THROWS_WITH_AS(c.interp.run_source("sum(tensor([1.0]), bogus=1)\n"),
                         doctest::Contains("sum: unknown keyword argument `bogus`"), tg::Error);
}

TEST_CASE("imports can be disabled by the host") {
    tg::Options o;
    o.allow_import = false;
    Captured c(o);
    CHECK_THROWS_WITH_AS(c.interp.run_source("import util\n"), doctest::Contains("import is disabled"), tg::Error);
}

TEST_CASE("very deep recursion hits the native stack guard, not a crash") {
    tg::Options o;
    o.max_call_depth = 10'000'000;
    Captured c(o);
    CHECK_THROWS_WITH_AS(c.interp.run_source("def f(n):\n    return 1 + f(n + 1)\nf(0)\n"),
                         doctest::Contains("maximum recursion depth exceeded"), tg::Error);
}

TEST_CASE("the host's interrupt flag stops a running loop with 'interrupted'") {
    std::atomic<bool> stop{false};
    tg::Options o;
    o.interrupt = &stop;
    Captured c(o);
    // A host function raises the flag after the loop has run a while, as a
    // SIGINT handler would; the state before the interrupted statement stays.
    int calls = 0;
    c.interp.define("tick", [&](std::span<const tg::Value>) {
        if (++calls == 100) stop.store(true);
        return tg::Value();
    });
    c.interp.run_source("kept = 7\n");
    CHECK_THROWS_WITH_AS(c.interp.run_source("i = 0\nwhile True:\n    tick()\n    i += 1\n"),
                         doctest::Contains("interrupted"), tg::Error);
    CHECK(calls >= 100);
    CHECK(calls < 100 + 5000);  // polled every few thousand steps
    CHECK(c.interp.get("kept").str() == "7");
    // Cleared by the host, the interpreter runs again.
    stop.store(false);
    c.interp.run_source("print(kept + 1)\n");
    CHECK(c.out == "8\n");
    CHECK(c.interp.builtin_names().size() > 50);
}

TEST_CASE("dicts and sets cross the embedding API: entries, elements, built by the host") {
    Captured c;
    c.interp.set("cfg", tg::Value::dict({{"lr", 0.5}, {int64_t{3}, "three"}, {"lr", 0.25}}));
    c.interp.run_source("print(cfg, type(cfg))\nout = {k: 1 for k in cfg}\n");
    CHECK(c.out == "{'lr': 0.25, 3: 'three'} dict\n");
    tg::Value out = c.interp.get("out");
    CHECK(out.kind() == tg::Value::Kind::Dict);
    auto entries = out.entries();
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].first.as_string() == "lr");
    CHECK(entries[1].first.as_tensor().item() == 3.0);
    CHECK_THROWS_AS(tg::Value::dict({{tg::Value(1.5), 1}}), tg::Error);
    CHECK_THROWS_AS(out.items(), tg::Error);
    CHECK_THROWS_AS(tg::Value(1).entries(), tg::Error);
    // a set's elements, in order (docs/language.md "Sets")
    c.interp.run_source("s = {'b', 2, 1}\n");
    tg::Value s = c.interp.get("s");
    CHECK(s.kind() == tg::Value::Kind::Set);
    auto elements = s.items();
    REQUIRE(elements.size() == 3);
    CHECK(elements[0].as_tensor().item() == 1.0);
    CHECK(elements[2].as_string() == "b");
    CHECK(s.repr() == "{1, 2, 'b'}");
    // a set built by the host: repeated elements once, a float refused
    c.interp.set("hs", tg::Value::set({"x", int64_t{5}, "x", int64_t{-1}}));
    c.out.clear();
    c.interp.run_source("hs.add(0)\nprint(hs, 5 in hs, type(hs))\n");
    CHECK(c.out == "{-1, 0, 5, 'x'} True set\n");
    CHECK(c.interp.get("hs").kind() == tg::Value::Kind::Set);
    CHECK_THROWS_AS(tg::Value::set({tg::Value(1.5)}), tg::Error);
    CHECK_THROWS_AS(tg::Value::set({tg::Value::list({})}), tg::Error);
}

TEST_CASE("every kind of value has its own kind: a graph is not None") {
    Captured c;
    c.interp.run_source(
        "def f(x):\n    return x * 2.0\n"
        "g = concrete(f, spec((2,)))\ns = spec((2,))\nn = None\nm = f\nd = f32\np = print\n");
    CHECK(c.interp.get("p").kind() == tg::Value::Kind::Function);
    CHECK(c.interp.get("g").kind() == tg::Value::Kind::Graph);
    CHECK_FALSE(c.interp.get("g").is_none());
    CHECK(c.interp.get("s").kind() == tg::Value::Kind::Spec);
    CHECK(c.interp.get("n").is_none());
    CHECK(c.interp.get("m").kind() == tg::Value::Kind::Function);
    CHECK(c.interp.get("d").kind() == tg::Value::Kind::DType);
    std::vector<float> x = {1.0f, 2.5f};
    const tg::Value y = c.interp.call_value(c.interp.get("g"), {tg::Tensor::wrap(x.data(), tg::DType::F32, {2})});
    CHECK(y.as_tensor().data_as<float>()[1] == 5.0f);  // a graph value is callable
}

TEST_CASE("isatty() is the host's output_is_terminal") {
    Captured pipe;
    pipe.interp.run_source("print(isatty())\n");
    CHECK(pipe.out == "False\n");
    tg::Options o;
    o.output_is_terminal = true;
    Captured terminal(o);
    terminal.interp.run_source("print(isatty())\n");
    CHECK(terminal.out == "True\n");
}
