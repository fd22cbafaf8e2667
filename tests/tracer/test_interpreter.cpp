// The reference graph interpreter against eager stdlib results, and runtime
// errors with their source locations.
#include <doctest/doctest.h>

#include <cstring>

#include "sample_graphs.hpp"
#include "stdlib/format.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/passes.hpp"

using namespace tg::tracer;
using namespace tg::tracer::test;

namespace {

// Eager evaluation of one op with the stdlib kernel (what interp does).
Tensor eager(std::string_view name, std::vector<Tensor> in, std::vector<tg::stdlib::Attr> attrs = {}) {
    const tg::stdlib::OpDef& d = op(name);
    attrs.resize(d.params.size());
    for (size_t i = 0; i < attrs.size(); ++i)
        if (std::holds_alternative<std::monostate>(attrs[i]) && !d.params[i].required) attrs[i] = d.params[i].default_value;
    tg::stdlib::OpContext ctx{};
    return d.eager(ctx, tg::stdlib::OpArgs{in, attrs});
}

std::vector<Tensor> run(const Graph& g, std::vector<Tensor> in, std::string* out = nullptr, tg::stdlib::Rng* rng = nullptr) {
    verify(g);
    RunContext ctx;
    ctx.rng = rng;
    ctx.write = [&](std::string_view s) {
        if (out) *out += s;
    };
    return run_graph(g, in, ctx);
}

bool bit_equal(const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
    Tensor ca = a.contiguous(), cb = b.contiguous();
    return std::memcmp(ca.raw_data(), cb.raw_data(), static_cast<size_t>(ca.numel()) * tg::stdlib::dtype_size(ca.dtype())) == 0;
}

// The RuntimeError a run raises (message and location), or an empty message.
RuntimeError run_error(const Graph& g, std::vector<Tensor> in, std::string* out = nullptr) {
    try {
        run(g, std::move(in), out);
    } catch (const RuntimeError& e) {
        return e;
    }
    return RuntimeError("", {});
}

}  // namespace

TEST_CASE("interpreter: element-wise chain is bit-identical to eager") {
    Tensor x = vec({-1.5f, 0.25f, 3.0f}), y = vec({0.5f, -2.0f, 1e-3f});
    auto r = run(chain_graph(), {x, y});
    REQUIRE(r.size() == 1);
    Tensor want = eager("sub", {eager("mul", {eager("tanh", {eager("add", {eager("mul", {x, Tensor::weak_float(0.5)}),
                                                                            Tensor::weak_float(1.0)})}),
                                              eager("sigmoid", {x})}),
                               y});
    CHECK(bit_equal(r[0], want));
    CHECK(tg::stdlib::to_str(r[0]) == tg::stdlib::to_str(want));
}

TEST_CASE("interpreter: cond runs the taken branch only") {
    Graph g = cond_graph();
    CHECK(tg::stdlib::to_str(run(g, {Tensor::scalar(3.0)})[0]) == "6.0");
    CHECK(tg::stdlib::to_str(run(g, {Tensor::scalar(-4.0)})[0]) == "4.0");
    CHECK(run(g, {Tensor::scalar(-4.0)})[0].dtype() == DType::F32);
}

TEST_CASE("interpreter: while with loop-carried values and a nested cond") {
    Graph g = collatz_graph();
    // Independently: the Collatz step count of 27 is 111 (conformance case 05).
    auto r = run(g, {Tensor::scalar(int64_t{27})});
    CHECK(r[0].item_i64() == 111);
    CHECK(r[0].weak());
    CHECK(run(g, {Tensor::scalar(int64_t{1})})[0].item_i64() == 0);
    int64_t n = 97, steps = 0;
    while (n != 1) n = n % 2 == 0 ? n / 2 : 3 * n + 1, ++steps;
    CHECK(run(g, {Tensor::scalar(int64_t{97})})[0].item_i64() == steps);
}

TEST_CASE("interpreter: print and assert in program order, output through the callback") {
    Graph g = effects_graph();
    std::string out;
    auto r = run(g, {vec({1.0f, 2.0f, 3.5f})}, &out);
    CHECK(out == "x is [1.0, 2.0, 3.5]\nok\n");
    CHECK(tg::stdlib::to_str(r[0]) == "6.5");
    // A failing assert: the first print ran, the second did not; message and location as eager.
    out.clear();
    RuntimeError e = run_error(g, {vec({-1.0f, -2.0f, 0.5f})}, &out);
    CHECK(out == "x is [-1.0, -2.0, 0.5]\n");
    CHECK(std::string(e.what()) == "sum must be positive: -2.5");
    CHECK(e.where.loc == tg::lang::Loc{4, 5});
    CHECK(e.where.source == source());
}

TEST_CASE("interpreter: integer division by zero is a runtime error at the operator") {
    // def safe_div(a, b): return a // b      (conformance case 11: 3:14)
    Graph g("safe_div");
    ValueId a = g.add_input(i64(), "a"), b = g.add_input(i64(), "b");
    ValueId out[] = {g.apply1("floordiv", {a, b}, at(3, 14))};
    g.yield(out);
    CHECK(run(g, {Tensor::scalar(int64_t{9}), Tensor::scalar(int64_t{3})})[0].item_i64() == 3);
    RuntimeError e = run_error(g, {Tensor::scalar(int64_t{1}), Tensor::scalar(int64_t{0})});
    CHECK(std::string(e.what()) == "integer division by zero");
    CHECK(to_string(e.where) == "f.tg:3:14");
}

TEST_CASE("interpreter: dynamic index out of range names index, axis and size") {
    Graph g("ix");
    ValueId x = g.add_input(f32({3}), "x"), i = g.add_input(i64(), "i");
    IndexSpec spec{{{tg::stdlib::IndexItem::Int, 0, {}, {}, {}}}, {true}};
    ValueId dyn[] = {i};
    ValueId out[] = {g.index(x, spec, dyn, at(2, 13))};
    g.yield(out);
    Tensor x0 = vec({1.0f, 2.0f, 3.0f});
    CHECK(run(g, {x0, Tensor::scalar(int64_t{-1})})[0].item_f64() == 3.0);
    RuntimeError e = run_error(g, {x0, Tensor::scalar(int64_t{5})});
    CHECK(std::string(e.what()) == "index 5 is out of range for axis 0 with size 3");
    CHECK(to_string(e.where) == "f.tg:2:13");
}

TEST_CASE("interpreter: index assignment makes a new value") {
    Graph g("ia");
    ValueId x = g.add_input(f32({3}), "x"), i = g.add_input(i64(), "i");
    IndexSpec spec{{{tg::stdlib::IndexItem::Int, 0, {}, {}, {}}}, {true}};
    ValueId dyn[] = {i};
    ValueId y = g.index_assign(x, g.constant(Tensor::weak_int(7)), spec, dyn);
    ValueId out[] = {y, x};
    g.yield(out);
    Tensor x0 = vec({1.0f, 2.0f, 3.0f});
    auto r = run(g, {x0, Tensor::scalar(int64_t{1})});
    CHECK(tg::stdlib::to_str(r[0]) == "[1.0, 7.0, 3.0]");
    CHECK(tg::stdlib::to_str(r[1]) == "[1.0, 2.0, 3.0]");  // value semantics
    CHECK(tg::stdlib::to_str(x0) == "[1.0, 2.0, 3.0]");
}

TEST_CASE("interpreter: random ops draw the same numbers as eager at the same stream positions") {
    Graph g("rnd");
    ValueId tok = g.add_input_token();
    auto a = g.apply(op("random_uniform"), {}, {std::vector<int64_t>{5}}, {}, tok);
    auto b = g.apply(op("random_normal"), {}, {std::vector<int64_t>{3}}, {}, a[1]);
    ValueId out[] = {a[0], b[0], b[1]};
    g.yield(out);
    tg::stdlib::Rng graph_rng(42), eager_rng(42);
    auto r = run(g, {}, nullptr, &graph_rng);
    tg::stdlib::OpContext ctx{&eager_rng};
    const auto& u = op("random_uniform");
    const auto& nrm = op("random_normal");
    std::vector<tg::stdlib::Attr> ua{std::vector<int64_t>{5}, 0.0, 1.0, tg::stdlib::DType::F32}, na{std::vector<int64_t>{3}, 0.0, 1.0, tg::stdlib::DType::F32};
    Tensor eu = u.eager(ctx, {{}, ua});
    Tensor en = nrm.eager(ctx, {{}, na});
    CHECK(bit_equal(r[0], eu));
    CHECK(bit_equal(r[1], en));
    CHECK(graph_rng.counter() == eager_rng.counter());
    // Without a generator the run fails loudly instead of drawing garbage.
    RunContext none;
    CHECK_THROWS_AS(run_graph(g, {}, none), RuntimeError);
}

TEST_CASE("interpreter: raise node raises its message only when its branch runs") {
    // if x > 0: y = x @ x  (a trace-time shape error)  else: y = x
    Graph g("r");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    ValueId p = g.truth(g.apply1("gt", {x, g.constant(Tensor::weak_int(0))}));
    ValueId ins[] = {tok, x};
    NodeId c = g.add_cond(p, ins);
    RegionId th = g.node(c).regions[0], el = g.node(c).regions[1];
    g.enter(th);
    ValueId t1 = g.raise(g.args(th)[0], {{TextPiece::Text, "matmul: both arguments must have at least 1 dimension"}}, {},
                         at(2, 20));
    ValueId o1[] = {t1, g.undef(ValueType::of(f32()))};
    g.yield(o1);
    g.exit();
    g.enter(el);
    ValueId o2[] = {g.args(el)[0], g.args(el)[1]};
    g.yield(o2);
    g.exit();
    auto r = g.finish(c);
    ValueId out[] = {r[1], r[0]};
    g.yield(out);
    CHECK(run(g, {Tensor::scalar(-2.0)})[0].item_f64() == -2.0);
    RuntimeError e = run_error(g, {Tensor::scalar(2.0)});
    CHECK(std::string(e.what()) == "matmul: both arguments must have at least 1 dimension");
    CHECK(to_string(e.where) == "f.tg:2:20");
}

TEST_CASE("interpreter: maybe-undefined variable carried with a defined flag") {
    // if x > 0: y = x          then: print(y)  — y is defined only on one path
    Graph g("u");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    ValueId p = g.truth(g.apply1("gt", {x, g.constant(Tensor::weak_int(0))}));
    NodeId c = g.add_cond(p, {});
    g.enter(g.node(c).regions[0]);
    ValueId o1[] = {x, g.constant(Tensor::scalar(true))};
    g.yield(o1);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId o2[] = {g.undef(ValueType::of(f32())), g.constant(Tensor::scalar(false))};
    g.yield(o2);
    g.exit();
    auto r = g.finish(c);
    tok = g.assert_(tok, r[1], {{TextPiece::Text, "`y` is not defined: it is assigned only at f.tg:2:15"}}, {}, at(3, 11));
    ValueId ys[] = {r[0]};
    tok = g.print(tok, {{TextPiece::Str, "", 0}, {TextPiece::Text, "\n"}}, ys, at(3, 5));
    ValueId out[] = {tok};
    g.yield(out);
    std::string printed;
    run(g, {Tensor::scalar(1.5)}, &printed);
    CHECK(printed == "1.5\n");
    RuntimeError e = run_error(g, {Tensor::scalar(-1.0)});
    CHECK(std::string(e.what()) == "`y` is not defined: it is assigned only at f.tg:2:15");
    CHECK(to_string(e.where) == "f.tg:3:11");
}

TEST_CASE("interpreter: formatted and repr pieces, host calls, iteration hook") {
    Graph g("h");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input(f32(), "x");
    TensorType rt[] = {f32()};
    ValueId args[] = {x};
    auto h = g.host_call(tok, {7, "twice"}, args, rt);
    ValueId vals[] = {h[0], x};
    tok = g.print(h[1], {{TextPiece::Format, ".3f", 0}, {TextPiece::Text, " "}, {TextPiece::Repr, "", 1}}, vals);
    ValueId out[] = {h[0], tok};
    g.yield(out);
    std::string printed;
    RunContext ctx;
    ctx.write = [&](std::string_view s) { printed += s; };
    ctx.host_call = [](const HostFn& fn, std::span<const Tensor> a) {
        CHECK(fn.id == 7);
        return std::vector<Tensor>{Tensor::scalar(a[0].item_f64() * 2, DType::F32)};
    };
    Tensor in[] = {Tensor::scalar(1.25)};
    auto r = run_graph(g, in, ctx);
    CHECK(r[0].item_f64() == 2.5);
    CHECK(printed == "2.500 tensor(1.25, shape=(), dtype=f32)");

    // The host's limit hook can stop an endless loop.
    Graph loop("spin");
    ValueId i0 = loop.add_input(i64(), "i");
    ValueId inits[] = {i0};
    NodeId w = loop.add_while(inits);
    loop.enter(loop.node(w).regions[0]);
    ValueId cy[] = {loop.constant(Tensor::scalar(true)), loop.args(loop.node(w).regions[0])[0]};
    loop.yield(cy);
    loop.exit();
    loop.enter(loop.node(w).regions[1]);
    ValueId by[] = {loop.args(loop.node(w).regions[1])[0]};
    loop.yield(by);
    loop.exit();
    auto lr = loop.finish(w);
    loop.yield(lr);
    verify(loop);
    RunContext lctx;
    int iterations = 0;
    lctx.on_iteration = [&] {
        if (++iterations > 100) throw RuntimeError("step limit exceeded", {});
    };
    Tensor li[] = {Tensor::scalar(int64_t{0})};
    CHECK_THROWS_WITH(run_graph(loop, li, lctx), "step limit exceeded");
    CHECK(iterations == 101);
}

TEST_CASE("interpreter: wrong number of inputs is reported") {
    Graph g = chain_graph();
    RunContext ctx;
    Tensor one[] = {vec({1, 2, 3})};
    CHECK_THROWS_AS(run_graph(g, one, ctx), RuntimeError);
}

TEST_CASE("golden + run: a while loop threading the token through prints and random draws") {
    // def f(n):
    //     i = 0
    //     while i < n:
    //         print(i, random_uniform((2,)))
    //         i += 1
    //     return i
    Graph g("loop");
    ValueId tok = g.add_input_token();
    ValueId n = g.add_input(i64(), "n");
    ValueId inits[] = {g.constant(Tensor::weak_int(0)), tok};
    NodeId w = g.add_while(inits, at(3, 5));
    RegionId cr = g.node(w).regions[0], br = g.node(w).regions[1];
    g.enter(cr);
    ValueId cy[] = {g.truth(g.apply1("lt", {g.args(cr)[0], n}, at(3, 13))), g.args(cr)[0], g.args(cr)[1]};
    g.yield(cy);
    g.exit();
    g.enter(br);
    ValueId i = g.args(br)[0];
    auto r = g.apply(op("random_uniform"), {}, {std::vector<int64_t>{2}}, at(4, 18), g.args(br)[1]);
    ValueId vals[] = {i, r[0]};
    ValueId t = g.print(r[1], {{TextPiece::Str, "", 0}, {TextPiece::Text, " "}, {TextPiece::Str, "", 1}, {TextPiece::Text, "\n"}},
                        vals, at(4, 9));
    ValueId by[] = {g.apply1("add", {i, g.constant(Tensor::weak_int(1))}, at(5, 11)), t};
    g.yield(by);
    g.exit();
    auto res = g.finish(w);
    g.yield(res);
    verify(g);
    CHECK("\n" + print_graph(g, {.locations = false}) == R"(
func @loop(%0: token, %n: i64[]) -> (weak i64[], token) {
  %1 = const 0 : weak i64[]
  %2, %3 = while (%1, %0) {
  cond(%4: weak i64[], %5: token):
    %6 = lt %4, %n : bool[]
    %7 = truth %6 : bool[]
    yield %7, %4, %5
  body(%8: weak i64[], %9: token):
    %10, %11 = random_uniform %9 {shape=(2,), low=0.0, high=1.0, dtype=f32} : f32[2], token
    %12 = print %11, str(%8), " ", str(%10), "\n" : token
    %13 = const 1 : weak i64[]
    %14 = add %8, %13 : weak i64[]
    yield %14, %12
  } : weak i64[], token
  yield %2, %3
}
)");
    // Eager: three draws of 2 values each from the same seed, printed in order.
    tg::stdlib::Rng eager_rng(7);
    tg::stdlib::OpContext ectx{&eager_rng};
    std::string want;
    for (int k = 0; k < 3; ++k) {
        std::vector<tg::stdlib::Attr> a{std::vector<int64_t>{2}, 0.0, 1.0, tg::stdlib::DType::F32};
        want += std::to_string(k) + " " + tg::stdlib::to_str(op("random_uniform").eager(ectx, {{}, a})) + "\n";
    }
    tg::stdlib::Rng rng(7);
    std::string out;
    auto result = run(g, {Tensor::scalar(int64_t{3})}, &out, &rng);
    CHECK(out == want);
    CHECK(result[0].item_i64() == 3);
    CHECK(rng.counter() == eager_rng.counter());
    // Optimizing keeps the effects (nothing to remove or merge across iterations).
    Graph h = g;
    optimize(h);
    tg::stdlib::Rng rng2(7);
    std::string out2;
    run(h, {Tensor::scalar(int64_t{3})}, &out2, &rng2);
    CHECK(out2 == want);
}

TEST_CASE("interpreter: a weak input fed a strong tensor promotes as the trace did") {
    // def k(x): return x + i32 tensor, traced for k(3): x is a weak i64, the
    // sum i32. A loaded graph value fed tensor(3) (a strong i64) gave i64
    // here while compiled code gave the declared i32 (found by the ONNX test).
    Graph g("k");
    ValueId x = g.add_input(tg::stdlib::TensorType{tg::stdlib::DType::I64, {}, true}, "x");
    Tensor c = Tensor::empty(tg::stdlib::DType::I32, tg::stdlib::Shape{2});
    c.data<int32_t>()[0] = 1;
    c.data<int32_t>()[1] = 2;
    ValueId out[] = {g.apply1("add", {x, g.constant(c, at(1, 20))}, at(1, 18))};
    g.yield(out);
    for (const Tensor& fed : {Tensor::scalar(int64_t{3}), Tensor::weak_int(3)}) {
        auto r = run(g, {fed});
        REQUIRE(r.size() == 1);
        CHECK(r[0].dtype() == tg::stdlib::DType::I32);
        CHECK(r[0].data<int32_t>()[1] == 5);
    }
}

TEST_CASE("interpreter: a graph with dynamic dimensions runs at the sizes of its inputs (undef included)") {
    // def f(x, p): y = x * 2 if p else (an unassigned y: undef); return y + x, y[-1, 1]
    // traced at x: f32[3,4], axis 0 marked dynamic (symbol 0, read from x)
    using tg::stdlib::DType;
    using tg::stdlib::Shape;
    Graph g("f");
    ValueId x = g.add_input({DType::F32, Shape{3, 4}, false}, "x");
    ValueId p = g.add_input({DType::Bool, {}, false}, "p");
    std::vector<ValueId> ins{x};
    NodeId c = g.add_cond(p, ins);
    g.enter(g.node(c).regions[0]);
    ValueId twice[] = {g.apply1("mul", {g.args(g.node(c).regions[0])[0], g.constant(Tensor::weak_float(2.0))})};
    g.yield(twice);
    g.exit();
    g.enter(g.node(c).regions[1]);
    ValueId none[] = {g.undef(ValueType::of(g.tensor_type(x)))};
    g.yield(none);
    g.exit();
    const ValueId y = g.finish(c)[0];
    const ValueId s = g.apply1("add", {y, x});
    IndexSpec spec{{tg::stdlib::IndexItem{}, tg::stdlib::IndexItem{}}, {false, false}};
    spec.items[0].index = -1;
    spec.items[1].index = 1;
    ValueId out[] = {s, g.index(y, spec, {})};
    g.yield(out);
    verify(g);
    g.set_symbol_sources({{0, 0}});
    for (ValueId v : {x, g.args(g.node(c).regions[0])[0], twice[0], none[0], y, s}) g.set_dim_symbol(v, 0, 0);
    CHECK(g.type_string(none[0]) == "f32[?0,4]");
    for (int64_t n : {2, 5, 1000}) {
        Tensor xv = Tensor::empty(DType::F32, Shape{n, 4});
        for (int64_t i = 0; i < 4 * n; ++i) xv.data<float>()[i] = static_cast<float>(i) - 3.5f;
        for (bool pv : {true, false}) {
            INFO("n = " << n << ", p = " << pv);
            auto r = run(g, {xv, Tensor::scalar(pv)});
            REQUIRE(r.size() == 2);
            const Tensor ye = pv ? eager("mul", {xv, Tensor::weak_float(2.0)}) : Tensor::zeros(DType::F32, Shape{n, 4});
            CHECK(bit_equal(r[0], eager("add", {ye, xv})));  // the undef has n rows, not 3
            CHECK(r[1].item_f64() == (pv ? 2.0 * (4.0 * double(n) - 6.5) : 0.0));
        }
    }
}
