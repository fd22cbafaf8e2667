// Golden IR text of hand-built graphs of each construct, and the builder's
// bookkeeping. The expected text was checked by hand against the tg source
// each graph mirrors (sample_graphs.hpp).
#include <doctest/doctest.h>

#include "sample_graphs.hpp"

using namespace tg::tracer;
using namespace tg::tracer::test;

static const char* const kChainGolden = R"(
func @chain(%x: f32[3], %y: f32[3]) -> (f32[3]) {
  %0 = const 0.5 : weak f32[]  loc(f.tg:1:24)
  %1 = mul %x, %0 : f32[3]  loc(f.tg:1:22)
  %2 = const 1.0 : weak f32[]  loc(f.tg:1:30)
  %3 = add %1, %2 : f32[3]  loc(f.tg:1:28)
  %4 = tanh %3 : f32[3]  loc(f.tg:1:17)
  %5 = sigmoid %x : f32[3]  loc(f.tg:1:36)
  %6 = mul %4, %5 : f32[3]  loc(f.tg:1:34)
  %7 = sub %6, %y : f32[3]  loc(f.tg:1:48)
  yield %7
}
)";

static const char* const kCondGolden = R"(
func @f(%x: f32[]) -> (f32[]) {
  %0 = const 0 : weak i64[]  loc(f.tg:2:12)
  %1 = gt %x, %0 : bool[]  loc(f.tg:2:10)
  %2 = truth %1 : bool[]  loc(f.tg:2:5)
  %3 = cond %2 (%x)  loc(f.tg:2:5) {
  then(%4: f32[]):
    %5 = const 2 : weak i64[]  loc(f.tg:2:24)
    %6 = mul %4, %5 : f32[]  loc(f.tg:2:22)
    yield %6
  else(%7: f32[]):
    %8 = neg %7 : f32[]  loc(f.tg:3:15)
    yield %8
  } : f32[]
  yield %3
}
)";

static const char* const kCollatzGolden = R"(
func @collatz(%n: i64[]) -> (weak i64[]) {
  %0 = const 0 : weak i64[]  loc(f.tg:2:13)
  %1, %2 = while (%n, %0)  loc(f.tg:3:5) {
  cond(%3: i64[], %4: weak i64[]):
    %5 = const 1 : weak i64[]  loc(f.tg:3:16)
    %6 = ne %3, %5 : bool[]  loc(f.tg:3:13)
    %7 = truth %6 : bool[]  loc(f.tg:3:5)
    yield %7, %3, %4
  body(%8: i64[], %9: weak i64[]):
    %10 = const 2 : weak i64[]  loc(f.tg:4:16)
    %11 = mod %8, %10 : i64[]  loc(f.tg:4:14)
    %12 = const 0 : weak i64[]  loc(f.tg:4:21)
    %13 = eq %11, %12 : bool[]  loc(f.tg:4:18)
    %14 = truth %13 : bool[]  loc(f.tg:4:9)
    %15 = cond %14 ()  loc(f.tg:4:9) {
    then():
      %16 = const 2 : weak i64[]  loc(f.tg:4:33)
      %17 = floordiv %8, %16 : i64[]  loc(f.tg:4:30)
      yield %17
    else():
      %18 = const 3 : weak i64[]  loc(f.tg:5:19)
      %19 = mul %18, %8 : i64[]  loc(f.tg:5:21)
      %20 = const 1 : weak i64[]  loc(f.tg:5:27)
      %21 = add %19, %20 : i64[]  loc(f.tg:5:25)
      yield %21
    } : i64[]
    %22 = const 1 : weak i64[]  loc(f.tg:6:18)
    %23 = add %9, %22 : weak i64[]  loc(f.tg:6:15)
    yield %15, %23
  } : i64[], weak i64[]
  yield %2
}
)";

static const char* const kEffectsGolden = R"(
func @check(%0: token, %x: f32[3]) -> (f32[], token) {
  %1 = print %0, "x is ", str(%x), "\n" : token  loc(f.tg:2:5)
  %2 = sum %x {keepdims=false} : f32[]  loc(f.tg:3:9)
  %3 = const 0 : weak i64[]  loc(f.tg:4:16)
  %4 = gt %2, %3 : bool[]  loc(f.tg:4:14)
  %5 = truth %4 : bool[]  loc(f.tg:4:5)
  %6 = assert %1, %5, "sum must be positive: ", str(%2) : token  loc(f.tg:4:5)
  %7 = print %6, "ok\n" : token  loc(f.tg:5:5)
  yield %2, %7
}
)";

TEST_CASE("golden: element-wise chain") {
    Graph g = chain_graph();
    verify(g);
    CHECK(print_nl(g) == kChainGolden);
}

TEST_CASE("golden: cond with region arguments") {
    Graph g = cond_graph();
    verify(g);
    CHECK(print_nl(g) == kCondGolden);
}

TEST_CASE("golden: while with loop-carried values and a nested cond") {
    Graph g = collatz_graph();
    verify(g);
    CHECK(print_nl(g) == kCollatzGolden);
}

TEST_CASE("golden: print and assert ordered by the token") {
    Graph g = effects_graph();
    verify(g);
    CHECK(print_nl(g) == kEffectsGolden);
}

TEST_CASE("printing is deterministic and numbers values in print order") {
    Graph a = collatz_graph();
    Graph b = collatz_graph();
    CHECK(print_graph(a) == print_graph(b));
    // Without locations the text carries no "loc(".
    CHECK(print_graph(a, {.locations = false}).find("loc(") == std::string::npos);
}

TEST_CASE("builder: result types come from the op's shape rule") {
    Graph g;
    ValueId x = g.add_input(f32({2, 3}), "x");
    ValueId b = g.add_input(f32({3}), "b");
    ValueId s = g.apply1("add", {x, b});
    CHECK(to_string(g.type(s)) == "f32[2,3]");
    ValueId i = g.add_input(TensorType{DType::I32, {}, false}, "i");
    ValueId w = g.apply1("add", {i, g.constant(Tensor::weak_int(1))});
    CHECK(to_string(g.type(w)) == "i32[]");  // a weak literal takes the tensor's dtype
    ValueId d = g.apply1("div", {i, i});
    CHECK(to_string(g.type(d)) == "f32[]");  // true division of integers
    // A rejected shape adds nothing and throws the op's error.
    size_t before = g.region(Graph::kBody).nodes.size();
    CHECK_THROWS_AS(g.apply1("add", {x, g.add_input(f32({4}), "z")}), tg::stdlib::OpError);
    CHECK(g.region(Graph::kBody).nodes.size() == before);
}

TEST_CASE("builder: random ops thread a token and get one back") {
    Graph g("r");
    ValueId tok = g.add_input_token();
    auto res = g.apply(op("random_uniform"), {}, {std::vector<int64_t>{4}}, at(1, 1), tok);
    REQUIRE(res.size() == 2);
    CHECK(to_string(g.type(res[0])) == "f32[4]");
    CHECK(g.type(res[1]).token);
    CHECK(g.node(g.value(res[0]).def).operands[0] == tok);
    ValueId out[] = {res[0], res[1]};
    g.yield(out);
    verify(g);
    CHECK(print_graph(g, {.locations = false}) ==
          "func @r(%0: token) -> (f32[4], token) {\n"
          "  %1, %2 = random_uniform %0 {shape=(4,), low=0.0, high=1.0, dtype=f32} : f32[4], token\n"
          "  yield %1, %2\n"
          "}\n");
}

TEST_CASE("builder: index with static and dynamic items") {
    Graph g("ix");
    ValueId x = g.add_input(f32({4, 3}), "x");
    ValueId i = g.add_input(i64(), "i");
    IndexSpec spec;
    spec.items = {{tg::stdlib::IndexItem::Int, 0, {}, {}, {}}, {tg::stdlib::IndexItem::Slice, 0, 1, {}, {}}};
    spec.dynamic = {true, false};
    ValueId dyn[] = {i};
    ValueId r = g.index(x, spec, dyn, at(2, 6));
    CHECK(to_string(g.type(r)) == "f32[2]");
    ValueId v = g.constant(Tensor::weak_float(0.0));
    ValueId y = g.index_assign(x, v, spec, dyn, at(3, 6));
    CHECK(to_string(g.type(y)) == "f32[4,3]");
    ValueId out[] = {r, y};
    g.yield(out);
    verify(g);
    std::string text = print_graph(g, {.locations = false});
    CHECK(text.find("= index %x[%i, 1:] : f32[2]") != std::string::npos);
    CHECK(text.find("= index_assign %x[%i, 1:] = %1 : f32[4,3]") != std::string::npos);
}

TEST_CASE("DOT output has a cluster per region, labelled with its construct and line, and dashed token edges") {
    std::string dot = to_dot(collatz_graph());
    CHECK(dot.rfind("digraph \"collatz\" {", 0) == 0);
    CHECK(dot.find("subgraph cluster_") != std::string::npos);
    CHECK(dot.find("label=\"while at f.tg:3: cond\"") != std::string::npos);
    CHECK(dot.find("label=\"while at f.tg:3: body\"") != std::string::npos);
    CHECK(dot.find("label=\"if at f.tg:4: then\"") != std::string::npos);
    CHECK(dot.find("tooltip=\"f.tg:4: line 4\"") != std::string::npos);  // the source line of the node
    CHECK(dot.find("-> n") != std::string::npos);
    CHECK(dot.back() == '\n');
    std::string eff = to_dot(effects_graph());
    CHECK(eff.find("[style=dashed]") != std::string::npos);
    CHECK(eff.find("fillcolor=lightyellow") != std::string::npos);
}

TEST_CASE("rewriting helpers: replace_all_uses, erase, use counts") {
    Graph g = chain_graph();
    auto uses = g.use_counts();
    ValueId x = g.inputs()[0];
    CHECK(uses[x] == 2);  // mul and sigmoid
    ValueId y = g.inputs()[1];
    g.replace_all_uses(y, x);
    CHECK(g.use_counts()[y] == 0);
    CHECK(g.use_counts()[x] == 3);
    verify(g);
    size_t live = g.live_node_count();
    CHECK(live == 9);
}
