// tracer/clone_region.hpp and tracer/loop_rewrite.hpp on hand-built graphs:
// a copy of a loop's regions placed after it runs on from the loop's
// results like the original (captured values and nested regions mapped,
// prints dropped), and a while node made to carry one more value (its
// iteration count) still verifies and computes what it did.
#include <doctest/doctest.h>

#include <algorithm>

#include "helpers.hpp"
#include "tracer/clone_region.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/loop_rewrite.hpp"

using namespace tg::tracer;
using namespace tg::tracer::test;

namespace {

// def f(x, n):
//     c = x * x
//     i = 0; s = x
//     while i < n:
//         s = s * c + 1.0
//         if s > 10.0: s = s * 0.5        (a cond node in the body)
//         print(s)
//         i += 1
//     return s, i
struct LoopGraph {
    Graph g{"loop"};
    ValueId tok, x, n, c;
    NodeId w;
    LoopGraph() {
        tok = g.add_input_token();
        x = g.add_input(f32(), "x");
        n = g.add_input(i64(), "n");
        c = g.apply1("mul", {x, x}, at(1, 1));
        ValueId inits[] = {tok, g.constant(Tensor::scalar(int64_t{0})), x};
        w = g.add_while(inits, at(2, 1));
        const RegionId cr = g.node(w).regions[0], br = g.node(w).regions[1];
        g.enter(cr);
        std::vector<ValueId> ca(g.args(cr).begin(), g.args(cr).end());
        ValueId cy[] = {g.apply1("lt", {ca[1], n}), ca[0], ca[1], ca[2]};
        g.yield(cy);
        g.exit();
        g.enter(br);
        std::vector<ValueId> a(g.args(br).begin(), g.args(br).end());
        const ValueId s1 = g.apply1("add", {g.apply1("mul", {a[2], c}), g.constant(Tensor::weak_float(1.0))});
        ValueId ins[] = {s1};
        const NodeId big = g.add_cond(g.apply1("gt", {s1, g.constant(Tensor::weak_float(10.0))}), ins);
        for (int r = 0; r < 2; ++r) {
            const RegionId br2 = g.node(big).regions[size_t(r)];
            g.enter(br2);
            ValueId y[] = {r == 0 ? g.apply1("mul", {g.args(br2)[0], g.constant(Tensor::weak_float(0.5))}) : g.args(br2)[0]};
            g.yield(y);
            g.exit();
        }
        const ValueId s2 = g.finish(big)[0];
        ValueId shown[] = {s2};
        const ValueId t = g.print(a[0], {{TextPiece::Str, "", 0}, {TextPiece::Text, "\n"}}, shown);
        ValueId by[] = {t, g.apply1("add", {a[1], g.constant(Tensor::weak_int(1))}), s2};
        g.yield(by);
        g.exit();
    }
};

std::vector<Tensor> run(const Graph& g, double x, int64_t n, std::string* printed) {
    RunContext ctx;
    ctx.write = [&](std::string_view s) { *printed += s; };
    Tensor in[] = {Tensor::scalar(float(x)), Tensor::scalar(n)};
    return run_graph(g, in, ctx);
}

}  // namespace

TEST_CASE("clone_region_nodes: a loop's copy, placed after it, runs on from its results without printing") {
    LoopGraph l;
    Graph& g = l.g;
    std::vector<ValueId> res = g.finish(l.w);
    // the copy: a while from the first loop's results (its counter reset, so
    // that it runs n more times), its regions copies of the first's
    ValueId inits[] = {res[0], g.constant(Tensor::scalar(int64_t{0})), res[2]};
    const NodeId w2 = g.add_while(inits, at(3, 1));
    CloneMap map;
    for (int r = 0; r < 2; ++r) {
        const RegionId from = g.node(l.w).regions[size_t(r)], to = g.node(w2).regions[size_t(r)];
        for (size_t k = 0; k < g.args(from).size(); ++k) map.values[g.args(from)[k]] = g.args(to)[k];
        g.enter(to);
        g.yield(clone_region_nodes(g, from, map, true));
        g.exit();
    }
    std::vector<ValueId> res2 = g.finish(w2);
    ValueId out[] = {res2[2], res2[0]};
    g.yield(out);
    verify(g);
    CHECK(map.nodes.count(l.w) == 0);  // (only what is inside the regions is copied)
    CHECK(map.value(l.c) == l.c);      // a captured value is read as is

    LoopGraph twice;  // the original loop run for 2n iterations
    std::vector<ValueId> r2 = twice.g.finish(twice.w);
    ValueId o2[] = {r2[2], r2[0]};
    twice.g.yield(o2);
    for (int64_t n : {0, 1, 3, 6}) {
        std::string p1, p2;
        const auto a = run(g, 1.25, n, &p1), b = run(twice.g, 1.25, 2 * n, &p2);
        CHECK(a[0].item_f64() == b[0].item_f64());
        // the copy prints nothing: the first loop's n lines are the first n of the 2n
        CHECK(p2.substr(0, p1.size()) == p1);
        CHECK(std::count(p1.begin(), p1.end(), '\n') == n);
    }
}

TEST_CASE("add_carried, ReopenedRegion, place_before / place_after: a loop made to count its iterations") {
    LoopGraph l;
    Graph& g = l.g;
    std::vector<ValueId> res = g.finish(l.w);
    ValueId out[] = {res[2], res[0]};
    g.yield(out);
    const ValueType count = ValueType::of(i64());
    const NodeId zero = g.create(Op::Constant, nullptr, {}, {&count, 1}, {}, Tensor::scalar(int64_t{0}));
    place_before(g, l.w, zero);
    const AddedCarry c = add_carried(g, l.w, g.node(zero).results[0]);
    {
        ReopenedRegion open(g, g.node(l.w).regions[1]);
        open.yield().operands.back() = g.apply1("add", {c.body_arg, g.constant(Tensor::weak_int(1))});
    }
    // the count squared, just after the loop, as a result of the function
    const ValueType types[1] = {count};
    const NodeId scaled = g.create(Op::Apply, &op("mul"), {c.result, c.result}, types,
                                   std::vector<tg::stdlib::Attr>(op("mul").params.size()));
    place_after(g, l.w, scaled);
    Node& y = g.node(g.region(Graph::kBody).nodes.back());
    y.operands.insert(y.operands.begin() + 1, g.node(scaled).results[0]);
    verify(g);
    for (int64_t n : {0, 1, 4}) {
        std::string printed;
        const auto r = run(g, 1.25, n, &printed);
        CHECK(r[1].item_i64() == n * n);
        std::string p0;
        LoopGraph plain;
        std::vector<ValueId> r0 = plain.g.finish(plain.w);
        ValueId o0[] = {r0[2], r0[0]};
        plain.g.yield(o0);
        CHECK(run(plain.g, 1.25, n, &p0)[0].item_f64() == r[0].item_f64());
        CHECK(printed == p0);
    }
}
