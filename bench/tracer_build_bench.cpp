// Build + verify + optimize a 200-node graph (the tracer's side of first-call
// latency; tracing through interp and codegen are excluded). Target: < 5 ms.
// Usage: tg_tracer_bench [repetitions] [blocks]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "stdlib/op_table.hpp"
#include "tracer/graph.hpp"
#include "tracer/passes.hpp"
#include "tracer/verifier.hpp"

using namespace tg::tracer;
using tg::stdlib::DType;
using tg::stdlib::Tensor;

// A function like a small MLP step written element-wise: chains of unary and
// binary ops over two f32[64] inputs, with foldable constants, duplicate
// subexpressions, identities (x*1), dead values, a print, and a cond and a
// while loop with bodies of their own.
static Graph build(int blocks) {
    Graph g("bench");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input({DType::F32, {64}, false}, "x");
    ValueId y = g.add_input({DType::F32, {64}, false}, "y");
    ValueId n = g.add_input({DType::I64, {}, false}, "n");
    const char* unary[] = {"tanh", "sigmoid", "exp", "neg", "abs", "sqrt", "relu", "square"};
    const char* binary[] = {"add", "mul", "sub", "maximum"};
    ValueId a = x, b = y;
    for (int i = 0; i < blocks; ++i) {
        ValueId c = g.constant(Tensor::weak_float(0.5 + i));
        ValueId k = g.apply1("mul", {g.constant(Tensor::weak_float(2.0)), g.constant(Tensor::weak_float(3.0))});  // folds
        ValueId u = g.apply1(unary[i % 8], {a});
        ValueId v = g.apply1(binary[i % 4], {u, c});
        ValueId w = g.apply1(binary[(i + 1) % 4], {v, b});
        ValueId dup = g.apply1(binary[(i + 1) % 4], {v, b});  // CSE
        ValueId one = g.apply1("mul", {dup, g.constant(Tensor::weak_int(1))});  // simplify
        g.apply1("exp", {k});  // dead
        a = g.apply1("add", {w, one});
        b = g.apply1("mul", {b, k});
    }
    ValueId vals[] = {a};
    tok = g.print(tok, {{TextPiece::Text, "a = "}, {TextPiece::Str, "", 0}, {TextPiece::Text, "\n"}}, vals);
    ValueId s = g.apply1("sum", {a});
    ValueId p = g.truth(g.apply1("gt", {s, g.constant(Tensor::weak_int(0))}));
    NodeId c = g.add_cond(p, {});
    g.enter(g.node(c).regions[0]);
    ValueId o1[] = {g.apply1("tanh", {g.apply1("mul", {a, b})})};
    g.yield(o1);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId o2[] = {g.apply1("sigmoid", {g.apply1("sub", {a, b})})};
    g.yield(o2);
    g.exit();
    ValueId r = g.finish(c)[0];
    ValueId inits[] = {n, r};
    NodeId w = g.add_while(inits);
    RegionId cr = g.node(w).regions[0], br = g.node(w).regions[1];
    g.enter(cr);
    ValueId cy[] = {g.truth(g.apply1("gt", {g.args(cr)[0], g.constant(Tensor::weak_int(0))})), g.args(cr)[0], g.args(cr)[1]};
    g.yield(cy);
    g.exit();
    g.enter(br);
    ValueId by[] = {g.apply1("sub", {g.args(br)[0], g.constant(Tensor::weak_int(1))}),
                    g.apply1("add", {g.apply1("mul", {g.args(br)[1], g.constant(Tensor::weak_float(0.9))}), x})};
    g.yield(by);
    g.exit();
    auto res = g.finish(w);
    ValueId out[] = {res[1], tok};
    g.yield(out);
    return g;
}

int main(int argc, char** argv) {
    int reps = argc > 1 ? std::atoi(argv[1]) : 200;
    // 14 blocks of 14 nodes plus the tail: about 200 nodes.
    int blocks = argc > 2 ? std::atoi(argv[2]) : 14;
    std::vector<double> ms;
    size_t before = 0, after = 0;
    build(blocks);  // warm the op table
    for (int i = 0; i < reps; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        Graph g = build(blocks);
        verify(g);
        before = g.live_node_count();
        optimize(g);  // verifies after every pass
        after = g.live_node_count();
        auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("tracer build+verify+optimize: %zu nodes -> %zu nodes, median %.3f ms, min %.3f ms (%d reps; target < 5 ms)\n",
                before, after, ms[ms.size() / 2], ms[0], reps);
    return 0;
}
