// The C functions compiled graphs call (codegen/runtime_abi.hpp). Each one
// catches everything: exceptions must never unwind through JIT-compiled
// frames.
#include "codegen/runtime_abi.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "codegen/native_ops.hpp"
#include "codegen/lowerer.hpp"
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

}  // namespace

extern "C" {

// Runs node `n` with the reference semantics (operands and results in slots).
static int32_t tg_rt_node(void* ctx, uint32_t n) {
    return guarded(ctx, [&] {
        CallFrame& f = frame(ctx);
        stdlib::poll_limits();
        tracer::run_node(*f.graph, f.graph->node(n), f.slots, *f.run);
    });
}

// `count` while-loop iterations have run (reported in batches). Sets
// *batch, the size of the next batch: doubled (up to kTickBatch) while
// batches take under a millisecond, back to 1 when one took longer, so that
// the host's interrupt and deadline act within a few ms even when every
// iteration is a heavy op, and cheap loops pay one call per kTickBatch.
static int32_t tg_rt_tick(void* ctx, int64_t count, int64_t* batch) {
    return guarded(ctx, [&] {
        CallFrame& f = frame(ctx);
        tracer::RunContext& r = *f.run;
        if (r.on_iterations) r.on_iterations(count);
        else if (r.on_iteration)
            for (int64_t i = 0; i < count; ++i) r.on_iteration();
        stdlib::poll_limits();
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
            f.slots[v] = Tensor::empty(t.dtype, t.shape);
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
