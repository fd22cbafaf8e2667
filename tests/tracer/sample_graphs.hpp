// Hand-built graphs of each construct, shared by the golden, pass and
// interpreter tests. Each mirrors a small tg function (shown above it).
#pragma once

#include "helpers.hpp"

namespace tg::tracer::test {

// def chain(x, y): return tanh(x * 0.5 + 1.0) * sigmoid(x) - y      (x, y: f32[3])
inline Graph chain_graph() {
    Graph g("chain");
    ValueId x = g.add_input(f32({3}), "x");
    ValueId y = g.add_input(f32({3}), "y");
    ValueId half = g.constant(Tensor::weak_float(0.5), at(1, 24));
    ValueId a = g.apply1("mul", {x, half}, at(1, 22));
    ValueId one = g.constant(Tensor::weak_float(1.0), at(1, 30));
    ValueId b = g.apply1("add", {a, one}, at(1, 28));
    ValueId t = g.apply1("tanh", {b}, at(1, 17));
    ValueId s = g.apply1("sigmoid", {x}, at(1, 36));
    ValueId m = g.apply1("mul", {t, s}, at(1, 34));
    ValueId r = g.apply1("sub", {m, y}, at(1, 48));
    ValueId out[] = {r};
    g.yield(out);
    return g;
}

// def f(x):                 (x: f32[])
//     if x > 0: y = x * 2
//     else: y = -x
//     return y
inline Graph cond_graph() {
    Graph g("f");
    ValueId x = g.add_input(f32(), "x");
    ValueId zero = g.constant(Tensor::weak_int(0), at(2, 12));
    ValueId c = g.apply1("gt", {x, zero}, at(2, 10));
    ValueId p = g.truth(c, at(2, 5));
    ValueId ins[] = {x};
    NodeId n = g.add_cond(p, ins, at(2, 5));
    g.enter(g.node(n).regions[0]);
    {
        ValueId xa = g.args(g.node(n).regions[0])[0];
        ValueId two = g.constant(Tensor::weak_int(2), at(2, 24));
        ValueId y = g.apply1("mul", {xa, two}, at(2, 22));
        ValueId out[] = {y};
        g.yield(out);
    }
    g.exit();
    g.enter(g.node(n).regions[1]);
    {
        ValueId xa = g.args(g.node(n).regions[1])[0];
        ValueId y = g.apply1("neg", {xa}, at(3, 15));
        ValueId out[] = {y};
        g.yield(out);
    }
    g.exit();
    std::vector<ValueId> r = g.finish(n);
    g.yield(r);
    return g;
}

// def collatz(n):           (n: i64[]) — a while loop carrying (n, steps)
//     steps = 0             with a cond nested in its body that captures n
//     while n != 1:
//         if n % 2 == 0: n = n // 2
//         else: n = 3 * n + 1
//         steps += 1
//     return steps
inline Graph collatz_graph() {
    Graph g("collatz");
    ValueId n0 = g.add_input(i64(), "n");
    ValueId steps0 = g.constant(Tensor::weak_int(0), at(2, 13));
    ValueId inits[] = {n0, steps0};
    NodeId w = g.add_while(inits, at(3, 5));
    RegionId cr = g.node(w).regions[0], br = g.node(w).regions[1];
    g.enter(cr);
    {
        ValueId n = g.args(cr)[0], s = g.args(cr)[1];
        ValueId one = g.constant(Tensor::weak_int(1), at(3, 16));
        ValueId ne = g.apply1("ne", {n, one}, at(3, 13));
        ValueId p = g.truth(ne, at(3, 5));
        ValueId out[] = {p, n, s};
        g.yield(out);
    }
    g.exit();
    g.enter(br);
    {
        ValueId n = g.args(br)[0], s = g.args(br)[1];
        ValueId two = g.constant(Tensor::weak_int(2), at(4, 16));
        ValueId m = g.apply1("mod", {n, two}, at(4, 14));
        ValueId zero = g.constant(Tensor::weak_int(0), at(4, 21));
        ValueId e = g.apply1("eq", {m, zero}, at(4, 18));
        ValueId p = g.truth(e, at(4, 9));
        NodeId c = g.add_cond(p, {}, at(4, 9));
        g.enter(g.node(c).regions[0]);
        {
            ValueId two2 = g.constant(Tensor::weak_int(2), at(4, 33));
            ValueId h = g.apply1("floordiv", {n, two2}, at(4, 30));
            ValueId out[] = {h};
            g.yield(out);
        }
        g.exit();
        g.enter(g.node(c).regions[1]);
        {
            ValueId three = g.constant(Tensor::weak_int(3), at(5, 19));
            ValueId t = g.apply1("mul", {three, n}, at(5, 21));
            ValueId one = g.constant(Tensor::weak_int(1), at(5, 27));
            ValueId u = g.apply1("add", {t, one}, at(5, 25));
            ValueId out[] = {u};
            g.yield(out);
        }
        g.exit();
        ValueId n2 = g.finish(c)[0];
        ValueId one = g.constant(Tensor::weak_int(1), at(6, 18));
        ValueId s2 = g.apply1("add", {s, one}, at(6, 15));
        ValueId out[] = {n2, s2};
        g.yield(out);
    }
    g.exit();
    std::vector<ValueId> r = g.finish(w);
    ValueId out[] = {r[1]};
    g.yield(out);
    return g;
}

// def check(x):             (x: f32[3]) — effects in program order
//     print("x is", x)
//     s = x.sum()
//     assert s > 0, f"sum must be positive: {s}"
//     print("ok")
//     return s
inline Graph effects_graph() {
    Graph g("check");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32({3}), "x");
    ValueId xs[] = {x};
    tok = g.print(tok, {{TextPiece::Text, "x is "}, {TextPiece::Str, "", 0}, {TextPiece::Text, "\n"}}, xs, at(2, 5));
    ValueId s = g.apply1("sum", {x}, at(3, 9));
    ValueId zero = g.constant(Tensor::weak_int(0), at(4, 16));
    ValueId c = g.apply1("gt", {s, zero}, at(4, 14));
    ValueId p = g.truth(c, at(4, 5));
    ValueId ss[] = {s};
    tok = g.assert_(tok, p, {{TextPiece::Text, "sum must be positive: "}, {TextPiece::Str, "", 0}}, ss, at(4, 5));
    tok = g.print(tok, {{TextPiece::Text, "ok\n"}}, {}, at(5, 5));
    ValueId out[] = {s, tok};
    g.yield(out);
    return g;
}

}  // namespace tg::tracer::test
