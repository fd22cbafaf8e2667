// Generalizing traces over dimensions that vary (tracer/generalize.hpp):
// which dims a call makes dynamic, which calls a generalized signature
// admits, and the comparison of a trace at two sizes — graphs built by hand
// here as the tracer would build them at each size.
#include <doctest/doctest.h>

#include <functional>

#include "stdlib/errors.hpp"
#include "tests/tracer/helpers.hpp"
#include "tracer/generalize.hpp"
#include "tracer/signature.hpp"

using namespace tg::tracer;
using namespace tg::tracer::test;

namespace {

ArgDesc t(Shape s) { return ArgDesc::tensor(DType::F32, s); }
Signature sig(Shape x, Shape y) { return Signature{{{"x", t(x)}, {"y", t(y)}}, {}}; }

std::vector<const Signature*> ptrs(const std::vector<Signature>& v) {
    std::vector<const Signature*> out;
    for (const Signature& s : v) out.push_back(&s);
    return out;
}

// The same program traced at batch size n: relu(x @ w) summed over axis 1,
// plus whatever `extra` adds.
Graph mlp(int64_t n, const std::function<void(Graph&, ValueId)>& extra = {}) {
    Graph g("f");
    g.add_input_token();
    ValueId x = g.add_input(f32({n, 4}), "x");
    ValueId w = g.add_input(f32({4, 3}), "w");
    ValueId h = g.apply1("relu", {g.apply1("matmul", {x, w})});
    ValueId s = g.apply1(op("sum"), std::vector<ValueId>{h}, {std::monostate{}, int64_t{1}, false});
    if (extra) extra(g, s);
    g.yield(std::vector<ValueId>{s});
    return g;
}

DynamicPlan batch_plan(int64_t n, int64_t probe) {
    DynamicPlan p{sig({n, 4}, {4, 3}), {n}, {probe}};
    p.signature.args[0].desc.dim_symbols = {0, -1};
    return p;
}

}  // namespace

TEST_CASE("generalize: Auto waits for 3 traces that differ only in sizes, then the varying dims become dynamic") {
    std::vector<Signature> cached = {sig({2, 4}, {4, 3}), sig({3, 4}, {4, 3})};
    CHECK_FALSE(plan_generalization(ptrs(cached), sig({5, 4}, {4, 3}), DynamicShapes::Auto));
    cached.push_back(sig({5, 4}, {4, 3}));
    auto plan = plan_generalization(ptrs(cached), sig({7, 4}, {4, 3}), DynamicShapes::Auto);
    REQUIRE(plan);
    CHECK(plan->signature.to_string() == "x: f32[?0,4], y: f32[4,3]");
    CHECK(plan->sizes == std::vector<int64_t>{7});
    CHECK(plan->probe.size() == 1);
    CHECK(plan->probe[0] > 7);
    CHECK(plan->describe() == "`x` axis 0 as ?0");
    CHECK(probe_shape(plan->signature.args[0].desc, *plan) == Shape{plan->probe[0], 4});
    // never below 2: a size-1 call is not generalized
    CHECK_FALSE(plan_generalization(ptrs(cached), sig({1, 4}, {4, 3}), DynamicShapes::Auto));
    CHECK_FALSE(plan_generalization(ptrs(cached), sig({7, 4}, {4, 3}), DynamicShapes::Never));
}

TEST_CASE("generalize: dims that varied together share a symbol, independent ones do not") {
    std::vector<Signature> cached = {sig({2, 4}, {2, 5}), sig({3, 4}, {3, 6}), sig({5, 4}, {5, 5})};
    auto plan = plan_generalization(ptrs(cached), sig({7, 4}, {7, 6}), DynamicShapes::Auto);
    REQUIRE(plan);
    CHECK(plan->signature.to_string() == "x: f32[?0,4], y: f32[?0,?1]");
    CHECK(plan->describe() == "`x` axis 0, `y` axis 0 as ?0; `y` axis 1 as ?1");
    CHECK(plan->probe[0] != plan->probe[1]);
    // signatures with another structure or dtype do not count
    std::vector<Signature> mixed = {sig({2, 4}, {4, 3}), sig({3}, {4, 3}), sig({5, 4}, {4, 3})};
    CHECK_FALSE(plan_generalization(ptrs(mixed), sig({7, 4}, {4, 3}), DynamicShapes::Auto));
}

TEST_CASE("generalize: Always makes every dim of size >= 2 dynamic at the first trace, equal sizes as one symbol") {
    auto plan = plan_generalization({}, sig({3, 1}, {3, 3}), DynamicShapes::Always);
    REQUIRE(plan);
    CHECK(plan->signature.to_string() == "x: f32[?0,1], y: f32[?0,?0]");
}

TEST_CASE("generalize: a generalized signature admits any size >= 2, equal for one symbol") {
    Signature g = sig({7, 4}, {7, 6});
    g.args[0].desc.dim_symbols = {0, -1};
    g.args[1].desc.dim_symbols = {0, -1};
    CHECK(admits(g.args, sig({50, 4}, {50, 6}).args));
    CHECK(admits(g.args, sig({2, 4}, {2, 6}).args));
    CHECK_FALSE(admits(g.args, sig({50, 4}, {51, 6}).args));  // one symbol, two sizes
    CHECK_FALSE(admits(g.args, sig({1, 4}, {1, 6}).args));    // below 2
    CHECK_FALSE(admits(g.args, sig({50, 5}, {50, 6}).args));  // a static dim differs
    CHECK_FALSE(admits(g.args, sig({50}, {50, 6}).args));     // rank
    // and the retrace reason against it names only what it does not admit
    CHECK(differences(g, sig({50, 5}, {50, 6})) == std::vector<std::string>{"argument `x`: shape (?0, 4) → (50, 5)"});
    CHECK(distance(g, sig({50, 4}, {50, 6})) == 0);
}

TEST_CASE("generalize: two traces that differ only in the batch size mark the graph") {
    Graph a = mlp(7), b = mlp(20);
    CHECK(mark_dynamic(a, b, batch_plan(7, 20)) == "");
    CHECK(a.num_dim_symbols() == 1);
    CHECK(a.symbol_sources()[0].input == 0);
    CHECK(a.symbol_sources()[0].axis == 0);
    const std::string text = print_graph(a);
    CHECK(text.find("%x: f32[?0,4], %w: f32[4,3]") != std::string::npos);
    CHECK(text.find("-> (f32[?0]") != std::string::npos);
    const ValueId x = a.inputs()[0];
    CHECK(a.shape_at(x, std::vector<int64_t>{50}) == Shape{50, 4});
}

TEST_CASE("generalize: a reshape to the result's shape and a count of the batch become run-time values") {
    auto extra = [](int64_t n) {
        return [n](Graph& g, ValueId s) {
            ValueId r = g.apply1(op("reshape"), std::vector<ValueId>{s}, {std::monostate{}, std::vector<int64_t>{n, 1}});
            ValueId c = g.constant(Tensor::weak_float(double(3 * n)));
            g.apply1("div", {r, c});
        };
    };
    Graph a = mlp(7, extra(7)), b = mlp(20, extra(20));
    CHECK(mark_dynamic(a, b, batch_plan(7, 20)) == "");
    REQUIRE(a.size_constants().size() == 1);
    CHECK(a.size_constants()[0].factor == 3);
    REQUIRE(a.shape_attrs().size() == 1);
    const NodeId c = a.size_constants()[0].node;
    CHECK(a.constant_at(c, std::vector<int64_t>{50}).item_f64() == 150.0);
    const NodeId r = a.shape_attrs()[0].node;
    CHECK(std::get<std::vector<int64_t>>(a.attrs_at(r, std::vector<int64_t>{50})[1]) == std::vector<int64_t>{50, 1});
    CHECK(print_graph(a).find("const 21.0 (= 3 * ?0)") != std::string::npos);
    // a factor x size past i64 (a damaged .tgx can say anything) is an error, not a wrap (UBSan found it)
    Graph::SizeConstant huge = a.size_constants()[0];
    huge.factor = int64_t{1} << 62;
    CHECK_THROWS_AS((void)huge.value(4), tg::stdlib::OpError);
    CHECK(huge.value(1) == int64_t{1} << 62);
}

TEST_CASE("generalize: what depends on the sizes otherwise is refused, and the graph stays unmarked") {
    SUBCASE("a slice bound on the dynamic axis (x[:5] has 5 rows at both sizes, not at 3)") {
        auto slice = [](Graph& g, ValueId s) {
            IndexSpec spec{{tg::stdlib::IndexItem{tg::stdlib::IndexItem::Slice, 0, std::nullopt, int64_t{5}, std::nullopt}},
                           {false}};
            g.index(s, spec, {});
        };
        Graph a = mlp(7, slice), b = mlp(20, slice);
        CHECK(mark_dynamic(a, b, batch_plan(7, 20)).find("a slice bound on a dynamic dimension") == 0);
        CHECK(a.num_dim_symbols() == 0);
        CHECK_FALSE(a.has_dynamic_dims(a.inputs()[0]));
    }
    SUBCASE("a constant made from a size in another way") {
        auto c = [](int64_t n) { return [n](Graph& g, ValueId) { g.constant(Tensor::weak_float(1.0 / double(n))); }; };
        Graph a = mlp(7, c(7)), b = mlp(20, c(20));
        CHECK(mark_dynamic(a, b, batch_plan(7, 20)).find("a constant") == 0);
    }
    SUBCASE("a size that is not one of the symbols (n - 1)") {
        auto drop = [](Graph& g, ValueId s) {
            IndexSpec spec{{tg::stdlib::IndexItem{tg::stdlib::IndexItem::Slice, 0, int64_t{1}, std::nullopt, std::nullopt}},
                           {false}};
            g.index(s, spec, {});
        };
        Graph a = mlp(7, drop), b = mlp(20, drop);
        CHECK(mark_dynamic(a, b, batch_plan(7, 20)).find("a size in the graph follows the dynamic sizes without being one of them") == 0);
    }
    SUBCASE("different structure (a loop unrolled once per row)") {
        auto unrolled = [](int64_t n) {
            return [n](Graph& g, ValueId s) {
                for (int64_t i = 0; i < n; ++i) g.apply1("neg", {s});
            };
        };
        Graph a = mlp(7, unrolled(7)), b = mlp(20, unrolled(20));
        CHECK(mark_dynamic(a, b, batch_plan(7, 20)) == "the graph's structure depends on the sizes");
    }
}
