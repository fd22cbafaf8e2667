// Compiled loops on the thread pool (codegen/thread_pool.hpp, tg_rt_parallel,
// tg_rt_pairwise_*, tg_rt_fold, tg_rt_extreme_*): the pool runs every task exactly once, also with
// several callers at once (run under ThreadSanitizer by scripts/test-tsan);
// and large fused loops and reductions give bit-identical results on 1, 2
// and 8 threads — every dtype, odd sizes, sizes on both sides of the size
// from which a loop is split — equal to the reference interpreter's.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include "codegen/compiler.hpp"
#include "codegen/lowerer.hpp"
#include "codegen/thread_pool.hpp"
#include "tests/codegen/graph_compare.hpp"

using namespace tg;
using namespace tg::codegen_test;
using stdlib::Shape;
using codegen::detail::kChunkWork;

namespace {

struct Hits {
    std::vector<std::atomic<int>> count;
    explicit Hits(int64_t n) : count(static_cast<size_t>(n)) {}
    static void task(void* arg, int64_t i) { static_cast<Hits*>(arg)->count[static_cast<size_t>(i)].fetch_add(1); }
    bool each_once() const {
        for (const auto& c : count)
            if (c.load() != 1) return false;
        return true;
    }
};

// One compiler per thread count; the code is the same (the count is read at
// run time), only the split differs.
codegen::Compiler& compiler(int threads) {
    auto make = [](int t) {
        codegen::JitOptions o;
        o.object_cache = false;
        o.background = false;
        o.threads = t;
        return std::make_unique<codegen::Compiler>(o);
    };
    static std::unique_ptr<codegen::Compiler> c1 = make(1), c2 = make(2), c8 = make(8);
    return threads == 1 ? *c1 : threads == 2 ? *c2 : *c8;
}

// Finite values of dtype d (sums stay finite; some zeros of both signs, for
// max and min).
Tensor finite(DType d, const Shape& shape) {
    Tensor f = Tensor::empty(d, shape);
    const int64_t n = shape.numel();
    for (int64_t i = 0; i < n; ++i) {
        const double v = std::sin(0.37 * static_cast<double>(i)) * 1000.0 + 1e-3 * static_cast<double>(i % 7);
        if (d == DType::F32) f.data<float>()[i] = static_cast<float>(i % 1009 == 5 ? (i % 2 ? -0.0 : 0.0) : v);
        else if (d == DType::F64) f.data<double>()[i] = i % 1013 == 5 ? (i % 2 ? -0.0 : 0.0) : v;
        else if (d == DType::I32) f.data<int32_t>()[i] = static_cast<int32_t>(v);
        else if (d == DType::I64) f.data<int64_t>()[i] = static_cast<int64_t>(v * 1e12);  // the i64 sums wrap
        else f.data<bool>()[i] = v > 0;
    }
    return f;
}

// Byte-for-byte equality (NaN payloads included: the same code runs on
// every thread count).
bool same_bytes(const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
    Tensor ca = a.contiguous(), cb = b.contiguous();
    return std::memcmp(ca.raw_data(), cb.raw_data(), static_cast<size_t>(ca.numel()) * stdlib::dtype_size(ca.storage_dtype())) == 0;
}

// Compiles `b` for 1, 2 and 8 threads, checks that `parallel` loops are
// split (stats), runs all three on each input set: bit-identical outputs,
// and equal to the reference interpreter.
void check_thread_counts(const Built& b, const std::vector<std::vector<Tensor>>& inputs, int parallel,
                         const std::string& what) {
    INFO(what);
    std::vector<std::unique_ptr<codegen::CompiledGraph>> code;
    for (int threads : {1, 2, 8}) {
        code.push_back(compiler(threads).compile(*b.g, "par"));
        CHECK(code.back()->stats().parallel_loops == parallel);
    }
    for (size_t k = 0; k < inputs.size(); ++k) {
        INFO("input set " << k);
        agree(*b.g, *code[0], inputs[k], what);
        const std::vector<Tensor> first = run_jit(*code[0], inputs[k]).values;
        for (size_t t = 1; t < code.size(); ++t) {
            Outcome o = run_jit(*code[t], inputs[k]);
            REQUIRE(o.error.empty());
            REQUIRE(o.values.size() == first.size());
            for (size_t j = 0; j < first.size(); ++j)
                CHECK_MESSAGE(same_bytes(o.values[j], first[j]),
                              "output " << j << " on " << (t == 1 ? 2 : 8) << " threads: " << first_difference(first[j], o.values[j]));
        }
    }
}

// n values of dtype d equal to `base`, except `at` positions: (index, value).
Tensor sparse(DType d, int64_t n, int base, const std::vector<std::pair<int64_t, int>>& at) {
    Tensor t = Tensor::empty(d, Shape{n});
    auto set = [&](int64_t i, int v) {
        if (d == DType::F32) t.data<float>()[i] = static_cast<float>(v);
        else if (d == DType::F64) t.data<double>()[i] = v;
        else if (d == DType::I32) t.data<int32_t>()[i] = v;
        else if (d == DType::I64) t.data<int64_t>()[i] = v;
        else t.data<bool>()[i] = v != 0;
    };
    for (int64_t i = 0; i < n; ++i) set(i, base);
    for (auto [i, v] : at) set(i, v);
    return t;
}

// n values of float dtype d: `base` everywhere, `at` positions (index, value) —
// for NaN, ±inf and zeros of either sign, which `sparse` cannot give.
Tensor sparse_float(DType d, int64_t n, double base, const std::vector<std::pair<int64_t, double>>& at) {
    Tensor t = Tensor::empty(d, Shape{n});
    auto set = [&](int64_t i, double v) {
        if (d == DType::F32) t.data<float>()[i] = static_cast<float>(v);
        else t.data<double>()[i] = v;
    };
    for (int64_t i = 0; i < n; ++i) set(i, base);
    for (auto [i, v] : at) set(i, v);
    return t;
}

// Inputs for max / min of neg(x) over n elements (neg keeps NaN, ±inf and the
// zeros, with their signs flipped) that hinge on one element at the start, in
// the middle or at the end, on NaN, ±inf and the sign of a zero.
std::vector<std::vector<Tensor>> extreme_inputs(DType d, int64_t n) {
    std::vector<std::vector<Tensor>> in = {{finite(d, Shape{n})}, {sparse(d, n, 3, {})}};  // all equal
    if (!stdlib::is_float(d)) {
        const int big = 2'000'000'000;  // the extremes of i32: at the start, in the middle, at the end
        for (int64_t at : {int64_t{0}, n / 2, n - 1}) {
            in.push_back({sparse(d, n, 5, {{at, big}})});
            in.push_back({sparse(d, n, -5, {{at, -big}, {(at + 17) % n, big}})});
        }
        return in;
    }
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    for (int64_t at : {int64_t{0}, n / 2, n - 1}) {
        in.push_back({sparse_float(d, n, 1.5, {{at, nan}})});
        in.push_back({sparse_float(d, n, 1.5, {{at, inf}, {(at + 33) % n, -inf}})});
        in.push_back({sparse_float(d, n, -inf, {{at, -inf}, {(at + 1) % n, inf}})});
    }
    in.push_back({sparse_float(d, n, nan, {})});                                     // all NaN
    in.push_back({sparse_float(d, n, 2.0, {{3, nan}, {n / 2, -nan}, {n - 2, nan}})});  // several
    // zeros of both signs: which one wins depends on runs::extreme's 16 lanes
    // (max of neg(x): +0 at 2, lane 2; -0 at a later index in lane 1 — lane 1
    // wins; the same for min with the signs swapped)
    const int64_t later = (n / 2) / 16 * 16 + 1;
    in.push_back({sparse_float(d, n, 1.0, {{2, -0.0}, {later, 0.0}})});
    in.push_back({sparse_float(d, n, -1.0, {{2, 0.0}, {later, -0.0}})});
    in.push_back({sparse_float(d, n, 0.0, {{n / 3, -0.0}, {n - 1, -0.0}})});
    in.push_back({sparse_float(d, n, -0.0, {{n / 3, 0.0}})});
    return in;
}

}  // namespace

TEST_CASE("the thread pool runs every task exactly once, also for several callers at once") {
    for (int workers : {0, 1, 3}) {
        codegen::ThreadPool pool(workers);
        CHECK(pool.workers() == workers);
        for (int64_t n : {0, 1, 2, 5, 64, 1000}) {
            Hits h(n);
            pool.run(&Hits::task, &h, n, 8);
            CHECK_MESSAGE(h.each_once(), workers << " workers, " << n << " tasks");
        }
        // four callers at once, each waiting for its own tasks only
        std::vector<std::thread> callers;
        std::atomic<int> bad{0};
        for (int t = 0; t < 4; ++t)
            callers.emplace_back([&, t] {
                for (int rep = 0; rep < 200; ++rep) {
                    Hits h(1 + (rep + t) % 9);
                    pool.run(&Hits::task, &h, static_cast<int64_t>(h.count.size()), 1 + (rep + t) % 4);
                    if (!h.each_once()) bad.fetch_add(1);
                }
            });
        for (std::thread& c : callers) c.join();
        CHECK(bad.load() == 0);
    }
    Hits h(100);
    codegen::shared_pool().run(&Hits::task, &h, 100, 2);
    CHECK(h.each_once());
}

TEST_CASE("TG_NUM_THREADS: a positive integer sets the default thread count, anything else is not used") {
    const char* old = std::getenv("TG_NUM_THREADS");
    const std::string saved = old ? old : "";
    setenv("TG_NUM_THREADS", "3", 1);
    CHECK(codegen::env_threads() == 3);
    CHECK(codegen::default_threads() == 3);
    for (const char* bad : {"0", "-2", "two", "3x", "100000"}) {
        setenv("TG_NUM_THREADS", bad, 1);
        CHECK_MESSAGE(codegen::env_threads() == -1, bad);
        CHECK(codegen::default_threads() >= 1);
    }
    unsetenv("TG_NUM_THREADS");
    CHECK(codegen::env_threads() == 0);
    CHECK(codegen::default_threads() == static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    if (old) setenv("TG_NUM_THREADS", saved.c_str(), 1);
}

TEST_CASE("large fused element-wise loops give bit-identical results on 1, 2 and 8 threads") {
    const DType kAll[] = {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64};
    for (DType d : kAll) {
        // five element-wise ops per element: split from 2 * kChunkWork / 5 elements on
        const int64_t ops = 5, from = (2 * kChunkWork + ops - 1) / ops;
        auto chain = [&](Graph& g, ValueId x, ValueId r) {
            if (d == DType::Bool) {
                ValueId a = g.apply1("logical_not", {x});
                ValueId b2 = g.apply1("bitxor", {a, r});
                ValueId c = g.apply1("bitor", {b2, x});
                ValueId e = g.apply1("eq", {c, a});
                return g.apply1("bitand", {e, r});
            }
            ValueId a = g.apply1("mul", {x, g.constant(Tensor::weak_int(3))});
            ValueId b2 = g.apply1("add", {a, r});
            ValueId c = g.apply1("mul", {b2, x});
            ValueId e = stdlib::is_float(d) ? g.apply1("tanh", {c}) : g.apply1("sub", {c, g.constant(Tensor::weak_int(7))});
            return g.apply1("abs", {e});
        };
        for (int64_t n : {from - 1, from, from + 1, int64_t{1'000'003}}) {
            Built b = build({TensorType{d, Shape{n}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
                outs.push_back(chain(g, in[0], in[0]));
            });
            check_thread_counts(b, {{finite(d, Shape{n})}}, n >= from ? 1 : 0,
                                std::string("flat chain, ") + std::string(stdlib::dtype_name(d)) + ", n = " + std::to_string(n));
        }
        // 2-d with broadcasting (a loop nest: its rows are split)
        Built b = build({TensorType{d, Shape{1001, 257}, false}, TensorType{d, Shape{257}, false}},
                        [&](Graph& g, auto& in, auto& outs, auto&) { outs.push_back(chain(g, in[0], in[1])); });
        check_thread_counts(b, {{finite(d, Shape{1001, 257}), finite(d, Shape{257})}}, 1,
                            std::string("broadcasting chain, ") + std::string(stdlib::dtype_name(d)));
    }
}

TEST_CASE("large integer //, % and ** (which can raise) stay on one thread and raise eager's error") {
    // (they were outlined for the pool like any large loop, where their error path cannot be reached:
    // the module did not compile)
    const int64_t n = 2 * kChunkWork + 5;
    for (const char* op : {"floordiv", "mod", "pow"})
        for (DType d : {DType::I32, DType::I64}) {
            INFO(op << " on " << stdlib::dtype_name(d));
            Built b = build({TensorType{d, Shape{n}, false}, TensorType{d, Shape{n}, false}},
                            [&](Graph& g, auto& in, auto& outs, auto&) {
                                outs.push_back(g.apply1(op, {in[0], in[1]}, tracer::SrcLoc{nullptr, {2, 12}, nullptr}));
                            });
            // divisors / exponents 1..3, then one bad one (0, or -1 for pow) near the end
            Tensor x = sparse(d, n, 7, {{3, -5}}), ok = sparse(d, n, 2, {{10, 3}, {n - 1, 1}});
            Tensor bad = sparse(d, n, 2, {{n - 3, std::string(op) == "pow" ? -1 : 0}});
            check_thread_counts(b, {{x, ok}}, 0, "no error");
            auto c = compiler(8).compile(*b.g, "raise");
            const Outcome o = agree(*b.g, *c, {x, bad}, "error");
            CHECK(o.error.find("@ 2:12") != std::string::npos);
        }
}

TEST_CASE("large fused reductions give bit-identical results on 1, 2 and 8 threads") {
    const DType kAll[] = {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64};
    const char* kOps[] = {"sum", "mean", "max", "min", "prod", "any", "all"};
    for (DType d : kAll) {
        // one producer (abs / logical_not) and the reduction: split from kChunkWork elements on
        const int64_t from = kChunkWork;
        auto producer = [&](Graph& g, ValueId x) {
            return g.apply1(d == DType::Bool ? "logical_not" : "abs", {x});
        };
        for (int64_t n : {from - 1, from, int64_t{1'000'003}}) {
            int split = 0;
            Built b = build({TensorType{d, Shape{n}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
                for (const char* op : kOps) {
                    const std::string o = op;
                    if (d == DType::Bool && (o == "sum" || o == "mean")) continue;
                    // sums and means split the pairwise tree; any, all, integer prod and boolean max / min
                    // are exact folds split into chunks; numeric max / min combine chunk extremes; float
                    // prod stays on one thread
                    split += !(o == "prod" && stdlib::is_float(d));
                    outs.push_back(g.apply1(op, {producer(g, in[0])}));
                }
            });
            // and inputs whose folds hinge on one element in the first, middle or last chunk (after the
            // producer abs / logical_not): any true by one element, all false by one, a product of two
            check_thread_counts(b,
                                {{finite(d, Shape{n})},
                                 {sparse(d, n, d == DType::Bool ? 1 : 0, {{n - 5, d == DType::Bool ? 0 : 7}})},
                                 {sparse(d, n, d == DType::Bool ? 0 : 1, {{n / 2, d == DType::Bool ? 1 : 0}})},
                                 {sparse(d, n, d == DType::Bool ? 0 : 1, {{7, d == DType::Bool ? 0 : 3}, {n - 3, d == DType::Bool ? 0 : -5}})}},
                                n >= from ? split : 0,
                                std::string("all elements, ") + std::string(stdlib::dtype_name(d)) + ", n = " + std::to_string(n));
        }
        for (const Shape& s : {Shape{4001, 67}, Shape{3, 200'003}, Shape{2, 7}}) {
            int rows = 0;
            Built b = build({TensorType{d, s, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
                for (const char* op : kOps) {
                    if (d == DType::Bool && (std::string(op) == "sum" || std::string(op) == "mean")) continue;
                    ++rows;
                    outs.push_back(g.apply1(op, {producer(g, in[0])}, {}, {std::monostate{}, int64_t(-1), false}));
                }
            });
            check_thread_counts(b, {{finite(d, s)}}, s.numel() >= from ? rows : 0,
                                std::string("rows, ") + std::string(stdlib::dtype_name(d)) + ", " +
                                    std::to_string(s[0]) + " x " + std::to_string(s[1]));
        }
    }
}

TEST_CASE("numeric max / min over all elements on the pool: NaN, ±inf, zeros' signs, static and dynamic sizes") {
    // neg(x) then max / min: one producer, so split from kChunkWork elements on
    const int64_t from = kChunkWork;
    for (DType d : {DType::I32, DType::I64, DType::F32, DType::F64}) {
        auto body = [&](Graph& g, ValueId x, std::vector<ValueId>& outs, bool dynamic) {
            for (const char* op : {"max", "min"}) {
                const ValueId y = g.apply1("neg", {x});
                if (dynamic) g.set_dim_symbol(y, 0, 0);  // as the tracer's generalization marks it
                outs.push_back(g.apply1(op, {y}));
            }
        };
        for (int64_t n : {from - 1, from, from + 1, from + 17, int64_t{1'000'003}}) {
            Built b = build({TensorType{d, Shape{n}, false}},
                            [&](Graph& g, auto& in, auto& outs, auto&) { body(g, in[0], outs, false); });
            check_thread_counts(b, extreme_inputs(d, n), n >= from ? 2 : 0,
                                std::string("static, ") + std::string(stdlib::dtype_name(d)) + ", n = " + std::to_string(n));
        }
        // a dynamic axis 0 (traced at 11): the split is decided at run time, at every size
        Built b = build({TensorType{d, Shape{11}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
            g.set_symbol_sources({{0, 0}});
            g.set_dim_symbol(in[0], 0, 0);
            body(g, in[0], outs, true);
        });
        for (int64_t n : {int64_t{17}, int64_t{1000}, from - 1, from, from + 17, int64_t{1'000'003}})
            check_thread_counts(b, extreme_inputs(d, n), 2,
                                std::string("dynamic, ") + std::string(stdlib::dtype_name(d)) + ", n = " + std::to_string(n));
    }
}

TEST_CASE("reductions over axis 0 split by columns give bit-identical results on 1, 2 and 8 threads") {
    // each column keeps the stdlib's order (loop order B): only which thread reduces it changes
    const DType kAll[] = {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64};
    const char* kOps[] = {"sum", "mean", "max", "min", "prod", "any", "all"};
    for (DType d : kAll) {
        auto body = [&](Graph& g, ValueId x, std::vector<ValueId>& outs, bool dynamic) {
            for (const char* op : kOps) {
                if (d == DType::Bool && (std::string(op) == "sum" || std::string(op) == "mean")) continue;
                const ValueId y = g.apply1(d == DType::Bool ? "logical_not" : "neg", {x});
                if (dynamic) g.set_dim_symbol(y, 0, 0);  // as the tracer's generalization marks it
                outs.push_back(g.apply1(op, {y}, {}, {std::monostate{}, int64_t(0), false}));
            }
        };
        const int ops = d == DType::Bool ? 5 : 7;
        // one producer: outlined from 2 * kChunkWork / 2 = kChunkWork elements on ([65535, 2] is just below);
        // at run time ranges of 16 columns: 2 and 7 columns stay on the caller, 64 and more are split
        for (const Shape& s : {Shape{65535, 2}, Shape{65537, 2}, Shape{70001, 7}, Shape{70001, 64}, Shape{1001, 257},
                               Shape{300, 4096}}) {
            Built b = build({TensorType{d, s, false}},
                            [&](Graph& g, auto& in, auto& outs, auto&) { body(g, in[0], outs, false); });
            check_thread_counts(b, {{finite(d, s)}}, s.numel() >= kChunkWork ? ops : 0,
                                std::string("columns, ") + std::string(stdlib::dtype_name(d)) + ", " +
                                    std::to_string(s[0]) + " x " + std::to_string(s[1]));
        }
        // a dynamic axis 0 (traced at 11): split or not at run time, by the number of rows
        Built b = build({TensorType{d, Shape{11, 33}, false}}, [&](Graph& g, auto& in, auto& outs, auto&) {
            g.set_symbol_sources({{0, 0}});
            g.set_dim_symbol(in[0], 0, 0);
            body(g, in[0], outs, true);
        });
        std::vector<std::vector<Tensor>> inputs;
        for (int64_t rows : {2, 17, 3000, 70001}) inputs.push_back({finite(d, Shape{rows, 33})});
        check_thread_counts(b, inputs, ops, std::string("dynamic columns, ") + std::string(stdlib::dtype_name(d)));
    }
}
