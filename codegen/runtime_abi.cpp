// The C functions compiled graphs call (codegen/runtime_abi.hpp). Each one
// catches everything: exceptions must never unwind through JIT-compiled
// frames.
#include "codegen/runtime_abi.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "codegen/native_ops.hpp"
#include "codegen/lowerer.hpp"
#include "codegen/thread_pool.hpp"
#include "stdlib/budget.hpp"
#include "stdlib/cast.hpp"

namespace tg::codegen {

using stdlib::DType;
using stdlib::Tensor;

namespace {

CallFrame& frame(void* ctx) { return *static_cast<CallFrame*>(ctx); }

// The element of a one-element tensor, converted to T from its storage dtype.
template <class T>
T element(const Tensor& t) {
    const void* p = t.raw_data();
    switch (t.storage_dtype()) {
        case DType::Bool: return stdlib::convert<T>(*static_cast<const bool*>(p));
        case DType::I32: return stdlib::convert<T>(*static_cast<const int32_t*>(p));
        case DType::I64: return stdlib::convert<T>(*static_cast<const int64_t*>(p));
        case DType::F32: return stdlib::convert<T>(*static_cast<const float*>(p));
        case DType::F64: break;
    }
    return stdlib::convert<T>(*static_cast<const double*>(p));
}

// A 0-d tensor of value v's type holding x (weak values keep their exact value).
template <class T>
Tensor scalar_of(const CallFrame& f, uint32_t v, T x) {
    const stdlib::TensorType& t = f.graph->tensor_type(v);
    if (t.weak) {
        if (stdlib::is_float(t.dtype)) return Tensor::weak_float(static_cast<double>(x));
        return Tensor::weak_int(static_cast<int64_t>(x));
    }
    switch (t.dtype) {
        case DType::Bool: return Tensor::scalar(stdlib::convert<bool>(x));
        case DType::I32: return Tensor::scalar(stdlib::convert<int32_t>(x));
        case DType::I64: return Tensor::scalar(stdlib::convert<int64_t>(x), DType::I64);
        case DType::F32: return Tensor::scalar(static_cast<double>(stdlib::convert<float>(x)), DType::F32);
        case DType::F64: break;
    }
    return Tensor::scalar(stdlib::convert<double>(x), DType::F64);
}

template <class F>
int32_t guarded(void* ctx, F&& fn) {
    try {
        fn();
        return 0;
    } catch (...) {
        frame(ctx).error = std::current_exception();
        return 1;
    }
}

// ---- splitting compiled loops over the pool (tg_rt_parallel, tg_rt_pairwise_*, tg_rt_fold, tg_rt_extreme_*)
// A loop is split into up to kChunksPerThread chunks per thread, handed out
// one at a time: on a busy machine a worker that starts late takes fewer
// chunks instead of holding up the call with a whole thread's share. (How
// a loop is split never changes its result.)
constexpr int64_t kChunksPerThread = 4;
// An outlined loop body: iterations [begin, end) of a fused loop, or the
// rows [begin, end) of a fused row reduction.
using RangeFn = void (*)(void* env, int64_t begin, int64_t end);

struct RangeJob {
    RangeFn fn;
    void* env;
    int64_t n, chunk;
};

void run_range_chunk(void* arg, int64_t i) {
    const RangeJob& j = *static_cast<const RangeJob*>(arg);
    j.fn(j.env, i * j.chunk, std::min(j.n, (i + 1) * j.chunk));
}

// The stdlib's pairwise_sum (stdlib/reduce_runs.hpp) over [0, n), split at
// the nodes of its recursion tree of at most `cutoff` elements (cutoff >=
// 256, its leaf size): each such subtree is one call of the compiled helper
// (which recurses exactly as the stdlib does), the subtrees run on the pool,
// and their sums are combined up the same tree, in the same order. The tree
// depends only on n and cutoff, so the result does not depend on the number
// of threads. T: double for float sums, uint64_t (wrapping) for integers.
template <class T>
struct PairwiseJob {
    using LeafFn = T (*)(void* env, int64_t a, int64_t n);
    LeafFn fn;
    void* env;
    std::vector<std::array<int64_t, 2>> leaves;  // subtrees, in order: first element, count
    std::vector<T> sums;                          // per subtree
    int64_t chunks = 1;

    void split(int64_t a, int64_t n, int64_t cutoff) {
        if (n <= cutoff) {
            leaves.push_back({a, n});
            return;
        }
        int64_t h = n / 2;
        h -= h % 8;  // as pairwise_sum: the left half a multiple of 8
        split(a, h, cutoff);
        split(a + h, n - h, cutoff);
    }
    T combine(int64_t n, int64_t cutoff, size_t& next) const {
        if (n <= cutoff) return sums[next++];
        int64_t h = n / 2;
        h -= h % 8;
        const T l = combine(h, cutoff, next);
        return l + combine(n - h, cutoff, next);
    }
    static void run_chunk(void* arg, int64_t i) {  // chunk i: a contiguous run of subtrees
        auto& j = *static_cast<PairwiseJob*>(arg);
        const int64_t m = static_cast<int64_t>(j.leaves.size());
        for (int64_t k = i * m / j.chunks; k < (i + 1) * m / j.chunks; ++k) j.sums[k] = j.fn(j.env, j.leaves[k][0], j.leaves[k][1]);
    }
};

template <class T>
T pairwise(const CallFrame& f, typename PairwiseJob<T>::LeafFn fn, void* env, int64_t n, int64_t cutoff) {
    PairwiseJob<T> job{fn, env, {}, {}, 1};
    job.split(0, n, std::max<int64_t>(cutoff, 256));
    job.sums.resize(job.leaves.size());
    job.chunks = std::min<int64_t>(f.threads * kChunksPerThread, static_cast<int64_t>(job.leaves.size()));
    if (f.threads <= 1 || job.chunks <= 1) {
        job.chunks = 1;
        PairwiseJob<T>::run_chunk(&job, 0);
    } else {
        shared_pool().run(&PairwiseJob<T>::run_chunk, &job, job.chunks, f.threads);
    }
    size_t next = 0;
    return job.combine(n, std::max<int64_t>(cutoff, 256), next);
}

// A fold over [0, n) in chunks that run on the pool: part[c] = fn over
// chunk c, [c * chunk, min(n, (c + 1) * chunk)); the caller combines the
// parts in chunk order. T: what the compiled helper returns.
template <class T>
struct ChunkJob {
    using Fn = T (*)(void* env, int64_t a, int64_t n);
    Fn fn;
    void* env;
    int64_t n, chunk;
    std::vector<T> part;
    static void run_chunk(void* arg, int64_t i) {
        auto& j = *static_cast<ChunkJob*>(arg);
        const int64_t a = i * j.chunk, b = std::min(j.n, a + j.chunk);
        j.part[static_cast<size_t>(i)] = j.fn(j.env, a, b - a);
    }
};

// The parts of fn over [0, n) in chunks of at least `grain` elements that
// start at multiples of `align`, on frame.threads threads; empty when the
// work is too small to split (or there is one thread): then the caller
// makes one call fn(env, 0, n).
template <class T>
std::vector<T> chunk_parts(const CallFrame& f, typename ChunkJob<T>::Fn fn, void* env, int64_t n, int64_t grain,
                           int64_t align) {
    const int64_t chunks = std::min<int64_t>(f.threads * kChunksPerThread, n / std::max<int64_t>(grain, 1));
    if (f.threads <= 1 || chunks <= 1) return {};
    const int64_t chunk = ((n + chunks - 1) / chunks + align - 1) / align * align;
    ChunkJob<T> job{fn, env, n, chunk, std::vector<T>(static_cast<size_t>((n + chunk - 1) / chunk))};
    shared_pool().run(&ChunkJob<T>::run_chunk, &job, static_cast<int64_t>(job.part.size()), f.threads);
    return std::move(job.part);
}

// Max / min of numbers over [0, n): chunks starting at multiples of 16 (the
// stdlib's lane width), each reduced by the helper (eager's runs::extreme,
// NaN if the chunk holds one), combined in chunk order with the same rule.
// The extreme's value does not depend on the split; only which of +0 and -0
// wins does (it hinges on runs::extreme's lanes), so a float result that
// compares equal to zero is recomputed by one helper call over all
// elements. T: double (f32 widened exactly) or int64_t.
template <class T>
T extreme(const CallFrame& f, typename ChunkJob<T>::Fn fn, void* env, int64_t n, int64_t grain, bool is_max) {
    const std::vector<T> part = chunk_parts<T>(f, fn, env, n, grain, 16);
    if (part.empty()) return fn(env, 0, n);
    T r = part[0];
    for (const T p : part) {
        if constexpr (std::is_floating_point_v<T>) {
            if (p != p) return p;  // the helper's NaN: eager's quiet NaN
        }
        r = (is_max ? p > r : p < r) ? p : r;
    }
    if constexpr (std::is_floating_point_v<T>) {
        if (r == 0) return fn(env, 0, n);  // +0 or -0: the one the whole run's lanes keep
    }
    return r;
}

}  // namespace

extern "C" {

// fn(env, begin, end) over [0, n) — the outlined body of a large fused loop
// or row reduction — split into chunks of at least `grain` iterations (a
// multiple of `align`) that run on the caller and at most frame.threads - 1
// workers of the pool. Each chunk writes its own elements, so the split
// never changes the result.
static void tg_rt_parallel(void* ctx, RangeFn fn, void* env, int64_t n, int64_t grain, int64_t align) {
    const int threads = frame(ctx).threads;
    const int64_t chunks = std::min<int64_t>(threads * kChunksPerThread, n / std::max<int64_t>(grain, 1));
    if (threads <= 1 || chunks <= 1) {
        fn(env, 0, n);
        return;
    }
    int64_t chunk = (n + chunks - 1) / chunks;
    chunk = (chunk + align - 1) / align * align;  // whole cache lines / vector blocks per chunk
    RangeJob job{fn, env, n, chunk};
    shared_pool().run(&run_range_chunk, &job, (n + chunk - 1) / chunk, threads);
}

// The fold of n elements by `op` (0: or, 1: and, 2: wrapping multiply), an
// exact associative fold: chunks of at least `grain` elements, each folded
// from the identity by the helper, combined in chunk order — the same value
// as one fold over all elements, whatever the chunks.
static int64_t tg_rt_fold(void* ctx, ChunkJob<int64_t>::Fn fn, void* env, int64_t n, int64_t grain, int32_t op) {
    const std::vector<int64_t> part = chunk_parts<int64_t>(frame(ctx), fn, env, n, grain, 1);
    if (part.empty()) return fn(env, 0, n);
    uint64_t r = static_cast<uint64_t>(part[0]);
    for (size_t c = 1; c < part.size(); ++c) {
        const uint64_t p = static_cast<uint64_t>(part[c]);
        r = op == 0 ? (r | p) : op == 1 ? (r & p) : r * p;
    }
    return static_cast<int64_t>(r);
}

// The max (is_max) or min of n numbers, in chunks of at least `grain`
// elements on frame.threads threads (see extreme).
static double tg_rt_extreme_f64(void* ctx, ChunkJob<double>::Fn fn, void* env, int64_t n, int64_t grain, int32_t is_max) {
    return extreme<double>(frame(ctx), fn, env, n, grain, is_max != 0);
}
static int64_t tg_rt_extreme_i64(void* ctx, ChunkJob<int64_t>::Fn fn, void* env, int64_t n, int64_t grain, int32_t is_max) {
    return extreme<int64_t>(frame(ctx), fn, env, n, grain, is_max != 0);
}

// The float / integer sum of n elements in the stdlib's pairwise order,
// split over the pool at subtrees of at most `cutoff` elements (see PairwiseJob).
static double tg_rt_pairwise_f64(void* ctx, PairwiseJob<double>::LeafFn fn, void* env, int64_t n, int64_t cutoff) {
    return pairwise<double>(frame(ctx), fn, env, n, cutoff);
}
static int64_t tg_rt_pairwise_i64(void* ctx, PairwiseJob<uint64_t>::LeafFn fn, void* env, int64_t n, int64_t cutoff) {
    return static_cast<int64_t>(pairwise<uint64_t>(frame(ctx), fn, env, n, cutoff));
}

// Runs node `n` with the reference semantics (operands and results in slots).
static int32_t tg_rt_node(void* ctx, uint32_t n) {
    return guarded(ctx, [&] {
        CallFrame& f = frame(ctx);
        try {
            stdlib::poll_limits();
        } catch (const stdlib::OpError& e) {  // located at the node, as the graph interpreter does
            throw tracer::RuntimeError(e.what(), f.graph->node(n).loc);
        }
        tracer::run_node(*f.graph, f.graph->node(n), f.slots, *f.run, f.sizes);
    });
}

// `count` while-loop iterations have run (reported in batches). Sets
// *batch, the size of the next batch: doubled (up to kTickBatch) while
// batches take under a millisecond, back to 1 when one took longer, so that
// the host's interrupt and deadline act within a few ms even when every
// iteration is a heavy op, and cheap loops pay one call per kTickBatch.
// `loop` is the while node (-1: the function's end): the interrupt and the
// deadline are located at its line, as the graph interpreter locates them.
static int32_t tg_rt_tick(void* ctx, int64_t count, int64_t* batch, int32_t loop) {
    return guarded(ctx, [&] {
        CallFrame& f = frame(ctx);
        tracer::RunContext& r = *f.run;
        try {
            stdlib::poll_limits();
        } catch (const stdlib::OpError& e) {
            const auto n = static_cast<uint32_t>(loop);
            throw tracer::RuntimeError(e.what(), n < f.graph->num_nodes() ? f.graph->node(n).loc : tracer::SrcLoc{});
        }
        if (r.on_iterations) r.on_iterations(count);
        else if (r.on_iteration)
            for (int64_t i = 0; i < count; ++i) r.on_iteration();
        const int64_t now = stdlib::Budget::monotonic_ns();
        if (f.tick_ns != 0 && now - f.tick_ns > 1'000'000) *batch = 1;
        else *batch = std::min<int64_t>(*batch * 2, detail::kTickBatch);
        f.tick_ns = now;
    });
}

// A run-time error of a node compiled code lowered itself, with eager's message.
static int32_t tg_rt_error(void* ctx, uint32_t n, int32_t code) {
    CallFrame& f = frame(ctx);
    std::string msg = "error";
    if (code >= 0 && code < stdlib::kNumBinaryKinds)
        msg = stdlib::int_check(static_cast<stdlib::BinaryKind>(code)).message;
    f.error = std::make_exception_ptr(tracer::RuntimeError(msg, f.graph->node(n).loc));
    return 1;
}

// The size of dimension symbol k in this call (loaded once, at function
// entry, by code with dynamic dimensions).
static int64_t tg_rt_dim(void* ctx, uint32_t k) { return frame(ctx).sizes[k]; }

// Contiguous elements of slot v (made contiguous in place if it is a view).
static const void* tg_rt_in(void* ctx, uint32_t v) {
    CallFrame& f = frame(ctx);
    Tensor& t = f.slots[v];
    if (!t.is_contiguous()) t = t.contiguous();
    return t.raw_data();
}

// A fresh contiguous tensor of v's type in slot v; its elements. Null on
// failure (error set).
static void* tg_rt_out(void* ctx, uint32_t v) {
    void* p = nullptr;
    guarded(ctx, [&] {
        CallFrame& f = frame(ctx);
        const stdlib::TensorType& t = f.graph->tensor_type(v);
        try {
            stdlib::poll_limits();
            // a value with dynamic dimensions has this call's sizes, not the traced ones
            f.slots[v] = f.graph->value(v).dim_symbols.empty() ? Tensor::empty(t.dtype, t.shape)
                                                               : Tensor::empty(t.dtype, f.graph->shape_at(v, f.sizes));
        } catch (const stdlib::OpError& e) {  // a limit: located at the node that makes v
            const tracer::NodeId def = f.graph->value(v).def;
            throw tracer::RuntimeError(e.what(), def == tracer::kNoId ? tracer::SrcLoc{} : f.graph->node(def).loc);
        }
        p = f.slots[v].raw_data();
        if (!p) p = &f.slots[v];  // no elements: any non-null pointer
    });
    return p;
}

// slots[dst[i]] = slots[src[i]] for all i at once (a parallel assignment:
// loops pass carried values in any order). Sources with dead[i] set are
// not needed afterwards: their slots are emptied, so that a destination can
// be the only owner of its buffer.
static void tg_rt_copies(void* ctx, const uint32_t* dst, const uint32_t* src, const uint32_t* dead, uint32_t n) {
    CallFrame& f = frame(ctx);
    if (n == 1) {  // the common case: one tensor carried
        if (dead[0]) f.slots[dst[0]] = std::move(f.slots[src[0]]);
        else f.slots[dst[0]] = f.slots[src[0]];
        if (dead[0]) f.slots[src[0]] = Tensor();
        return;
    }
    Tensor tmp[16];
    std::vector<Tensor> big;
    Tensor* t = tmp;
    if (n > 16) {
        big.resize(n);
        t = big.data();
    }
    for (uint32_t i = 0; i < n; ++i) t[i] = f.slots[src[i]];
    for (uint32_t i = 0; i < n; ++i)
        if (dead[i]) f.slots[src[i]] = Tensor();
    for (uint32_t i = 0; i < n; ++i) f.slots[dst[i]] = std::move(t[i]);
}

// slots[r] = slots[x] (moved when x is dead), made contiguous and the only
// owner of its buffer (copy-on-write), for an in-place element store; its
// elements. Null on failure (error set).
static void* tg_rt_own(void* ctx, uint32_t r, uint32_t x, int32_t move) {
    void* p = nullptr;
    guarded(ctx, [&] {
        CallFrame& f = frame(ctx);
        Tensor t = move ? std::move(f.slots[x]) : f.slots[x];
        if (move) f.slots[x] = Tensor();
        if (!t.is_contiguous()) t = t.contiguous();
        else t.make_unique();
        f.slots[r] = std::move(t);
        p = f.slots[r].raw_data();
    });
    return p;
}

// Empties the slots of tensors no longer needed (liveness), so their buffers
// can be reused by the allocations that follow.
static void tg_rt_release(void* ctx, const uint32_t* ids, uint32_t n) {
    CallFrame& f = frame(ctx);
    for (uint32_t i = 0; i < n; ++i) f.slots[ids[i]] = Tensor();
}

static int32_t tg_rt_get_b(void* ctx, uint32_t v) { return element<bool>(frame(ctx).slots[v]) ? 1 : 0; }
static int32_t tg_rt_get_i32(void* ctx, uint32_t v) { return element<int32_t>(frame(ctx).slots[v]); }
static int64_t tg_rt_get_i64(void* ctx, uint32_t v) { return element<int64_t>(frame(ctx).slots[v]); }
static float tg_rt_get_f32(void* ctx, uint32_t v) { return element<float>(frame(ctx).slots[v]); }
static double tg_rt_get_f64(void* ctx, uint32_t v) { return element<double>(frame(ctx).slots[v]); }
static void tg_rt_set_b(void* ctx, uint32_t v, int32_t x) { frame(ctx).slots[v] = scalar_of(frame(ctx), v, x != 0); }
static void tg_rt_set_i32(void* ctx, uint32_t v, int32_t x) { frame(ctx).slots[v] = scalar_of(frame(ctx), v, x); }
static void tg_rt_set_i64(void* ctx, uint32_t v, int64_t x) { frame(ctx).slots[v] = scalar_of(frame(ctx), v, x); }
static void tg_rt_set_f32(void* ctx, uint32_t v, float x) { frame(ctx).slots[v] = scalar_of(frame(ctx), v, x); }
static void tg_rt_set_f64(void* ctx, uint32_t v, double x) { frame(ctx).slots[v] = scalar_of(frame(ctx), v, x); }

// fmod for the floor division and modulo helpers of the prelude. The element
// functions of the element-wise rows (log1p, sin, pow, ...) are their eager
// functors, registered from the rows (add_row_symbols).
static float tg_fmod_f32(float a, float b) { return std::fmod(a, b); }
static double tg_fmod_f64(double a, double b) { return std::fmod(a, b); }

}  // extern "C"

const std::vector<RuntimeSymbol>& runtime_symbols() {
#define TG_SYM(name) RuntimeSymbol{#name, reinterpret_cast<void*>(&name)}
    static const std::vector<RuntimeSymbol> symbols = [] {
        std::vector<RuntimeSymbol> s = {
            TG_SYM(tg_rt_node), TG_SYM(tg_rt_tick), TG_SYM(tg_rt_error), TG_SYM(tg_rt_in), TG_SYM(tg_rt_out),
            TG_SYM(tg_rt_copies), TG_SYM(tg_rt_own), TG_SYM(tg_rt_release), TG_SYM(tg_rt_get_b), TG_SYM(tg_rt_get_i32), TG_SYM(tg_rt_get_i64),
            TG_SYM(tg_rt_get_f32), TG_SYM(tg_rt_get_f64), TG_SYM(tg_rt_set_b), TG_SYM(tg_rt_set_i32),
            TG_SYM(tg_rt_set_i64), TG_SYM(tg_rt_set_f32), TG_SYM(tg_rt_set_f64), TG_SYM(tg_fmod_f32), TG_SYM(tg_fmod_f64),
            TG_SYM(tg_rt_parallel), TG_SYM(tg_rt_pairwise_f64), TG_SYM(tg_rt_pairwise_i64), TG_SYM(tg_rt_fold), TG_SYM(tg_rt_extreme_f64),
            TG_SYM(tg_rt_extreme_i64), TG_SYM(tg_rt_dim),
            // What LLVM's backend may call for intrinsics and loop idioms.
            RuntimeSymbol{"memset", reinterpret_cast<void*>(static_cast<void* (*)(void*, int, size_t)>(&std::memset))},
            RuntimeSymbol{"memcpy", reinterpret_cast<void*>(static_cast<void* (*)(void*, const void*, size_t)>(&std::memcpy))},
            RuntimeSymbol{"memmove", reinterpret_cast<void*>(static_cast<void* (*)(void*, const void*, size_t)>(&std::memmove))},
            RuntimeSymbol{"floorf", reinterpret_cast<void*>(static_cast<float (*)(float)>(&::floorf))},
            RuntimeSymbol{"floor", reinterpret_cast<void*>(static_cast<double (*)(double)>(&::floor))},
            RuntimeSymbol{"ceilf", reinterpret_cast<void*>(static_cast<float (*)(float)>(&::ceilf))},
            RuntimeSymbol{"ceil", reinterpret_cast<void*>(static_cast<double (*)(double)>(&::ceil))},
            RuntimeSymbol{"nearbyintf", reinterpret_cast<void*>(static_cast<float (*)(float)>(&::nearbyintf))},
            RuntimeSymbol{"nearbyint", reinterpret_cast<void*>(static_cast<double (*)(double)>(&::nearbyint))},
            RuntimeSymbol{"sqrtf", reinterpret_cast<void*>(static_cast<float (*)(float)>(&::sqrtf))},
            RuntimeSymbol{"sqrt", reinterpret_cast<void*>(static_cast<double (*)(double)>(&::sqrt))},
            RuntimeSymbol{"fmodf", reinterpret_cast<void*>(static_cast<float (*)(float, float)>(&::fmodf))},
            RuntimeSymbol{"fmod", reinterpret_cast<void*>(static_cast<double (*)(double, double)>(&::fmod))},
        };
        add_row_symbols(s);
        return s;
    }();
#undef TG_SYM
    return symbols;
}

}  // namespace tg::codegen
