// docs/repl.md's tracing toggle for REPL inputs (Interpreter::run_traced): the
// same output and variables as run_interactive, graphs shown in the log, and
// nothing kept per input: a long session of traced inputs does not
// accumulate graphs or compiled code.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <fstream>
#include <string>

#include "interp/tracing/trace_input.hpp"

namespace {
struct Session {
    std::string out, log;
    tg::Interpreter interp;
    explicit Session(bool no_jit = false) : interp(options(no_jit)) {}
    tg::Options options(bool no_jit) {
        tg::Options o;
        o.write_output = [this](std::string_view s) { out += s; };
        o.write_log = [this](std::string_view s) { log += s; };
        o.no_jit = no_jit;
        o.no_cache = true;
        return o;
    }
    void traced(const std::string& code) { interp.run_traced(code, "<in>"); }
    void eager(const std::string& code) {
        interp.run_interactive(code, "<in>", [this](const tg::Value& v) { out += v.repr() + "\n"; });
    }
};

// Resident memory of this process, in KiB (0 where /proc is missing).
long resident_kib() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    return resident * 4;
}

const char* kInputs[] = {
    "x = tensor([1.0, 2.0, 3.0])",
    "n = 2",
    "x * n",
    "y = x + 1\nprint('y', y)\ny.sum()",
    "for i in range(3):\n    if x[i] > 1.5:\n        print(i, x[i])\n    x[i] * 10\n",
    "if y.sum() > 100.0:\n    big = 1\n",
    "xs = [x, y]\nxs.append(x * y)\nlen(xs)",
    "zeros((n,)) + 1",
    "x[7]",
    "k = tensor([1, 2])\nz = k - k",
    "q = k * 2\nprint('q', q)\nr = k // z",
    "q",
};
}  // namespace

TEST_CASE("run_traced: the same output, errors and variables as run_interactive, graphs in the log") {
    for (bool no_jit : {false, true}) {
        Session traced(no_jit), eager(no_jit);
        std::string traced_errors, eager_errors;
        for (const char* in : kInputs) {
            try {
                traced.traced(in);
            } catch (const tg::Error& e) {
                traced_errors += e.rendered();
            }
            try {
                eager.eager(in);
            } catch (const tg::Error& e) {
                eager_errors += e.rendered();
            }
            CHECK(tg::interp::live_input_graphs() == 0);
        }
        CHECK(traced.out == eager.out);
        CHECK(traced_errors == eager_errors);
        CHECK(traced.interp.variables() == eager.interp.variables());
        for (const auto& v : eager.interp.variables())
            CHECK(traced.interp.get(v).repr() == eager.interp.get(v).repr());
        CHECK(traced.log.find("trace input <in>(x: f32[3], n: weak i64[])") != std::string::npos);
        CHECK(traced.log.find("= while") != std::string::npos);
        CHECK(traced.log.find("the graph raised an error") != std::string::npos);
        CHECK(eager.log.empty());
    }
}

TEST_CASE("run_traced: the graph of an input exists while it runs, and is released after") {
    int live_during = -1;
    tg::Options o;
    o.write_output = [&](std::string_view) { live_during = tg::interp::live_input_graphs(); };
    tg::Interpreter interp(o);
    interp.run_traced("x = tensor([1.0])", "<a>");
    interp.run_traced("print(x * 2)", "<b>");
    CHECK(live_during == 1);
    CHECK(tg::interp::live_input_graphs() == 0);
    // also after an error, a fallback, and an interrupted input
    CHECK_THROWS_AS(interp.run_traced("x[3]", "<c>"), tg::Error);
    interp.run_traced("k = tensor([1])\nz = k - k", "<d>");
    CHECK_THROWS_AS(interp.run_traced("k // z", "<e>"), tg::Error);
    CHECK(tg::interp::live_input_graphs() == 0);
}

TEST_CASE("run_traced: a long session keeps nothing per input (graphs, compiled code)") {
    Session s;
    s.traced("x = tensor([1.0, 2.0, 3.0])\nacc = zeros_like(x)");
    auto step = [&](int i) {
        // a new graph each time (a different constant), compiled and released
        s.traced("acc = acc + x * " + std::to_string(i) + "\nif acc.sum() > 1e9:\n    acc = acc * 0\n");
        REQUIRE(tg::interp::live_input_graphs() == 0);
    };
    for (int i = 0; i < 200; ++i) step(i);  // warm up: the JIT session, allocator pools
    const long before = resident_kib();
    for (int i = 200; i < 1200; ++i) step(i);
    const long grown = resident_kib() - before;
    MESSAGE("resident memory grew by " << grown << " KiB over 1000 traced inputs");
#if !defined(__SANITIZE_ADDRESS__) && !defined(TG_SANITIZE_BUILD)  // ASan (gcc, clang) keeps freed memory in quarantine
    // ~1 MiB without a leak; keeping each input's graph and code costs ~20 MiB
    CHECK(grown < 8 * 1024);
#endif
    CHECK(s.interp.get("acc").repr() == "tensor([719400.0, 1438800.0, 2158200.0], shape=(3,), dtype=f32)");
    s.log.clear();
}
