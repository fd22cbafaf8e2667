// The conversion's policy (tracer/conversion.hpp) through a fake host: which
// variables a cond or a loop carries, how their leaves and defined-flags
// become results, and when two values do not merge — with no interpreter.
// tests/scripts/graph, graph_ir and graph_errors show the same decisions
// end to end through interp's host (interp/tracing/carried_values.hpp).
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>

#include "tracer/conversion.hpp"
#include "tracer/convert_cond.hpp"
#include "tracer/convert_while.hpp"
#include "tracer/graph.hpp"
#include "tracer/verifier.hpp"

using namespace tg::tracer;
using tg::stdlib::DType;
using tg::stdlib::TensorType;

namespace {

// A host value: undefined, None, a tensor (static or symbolic; a static
// bool has a truth), a tuple, a string, or maybe-undefined. Copies are the
// same object (same id); every constructor call makes a new one.
struct Fake {
    enum Kind { Undefined, None, Tensor, Tuple, Str, Maybe } kind = Undefined;
    int id = 0;
    TensorType type;
    bool symbolic = false;
    bool truth = false;
    std::vector<Fake> items;
    std::string text;
    std::shared_ptr<Fake> inner, flag;
    bool none = false;
    ValueId gid = kNoId;  // a symbolic tensor's graph value
};

// A new object of kind k.
Fake make(Fake::Kind k) {
    static int id = 0;  // test-local numbering of fake objects
    Fake f;
    f.kind = k;
    f.id = ++id;
    return f;
}
Fake none() { return make(Fake::None); }
Fake tensor(DType d, bool symbolic = true, bool weak = false) {
    Fake f = make(Fake::Tensor);
    f.type = {d, {}, weak};
    f.symbolic = symbolic;
    return f;
}
Fake literal(DType d) { return tensor(d, false, true); }
Fake static_bool(bool b) {
    Fake f = tensor(DType::Bool, false);
    f.truth = b;
    return f;
}
Fake tuple(std::vector<Fake> xs) {
    Fake f = make(Fake::Tuple);
    f.items = std::move(xs);
    return f;
}
Fake str(std::string s) {
    Fake f = make(Fake::Str);
    f.text = std::move(s);
    return f;
}
Fake maybe(Fake inner, Fake flag, bool is_none = false) {
    Fake f = make(Fake::Maybe);
    f.inner = std::make_shared<Fake>(std::move(inner));
    f.flag = std::make_shared<Fake>(std::move(flag));
    f.none = is_none;
    return f;
}

struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct FakeHost {
    using Value = Fake;
    bool identical(const Fake& a, const Fake& b) const { return a.kind == b.kind && a.id == b.id; }
    CarriedParts<Fake> parts(const Fake& v) const {
        if (v.kind == Fake::Maybe) return {v.inner.get(), *v.flag, v.none, !v.none};
        if (v.kind == Fake::Undefined) return {nullptr, ::static_bool(false), false, true};
        return {&v, ::static_bool(true)};
    }
    bool has_value(const Fake& v) const {
        if (v.kind == Fake::Maybe) return v.inner->kind != Fake::Undefined;
        return v.kind != Fake::Undefined && v.kind != Fake::None;
    }
    bool is_defined(const Fake& v) const { return v.kind != Fake::Undefined; }
    bool is_none(const Fake& v) const { return v.kind == Fake::None; }
    bool is_static(const Fake& v) const {
        if (v.kind == Fake::Undefined || v.kind == Fake::Maybe) return false;
        for (const Fake& l : leaves(v))
            if (l.symbolic) return false;
        return true;
    }
    bool statically_true(const Fake& v) const { return v.kind == Fake::Tensor && !v.symbolic && v.truth; }
    Fake static_bool(bool b) const { return ::static_bool(b); }
    std::vector<Fake> leaves(const Fake& v) const {
        std::vector<Fake> out;
        if (v.kind == Fake::Tensor) out.push_back(v);
        for (const Fake& x : v.items)
            for (const Fake& l : leaves(x)) out.push_back(l);
        return out;
    }
    TensorType type(const Fake& leaf) const { return leaf.type; }
    std::optional<Mismatch> structure_diff(const Fake& a, const Fake& b) const {
        if (a.kind == Fake::Tensor && b.kind == Fake::Tensor) return std::nullopt;
        static const char* const names[] = {"undefined", "None", "tensor", "tuple", "str", "maybe"};
        if (a.kind != b.kind) return Mismatch{Mismatch::Kind, names[a.kind], names[b.kind], ""};
        if (a.items.size() != b.items.size())
            return Mismatch{Mismatch::Length, std::to_string(a.items.size()), std::to_string(b.items.size()), ""};
        for (size_t i = 0; i < a.items.size(); ++i)
            if (auto d = structure_diff(a.items[i], b.items[i])) return d;
        if (a.text != b.text) return Mismatch{Mismatch::Value, a.text, b.text, ""};
        return std::nullopt;
    }
    [[noreturn]] void unsupported(const std::string& what) const { throw Unsupported(what); }
};
static_assert(ConversionHost<FakeHost>);

using Results = std::vector<BranchResult<Fake>>;

// merge_branches of `var` with sides a and b (null: the side is gone).
BranchMerge<Fake> merge(const CarriedVar& var, const Fake& before, const Fake* a, const Fake* b, Results& results) {
    const Fake undefined;
    const Fake* const out[2] = {a ? a : &undefined, b ? b : &undefined};
    const bool gone[2] = {a == nullptr, b == nullptr};
    return merge_branches(FakeHost{}, var, before, out, gone, results);
}

const CarriedVar x{"x", CarriedRole::Var};

}  // namespace

TEST_CASE("conversion: a variable both branches leave alone, or set to the same object, needs no result") {
    Results results;
    const Fake before = tensor(DType::F32);
    BranchMerge<Fake> m = merge(x, before, &before, &before, results);
    CHECK(m.keep);
    CHECK(m.value.id == before.id);
    const Fake same = tensor(DType::F32);
    m = merge(x, before, &same, &same, results);
    CHECK(m.keep);
    CHECK(m.value.id == same.id);
    CHECK(results.empty());
}

TEST_CASE("conversion: where one branch raises, the other's static value is the value after the cond") {
    Results results;
    const Fake before = tensor(DType::F32), lit = literal(DType::I64), sym = tensor(DType::I64);
    BranchMerge<Fake> m = merge(x, before, nullptr, &lit, results);
    CHECK(m.keep);
    CHECK(m.value.id == lit.id);
    m = merge(x, before, &sym, nullptr, results);  // symbolic: a result, yielded by the live side only
    CHECK_FALSE(m.keep);
    REQUIRE(results.size() == 1);
    CHECK(results[0].side[0].id == sym.id);
    CHECK(results[0].side[1].kind == Fake::Undefined);
}

TEST_CASE("conversion: leaves that differ become results of the joined type, equal ones stay static") {
    Results results;
    const Fake shared = tensor(DType::F32);
    const Fake a = tuple({shared, tensor(DType::I32)}), b = tuple({shared, literal(DType::I64)});
    BranchMerge<Fake> m = merge(x, none(), &a, &b, results);
    CHECK_FALSE(m.keep);
    CHECK(m.skeleton.id == a.id);
    CHECK(m.leaf == std::vector<int>{-1, 0});
    CHECK(m.static_leaf[0].id == shared.id);
    CHECK(m.flag == -1);
    REQUIRE(results.size() == 1);
    CHECK(to_string(results[0].type) == "i32[]");  // the literal takes the tensor's dtype
    CHECK(results[0].side[1].id == b.items[1].id);
}

TEST_CASE("conversion: a variable defined in one branch only gets a defined-flag result") {
    Results results;
    const Fake undefined, t = tensor(DType::F64);
    BranchMerge<Fake> m = merge(x, undefined, &t, &undefined, results);
    CHECK_FALSE(m.keep);
    REQUIRE(results.size() == 2);
    CHECK(m.leaf == std::vector<int>{0});
    CHECK(m.flag == 1);
    CHECK_FALSE(m.none);
    CHECK(results[1].is_flag);
    CHECK(FakeHost{}.statically_true(results[1].side[0]));
    CHECK_FALSE(FakeHost{}.statically_true(results[1].side[1]));
    // the return value: no flag (a path that has not returned never reads it)
    results.clear();
    m = merge({"the return value", CarriedRole::Ret}, undefined, &t, &undefined, results);
    CHECK(m.flag == -1);
    CHECK(results.size() == 1);
}

TEST_CASE("conversion: None against a value is carried with the None flag, None against undefined is not supported") {
    Results results;
    const Fake n = none(), t = tensor(DType::F32), undefined;
    BranchMerge<Fake> m = merge(x, undefined, &t, &n, results);
    CHECK(m.none);
    CHECK(m.flag == 1);
    const Fake maybe_t = maybe(t, tensor(DType::Bool));  // maybe-undefined (not None) on the other path
    results.clear();
    CHECK_THROWS_WITH_AS(merge(x, undefined, &n, &maybe_t, results),
                         "`x`, which is None on some paths and not defined on others", Unsupported);
}

TEST_CASE("conversion: values that do not merge throw the mismatch, a return value of two kinds is unsupported") {
    Results results;
    const Fake f = tensor(DType::F32), i = tensor(DType::I32);
    try {
        merge(x, none(), &f, &i, results);
        FAIL("no mismatch");
    } catch (const CarriedMismatch& e) {
        CHECK(e.var == "x");
        CHECK(mismatch_message(e.var, e.mismatch, MergeSite::Branches, " of the `if` at f.tg:2:5") ==
              "`x` has dtype f32 in one branch and i32 in the other of the `if` at f.tg:2:5");
    }
    const Fake two = tuple({f, f}), three = tuple({f, f, f});
    CHECK_THROWS_AS(merge(x, none(), &two, &three, results), CarriedMismatch);
    CHECK_THROWS_AS(merge({"the return value", CarriedRole::Ret}, none(), &two, &three, results), Unsupported);
    const Fake s1 = str("a"), s2 = str("b");
    try {
        merge(x, none(), &s1, &s2, results);
        FAIL("no mismatch");
    } catch (const CarriedMismatch& e) {
        CHECK(e.mismatch.what == Mismatch::Value);
    }
}

TEST_CASE("conversion: a hidden flag set in a branch is one bool result") {
    Results results;
    const Fake off = static_bool(false), on = static_bool(true);
    BranchMerge<Fake> m = merge({"break", CarriedRole::Flag}, off, &on, &off, results);
    CHECK_FALSE(m.keep);
    REQUIRE(results.size() == 1);
    CHECK(results[0].is_flag);
    CHECK(to_string(results[0].type) == "bool[]");
}

namespace {
// settle() over vars with these values before and after one traced body.
struct Loop {
    std::vector<CarriedVar> vars;
    std::vector<Fake> entry;
    std::vector<CarryPlan<Fake>> plan;
    std::vector<size_t> asked;  // the variables newly_differentiated was asked about
    bool settle(const std::vector<Fake>& now, std::optional<size_t> differentiated = std::nullopt) {
        plan.resize(vars.size());
        return tg::tracer::settle(FakeHost{}, std::span<const CarriedVar>(vars), std::span<const Fake>(entry),
                                  std::span<const Fake>(now), std::span<CarryPlan<Fake>>(plan), [&](size_t i) {
                                      asked.push_back(i);
                                      return differentiated == i;
                                  });
    }
};
}  // namespace

TEST_CASE("conversion: a loop carries what its body changes, widening the plans until they hold") {
    const Fake kept = tensor(DType::F32), s0 = literal(DType::I64);
    Loop loop{{x, {"s", CarriedRole::Var}}, {kept, s0}, {}, {}};
    // the body leaves x, and sets s to an i32 tensor: s is carried (i32), trace again
    CHECK(loop.settle({kept, tensor(DType::I32)}));
    CHECK_FALSE(loop.plan[0].carried);
    REQUIRE(loop.plan[1].carried);
    CHECK(to_string(loop.plan[1].types.at(0)) == "i32[]");
    CHECK_FALSE(loop.plan[1].flag);
    // the next attempt gives s an i32 again: settled
    CHECK_FALSE(loop.settle({kept, tensor(DType::I32)}));
    CHECK(loop.asked == std::vector<size_t>{1});
    // f32 against the plan's i32: the conversion error
    try {
        loop.settle({kept, tensor(DType::F32)});
        FAIL("no mismatch");
    } catch (const CarriedMismatch& e) {
        CHECK(mismatch_message(e.var, e.mismatch, MergeSite::Iterations, " in the loop at f.tg:3:5") ==
              "`s` changes dtype from i32 to f32 in the loop at f.tg:3:5");
    }
}

TEST_CASE("conversion: a loop variable first assigned in the body is carried with its defined-flag") {
    const Fake undefined;
    Loop loop{{x}, {undefined}, {}, {}};
    CHECK(loop.settle({tensor(DType::F64)}));
    CHECK(loop.plan[0].carried);
    CHECK(loop.plan[0].flag);
    CHECK(to_string(loop.plan[0].types.at(0)) == "f64[]");
}

TEST_CASE("conversion: a leaf differentiated from now on makes the loop trace again, keys follow the plans") {
    const Fake t = tensor(DType::F32);
    Loop loop{{x, {"break", CarriedRole::Flag}}, {t, static_bool(false)}, {}, {}};
    loop.plan.resize(2);
    carry(FakeHost{}, loop.vars[0], loop.plan[0], t, nullptr);
    carry(FakeHost{}, loop.vars[1], loop.plan[1], loop.entry[1], nullptr);
    CHECK_FALSE(loop.settle({t, static_bool(false)}));
    CHECK(loop.settle({t, static_bool(false)}, 0));
    const auto keys = carried_keys<Fake>(std::span<const CarriedVar>(loop.vars), std::span<const CarryPlan<Fake>>(loop.plan));
    CHECK(keys == std::vector<std::pair<size_t, size_t>>{{0, 0}, {1, SIZE_MAX}});
}

namespace {

// The RegionHost part of the fake hosts: the carried variables are `vals`,
// a leaf's graph value is its own (no casts).
struct FakeRegions : FakeHost {
    Graph& g;
    std::vector<CarriedVar> names;
    std::vector<Fake> vals;
    ValueId tok;

    std::span<const CarriedVar> vars() const { return names; }
    std::vector<Fake> values() const { return vals; }
    void set_values(const std::vector<Fake>& vs) { vals = vs; }
    ValueId& token() { return tok; }
    [[noreturn]] void mismatch(const CarriedMismatch& e) { throw e; }
    ValueId leaf_id(const Fake& v, const TensorType&, const SrcLoc&) { return v.gid; }
    ValueId bool_id(const Fake& v, const SrcLoc& where) {
        return v.symbolic ? v.gid : g.constant(tg::stdlib::Tensor::scalar(v.truth), where);
    }
    Fake symbolic(ValueId id) {
        Fake f = tensor(g.tensor_type(id).dtype);
        f.gid = id;
        return f;
    }
    Fake rebuild(const Fake& skeleton, std::span<const Fake> leaves) { return skeleton.kind == Fake::Tensor ? leaves[0] : skeleton; }
    Fake make_maybe(Fake inner, Fake flag, bool is_none) { return maybe(std::move(inner), std::move(flag), is_none); }
};

// A CondHost over the fake values and a real graph: branch b runs
// `branches[b]` (true: it raises); the tape's part only counts its calls.
struct FakeCond : FakeRegions {
    std::function<bool(FakeCond&)> branches[2];
    int tape_rollbacks = 0;
    bool recorded = false;

    bool run_branch(int b) { return branches[b](*this); }
    [[noreturn]] void raise_branch_error() { throw std::runtime_error("both branches raise"); }
    void tape_mark(int) {}
    void tape_roll_back() { ++tape_rollbacks; }
    void tape_results(std::vector<BranchResult<Fake>>&, const RegionId*) {}
    void tape_record(std::vector<Fake>&, const std::vector<ValueId>&) { recorded = true; }
};
static_assert(CondHost<FakeCond>);

// A graph with inputs p: bool[], a, b: f32[], i: i32[] and the token, and
// fake values of them.
struct CondFixture {
    Graph g{"f"};
    ValueId p = g.add_input({DType::Bool, {}, false}, "p");
    Fake a = input(DType::F32, "a"), b = input(DType::F32, "b"), i = input(DType::I32, "i");
    ValueId tok = g.add_input_token();
    Fake input(DType d, const char* name) {
        Fake f = tensor(d);
        f.gid = g.add_input({d, {}, false}, name);
        return f;
    }
    FakeCond host(std::vector<Fake> vals) { return FakeCond{{{}, g, {x}, std::move(vals), tok}, {}, 0, false}; }
};

}  // namespace

TEST_CASE("convert_cond: a variable one branch rebinds becomes the cond's result") {
    CondFixture f;
    FakeCond h = f.host({f.a});
    h.branches[0] = [&](FakeCond& c) { c.vals[0] = f.b; return false; };
    h.branches[1] = [](FakeCond&) { return false; };
    convert_cond(h, f.g, f.p, {}, -1);
    const NodeId cond = f.g.value(h.vals[0].gid).def;
    REQUIRE(cond != kNoId);
    CHECK(f.g.node(cond).op == Op::Cond);
    CHECK(f.g.node(cond).results.size() == 2);  // the token, x
    CHECK(h.tok == f.g.node(cond).results[0]);
    CHECK(h.recorded);
    ValueId out[] = {h.tok, h.vals[0].gid};
    f.g.yield(out);
    CHECK_NOTHROW(verify(f.g));
}

TEST_CASE("convert_cond: two values that do not merge roll the cond back, then report") {
    CondFixture f;
    const size_t nodes = f.g.num_nodes();
    FakeCond h = f.host({f.a});
    h.branches[0] = [&](FakeCond& c) { c.vals[0] = f.i; return false; };
    h.branches[1] = [&](FakeCond& c) { c.vals[0] = f.b; return false; };
    CHECK_THROWS_AS(convert_cond(h, f.g, f.p, {}, -1), CarriedMismatch);
    CHECK(f.g.num_nodes() == nodes);
    CHECK(h.vals[0].id == f.a.id);
    CHECK(h.tok == f.tok);
    CHECK(h.tape_rollbacks == 1);
}

TEST_CASE("convert_cond: an error that stops the conversion in a branch rolls back, both raising keeps the token") {
    CondFixture f;
    const size_t nodes = f.g.num_nodes();
    FakeCond h = f.host({f.a});
    h.branches[0] = [](FakeCond&) { return false; };
    h.branches[1] = [&](FakeCond& c) -> bool {
        c.vals[0] = f.b;
        throw std::logic_error("unsupported");
    };
    CHECK_THROWS_AS(convert_cond(h, f.g, f.p, {}, -1), std::logic_error);
    CHECK(f.g.num_nodes() == nodes);
    CHECK(h.vals[0].id == f.a.id);
    // both raise: the cond stays, its only result the token; the error goes on
    h.branches[0] = h.branches[1] = [&](FakeCond& c) { c.vals[0] = f.b; return true; };
    CHECK_THROWS_WITH(convert_cond(h, f.g, f.p, {}, -1), "both branches raise");
    REQUIRE(f.g.value(h.tok).def != kNoId);
    CHECK(f.g.node(f.g.value(h.tok).def).op == Op::Cond);
    CHECK(f.g.node(f.g.value(h.tok).def).results.size() == 1);
    CHECK(h.vals[0].id == f.a.id);
}

namespace {

// A WhileHost over the fake values and a real graph: `body` runs the body
// (true: it raises), counting its runs; no tape runs.
struct FakeWhile : FakeRegions {
    std::vector<bool> forced_vars;
    Fake pred;
    std::function<bool(FakeWhile&)> body;
    int bodies = 0;

    bool forced(size_t i) const { return forced_vars[i]; }
    Fake condition() { return pred; }
    void reset_exits() {}
    bool run_body() {
        ++bodies;
        return body(*this);
    }
    bool tape_begin() { return false; }
    void tape_roll_back() {}
    bool tape_differentiated(const Fake&) const { return false; }
    uint32_t tape_primal(Fake&) const { return kNoTapeNode; }
    Fake tape_track(const Fake& v, uint32_t&) { return v; }
    void tape_body_start() {}
    bool tape_body_end(bool, bool, RegionId) { return false; }
    void tape_before_loop(NodeId, const SrcLoc&) {}
    void tape_record(LoopTapeIds<Fake>&) {}
};
static_assert(WhileHost<FakeWhile>);

FakeWhile loop_host(CondFixture& f, std::vector<Fake> vals, std::vector<bool> forced) {
    Fake pred = tensor(DType::Bool);
    pred.gid = f.p;
    static const char* const texts[] = {"v0", "v1", "v2"};  // CarriedVar's names are views
    std::vector<CarriedVar> names;
    for (size_t k = 0; k < vals.size(); ++k) names.push_back({texts[k], CarriedRole::Var});
    return FakeWhile{{{}, f.g, std::move(names), std::move(vals), f.tok}, std::move(forced), pred, {}, 0};
}

}  // namespace

TEST_CASE("convert_while: a variable the body rebinds is carried after a second attempt") {
    CondFixture f;
    FakeWhile h = loop_host(f, {f.a, f.i}, {false, false});
    h.body = [&](FakeWhile& w) { w.vals[0] = f.b; return false; };  // v1 (i) untouched
    convert_while(h, f.g, {});
    CHECK(h.bodies == 2);  // x not carried, then carried
    CHECK(h.vals[1].id == f.i.id);
    const NodeId loop = f.g.value(h.vals[0].gid).def;
    REQUIRE(loop != kNoId);
    CHECK(f.g.node(loop).op == Op::While);
    CHECK(f.g.node(loop).results.size() == 2);  // the token, v0
    CHECK(h.tok == f.g.node(loop).results[0]);
    ValueId out[] = {h.tok, h.vals[0].gid};
    f.g.yield(out);
    CHECK_NOTHROW(verify(f.g));
}

TEST_CASE("convert_while: a forced variable is carried from the first attempt") {
    CondFixture f;
    FakeWhile h = loop_host(f, {f.a}, {true});
    h.body = [&](FakeWhile& w) { w.vals[0] = f.b; return false; };
    convert_while(h, f.g, {});
    CHECK(h.bodies == 1);
    CHECK(f.g.node(f.g.value(h.vals[0].gid).def).op == Op::While);
}

TEST_CASE("convert_while: a dtype that changes in the body rolls the loop back, then reports") {
    CondFixture f;
    const size_t nodes = f.g.num_nodes();
    FakeWhile h = loop_host(f, {f.a}, {false});
    h.body = [&](FakeWhile& w) { w.vals[0] = f.i; return false; };
    try {
        convert_while(h, f.g, {});
        FAIL("no mismatch");
    } catch (const CarriedMismatch& e) {
        CHECK(e.var == "v0");
        CHECK(e.mismatch.what == Mismatch::DType);
    }
    CHECK(f.g.num_nodes() == nodes);
    CHECK(h.vals[0].id == f.a.id);
    CHECK(h.tok == f.tok);
}

TEST_CASE("convert_while: a body that always raises yields its arguments, an error that stops it rolls back") {
    CondFixture f;
    FakeWhile h = loop_host(f, {f.a}, {true});
    h.body = [&](FakeWhile& w) { w.vals[0] = f.b; return true; };
    convert_while(h, f.g, {});
    CHECK(h.bodies == 1);
    const Node& loop = f.g.node(f.g.value(h.vals[0].gid).def);
    const Region& body = f.g.region(loop.regions[1]);
    const Node& yield = f.g.node(body.nodes.back());
    REQUIRE(yield.operands.size() == 2);
    CHECK(yield.operands[1] == body.args[1]);  // v0 as it came in
    const size_t nodes = f.g.num_nodes();
    h.body = [](FakeWhile&) -> bool { throw std::logic_error("unsupported"); };
    CHECK_THROWS_AS(convert_while(h, f.g, {}), std::logic_error);
    CHECK(f.g.num_nodes() == nodes);
}
