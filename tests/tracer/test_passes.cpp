// Each pass on its own (before/after text), and the pipeline. Every rewrite
// is checked by the verifier and, where it matters, by running the graph
// before and after with the reference interpreter.
#include <chrono>
#include <doctest/doctest.h>

#include "sample_graphs.hpp"
#include "stdlib/format.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/passes.hpp"

using namespace tg::tracer;
using namespace tg::tracer::test;

namespace {

std::string text(const Graph& g) { return "\n" + print_graph(g, {.locations = false}); }

std::string run_str(const Graph& g, std::vector<Tensor> in) {
    RunContext ctx;
    std::string out;
    ctx.write = [&](std::string_view s) { out += s; };
    for (const Tensor& t : run_graph(g, in, ctx)) out += "|" + tg::stdlib::to_repr(t);
    return out;
}

ValueId k(Graph& g, Tensor t) { return g.constant(std::move(t)); }

}  // namespace

TEST_CASE("fold: constant subexpressions are evaluated with the stdlib kernels") {
    Graph g("fold");
    ValueId x = g.add_input(f32({3}), "x");
    ValueId c = g.apply1("mul", {k(g, Tensor::weak_int(2)), k(g, Tensor::weak_int(3))});
    ValueId d = g.apply1("add", {x, c});
    ValueId q = g.apply1("floordiv", {k(g, Tensor::scalar(int64_t{1})), k(g, Tensor::scalar(int64_t{0}))}, at(4, 7));
    ValueId out[] = {d, q};
    g.yield(out);
    verify(g);
    CHECK(fold_constants(g));
    verify(g);
    CHECK(text(g) == R"(
func @fold(%x: f32[3]) -> (f32[3], i64[]) {
  %0 = const 2 : weak i64[]
  %1 = const 3 : weak i64[]
  %2 = const 6 : weak i64[]
  %3 = add %x, %2 : f32[3]
  %4 = const 1 : i64[]
  %5 = const 0 : i64[]
  %6 = floordiv %4, %5 : i64[]
  yield %3, %6
}
)");
    // 1 // 0 is not folded: the error must still happen when the graph runs.
    CHECK_FALSE(fold_constants(g));
}

TEST_CASE("fold: a cond with a constant predicate becomes its taken branch") {
    Graph g("c");
    ValueId x = g.add_input(f32(), "x");
    ValueId p = g.truth(g.apply1("gt", {k(g, Tensor::weak_int(1)), k(g, Tensor::weak_int(0))}));
    ValueId ins[] = {x};
    NodeId c = g.add_cond(p, ins);
    g.enter(g.node(c).regions[0]);
    ValueId o1[] = {g.apply1("mul", {g.args(g.node(c).regions[0])[0], k(g, Tensor::weak_int(2))})};
    g.yield(o1);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId o2[] = {g.apply1("neg", {g.args(g.node(c).regions[1])[0]})};
    g.yield(o2);
    g.exit();
    g.yield(g.finish(c));
    CHECK(fold_constants(g));
    verify(g);
    eliminate_dead_code(g);
    CHECK(text(g) == R"(
func @c(%x: f32[]) -> (f32[]) {
  %0 = const 2 : weak i64[]
  %1 = mul %x, %0 : f32[]
  yield %1
}
)");
}

TEST_CASE("fold: an assert that cannot fail is dropped, one that must fail is kept") {
    Graph g("a");
    ValueId tok = g.add_input_token();
    tok = g.assert_(tok, k(g, Tensor::scalar(true)), {{TextPiece::Text, "never"}}, {});
    tok = g.assert_(tok, k(g, Tensor::scalar(false)), {{TextPiece::Text, "always"}}, {});
    ValueId out[] = {tok};
    g.yield(out);
    CHECK(fold_constants(g));
    verify(g);
    eliminate_dead_code(g);
    CHECK(text(g) == R"(
func @a(%0: token) -> (token) {
  %1 = const false : bool[]
  %2 = assert %0, %1, "always" : token
  yield %2
}
)");
}

TEST_CASE("cse: equal pure nodes merge, constants merge only when bit-identical") {
    Graph g("cse");
    ValueId x = g.add_input(f32({3}), "x"), y = g.add_input(f32({3}), "y");
    ValueId a = g.apply1("mul", {x, y});
    ValueId b = g.apply1("mul", {x, y});
    ValueId s = g.apply1("add", {a, b});
    ValueId t = g.apply1("mul", {s, k(g, Tensor::weak_float(2.0))});
    ValueId u = g.apply1("mul", {s, k(g, Tensor::weak_float(2.0))});
    ValueId z1 = k(g, Tensor::scalar(0.0)), z2 = k(g, Tensor::scalar(-0.0));
    ValueId sum0 = g.apply1("sum", {x}, {}, {std::monostate{}, int64_t{0}, false});
    ValueId sum1 = g.apply1("sum", {x}, {}, {std::monostate{}, std::monostate{}, false});
    ValueId out[] = {t, u, z1, z2, sum0, sum1};
    g.yield(out);
    CHECK(eliminate_common_subexpressions(g));
    verify(g);
    CHECK(text(g) == R"(
func @cse(%x: f32[3], %y: f32[3]) -> (f32[3], f32[3], f32[], f32[], f32[], f32[]) {
  %0 = mul %x, %y : f32[3]
  %1 = add %0, %0 : f32[3]
  %2 = const 2.0 : weak f32[]
  %3 = mul %1, %2 : f32[3]
  %4 = const 0.0 : f32[]
  %5 = const -0.0 : f32[]
  %6 = sum %x {axis=0, keepdims=false} : f32[]
  %7 = sum %x {keepdims=false} : f32[]
  yield %3, %3, %4, %5, %6, %7
}
)");
    CHECK_FALSE(eliminate_common_subexpressions(g));
}

TEST_CASE("cse: nested regions reuse dominating values, never a sibling's") {
    Graph g("nest");
    ValueId x = g.add_input(f32(), "x");
    ValueId outer = g.apply1("exp", {x});
    ValueId p = g.truth(g.apply1("gt", {x, k(g, Tensor::weak_int(0))}));
    NodeId c = g.add_cond(p, {});
    g.enter(g.node(c).regions[0]);
    ValueId o1[] = {g.apply1("add", {g.apply1("exp", {x}), g.apply1("sin", {x})})};
    g.yield(o1);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId o2[] = {g.apply1("sin", {x})};
    g.yield(o2);
    g.exit();
    ValueId r = g.finish(c)[0];
    ValueId after = g.apply1("sin", {x});
    ValueId out[] = {outer, r, after};
    g.yield(out);
    CHECK(eliminate_common_subexpressions(g));
    verify(g);
    CHECK(text(g) == R"(
func @nest(%x: f32[]) -> (f32[], f32[], f32[]) {
  %0 = exp %x : f32[]
  %1 = const 0 : weak i64[]
  %2 = gt %x, %1 : bool[]
  %3 = truth %2 : bool[]
  %4 = cond %3 () {
  then():
    %5 = sin %x : f32[]
    %6 = add %0, %5 : f32[]
    yield %6
  else():
    %7 = sin %x : f32[]
    yield %7
  } : f32[]
  %8 = sin %x : f32[]
  yield %0, %4, %8
}
)");
}

TEST_CASE("cse: effects never merge") {
    Graph g("e");
    ValueId tok = g.add_input_token();
    auto a = g.apply(op("random_uniform"), {}, {std::vector<int64_t>{2}}, {}, tok);
    auto b = g.apply(op("random_uniform"), {}, {std::vector<int64_t>{2}}, {}, a[1]);
    ValueId out[] = {a[0], b[0], b[1]};
    g.yield(out);
    CHECK_FALSE(eliminate_common_subexpressions(g));
}

TEST_CASE("dce: unused pure nodes go, effects, may-raise nodes and loops stay") {
    Graph g("dce");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    ValueId n = g.add_input(i64(), "n");
    g.apply1("exp", {g.apply1("sin", {x})});                       // dead chain
    g.apply1("floordiv", {n, n}, at(3, 5));                         // may raise: kept
    tok = g.print(tok, {{TextPiece::Text, "hi\n"}}, {});            // effect: kept
    ValueId p = g.truth(g.apply1("gt", {x, x}));
    NodeId c = g.add_cond(p, {});                                   // pure, unused: removed
    g.enter(g.node(c).regions[0]);
    ValueId o1[] = {g.apply1("cos", {x})};
    g.yield(o1);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId o2[] = {x};
    g.yield(o2);
    g.exit();
    g.finish(c);
    ValueId inits[] = {n};                                          // loop: kept (may not terminate)
    NodeId w = g.add_while(inits);
    g.enter(g.node(w).regions[0]);
    ValueId cy[] = {g.constant(Tensor::scalar(false)), g.args(g.node(w).regions[0])[0]};
    g.yield(cy);
    g.exit();
    g.enter(g.node(w).regions[1]);
    ValueId by[] = {g.args(g.node(w).regions[1])[0]};
    g.yield(by);
    g.exit();
    g.finish(w);
    ValueId out[] = {tok};
    g.yield(out);
    CHECK(eliminate_dead_code(g));
    verify(g);
    CHECK(text(g) == R"(
func @dce(%0: token, %x: f32[], %n: i64[]) -> (token) {
  %1 = floordiv %n, %n : i64[]
  %2 = print %0, "hi\n" : token
  %3 = while (%n) {
  cond(%4: i64[]):
    %5 = const false : bool[]
    yield %5, %4
  body(%6: i64[]):
    yield %6
  } : i64[]
  yield %2
}
)");
    CHECK_FALSE(eliminate_dead_code(g));
}

TEST_CASE("simplify: identities that keep every bit") {
    Graph g("s");
    ValueId x = g.add_input(f32({3}), "x");
    ValueId i = g.add_input(i64({3}), "i");
    ValueId r1 = g.apply1("mul", {x, k(g, Tensor::weak_float(1.0))});       // x
    ValueId r2 = g.apply1("mul", {k(g, Tensor::weak_int(1)), x});           // x
    ValueId r3 = g.apply1("div", {x, k(g, Tensor::weak_int(1))});           // x
    ValueId r4 = g.apply1("sub", {x, k(g, Tensor::weak_float(0.0))});       // x
    ValueId r5 = g.apply1("add", {x, k(g, Tensor::scalar(-0.0))});          // x
    ValueId r6 = g.apply1("add", {i, k(g, Tensor::weak_int(0))});           // i
    ValueId r7 = g.apply1("floordiv", {i, k(g, Tensor::weak_int(1))});      // i
    ValueId r8 = g.apply1("neg", {g.apply1("neg", {x})});                    // x
    ValueId r9 = g.apply1("astype", {x}, {}, {std::monostate{}, DType::F32}); // x
    ValueId b = g.add_input(boolean(), "b");
    ValueId r10 = g.truth(g.truth(b));                                       // b
    ValueId out[] = {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10};
    g.yield(out);
    CHECK(simplify_algebra(g));
    verify(g);
    const Node& ret = g.node(g.region(Graph::kBody).nodes.back());
    CHECK(ret.operands == std::vector<ValueId>{x, x, x, x, x, i, i, x, x, b});
}

TEST_CASE("simplify: an element-wise op reads what a broadcast or a splat constant repeats") {
    auto make = [] {
        Graph g("b");
        ValueId x = g.add_input(f32({2, 3}), "x");
        ValueId s = g.add_input(f32(), "s");
        ValueId bs = g.apply1("broadcast_to", {s}, {}, {std::monostate{}, std::vector<int64_t>{2, 3}});
        ValueId out[] = {
            g.apply1("mul", {bs, x}),                             // mul(s, x)
            g.apply1("sub", {x, k(g, vec({0.5f, 0.5f, 0.5f}))}),  // sub(x, 0.5), a 0-d f32
            g.apply1("add", {bs, k(g, vec({1, 1, 1}))}),          // kept: no operand has the result's shape
            g.apply1("mul", {x, k(g, vec({1, 2, 1}))}),           // kept: not one value
        };
        g.yield(out);
        return g;
    };
    Graph g = make();
    CHECK(simplify_algebra(g));
    verify(g);
    const ValueId x = g.inputs()[0], s = g.inputs()[1];
    const Node& ret = g.node(g.region(Graph::kBody).nodes.back());
    auto operand = [&](size_t r, size_t k) { return g.node(g.value(ret.operands[r]).def).operands[k]; };
    CHECK(operand(0, 0) == s);
    CHECK(operand(0, 1) == x);
    CHECK(g.tensor_type(operand(1, 1)).shape.rank() == 0);
    CHECK(g.tensor_type(operand(1, 1)).dtype == DType::F32);
    CHECK(g.tensor_type(operand(2, 0)).shape.rank() == 2);
    CHECK(g.tensor_type(operand(3, 1)).shape.rank() == 1);
    Tensor xs = Tensor::empty(DType::F32, Shape{2, 3});
    for (int i = 0; i < 6; ++i) xs.data<float>()[i] = float(i % 2 ? -i : i) * 0.75f;
    std::vector<Tensor> in{xs, Tensor::scalar(1.5)};
    CHECK(run_str(g, in) == run_str(make(), in));
}

TEST_CASE("simplify: no rewrite that could change a value, dtype or shape") {
    Graph g("n");
    ValueId x = g.add_input(f32({3}), "x");
    ValueId s = g.add_input(f32(), "s");
    ValueId i = g.add_input(i64({3}), "i");
    ValueId keep[] = {
        g.apply1("add", {x, k(g, Tensor::weak_float(0.0))}),   // -0.0 + 0.0 is +0.0
        g.apply1("add", {x, k(g, Tensor::weak_int(0))}),       // same, via a weak int
        g.apply1("sub", {x, k(g, Tensor::scalar(-0.0))}),      // -0.0 - -0.0 is +0.0
        g.apply1("mul", {x, k(g, Tensor::weak_int(0))}),       // NaN * 0 is NaN, -1 * 0 is -0.0
        g.apply1("mul", {s, k(g, vec({1, 1, 1}))}),            // broadcasts s to (3,)
        g.apply1("mul", {i, k(g, Tensor::weak_float(1.0))}),   // promotes i64 to f32
        g.apply1("div", {i, k(g, Tensor::weak_int(1))}),       // true division gives f32
        g.apply1("floordiv", {x, k(g, Tensor::weak_int(1))}),  // floor(x / 1) is not x for floats
        g.apply1("mul", {x, k(g, vec({1, 2, 1}))}),            // not all ones
        g.apply1("astype", {x}, {}, {std::monostate{}, DType::F64}),
    };
    g.yield(keep);
    CHECK_FALSE(simplify_algebra(g));
}

TEST_CASE("pipeline: verifies after every pass, dumps by name, keeps results") {
    for (Graph (*make)() : {chain_graph, cond_graph, collatz_graph, effects_graph}) {
        Graph before = make(), after = make();
        std::vector<std::string> dumps;
        PipelineOptions opts;
        opts.dump_after = {"cse"};
        opts.dump = [&](std::string_view pass, const std::string& t) {
            CHECK(pass == "cse");
            dumps.push_back(t);
        };
        int rounds = optimize(after, opts);
        CHECK(rounds >= 1);
        CHECK(!dumps.empty());
        verify(after);
        std::vector<Tensor> in;
        for (ValueId v : before.inputs()) {
            const TensorType& t = before.tensor_type(v);
            in.push_back(t.dtype == DType::I64 ? Tensor::scalar(int64_t{27}) : (t.shape.rank() ? vec({1.5f, -2.0f, 3.0f}) : Tensor::scalar(-4.0)));
        }
        CHECK(run_str(after, in) == run_str(before, in));
    }
}

TEST_CASE("pipeline: a pass that breaks the graph is named") {
    static bool (*breaker)(Graph&) = [](Graph& g) {
        auto& body = g.region(Graph::kBody).nodes;
        std::swap(body[0], body[1]);
        return true;
    };
    Pass passes[] = {{"fold", fold_constants}, {"breaker", breaker}};
    Graph g = chain_graph();
    CHECK_THROWS_WITH_AS(run_pipeline(g, passes), doctest::Contains("after pass breaker: verifier:"), VerifyError);
    CHECK(find_pass("cse") != nullptr);
    CHECK(find_pass("nope") == nullptr);
}

TEST_CASE("pipeline: the sample chain keeps its shape, folded collatz stays correct") {
    Graph g = collatz_graph();
    optimize(g);
    // The loop's constants are still there (nothing to fold: n is an input), the graph is unchanged in meaning.
    Tensor in[] = {Tensor::scalar(int64_t{27})};
    RunContext ctx;
    CHECK(run_graph(g, in, ctx)[0].item_i64() == 111);
    // After CSE the duplicate `const 2` and `const 1` in the loop body are one node each.
    std::string t = print_graph(g, {.locations = false});
    size_t twos = 0;
    for (size_t p = t.find("const 2 "); p != std::string::npos; p = t.find("const 2 ", p + 1)) ++twos;
    CHECK(twos == 1);
}

TEST_CASE("dce: unused cond results go, with what the branches computed for them") {
    // if x > 0: a = sin(x); b = cos(x)  else: a = x; b = x      return a
    Graph g("cr");
    ValueId x = g.add_input(f32(), "x");
    ValueId p = g.truth(g.apply1("gt", {x, k(g, Tensor::weak_int(0))}));
    NodeId c = g.add_cond(p, {});
    g.enter(g.node(c).regions[0]);
    ValueId o1[] = {g.apply1("sin", {x}), g.apply1("cos", {x})};
    g.yield(o1);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId o2[] = {x, x};
    g.yield(o2);
    g.exit();
    auto r = g.finish(c);
    ValueId out[] = {r[0]};
    g.yield(out);
    std::string before = run_str(g, {Tensor::scalar(0.5)}) + run_str(g, {Tensor::scalar(-0.5)});
    CHECK(eliminate_dead_code(g));
    verify(g);
    CHECK(text(g) == R"(
func @cr(%x: f32[]) -> (f32[]) {
  %0 = const 0 : weak i64[]
  %1 = gt %x, %0 : bool[]
  %2 = truth %1 : bool[]
  %3 = cond %2 () {
  then():
    %4 = sin %x : f32[]
    yield %4
  else():
    yield %x
  } : f32[]
  yield %3
}
)");
    CHECK(run_str(g, {Tensor::scalar(0.5)}) + run_str(g, {Tensor::scalar(-0.5)}) == before);
}

TEST_CASE("dce: a cond that only passes the token through goes, one with an effect or a possible error stays") {
    // if x > 0: y = sin(x) else: y = x (y unused) — the token threaded through it
    Graph g("tok");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    ValueId n = g.add_input(i64(), "n");
    auto cond = [&](ValueId t, int kind) {
        ValueId p = g.truth(g.apply1("gt", {x, k(g, Tensor::weak_int(0))}));
        ValueId ins[] = {t};
        NodeId c = g.add_cond(p, ins);
        g.enter(g.node(c).regions[0]);
        ValueId t0 = g.args(g.node(c).regions[0])[0];
        ValueId y = g.apply1("sin", {x});
        if (kind == 1) t0 = g.print(t0, {{TextPiece::Text, "then\n"}}, {});  // an effect
        if (kind == 2) y = g.apply1("astype", {g.apply1("floordiv", {n, n}, at(4, 9))}, {}, {std::monostate{}, DType::F32});  // may raise
        ValueId o1[] = {t0, y};
        g.yield(o1);
        g.exit();
        g.enter(g.node(c).regions[1]);
        ValueId o2[] = {g.args(g.node(c).regions[1])[0], x};
        g.yield(o2);
        g.exit();
        return g.finish(c)[0];
    };
    tok = cond(tok, 0);  // removable
    tok = cond(tok, 1);  // prints: stays
    tok = cond(tok, 2);  // may raise: stays
    ValueId out[] = {x, tok};
    g.yield(out);
    verify(g);
    std::string before = run_str(g, {Tensor::scalar(0.5), Tensor::scalar(int64_t(1))});
    CHECK(eliminate_dead_code(g));
    verify(g);
    int conds = 0;
    g.walk(Graph::kBody, [&](NodeId m) { conds += g.node(m).op == Op::Cond; });
    CHECK(conds == 2);
    CHECK(run_str(g, {Tensor::scalar(0.5), Tensor::scalar(int64_t(1))}) == before);
}

// A pass replaced node after node by walking the whole graph each time: a
// 20,000-node chain took seconds per pass (a traced function of 20,000
// statements spent 6 s optimizing). The chain's nodes all simplify away.
Graph rewritable_chain(int n) {
    Graph g("chain");
    ValueId x = g.add_input(f32({}), "x");
    ValueId y = x;
    for (int i = 0; i < n; ++i) {
        y = g.apply1("mul", {y, k(g, Tensor::scalar(1.0f))});  // simplify: each is y
        y = g.apply1("neg", {g.apply1("neg", {y})});           // simplify: neg(neg(y)) is y
        y = g.apply1("add", {y, k(g, Tensor::scalar(2.0f))});  // cse: the n constants 2.0 are one
    }
    g.yield({&y, 1});
    return g;
}
void sweep(Graph& g) {
    simplify_algebra(g);
    eliminate_common_subexpressions(g);
    eliminate_dead_code(g);
}
// The fastest of three sweeps of a fresh chain of n links, in seconds.
double sweep_seconds(int n) {
    double best = 1e9;
    for (int r = 0; r < 3; ++r) {
        Graph g = rewritable_chain(n);
        const auto t0 = std::chrono::steady_clock::now();
        sweep(g);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

TEST_CASE("passes rewrite a 20,000-node chain in one sweep") {
    constexpr int n = 20000;
    Graph g = rewritable_chain(n);
    verify(g);
    Graph before = g;
    CHECK(simplify_algebra(g));
    verify(g);
    CHECK(eliminate_common_subexpressions(g));
    verify(g);
    eliminate_dead_code(g);
    verify(g);
    CHECK(g.live_node_count() == n + 2);  // the adds, one constant, the yield
    CHECK(run_str(g, {Tensor::scalar(0.5f)}) == run_str(before, {Tensor::scalar(0.5f)}));
}

// Linear, not quadratic: 8x the links costs 8x the time and more as the
// graph outgrows the caches (about 24x measured), 64x and more if each
// rewrite walked the graph. A ratio of two sizes, not a time.
TEST_CASE("a sweep of the passes grows linearly with the graph") {
    const double small = sweep_seconds(2500), large = sweep_seconds(20000);
    INFO("2,500 links: " << small << " s; 20,000 links: " << large << " s");
    CHECK(large / small < 44.0);
}
