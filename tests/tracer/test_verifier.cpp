// The verifier rejects broken graphs, one test per rule, and names the node.
#include <doctest/doctest.h>

#include "sample_graphs.hpp"

using namespace tg::tracer;
using namespace tg::tracer::test;

// The verifier's message for g, or "" if it accepts g.
static std::string failure(const Graph& g) {
    try {
        verify(g);
    } catch (const VerifyError& e) {
        return e.what();
    }
    return "";
}
static bool mentions(const std::string& msg, const std::string& part) { return msg.find(part) != std::string::npos; }

TEST_CASE("verifier accepts every sample graph") {
    CHECK(failure(chain_graph()) == "");
    CHECK(failure(cond_graph()) == "");
    CHECK(failure(collatz_graph()) == "");
    CHECK(failure(effects_graph()) == "");
}

TEST_CASE("rule: every region ends with a yield") {
    Graph g;
    ValueId x = g.add_input(f32(), "x");
    g.apply1("neg", {x});
    CHECK(mentions(failure(g), "region 0 does not end with a yield"));
}

TEST_CASE("rule: a yield only at the end of its region") {
    Graph g;
    ValueId x = g.add_input(f32(), "x");
    ValueId out[] = {x};
    g.yield(out);
    g.apply1("neg", {x});
    g.yield(out);
    CHECK(mentions(failure(g), "yield before the end of its region"));
}

TEST_CASE("rule: operands dominate their use (SSA order)") {
    Graph g = chain_graph();
    // Move the sigmoid after its user.
    auto& body = g.region(Graph::kBody).nodes;
    std::swap(body[5], body[6]);  // sigmoid <-> mul(tanh, sigmoid)
    std::string msg = failure(g);
    CHECK(mentions(msg, "does not dominate its use"));
    CHECK(mentions(msg, "mul (f.tg:1:34)"));  // names the node that broke the rule
}

TEST_CASE("rule: a value of one branch is not visible in the other") {
    Graph g = cond_graph();
    const Node& c = g.node(g.region(Graph::kBody).nodes[3]);
    REQUIRE(c.op == Op::Cond);
    // The else branch's neg now reads the then branch's argument.
    ValueId then_arg = g.region(c.regions[0]).args[0];
    NodeId neg = g.region(c.regions[1]).nodes[0];
    g.node(neg).operands[0] = then_arg;
    CHECK(mentions(failure(g), "does not dominate"));
}

TEST_CASE("rule: values defined inside a region are not visible after it") {
    Graph g = cond_graph();
    const Node& c = g.node(g.region(Graph::kBody).nodes[3]);
    ValueId inner = g.node(g.region(c.regions[1]).nodes[0]).results[0];
    NodeId ret = g.region(Graph::kBody).nodes.back();
    g.node(ret).operands[0] = inner;
    CHECK(mentions(failure(g), "does not dominate"));
}

TEST_CASE("rule: tokens are not captured implicitly by nested regions") {
    Graph g("t");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    ValueId p = g.truth(g.apply1("gt", {x, x}));
    NodeId c = g.add_cond(p, {});
    g.enter(g.node(c).regions[0]);
    ValueId t1 = g.print(tok, {{TextPiece::Text, "hi\n"}}, {});
    ValueId o1[] = {t1};
    g.yield(o1);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId o2[] = {tok};
    g.yield(o2);
    g.exit();
    auto r = g.finish(c);
    g.yield(r);
    CHECK(mentions(failure(g), "token captured from an enclosing region"));
}

TEST_CASE("rule: a token is used exactly once (not twice)") {
    Graph g("t");
    ValueId tok = g.add_input_token();
    ValueId t1 = g.print(tok, {{TextPiece::Text, "a\n"}}, {});
    g.print(tok, {{TextPiece::Text, "b\n"}}, {});  // forks the effect order
    ValueId out[] = {t1};
    g.yield(out);
    CHECK(mentions(failure(g), "used 2 times"));
}

TEST_CASE("rule: a token is used exactly once (not dropped)") {
    Graph g("t");
    ValueId tok = g.add_input_token();
    g.print(tok, {{TextPiece::Text, "a\n"}}, {});
    g.yield({});
    CHECK(mentions(failure(g), "used 0 times"));
}

TEST_CASE("rule: effect nodes take a token first") {
    Graph g("t");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    ValueId t1 = g.print(tok, {{TextPiece::Text, "a\n"}}, {});
    g.node(g.value(t1).def).operands[0] = x;
    ValueId out[] = {t1};
    g.yield(out);
    std::string msg = failure(g);
    CHECK(mentions(msg, "operand 0 must be a token"));
    CHECK(mentions(msg, "print"));
}

TEST_CASE("rule: pure nodes take no token") {
    Graph g("t");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    ValueId y = g.apply1("neg", {x});
    g.node(g.value(y).def).operands[0] = tok;
    ValueId out[] = {y};
    g.yield(out);
    CHECK(mentions(failure(g), "is a token"));
}

TEST_CASE("rule: apply operands satisfy the op's shape rule") {
    Graph g = chain_graph();
    // sub(mul, y) with y replaced by a f32[4] input.
    ValueId z = g.add_input(f32({4}), "z");
    NodeId sub = g.region(Graph::kBody).nodes[7];
    g.node(sub).operands[1] = z;
    std::string msg = failure(g);
    CHECK(mentions(msg, "rejected by the op's shape rule"));
    CHECK(mentions(msg, "#"));
}

TEST_CASE("rule: apply results have the type the shape rule gives") {
    Graph g;
    ValueId x = g.add_input(f32({3}), "x");
    ValueType wrong = ValueType::of(f32({4}));
    NodeId n = g.create(Op::Apply, &op("neg"), {x}, {&wrong, 1}, {std::monostate{}});
    g.append(n);
    ValueId out[] = {g.node(n).results[0]};
    g.yield(out);
    CHECK(mentions(failure(g), "result 0 has type f32[4], expected f32[3]"));
}

TEST_CASE("rule: apply has one attribute per op parameter") {
    Graph g;
    ValueId x = g.add_input(f32({3}), "x");
    ValueId y = g.apply1("neg", {x});
    g.node(g.value(y).def).attrs.clear();
    ValueId out[] = {y};
    g.yield(out);
    CHECK(mentions(failure(g), "attributes, op has 1 parameters"));
}

TEST_CASE("rule: random ops take a token") {
    Graph g;
    ValueType t[] = {ValueType::of(f32({2}))};
    NodeId n = g.create(Op::Apply, &op("random_uniform"), {}, t,
                        {std::vector<int64_t>{2}, 0.0, 1.0, tg::stdlib::DType::F32});
    g.append(n);
    ValueId out[] = {g.node(n).results[0]};
    g.yield(out);
    CHECK(mentions(failure(g), "operand 0 must be a token"));
}

TEST_CASE("rule: constant result matches its tensor") {
    Graph g;
    ValueType wrong = ValueType::of(i64());
    NodeId n = g.create(Op::Constant, nullptr, {}, {&wrong, 1}, {}, Tensor::scalar(1.5));
    g.append(n);
    ValueId out[] = {g.node(n).results[0]};
    g.yield(out);
    CHECK(mentions(failure(g), "expected f32[]"));
}

TEST_CASE("rule: truth takes a one-element tensor") {
    Graph g;
    ValueId x = g.add_input(f32({3}), "x");
    ValueType b = ValueType::of(boolean());
    NodeId n = g.create(Op::Truth, nullptr, {x}, {&b, 1});
    g.append(n);
    ValueId out[] = {g.node(n).results[0]};
    g.yield(out);
    CHECK(mentions(failure(g), "truth of a tensor without exactly one element"));
    // The builder refuses it with the eager message.
    Graph h;
    ValueId y = h.add_input(f32({2, 3}), "y");
    CHECK_THROWS_WITH_AS(h.truth(y), "the truth value of a tensor with 6 elements is ambiguous; use any() or all()",
                         tg::stdlib::OpError);
}

TEST_CASE("rule: cond predicate is bool[]") {
    Graph g = cond_graph();
    NodeId c = g.region(Graph::kBody).nodes[3];
    g.node(c).operands[0] = g.inputs()[0];  // f32[] instead of bool[]
    CHECK(mentions(failure(g), "cond predicate must be bool[]"));
}

TEST_CASE("rule: cond region arguments match its inputs") {
    Graph g = cond_graph();
    NodeId c = g.region(Graph::kBody).nodes[3];
    g.node(c).operands.push_back(g.inputs()[0]);  // one more input than region arguments
    CHECK(mentions(failure(g), "then region has 1 arguments, expected 2"));
}

TEST_CASE("rule: both branches yield the cond's result types") {
    Graph g = cond_graph();
    const Node& c = g.node(g.region(Graph::kBody).nodes[3]);
    NodeId else_yield = g.region(c.regions[1]).nodes.back();
    ValueId b = g.node(g.region(Graph::kBody).nodes[1]).results[0];  // gt: bool[]
    g.node(else_yield).operands[0] = b;
    CHECK(mentions(failure(g), "else region yield 0 has type bool[], expected f32[]"));
}

TEST_CASE("rule: a while's cond region yields a bool[] predicate first") {
    Graph g = collatz_graph();
    const Node& w = g.node(g.region(Graph::kBody).nodes[1]);
    REQUIRE(w.op == Op::While);
    NodeId cy = g.region(w.regions[0]).nodes.back();
    std::swap(g.node(cy).operands[0], g.node(cy).operands[1]);
    CHECK(mentions(failure(g), "cond region must yield a bool[] predicate first"));
}

TEST_CASE("rule: a while's body yields the carried types") {
    Graph g = collatz_graph();
    const Node& w = g.node(g.region(Graph::kBody).nodes[1]);
    NodeId by = g.region(w.regions[1]).nodes.back();
    g.node(by).operands.pop_back();
    CHECK(mentions(failure(g), "body region yields 1 values, expected 2"));
}

TEST_CASE("rule: a while's results have the carried types") {
    Graph g = collatz_graph();
    NodeId w = g.region(Graph::kBody).nodes[1];
    g.node(w).results.pop_back();
    CHECK(mentions(failure(g), "has 1 results, expected 2"));
}

TEST_CASE("rule: print templates refer to printed tensor operands") {
    Graph g = effects_graph();
    NodeId p = g.region(Graph::kBody).nodes[0];
    REQUIRE(g.node(p).op == Op::Print);
    std::get<Template>(g.node(p).payload)[1].operand = 0;  // the token
    CHECK(mentions(failure(g), "text piece refers to operand 0"));
}

TEST_CASE("rule: assert condition is bool[]") {
    Graph g = effects_graph();
    NodeId a = g.region(Graph::kBody).nodes[5];
    REQUIRE(g.node(a).op == Op::Assert);
    g.node(a).operands[1] = g.inputs()[0];
    CHECK(mentions(failure(g), "assert condition must be bool[]"));
}

TEST_CASE("rule: index results follow the index shape rule") {
    Graph g;
    ValueId x = g.add_input(f32({4, 3}), "x");
    IndexSpec spec{{{tg::stdlib::IndexItem::Int, 1, {}, {}, {}}}, {false}};
    ValueType wrong = ValueType::of(f32({4}));
    NodeId n = g.create(Op::Index, nullptr, {x}, {&wrong, 1}, {}, spec);
    g.append(n);
    ValueId out[] = {g.node(n).results[0]};
    g.yield(out);
    CHECK(mentions(failure(g), "result 0 has type f32[4], expected f32[3]"));
}

TEST_CASE("rule: dynamic index operands are 0-d integers") {
    Graph g;
    ValueId x = g.add_input(f32({4}), "x");
    ValueId i = g.add_input(f32(), "i");
    IndexSpec spec{{{tg::stdlib::IndexItem::Int, 0, {}, {}, {}}}, {true}};
    ValueType t = ValueType::of(f32());
    NodeId n = g.create(Op::Index, nullptr, {x, i}, {&t, 1}, {}, spec);
    g.append(n);
    ValueId out[] = {g.node(n).results[0]};
    g.yield(out);
    CHECK(mentions(failure(g), "must be a 0-d integer"));
}

TEST_CASE("rule: a node is listed once, and erased nodes not at all") {
    Graph g = chain_graph();
    auto& body = g.region(Graph::kBody).nodes;
    body.insert(body.begin() + 2, body[1]);
    CHECK(mentions(failure(g), "node listed twice"));
    Graph h = chain_graph();
    NodeId n = h.region(Graph::kBody).nodes[0];
    h.node(n).erased = true;
    CHECK(mentions(failure(h), "erased node still listed"));
}

TEST_CASE("rule: only cond and while own regions") {
    Graph g = cond_graph();
    NodeId gt = g.region(Graph::kBody).nodes[1];
    NodeId c = g.region(Graph::kBody).nodes[3];
    g.node(gt).regions = g.node(c).regions;
    CHECK(mentions(failure(g), "only cond and while own regions"));
}

TEST_CASE("rule: a nested region without a yield is reported, not read past") {
    Graph g = cond_graph();
    const Node& c = g.node(g.region(Graph::kBody).nodes[3]);
    g.region(c.regions[1]).nodes.clear();
    CHECK(mentions(failure(g), "does not end with a yield"));
}
