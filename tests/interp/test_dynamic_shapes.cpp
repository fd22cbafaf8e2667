// Generalized traces through the embedding API (docs/graph.md "Dynamic
// dimensions"): how many traces a loop over many batch sizes makes in each
// mode, what --trace says, and that every way computes what eager does.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <string>

namespace {

struct Run {
    std::string out, log;
    tg::Interpreter interp;
    Run(tg::DynamicShapes mode, bool eager = false, bool no_jit = false) : interp(options(mode, eager, no_jit)) {}
    tg::Options options(tg::DynamicShapes mode, bool eager, bool no_jit) {
        tg::Options o;
        o.write_output = [this](std::string_view s) { out += s; };
        o.write_log = [this](std::string_view s) { log += s; };
        o.trace = true;
        o.eager = eager;
        o.no_jit = no_jit;
        o.sync_jit = true;  // compiled code from each trace's first call
        o.no_cache = true;
        o.dynamic_shapes = mode;
        return o;
    }
    size_t count(const std::string& what) const {
        size_t n = 0;
        for (size_t p = log.find(what); p != std::string::npos; p = log.find(what, p + 1)) ++n;
        return n;
    }
    // The message of the error running `program` ends with ("" if none).
    std::string error_of(const char* program) {
        try {
            interp.run_source(program, "p.tg");
        } catch (const tg::Error& e) {
            return e.what();
        }
        return "";
    }
    size_t traces(const std::string& fn) const { return count("trace " + fn + "("); }  // also counts "retrace"
};

// 50 distinct batch sizes, some twice, then sizes 1 and 2; element-wise,
// reductions over each axis, matmul, a mean (a size constant) and its gradient.
const char* kBatches = R"(
w = reshape(arange(12, dtype=f32), (4, 3)) / 10.0
@graph
def f(x):
    h = tanh(x @ w) * 2.0 + 1.0
    return sum(h, axis=1), mean(h, axis=0), max(h), mean(h)
def loss(v, x):
    return mean(tanh(x @ v) ** 2)
@graph
def g(v, x):
    return value_and_grad(loss)(v, x)
total = 0.0
for k in range(50):
    n = 3 + k * 7 % 61
    x = reshape(sin(arange(n * 4, dtype=f32)), (n, 4))
    a, b, c, d = f(x)
    l, gv = g(w, x)
    print(n, a[n - 1], b, c, d, l, gv.sum())
for n in [1, 2, 10]:
    a, b, c, d = f(ones((n, 4)))
    print(n, a, b, c, d)
)";

}  // namespace

TEST_CASE("dynamic shapes: 50 batch sizes take 4 traces in auto mode, one per shape in never, and agree with eager") {
    Run eager(tg::DynamicShapes::Auto, true), never(tg::DynamicShapes::Never), autom(tg::DynamicShapes::Auto),
        nojit(tg::DynamicShapes::Auto, false, true);
    for (Run* r : {&eager, &never, &autom, &nojit}) r->interp.run_source(kBatches, "b.tg");
    CHECK(never.out == eager.out);
    CHECK(autom.out == eager.out);
    CHECK(nojit.out == eager.out);
    // auto: 3 shapes, then one generalized trace; sizes 1 (never dynamic) trace anew
    CHECK(autom.traces("f") == 5);
    CHECK(autom.traces("g") == 4);
    CHECK(autom.count("dynamic dimensions: `x` axis 0 as ?0 (one trace for all their sizes)") == 2);
    CHECK(autom.count("f(x: f32[?0,4])") == 1);
    CHECK(never.traces("f") >= 45);
    CHECK(never.count("dynamic dimensions") == 0);
}

TEST_CASE("dynamic shapes: always generalizes at the first trace, a size-dependent graph says why and traces per shape") {
    Run always(tg::DynamicShapes::Always), eager(tg::DynamicShapes::Always, true);
    const char* program = R"(
@graph
def head(x):
    return sum(x[:3])
@graph
def double(x):
    return x * 2.0
for n in [4, 5, 6, 7, 8]:
    print(head(arange(n, dtype=f32)), double(ones((n, n))).sum())
)";
    always.interp.run_source(program, "a.tg");
    eager.interp.run_source(program, "a.tg");
    CHECK(always.out == eager.out);
    CHECK(always.traces("double") == 1);
    CHECK(always.count("double(x: f32[?0,?0])") == 1);
    CHECK(always.traces("head") == 5);
    CHECK(always.count("not generalized over `x` axis 0 as ?0: a slice bound on a dynamic dimension (at 4:17)") == 1);
}

TEST_CASE("dynamic shapes: a dynamic index out of range raises eager's error when the graph runs") {
    Run autom(tg::DynamicShapes::Auto), eager(tg::DynamicShapes::Auto, true);
    const char* program = R"(
@graph
def pick(x):
    return x[5] * 2.0
for n in [6, 7, 8, 9]:
    print(pick(arange(n, dtype=f32)))
print(pick(arange(3, dtype=f32)))
)";
    const std::string graph_error = autom.error_of(program), eager_error = eager.error_of(program);
    CHECK(autom.out == eager.out);
    CHECK(autom.count("dynamic dimensions") == 1);
    CHECK_FALSE(eager_error.empty());
    CHECK(graph_error == eager_error);
}
