// Compiled graphs against the reference graph interpreter (the oracle):
// every element-wise op on every dtype combination, on 0-d values (the
// register path), on tensors (fused loops) and with broadcasting, over
// special values (±0, ±inf, NaN, subnormals, integer extremes). Results
// must be bit-identical (any NaN matches any NaN: LLVM does not promise NaN
// payloads). Also control flow, runtime errors with their locations, and the
// object cache.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

#include "codegen/compiler.hpp"
#include "tests/codegen/graph_compare.hpp"
#include "codegen/lower.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/elementwise.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/passes.hpp"
#include "tracer/printer.hpp"
#include "tracer/verifier.hpp"

using namespace tg;
using stdlib::DType;
using stdlib::Shape;
using stdlib::Tensor;
using stdlib::TensorType;
using tracer::Graph;
using tracer::ValueId;
using namespace tg::codegen_test;

namespace {

codegen::JitOptions no_cache() {
    codegen::JitOptions o;
    o.object_cache = false;
    return o;
}

codegen::Compiler& compiler() {
    static codegen::Compiler c(no_cache());
    return c;
}

// The values every test runs over, per dtype.
std::vector<double> special_floats(DType d) {
    std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 7.25, -7.25, 0.3, 1e30, -1e30, 88.5, -103.0,
                             100.0, 0.001, std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), std::nan("")};
    if (d == DType::F32) v.push_back(1e-40);  // subnormal
    else v.push_back(1e-310);
    return v;
}
std::vector<int64_t> special_ints(DType d) {
    if (d == DType::Bool) return {0, 1};
    std::vector<int64_t> v = {0, 1, -1, 2, -7, 7, 13, 100, 3, -3};
    if (d == DType::I32) {
        v.push_back(std::numeric_limits<int32_t>::min());
        v.push_back(std::numeric_limits<int32_t>::max());
    } else {
        v.push_back(std::numeric_limits<int64_t>::min());
        v.push_back(std::numeric_limits<int64_t>::max());
    }
    return v;
}

// A 1-d tensor of `n` values of type t cycling through the special values
// (repeated `rep` times each, so that two operands form all pairs).
Tensor values(DType d, int64_t n, int64_t rep, int64_t shift = 0) {
    Tensor t = Tensor::empty(d, Shape{n});
    if (stdlib::is_float(d)) {
        auto v = special_floats(d);
        for (int64_t i = 0; i < n; ++i) {
            double x = v[static_cast<size_t>((i / rep + shift) % static_cast<int64_t>(v.size()))];
            if (d == DType::F32) t.data<float>()[i] = static_cast<float>(x);
            else t.data<double>()[i] = x;
        }
    } else {
        auto v = special_ints(d);
        for (int64_t i = 0; i < n; ++i) {
            int64_t x = v[static_cast<size_t>((i / rep + shift) % static_cast<int64_t>(v.size()))];
            if (d == DType::Bool) t.data<bool>()[i] = x != 0;
            else if (d == DType::I32) t.data<int32_t>()[i] = static_cast<int32_t>(x);
            else t.data<int64_t>()[i] = x;
        }
    }
    return t;
}

size_t count(DType d) { return stdlib::is_float(d) ? special_floats(d).size() : special_ints(d).size(); }


// The names of the table's ops of one kind (UnaryKind, BinaryKind): every
// row of stdlib/op_kinds.hpp, so a new op is tested without being listed here.
template <class Kind>
std::vector<const char*> ops_of_kind() {
    std::vector<const char*> names;
    for (const stdlib::OpDef* op : stdlib::all_ops())
        if (std::holds_alternative<Kind>(op->kind)) names.push_back(op->name.data());
    return names;
}
const std::vector<const char*> kBinary = ops_of_kind<stdlib::BinaryKind>();
const DType kDTypes[] = {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64};

void add_ops(Graph& g, std::span<const char* const> names, std::span<const ValueId> args, std::vector<ValueId>& outs,
             std::vector<std::string>& what) {
    for (const char* name : names) {
        try {
            outs.push_back(g.apply1(*stdlib::find_op(name), args));
            what.push_back(name);
        } catch (const stdlib::OpError&) {
            // not defined for these dtypes
        }
    }
}

// A 0-d tensor holding element i of t, as type `as` (weak or strong).
Tensor element(const Tensor& t, int64_t i, const TensorType& as) {
    stdlib::IndexItem it;
    it.index = i;
    Tensor e = stdlib::index(t, std::span<const stdlib::IndexItem>(&it, 1));
    if (!as.weak) return e;
    return stdlib::is_float(as.dtype) ? Tensor::weak_float(e.item_f64()) : Tensor::weak_int(e.item_i64());
}

}  // namespace

TEST_CASE("binary ops on every dtype pair: fused loops, 0-d registers and broadcasting match the interpreter") {
    std::vector<TensorType> kinds;
    for (DType d : kDTypes) kinds.push_back({d, {}, false});
    kinds.push_back({DType::I64, {}, true});  // weak int
    kinds.push_back({DType::F32, {}, true});  // weak float
    for (const TensorType& ta : kinds)
        for (const TensorType& tb : kinds) {
            const DType sa = ta.weak ? (stdlib::is_float(ta.dtype) ? DType::F64 : DType::I64) : ta.dtype;
            const DType sb = tb.weak ? (stdlib::is_float(tb.dtype) ? DType::F64 : DType::I64) : tb.dtype;
            const int64_t na = static_cast<int64_t>(count(sa)), nb = static_cast<int64_t>(count(sb));
            const int64_t n = na * nb;
            Tensor a = values(sa, n, nb), b = values(sb, n, 1);
            const std::string what = tracer::to_string(tracer::ValueType::of(ta)) + " op " +
                                     tracer::to_string(tracer::ValueType::of(tb));
            // 0-d operands: the register path, one run per pair
            {
                Built s = build({ta, tb}, [&](Graph& g, auto& in, auto& outs, auto& names) { add_ops(g, kBinary, in, outs, names); });
                auto c = compiler().compile(*s.g, "scalar");
                for (int64_t i = 0; i < n; ++i)
                    agree(*s.g, *c, {element(a, i, ta), element(b, i, tb)}, what + " (0-d) element " + std::to_string(i));
            }
            if (ta.weak || tb.weak) continue;
            // tensors: one fused loop per op (the integer ones that may raise run alone)
            {
                TensorType va{ta.dtype, Shape{n}, false}, vb{tb.dtype, Shape{n}, false};
                Built v = build({va, vb}, [&](Graph& g, auto& in, auto& outs, auto& names) { add_ops(g, kBinary, in, outs, names); });
                auto c = compiler().compile(*v.g, "vector");
                Outcome r = agree(*v.g, *c, {a, b}, what + " (vectors)");
                // without zero divisors, so the integer division results are compared too
                if (!r.error.empty()) {
                    Tensor nz = stdlib::binary(stdlib::BinaryKind::Maximum, b, Tensor::scalar(int64_t(1), tb.dtype));
                    nz = stdlib::cast(nz, tb.dtype);
                    agree(*v.g, *c, {a, nz}, what + " (vectors, no zero divisor)");
                }
            }
            // broadcasting: a (n,1) against b (nb,), and a vector with a 0-d operand
            {
                TensorType va{ta.dtype, Shape{na, 1}, false}, vb{tb.dtype, Shape{nb}, false};
                TensorType sb0{tb.dtype, Shape{}, false};
                Built v = build({va, vb, sb0}, [&](Graph& g, auto& in, auto& outs, auto& names) {
                    add_ops(g, kBinary, std::vector<ValueId>{in[0], in[1]}, outs, names);
                    add_ops(g, kBinary, std::vector<ValueId>{in[1], in[2]}, outs, names);
                });
                auto c = compiler().compile(*v.g, "broadcast");
                Tensor a2 = values(sa, na, 1).view(Shape{na, 1}, Shape{1, 1}, 0).contiguous();
                Tensor b1 = values(sb, nb, 1);
                agree(*v.g, *c, {a2, b1, element(b1, 1, sb0)}, what + " (broadcast)");
            }
        }
}

TEST_CASE("unary ops, astype, where and clip on every dtype match the interpreter") {
    const std::vector<const char*> unary = ops_of_kind<stdlib::UnaryKind>();
    std::vector<TensorType> kinds;
    for (DType d : kDTypes) kinds.push_back({d, {}, false});
    kinds.push_back({DType::I64, {}, true});
    kinds.push_back({DType::F32, {}, true});
    for (const TensorType& t : kinds) {
        const DType s = t.weak ? (stdlib::is_float(t.dtype) ? DType::F64 : DType::I64) : t.dtype;
        const int64_t n = static_cast<int64_t>(count(s));
        Tensor x = values(s, n, 1);
        auto body = [&](Graph& g, const std::vector<ValueId>& in, std::vector<ValueId>& outs, std::vector<std::string>& names) {
            add_ops(g, unary, std::vector<ValueId>{in[0]}, outs, names);
            for (DType d : kDTypes) {
                outs.push_back(g.apply1(*stdlib::find_op("astype"), std::vector<ValueId>{in[0]},
                                        {std::monostate{}, d}));
                names.push_back("astype");
            }
            ValueId w = g.apply1("where", {in[0], in[0], in[1]});
            outs.push_back(w);
            try {
                outs.push_back(g.apply1("clip", {in[0], in[1], in[2]}));
            } catch (const stdlib::OpError&) {
            }
        };
        const std::string what = tracer::to_string(tracer::ValueType::of(t));
        TensorType other{DType::F32, {}, false}, lo{DType::I32, {}, false};
        {
            Built b = build({t, other, lo}, body);
            auto c = compiler().compile(*b.g, "unary_scalar");
            for (int64_t i = 0; i < n; ++i)
                agree(*b.g, *c, {element(x, i, t), Tensor::scalar(2.5, DType::F32), Tensor::scalar(int32_t(-1))},
                      what + " (0-d) element " + std::to_string(i));
        }
        if (t.weak) continue;
        {
            TensorType v{t.dtype, Shape{n}, false};
            Built b = build({v, other, lo}, body);
            auto c = compiler().compile(*b.g, "unary_vector");
            agree(*b.g, *c, {x, Tensor::scalar(2.5, DType::F32), Tensor::scalar(int32_t(-1))}, what + " (vector)");
        }
    }
}

TEST_CASE("exp, log, tanh and sigmoid are bit-identical to the eager kernels over a dense sweep") {
    for (DType d : {DType::F32, DType::F64}) {
        const int64_t n = 200001;
        Tensor x = Tensor::empty(d, Shape{n});
        for (int64_t i = 0; i < n; ++i) {
            double v = (i - n / 2) * 0.0011;  // -110 .. 110
            if (d == DType::F32) x.data<float>()[i] = static_cast<float>(v);
            else x.data<double>()[i] = v;
        }
        Built b = build({TensorType{d, Shape{n}, false}}, [&](Graph& g, auto& in, auto& outs, auto& names) {
            const char* fns[] = {"exp", "log", "tanh", "sigmoid"};
            add_ops(g, fns, in, outs, names);
        });
        auto c = compiler().compile(*b.g, "sweep");
        agree(*b.g, *c, {x}, d == DType::F32 ? "f32 sweep" : "f64 sweep");
    }
}

TEST_CASE("fusion: an element-wise chain is one loop, values read elsewhere get buffers") {
    Built b = build({TensorType{DType::F32, Shape{1000}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
        ValueId half = g.constant(Tensor::weak_float(0.5));
        ValueId one = g.constant(Tensor::weak_float(1.0));
        ValueId t = g.apply1("tanh", {g.apply1("add", {g.apply1("mul", {in[0], half}), one})});
        ValueId s = g.apply1("sigmoid", {in[0]});
        ValueId y = g.apply1("sub", {g.apply1("mul", {t, s}), g.apply1("mul", {in[0], in[0]})});
        outs.push_back(y);
        outs.push_back(g.apply1("sum", {s}));  // s is also read by a reduction
    });
    auto c = compiler().compile(*b.g, "chain");
    // the chain is one loop; the sum over s, which the chain's loop writes to a
    // buffer, is a second loop (a fused reduction with no members), native too
    CHECK(c->stats().fused_groups == 2);
    CHECK(c->stats().fused_nodes == 7);
    CHECK(c->stats().runtime_nodes == 0);
    agree(*b.g, *c, {values(DType::F32, 1000, 1)}, "chain");
}

TEST_CASE("liveness: tensors are released after their last use, also across loops, and results stay right") {
    // y = matmul(x, x) (runtime); z = y * 2 (fused); s = sum(z); loop 3 times: acc = acc + y; out: s, acc
    Graph g("live");
    ValueId tok = g.add_input_token();
    ValueId x = g.add_input({DType::F32, Shape{4, 4}, false}, "x");
    ValueId y = g.apply1("matmul", {x, x});
    ValueId z = g.apply1("mul", {y, g.constant(Tensor::weak_float(2.0))});
    ValueId s = g.apply1("sum", {z});
    ValueId zero = g.constant(Tensor::scalar(int64_t(0), DType::I64));
    std::vector<ValueId> inits{tok, zero, x};
    auto w = g.add_while(inits);
    auto cr = g.node(w).regions[0], br = g.node(w).regions[1];
    g.enter(cr);
    {
        auto a = g.args(cr);
        std::vector<ValueId> ys{g.apply1("lt", {a[1], g.constant(Tensor::weak_int(3))}), a[0], a[1], a[2]};
        g.yield(ys);
    }
    g.exit();
    g.enter(br);
    {
        auto a = g.args(br);
        std::vector<ValueId> args(a.begin(), a.end());
        std::vector<ValueId> ys{args[0], g.apply1("add", {args[1], g.constant(Tensor::weak_int(1))}),
                                g.apply1("add", {args[2], y})};
        g.yield(ys);
    }
    g.exit();
    auto res = g.finish(w);
    std::vector<ValueId> outs{s, res[2], res[0]};
    g.yield(outs);
    tracer::verify(g);
    auto c = compiler().compile(g, "live");
    CHECK(c->stats().released >= 3);  // x, y (after the loop), z
    agree(g, *c, {values(DType::F32, 16, 1).view(Shape{4, 4}, Shape{4, 1}, 0)}, "live");
}

namespace {

// In a loop body: print(i) when i is even (a cond over the token); the token after it.
ValueId print_when_even(Graph& g, ValueId tok, ValueId i) {
    ValueId even = g.apply1("eq", {g.apply1("mod", {i, g.constant(Tensor::weak_int(2))}), g.constant(Tensor::weak_int(0))});
    std::vector<ValueId> cin{tok};
    auto cn = g.add_cond(even, cin);
    auto then_r = g.node(cn).regions[0], else_r = g.node(cn).regions[1];
    g.enter(then_r);
    {
        std::vector<ValueId> pv{i};
        ValueId t2 = g.print(g.args(then_r)[0], {tracer::TextPiece{tracer::TextPiece::Text, "i=", 0},
                                                 tracer::TextPiece{tracer::TextPiece::Str, "", 0},
                                                 tracer::TextPiece{tracer::TextPiece::Text, "\n", 0}},
                             pv);
        std::vector<ValueId> ys{t2};
        g.yield(ys);
    }
    g.exit();
    g.enter(else_r);
    {
        std::vector<ValueId> ys{g.args(else_r)[0]};
        g.yield(ys);
    }
    g.exit();
    return g.finish(cn)[0];
}

// g(n, v): while i < n: v = v * 2 + i; i = i + 1;  print(i) when i is even.
// Then assert i < 100 ("too many", at 7:3); returns i and v.
void build_loop_print_assert(Graph& g) {
    ValueId tok = g.add_input_token();
    ValueId n = g.add_input({DType::I64, {}, false}, "n");
    ValueId v0 = g.add_input({DType::F32, Shape{3}, false}, "v");
    ValueId zero = g.constant(Tensor::scalar(int64_t(0), DType::I64));
    std::vector<ValueId> inits{tok, zero, v0};
    auto w = g.add_while(inits);
    auto cr = g.node(w).regions[0], br = g.node(w).regions[1];
    g.enter(cr);
    {
        auto a = g.args(cr);
        ValueId p = g.apply1("lt", {a[1], n});
        std::vector<ValueId> ys{p, a[0], a[1], a[2]};
        g.yield(ys);
    }
    g.exit();
    g.enter(br);
    {
        auto a = g.args(br);
        std::vector<ValueId> args(a.begin(), a.end());
        ValueId two = g.constant(Tensor::weak_float(2.0));
        ValueId fi = g.apply1("astype", {args[1]}, {}, {std::monostate{}, DType::F32});
        ValueId v = g.apply1("add", {g.apply1("mul", {args[2], two}), fi});
        ValueId i = g.apply1("add", {args[1], g.constant(Tensor::weak_int(1))});
        std::vector<ValueId> ys{print_when_even(g, args[0], i), i, v};
        g.yield(ys);
    }
    g.exit();
    auto res = g.finish(w);
    ValueId ok = g.apply1("lt", {res[1], g.constant(Tensor::weak_int(100))});
    ValueId t3 = g.assert_(res[0], ok, {tracer::TextPiece{tracer::TextPiece::Text, "too many", 0}}, {},
                           tracer::SrcLoc{nullptr, {7, 3}, nullptr});
    std::vector<ValueId> outs{res[1], res[2], t3};
    g.yield(outs);
    tracer::verify(g);
}

// Runs g on the reference interpreter and c with n = k: both print, raise
// and return the same. The compiled run's error ("" if none).
std::string check_same_run(const Graph& g, const codegen::CompiledGraph& c, int64_t k) {
    std::string ref_out, jit_out;
    tracer::RunContext rc, jc;
    rc.write = [&](std::string_view s) { ref_out += s; };
    jc.write = [&](std::string_view s) { jit_out += s; };
    std::vector<Tensor> in{Tensor::scalar(k, DType::I64), values(DType::F32, 3, 1, 2)};
    std::string re, je;
    std::vector<Tensor> r, j;
    try {
        r = tracer::run_graph(g, in, rc);
    } catch (const tracer::RuntimeError& e) {
        re = std::string(e.what()) + " @ " + tracer::to_string(e.where);
    }
    try {
        j = c.run(in, jc);
    } catch (const tracer::RuntimeError& e) {
        je = std::string(e.what()) + " @ " + tracer::to_string(e.where);
    }
    INFO("n = " << k);
    CHECK(ref_out == jit_out);
    CHECK(re == je);
    REQUIRE(r.size() == j.size());
    for (size_t q = 0; q < r.size(); ++q) {
        const std::string diff = first_difference(r[q], j[q]);
        CHECK_MESSAGE(diff.empty(), diff);
    }
    return je;
}

}  // namespace

TEST_CASE("cond and while with 0-d and tensor carried values, print and assert") {
    Graph g("loop");
    build_loop_print_assert(g);
    auto c = compiler().compile(g, "loop");
    for (int64_t k : {0, 1, 5, 150}) {
        const std::string error = check_same_run(g, *c, k);
        if (k == 150) CHECK(error == "too many @ 7:3");
    }
}

TEST_CASE("floor division and modulo by a constant (multiply-high, shift, mask) match the interpreter") {
    // Divisors: powers of two (shift / mask), small odd and even ones, ones
    // whose magic multiplier is negative as a signed number (an add after the
    // high half: 7 in 32 bits), and the largest that fit.
    const int64_t divisors[] = {1, 2, 3, 4, 5, 6, 7, 10, 12, 25, 60, 64, 100, 125, 641, 1000, 3037000499,
                                1ll << 30, 2147483647, 6700417, 1ll << 40, 4611686018427387903, 4611686018427387904,
                                9223372036854775807};
    for (DType dt : {DType::I32, DType::I64}) {
        const int64_t lo = dt == DType::I32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
        const int64_t hi = dt == DType::I32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
        for (int64_t d : divisors) {
            if (d > hi) continue;
            // around 0, the extremes and multiples of d (where the quotient's repair happens), and a spread
            std::vector<int64_t> xs;
            for (int64_t k : {int64_t(0), int64_t(1), int64_t(2), int64_t(3), hi / d, lo / d, lo / d + 1, -hi / d})
                for (int64_t e = -2; e <= 2; ++e) {
                    const __int128 v = static_cast<__int128>(k) * d + e, v2 = -static_cast<__int128>(k) * d + e;
                    if (v >= lo && v <= hi) xs.push_back(static_cast<int64_t>(v));
                    if (v2 >= lo && v2 <= hi) xs.push_back(static_cast<int64_t>(v2));
                }
            for (int64_t x : {lo, lo + 1, hi, hi - 1}) xs.push_back(x);
            uint64_t st = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(d);
            for (int i = 0; i < 64; ++i) {
                st = st * 6364136223846793005ull + 1442695040888963407ull;
                xs.push_back(dt == DType::I32 ? static_cast<int32_t>(st >> 32) : static_cast<int64_t>(st) >> (i % 40));
            }
            const int64_t n = static_cast<int64_t>(xs.size());
            Tensor x = Tensor::empty(dt, Shape{n});
            for (int64_t i = 0; i < n; ++i) {
                if (dt == DType::I32) x.data<int32_t>()[i] = static_cast<int32_t>(xs[static_cast<size_t>(i)]);
                else x.data<int64_t>()[i] = xs[static_cast<size_t>(i)];
            }
            const std::string what = std::string(dt == DType::I32 ? "i32" : "i64") + " by " + std::to_string(d);
            auto ops = [&](Graph& g, ValueId in, std::vector<ValueId>& outs) {
                ValueId c = g.constant(Tensor::weak_int(d));
                outs.push_back(g.apply1("floordiv", {in, c}));
                outs.push_back(g.apply1("mod", {in, c}));
            };
            // tensors: a fused loop
            Built v = build({TensorType{dt, Shape{n}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) { ops(g, in[0], outs); });
            // the constant is a literal in the IR, so the constant-divisor code is what runs
            const std::string ir = codegen::lower_graph(*v.g, "f", false).ir;
            if (d >= 2 && (d & (d - 1)) != 0) CHECK_MESSAGE(ir.find(dt == DType::I32 ? "mul i64" : "mul i128") != std::string::npos, what);
            auto cv = compiler().compile(*v.g, "divc");
            agree(*v.g, *cv, {x}, what + " (vector)");
            // 0-d values: registers
            Built s = build({TensorType{dt, {}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) { ops(g, in[0], outs); });
            auto cs = compiler().compile(*s.g, "divc0");
            for (int64_t i = 0; i < n; i += 3) agree(*s.g, *cs, {element(x, i, TensorType{dt, {}, false})}, what + " (0-d)");
        }
    }
}

TEST_CASE("modules without fused loops are marked for the session's short scalar pipeline") {
    Built scalar = build({TensorType{DType::I64, {}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
        outs.push_back(g.apply1("mod", {g.apply1("mul", {in[0], in[0]}), g.constant(Tensor::weak_int(7))}));
    });
    Built fused = build({TensorType{DType::F32, Shape{16}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
        outs.push_back(g.apply1("exp", {in[0]}));
    });
    CHECK(codegen::lower_graph(*scalar.g, "s", false).ir.find("!tg.pipeline") != std::string::npos);
    CHECK(codegen::lower_graph(*fused.g, "f", false).ir.find("!tg.pipeline") == std::string::npos);
    // both compile and agree (the scalar one through the short pipeline)
    agree(*scalar.g, *compiler().compile(*scalar.g, "short"), {Tensor::scalar(int64_t(-12345), DType::I64)}, "scalar");
    agree(*fused.g, *compiler().compile(*fused.g, "o2"), {values(DType::F32, 16, 1)}, "fused");
}

TEST_CASE("integer division by zero raises eager's message at the node's location") {
    Graph g("div");
    ValueId tok = g.add_input_token();
    ValueId a = g.add_input({DType::I64, {}, false});
    ValueId b = g.add_input({DType::I64, {}, false});
    ValueId va = g.add_input({DType::I32, Shape{4}, false});
    ValueId q = g.apply1("floordiv", {a, b}, tracer::SrcLoc{nullptr, {3, 9}, nullptr});
    ValueId r = g.apply1("mod", {va, g.apply1("astype", {b}, {}, {std::monostate{}, DType::I32})},
                         tracer::SrcLoc{nullptr, {4, 2}, nullptr});
    std::vector<ValueId> outs{q, r, tok};
    g.yield(outs);
    auto c = compiler().compile(g, "div");
    Tensor v = values(DType::I32, 4, 1);
    CHECK(run_jit(*c, {Tensor::scalar(int64_t(7), DType::I64), Tensor::scalar(int64_t(0), DType::I64), v}).error ==
          "integer division by zero @ 3:9");
    agree(g, *c, {Tensor::scalar(int64_t(7), DType::I64), Tensor::scalar(int64_t(-2), DType::I64), v}, "no error");
}

TEST_CASE("the object cache serves a compiled graph to a second compiler without compiling") {
    const std::string dir = (std::filesystem::temp_directory_path() / "tg_codegen_cache_test").string();
    std::filesystem::remove_all(dir);
    codegen::JitOptions o;
    o.cache_dir = dir;
    Built b = build({TensorType{DType::F32, Shape{8}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
        outs.push_back(g.apply1("exp", {in[0]}));
    });
    {
        codegen::Compiler first(o);
        auto c = first.compile(*b.g, "cached");
        CHECK_FALSE(c->from_cache());
    }
    codegen::Compiler second(o);
    auto c = second.compile(*b.g, "cached");
    CHECK(c->from_cache());
    agree(*b.g, *c, {values(DType::F32, 8, 1)}, "cached");
    std::filesystem::remove_all(dir);
}

TEST_CASE("sum and mean fused with their producers keep the stdlib's pairwise order bit for bit") {
    for (DType d : kDTypes)
        for (int64_t n : {1, 7, 8, 9, 255, 256, 257, 1000, 4099, 100003}) {
            Built b = build({TensorType{d, Shape{n}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
                ValueId x = in[0];
                if (d != DType::Bool) {
                    ValueId sq = g.apply1("mul", {x, x});
                    outs.push_back(g.apply1("sum", {g.apply1("sub", {sq, g.constant(Tensor::weak_int(3))})}));
                    outs.push_back(g.apply1("mean", {g.apply1("abs", {x})}));
                }
                outs.push_back(g.apply1("sum", {g.apply1("gt", {x, g.constant(Tensor::weak_int(0))})}));
                // a result also read outside the group keeps its buffer
                ValueId t = g.apply1("astype", {x}, {}, {std::monostate{}, DType::F64});
                ValueId u = g.apply1("mul", {t, g.constant(Tensor::weak_float(0.5))});
                outs.push_back(g.apply1("sum", {u}, {}, {std::monostate{}, int64_t(0), false}));
                outs.push_back(t);
            });
            auto c = compiler().compile(*b.g, "reduce");
            INFO("dtype " << tg::stdlib::dtype_name(d) << ", n = " << n);
            CHECK(c->stats().fused_reductions == (d == DType::Bool ? 2 : 4));
            CHECK(c->stats().runtime_nodes == 0);
            agree(*b.g, *c, {values(d, n, 1, 3)}, "reductions over special values");
            // finite values, so that the float sums are not all NaN
            Tensor f = Tensor::empty(d, Shape{n});
            for (int64_t i = 0; i < n; ++i) {
                const double v = std::sin(0.37 * static_cast<double>(i)) * 1000.0 + 1e-3 * static_cast<double>(i % 7);
                if (d == DType::F32) f.data<float>()[i] = static_cast<float>(v);
                else if (d == DType::F64) f.data<double>()[i] = v;
                else if (d == DType::I32) f.data<int32_t>()[i] = static_cast<int32_t>(v);
                else if (d == DType::I64) f.data<int64_t>()[i] = static_cast<int64_t>(v * 1e6);
                else f.data<bool>()[i] = v > 0;
            }
            Outcome r = agree(*b.g, *c, {f}, "reductions over finite values");
            if (stdlib::is_float(d) && n > 8) CHECK(std::isfinite(r.values[0].item_f64()));
        }
}

TEST_CASE("max and min fused with their producers keep the stdlib's lane order (the sign of a zero) bit for bit") {
    for (DType d : kDTypes)
        for (int64_t n : {1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 300, 1000, 4099}) {
            Built b = build({TensorType{d, Shape{n}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
                ValueId x = in[0];
                if (d == DType::Bool) {
                    outs.push_back(g.apply1("max", {g.apply1("logical_not", {x})}));
                    outs.push_back(g.apply1("min", {g.apply1("logical_not", {x})}));
                } else if (stdlib::is_float(d)) {  // x * 1 keeps the sign of a zero
                    outs.push_back(g.apply1("max", {g.apply1("mul", {x, g.constant(Tensor::weak_int(1))})}));
                    outs.push_back(g.apply1("min", {g.apply1("neg", {x})}));
                } else {
                    outs.push_back(g.apply1("max", {g.apply1("mul", {x, g.constant(Tensor::weak_int(3))})}));
                    outs.push_back(g.apply1("min", {g.apply1("sub", {x, g.constant(Tensor::weak_int(7))})}));
                }
            });
            auto c = compiler().compile(*b.g, "extreme");
            INFO("dtype " << tg::stdlib::dtype_name(d) << ", n = " << n);
            CHECK(c->stats().fused_reductions == 2);
            CHECK(c->stats().runtime_nodes == 0);
            agree(*b.g, *c, {values(d, n, 1, 3)}, "max/min over special values");
            // zeros of both signs (and, for floats, -1.5 / 1.5): which zero wins depends on the order
            for (int seed = 0; seed < 4; ++seed) {
                Tensor z = Tensor::empty(d, Shape{n});
                uint64_t st = 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(seed + 1);
                for (int64_t i = 0; i < n; ++i) {
                    st = st * 6364136223846793005ull + 1442695040888963407ull;
                    const int pick = static_cast<int>((st >> 33) % 5);
                    const double v = pick < 2 ? 0.0 : pick < 4 ? -0.0 : (seed % 2 ? 1.5 : -1.5);
                    if (d == DType::F32) z.data<float>()[i] = static_cast<float>(v);
                    else if (d == DType::F64) z.data<double>()[i] = v;
                    else if (d == DType::I32) z.data<int32_t>()[i] = static_cast<int32_t>(pick) - 2;
                    else if (d == DType::I64) z.data<int64_t>()[i] = static_cast<int64_t>(pick) * 1000000007LL;
                    else z.data<bool>()[i] = pick == seed;
                }
                agree(*b.g, *c, {z}, "max/min over signed zeros");
                if (!stdlib::is_float(d)) continue;
                // a few zeros of both signs among -1.5 (max) / 1.5 (min, through neg): the winner
                // depends on which lane (or the tail) each zero falls in
                for (int64_t i = 0; i < n; ++i) {
                    st = st * 6364136223846793005ull + 1442695040888963407ull;
                    const bool zero = (st >> 33) % static_cast<uint64_t>(std::max<int64_t>(n / 3, 1)) == 0;
                    const double v = zero ? ((st >> 20) % 2 ? 0.0 : -0.0) : -1.5;
                    if (d == DType::F32) z.data<float>()[i] = static_cast<float>(v);
                    else z.data<double>()[i] = v;
                }
                agree(*b.g, *c, {z}, "max/min over a few signed zeros");
            }
            if (!stdlib::is_float(d) || n < 32) continue;
            // two zeros of opposite signs: one in lane 5 of the first block, one in lane 3 of the last
            // full block. The lanes keep both; folding the lanes in order picks lane 3's (a plain loop
            // would pick the first one)
            for (double first : {0.0, -0.0}) {
                Tensor z = Tensor::empty(d, Shape{n});
                for (int64_t i = 0; i < n; ++i) {
                    const double v = i == 5 ? first : i == (n & -16) - 13 ? -first : -1.5;
                    if (d == DType::F32) z.data<float>()[i] = static_cast<float>(v);
                    else z.data<double>()[i] = v;
                }
                Outcome r = agree(*b.g, *c, {z}, "max/min: zeros in two lanes");
                CHECK(std::signbit(r.values[0].item_f64()) == !std::signbit(first));
            }
        }
}

TEST_CASE("prod, any and all fused with their producers: a left fold in the stdlib's order and types") {
    for (DType d : kDTypes)
        for (int64_t n : {1, 2, 7, 16, 17, 255, 1000, 4099}) {
            Built b = build({TensorType{d, Shape{n}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
                ValueId x = in[0];
                if (d == DType::Bool) {
                    outs.push_back(g.apply1("prod", {g.apply1("logical_not", {x})}));
                } else {
                    outs.push_back(g.apply1("prod", {g.apply1("mul", {x, g.constant(Tensor::weak_int(1))})}));
                }
                outs.push_back(g.apply1("any", {g.apply1("sub", {x, g.constant(Tensor::weak_int(1))})}));
                outs.push_back(g.apply1("all", {g.apply1("add", {x, g.constant(Tensor::weak_int(1))})}));
            });
            auto c = compiler().compile(*b.g, "fold");
            INFO("dtype " << tg::stdlib::dtype_name(d) << ", n = " << n);
            CHECK(c->stats().fused_reductions == 3);
            CHECK(c->stats().runtime_nodes == 0);
            agree(*b.g, *c, {values(d, n, 1, 3)}, "prod/any/all over special values");
            // values near 1 (floats: a product that neither overflows nor underflows; its
            // rounding depends on the order), 1s with a few 0s / -1s for ints and bools
            Tensor f = Tensor::empty(d, Shape{n});
            for (int64_t i = 0; i < n; ++i) {
                const double v = 1.0 + 0.01 * std::sin(0.37 * static_cast<double>(i));
                if (d == DType::F32) f.data<float>()[i] = static_cast<float>(v);
                else if (d == DType::F64) f.data<double>()[i] = v;
                else if (d == DType::I32) f.data<int32_t>()[i] = i % 97 == 5 ? -1 : (i % 3 ? 1 : 3);
                else if (d == DType::I64) f.data<int64_t>()[i] = i % 89 == 7 ? 0 : (i % 5 ? 1 : 7);
                else f.data<bool>()[i] = i % 13 != 4;
            }
            Outcome r = agree(*b.g, *c, {f}, "prod/any/all over values near 1");
            if (stdlib::is_float(d)) CHECK(std::isfinite(r.values[0].item_f64()));
        }
}

TEST_CASE("reductions over the last axis fuse row by row, each row in the stdlib's order") {
    for (DType d : kDTypes)
        for (int64_t rows : {1, 3})
            for (int64_t n : {1, 15, 16, 17, 257, 600}) {
                Built b = build({TensorType{d, Shape{rows, n}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
                    ValueId x = in[0];
                    int k = 0;
                    for (const char* op : {"sum", "mean", "max", "min", "prod", "any", "all"}) {
                        if (d == DType::Bool && (std::string(op) == "sum" || std::string(op) == "mean")) continue;
                        // a fresh producer per reduction (each must be its value's only reader)
                        ValueId y = d == DType::Bool ? g.apply1("logical_not", {x})
                                                     : g.apply1("mul", {x, g.constant(Tensor::weak_int(1 + k % 2))});
                        const int64_t axis = k % 2 ? -1 : 1;
                        const bool keep = k % 3 == 0;
                        outs.push_back(g.apply1(op, {y}, {}, {std::monostate{}, axis, keep}));
                        ++k;
                    }
                });
                auto c = compiler().compile(*b.g, "rows");
                INFO("dtype " << tg::stdlib::dtype_name(d) << ", " << rows << " x " << n);
                CHECK(c->stats().fused_reductions == (d == DType::Bool ? 5 : 7));
                CHECK(c->stats().runtime_nodes == 0);
                agree(*b.g, *c, {values(d, rows * n, 1, 3).view(Shape{rows, n}, Shape{n, 1}, 0)},
                      "row reductions over special values");
                Tensor f = Tensor::empty(d, Shape{rows, n});
                for (int64_t i = 0; i < rows * n; ++i) {
                    const double v = 1.0 + 0.01 * std::sin(0.37 * static_cast<double>(i));
                    if (d == DType::F32) f.data<float>()[i] = static_cast<float>(i % 7 == 3 ? -0.0 : v);
                    else if (d == DType::F64) f.data<double>()[i] = i % 7 == 3 ? 0.0 : v * 1e3;
                    else if (d == DType::I32) f.data<int32_t>()[i] = static_cast<int32_t>(v * 100) - 100;
                    else if (d == DType::I64) f.data<int64_t>()[i] = i % 5 ? 1 : 3;
                    else f.data<bool>()[i] = i % 13 != 4;
                }
                agree(*b.g, *c, {f}, "row reductions over ordinary values");
            }
}

TEST_CASE("reductions over axis 0 (the stdlib's blocks of 16 rows), over rows and over all of broadcast operands fuse") {
    for (DType d : kDTypes)
        for (int64_t R : {2, 3, 17, 40})
            for (int64_t m : {2, 5, 16, 33}) {
                // y = x (op) b (op) s with b: [m] (one per column) and s: [R, 1] (one per row)
                Built b = build({TensorType{d, Shape{R, m}, false}, TensorType{d, Shape{m}, false},
                                 TensorType{d, Shape{R, 1}, false}},
                                [&](Graph& g, auto& in, auto& outs, auto&) {
                                    int k = 0;
                                    for (const char* op : {"sum", "mean", "max", "min", "prod", "any", "all"})
                                        for (int64_t axis : {0, -1, 2}) {  // columns, rows, all (with broadcasting)
                                            if (d == DType::Bool &&
                                                (std::string(op) == "sum" || std::string(op) == "mean"))
                                                continue;
                                            ValueId y =
                                                d == DType::Bool
                                                    ? g.apply1("bitxor", {g.apply1("bitor", {in[0], in[1]}), in[2]})
                                                    : g.apply1("add", {g.apply1("mul", {in[0], in[1]}), in[2]});
                                            const stdlib::Attr ax = axis == 2 ? stdlib::Attr{} : stdlib::Attr{axis};
                                            outs.push_back(g.apply1(op, {y}, {}, {std::monostate{}, ax, axis == 2 ? false : k % 3 == 0}));
                                            ++k;
                                        }
                                });
                auto c = compiler().compile(*b.g, "cols");
                INFO("dtype " << tg::stdlib::dtype_name(d) << ", " << R << " x " << m);
                CHECK(c->stats().fused_reductions == (d == DType::Bool ? 15 : 21));
                CHECK(c->stats().runtime_nodes == 0);
                auto data = [&](int64_t n, int64_t shift) {
                    Tensor t = Tensor::empty(d, Shape{n});
                    for (int64_t i = 0; i < n; ++i) {
                        const double v = 1.0 + 0.01 * std::sin(0.37 * static_cast<double>(i + shift));
                        if (d == DType::F32) t.data<float>()[i] = static_cast<float>((i + shift) % 11 == 3 ? -0.0 : v);
                        else if (d == DType::F64) t.data<double>()[i] = (i + shift) % 11 == 3 ? 0.0 : v * 1e3;
                        else if (d == DType::I32) t.data<int32_t>()[i] = static_cast<int32_t>(v * 100) - 100;
                        else if (d == DType::I64) t.data<int64_t>()[i] = (i + shift) % 5 ? 1 : 3;
                        else t.data<bool>()[i] = (i + shift) % 13 == 4;
                    }
                    return t;
                };
                agree(*b.g, *c,
                      {values(d, R * m, 1, 3).view(Shape{R, m}, Shape{m, 1}, 0), values(d, m, 1, 5),
                       values(d, R, 1, 7).view(Shape{R, 1}, Shape{1, 1}, 0)},
                      "axis reductions over special values");
                agree(*b.g, *c,
                      {data(R * m, 0).view(Shape{R, m}, Shape{m, 1}, 0), data(m, 1),
                       data(R, 2).view(Shape{R, 1}, Shape{1, 1}, 0)},
                      "axis reductions over ordinary values");
                if (!stdlib::is_float(d)) continue;
                // y = x * 1 + (-0): zeros of both signs among -1.5, two per column (rows 1 and R-1,
                // opposite signs): a max keeps the first zero of a column, a min (of -1.5 → here
                // the zeros are not the min) is unaffected
                auto fill = [&](Tensor t, auto&& value) {
                    for (int64_t i = 0; i < t.numel(); ++i) {
                        if (d == DType::F32) t.data<float>()[i] = static_cast<float>(value(i));
                        else t.data<double>()[i] = value(i);
                    }
                    return t;
                };
                Tensor zx = fill(Tensor::empty(d, Shape{R * m}), [&](int64_t i) {
                    const int64_t row = i / m, col = i % m;
                    if (row == 1) return col % 2 ? 0.0 : -0.0;
                    if (row == R - 1) return col % 2 ? -0.0 : 0.0;
                    return -1.5;
                });
                Tensor zb = fill(Tensor::empty(d, Shape{m}), [](int64_t) { return 1.0; });
                Tensor zs = fill(Tensor::empty(d, Shape{R}), [](int64_t) { return -0.0; });
                agree(*b.g, *c,
                      {zx.view(Shape{R, m}, Shape{m, 1}, 0), zb, zs.view(Shape{R, 1}, Shape{1, 1}, 0)},
                      "axis reductions over signed zeros");
            }
}

TEST_CASE("reading one element (static, dynamic and negative indices) is native, out of range raises eager's error") {
    for (DType d : kDTypes) {
        Graph g("index");
        ValueId tok = g.add_input_token();
        ValueId x = g.add_input({d, Shape{3, 4}, false});
        ValueId i = g.add_input({DType::I64, {}, false});
        ValueId j = g.add_input({DType::I32, {}, false});
        tracer::IndexSpec both{{stdlib::IndexItem{}, stdlib::IndexItem{}}, {true, true}};
        tracer::IndexSpec fixed_row{{stdlib::IndexItem{}, stdlib::IndexItem{}}, {false, true}};
        fixed_row.items[0].index = -1;
        std::vector<ValueId> ij{i, j}, jj{j};
        ValueId a = g.index(x, both, ij, tracer::SrcLoc{nullptr, {5, 7}, nullptr});
        ValueId b = g.index(x, fixed_row, jj, tracer::SrcLoc{nullptr, {6, 7}, nullptr});
        std::vector<ValueId> outs{a, b, tok};
        g.yield(outs);
        tracer::verify(g);
        auto c = compiler().compile(g, "index");
        CHECK(c->stats().runtime_nodes == 0);
        Tensor xv = values(d, 12, 1).view(Shape{3, 4}, Shape{4, 1}, 0);
        for (int64_t r : {-4, -3, -1, 0, 2, 3})
            for (int32_t k : {-5, -4, -1, 0, 3, 4}) {
                INFO("dtype " << stdlib::dtype_name(d) << " [" << r << ", " << k << "]");
                Outcome o = agree(g, *c, {xv, Tensor::scalar(r, DType::I64), Tensor::scalar(k)}, "index");
                const bool in_range = r >= -3 && r < 3 && k >= -4 && k < 4;
                CHECK(o.error.empty() == in_range);
                if (!in_range) CHECK(o.error.find("is out of range") != std::string::npos);
            }
    }
}

TEST_CASE("storing one element: in place when the old value dies, never visible through another value") {
    // y = x; y[i] = 7 (x still read after: copy) ; z = y; z[-1] = y[0] (y dies: in place)
    for (DType d : kDTypes) {
        Graph g("store");
        ValueId tok = g.add_input_token();
        ValueId x = g.add_input({d, Shape{5}, false});
        ValueId i = g.add_input({DType::I64, {}, false});
        tracer::IndexSpec dyn{{stdlib::IndexItem{}}, {true}};
        tracer::IndexSpec last{{stdlib::IndexItem{}}, {false}};
        last.items[0].index = -1;
        tracer::IndexSpec first{{stdlib::IndexItem{}}, {false}};
        std::vector<ValueId> ii{i}, none;
        ValueId seven = g.constant(Tensor::weak_int(7));
        ValueId y = g.index_assign(x, seven, dyn, ii, tracer::SrcLoc{nullptr, {3, 5}, nullptr});
        ValueId y0 = g.index(y, first, none);
        ValueId z = g.index_assign(y, y0, last, none);
        std::vector<ValueId> outs{x, z, tok};
        g.yield(outs);
        tracer::verify(g);
        auto c = compiler().compile(g, "store");
        CHECK(c->stats().runtime_nodes == 0);
        Tensor xv = values(d, 5, 1);
        for (int64_t k : {-6, -5, -1, 0, 4, 5}) {
            INFO("dtype " << stdlib::dtype_name(d) << " i = " << k);
            Outcome o = agree(g, *c, {xv, Tensor::scalar(k, DType::I64)}, "store");
            CHECK(o.error.empty() == (k >= -5 && k < 5));
        }
        CHECK(first_difference(xv, values(d, 5, 1)).empty());  // the caller's tensor is untouched
    }
}
