// Per-call time of compiled code with a dynamic batch axis against code
// specialized to the shape (docs/codegen.md "Dynamic
// dimensions"). Each graph is compiled once with axis 0 of its input marked
// as symbol 0 (traced at 11) and once per size with static shapes; both run
// on the same inputs, alternately, and the best of several rounds of calls
// is reported. Target: dynamic within 10% of static for the batch case.
// Usage: tg_dynamic_dims_bench [threads]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include "codegen/compiler.hpp"
#include "tracer/graph.hpp"
#include "tracer/verifier.hpp"

using namespace tg;
using stdlib::DType;
using stdlib::Shape;
using stdlib::Tensor;
using tracer::Graph;
using tracer::ValueId;

namespace {

constexpr int64_t kTraced = 11;

// One workload: its inputs' shapes at batch size n (input 0 carries the
// batch on axis 0) and its body.
struct Workload {
    const char* name;
    std::function<std::vector<Shape>(int64_t n)> shapes;
    std::function<std::vector<ValueId>(Graph&, const std::vector<ValueId>&)> body;
};

// Marks the batch: every value with a dimension of the traced size at axis 0
// that depends on input 0 (the workloads have no other such dimension).
void mark(Graph& g, ValueId batch_input) {
    g.set_symbol_sources({{0, 0}});
    g.set_dim_symbol(batch_input, 0, 0);
    g.walk(Graph::kBody, [&](tracer::NodeId n) {
        const tracer::Node& node = g.node(n);
        bool dyn = false;
        for (ValueId o : node.operands) dyn = dyn || (!g.type(o).token && g.has_dynamic_dims(o));
        if (!dyn) return;
        for (ValueId r : node.results)
            if (!g.type(r).token && g.tensor_type(r).shape.rank() > 0 && g.tensor_type(r).shape[0] == kTraced)
                g.set_dim_symbol(r, 0, 0);
    });
}

std::unique_ptr<Graph> build(const Workload& w, int64_t n, bool dynamic) {
    auto g = std::make_unique<Graph>(w.name);
    ValueId tok = g->add_input_token();
    std::vector<ValueId> ins;
    for (const Shape& s : w.shapes(n)) ins.push_back(g->add_input({DType::F32, s, false}));
    std::vector<ValueId> outs = w.body(*g, ins);
    outs.push_back(tok);
    g->yield(outs);
    tracer::verify(*g);
    if (dynamic) mark(*g, ins[0]);
    return g;
}

Tensor data(const Shape& s) {
    Tensor t = Tensor::empty(DType::F32, s);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(std::sin(0.1 * double(i)));
    return t;
}

// Microseconds per call: the best of `rounds` rounds of `calls` calls.
double per_call_us(const codegen::CompiledGraph& c, const std::vector<Tensor>& in, int calls) {
    tracer::RunContext ctx;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) c.run(in, ctx);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls;
}

}  // namespace

int main(int argc, char** argv) {
    codegen::JitOptions opt;
    opt.object_cache = false;
    if (argc > 1) opt.threads = std::atoi(argv[1]);
    codegen::Compiler compiler(opt);
    const Workload workloads[] = {
        {"chain [N,16]: tanh(x*a+b)*x - x*x, then sum over axis 1",
         [](int64_t n) { return std::vector<Shape>{Shape{n, 16}, Shape{16}, Shape{16}}; },
         [](Graph& g, const std::vector<ValueId>& in) {
             ValueId y = g.apply1("sub", {g.apply1("mul", {g.apply1("tanh", {g.apply1("add", {g.apply1("mul", {in[0], in[1]}), in[2]})}), in[0]}),
                                          g.apply1("mul", {in[0], in[0]})});
             return std::vector<ValueId>{y, g.apply1("sum", {g.apply1("mul", {y, in[1]})}, {}, {std::monostate{}, int64_t(1), false})};
         }},
        {"mlp [N,64]@[64,32], bias, tanh, mean over all",
         [](int64_t n) { return std::vector<Shape>{Shape{n, 64}, Shape{64, 32}, Shape{32}}; },
         [](Graph& g, const std::vector<ValueId>& in) {
             ValueId h = g.apply1("tanh", {g.apply1("add", {g.apply1("matmul", {in[0], in[1]}), in[2]})});
             return std::vector<ValueId>{h, g.apply1("mean", {g.apply1("mul", {h, h})})};
         }},
    };
    std::printf("threads: %d; per call, best of 7 rounds (us); dynamic traced at %lld\n", compiler.threads(),
                static_cast<long long>(kTraced));
    for (const Workload& w : workloads) {
        std::printf("\n%s\n%10s %12s %12s %8s\n", w.name, "N", "static", "dynamic", "ratio");
        const std::unique_ptr<Graph> dg = build(w, kTraced, true);
        auto dc = compiler.compile(*dg, "dyn");
        for (int64_t n : {4, 64, 1024, 16384, 262144}) {
            const std::unique_ptr<Graph> sg = build(w, n, false);
            auto sc = compiler.compile(*sg, "static");
            std::vector<Tensor> in;
            for (const Shape& s : w.shapes(n)) in.push_back(data(s));
            const int calls = static_cast<int>(std::clamp<int64_t>(2'000'000 / (n * 16), 3, 20000));
            double best_s = 1e30, best_d = 1e30;
            for (int round = 0; round < 7; ++round) {
                best_s = std::min(best_s, per_call_us(*sc, in, calls));
                best_d = std::min(best_d, per_call_us(*dc, in, calls));
            }
            std::printf("%10lld %12.2f %12.2f %8.3f\n", static_cast<long long>(n), best_s, best_d, best_d / best_s);
        }
    }
    return 0;
}
