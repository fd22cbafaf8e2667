// Binary element-wise ops: signatures, the 0-d fast path, contiguous fast
// paths the compiler vectorizes, and the strided broadcasting path.
#include <cstring>
#include <string>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/elementwise.hpp"
#include "stdlib/elementwise_scalar.hpp"

namespace tg::stdlib {

namespace {

[[noreturn]] void unsupported(const char* op, DType d) {
    throw OpError(std::string(op) + ": not supported for " + dtype_name(d) + " tensors");
}

}  // namespace

OpSignature binary_signature(BinaryKind k, DType a, bool a_weak, DType b, bool b_weak) {
    const Promoted p = promote(a, a_weak, b, b_weak);
    OpSignature s{p.weak ? weak_compute_dtype(p.dtype) : p.dtype, p.dtype, p.weak};
    switch (binary_row(k).cls) {
        case BinaryClass::TrueDiv:  // integers give f32 (a weak result is computed in f64)
            if (!is_float(s.result)) {
                s.result = DType::F32;
                s.compute = s.weak ? DType::F64 : DType::F32;
            }
            break;
        case BinaryClass::NoBool:
            if (s.result == DType::Bool) unsupported(binary_name(k), DType::Bool);
            break;
        case BinaryClass::Bitwise:
            if (is_float(s.result)) unsupported(binary_name(k), s.result);
            break;
        case BinaryClass::Shift:
            if (is_float(s.result) || s.result == DType::Bool) unsupported(binary_name(k), s.result);
            break;
        case BinaryClass::Compare:
            s.result = DType::Bool;
            s.weak = false;
            break;
        case BinaryClass::Arith:
            break;
    }
    return s;
}

namespace {

// The single element of a tensor converted to T (any storage dtype).
template <class T>
T load_as(const Tensor& t) {
    const void* p = t.raw_data();
    switch (t.storage_dtype()) {
        case DType::Bool: return convert<T>(*static_cast<const bool*>(p));
        case DType::I32: return convert<T>(*static_cast<const int32_t*>(p));
        case DType::I64: return convert<T>(*static_cast<const int64_t*>(p));
        case DType::F32: return convert<T>(*static_cast<const float*>(p));
        case DType::F64: break;
    }
    return convert<T>(*static_cast<const double*>(p));
}

template <class T>
Tensor make_scalar(T v, DType result, bool weak) {
    if (weak) {
        if constexpr (std::is_floating_point_v<T>) return Tensor::weak_float(static_cast<double>(v));
        else return Tensor::weak_int(static_cast<int64_t>(v));
    }
    Tensor t = Tensor::empty(result, Shape{});  // inline: no allocation
    *t.data<T>() = v;
    return t;
}

// The functor of each kind: elem::<Kind> (op_kinds.hpp's table).
template <BinaryKind K> struct OpOf;
#define TG_OP_OF_(K, ...) \
    template <> struct OpOf<BinaryKind::K> { using type = elem::K; };
TG_BINARY_OPS(TG_OP_OF_)
#undef TG_OP_OF_

// Value checks that must happen before computing (integers only): int_check(K).
template <BinaryKind K, class T>
constexpr bool kChecksRhs = elem::kIsInt<T> && int_check(K).kind != IntCheck::None;

template <BinaryKind K, class T>
inline void check_rhs([[maybe_unused]] T b) {
    if constexpr (kChecksRhs<K, T>) {
        constexpr IntCheck c = int_check(K);
        if (c.kind == IntCheck::NonZero ? b == 0 : b < 0) throw OpError(std::string(c.message));
    }
}

template <BinaryKind K, class T>
void check_all_rhs(const Tensor& b) {
    if constexpr (kChecksRhs<K, T>) {
        auto loop = make_loop<1>(b.shape(), {b.strides()});
        for_each_row(loop, {const_cast<char*>(static_cast<const char*>(b.raw_data()))}, {int64_t(sizeof(T))},
                     [](std::array<char*, 1> p, int64_t n, const int64_t* s) {
                         const T* x = reinterpret_cast<const T*>(p[0]);
                         for (int64_t i = 0; i < n; ++i) check_rhs<K>(x[i * s[0]]);
                     });
    }
    (void)b;
}

// Rows: the inner loops. Separate contiguous cases so they vectorize.
template <class Op, class T, class R>
void row_vv(R* __restrict o, const T* __restrict a, const T* __restrict b, int64_t n) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(a[i], b[i]);
}
template <class Op, class T, class R>
void row_vs(R* __restrict o, const T* __restrict a, T b, int64_t n) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(a[i], b);
}
template <class Op, class T, class R>
void row_sv(R* __restrict o, T a, const T* __restrict b, int64_t n) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(a, b[i]);
}

template <BinaryKind K, class T>
Tensor binary_typed(const Tensor& a0, const Tensor& b0, const OpSignature& sig) {
    using Op = typename OpOf<K>::type;
    using R = std::conditional_t<is_comparison(K), bool, T>;
    const DType ct = DTypeOf<T>::value;

    // 0-d: no allocation at all.
    if (a0.rank() == 0 && b0.rank() == 0) {
        const T x = load_as<T>(a0), y = load_as<T>(b0);
        if constexpr (kChecksRhs<K, T>) check_rhs<K>(y);
        return make_scalar<R>(Op::f(x, y), sig.result, sig.weak);
    }

    const Shape out_shape = broadcast_shapes(binary_name(K), a0.shape(), b0.shape());
    Tensor out = Tensor::empty(sig.result, out_shape);
    R* o = out.data<R>();
    const int64_t n = out.numel();

    // Scalars (numel 1) are read as values; other operands are converted to T.
    const bool a_one = a0.numel() == 1, b_one = b0.numel() == 1;
    if (b_one && !a_one && a0.shape() == out_shape && a0.is_contiguous() && a0.dtype() == ct && !a0.weak()) {
        const T y = load_as<T>(b0);
        if constexpr (kChecksRhs<K, T>) check_rhs<K>(y);
        row_vs<Op>(o, a0.data<T>(), y, n);
        return out;
    }
    if (a_one && !b_one && b0.shape() == out_shape && b0.is_contiguous() && b0.dtype() == ct && !b0.weak()) {
        check_all_rhs<K, T>(b0);
        row_sv<Op>(o, load_as<T>(a0), b0.data<T>(), n);
        return out;
    }
    // Operands of another dtype are converted first (no copy otherwise).
    Tensor a_conv, b_conv;
    const bool a_ok = a0.dtype() == ct && !a0.weak(), b_ok = b0.dtype() == ct && !b0.weak();
    if (!a_ok) a_conv = cast(a0, ct);
    if (!b_ok) b_conv = cast(b0, ct);
    const Tensor& a = a_ok ? a0 : a_conv;
    const Tensor& b = b_ok ? b0 : b_conv;
    check_all_rhs<K, T>(b);
    if (a.shape() == out_shape && b.shape() == out_shape && a.is_contiguous() && b.is_contiguous()) {
        row_vv<Op>(o, a.data<T>(), b.data<T>(), n);
        return out;
    }
    auto loop = make_loop<3>(out_shape, {out.strides(), broadcast_strides(a, out_shape), broadcast_strides(b, out_shape)});
    for_each_row(loop,
                 {reinterpret_cast<char*>(o), const_cast<char*>(static_cast<const char*>(a.raw_data())),
                  const_cast<char*>(static_cast<const char*>(b.raw_data()))},
                 {int64_t(sizeof(R)), int64_t(sizeof(T)), int64_t(sizeof(T))},
                 [](std::array<char*, 3> p, int64_t m, const int64_t* s) {
                     R* po = reinterpret_cast<R*>(p[0]);
                     const T* pa = reinterpret_cast<const T*>(p[1]);
                     const T* pb = reinterpret_cast<const T*>(p[2]);
                     if (s[0] == 1 && s[1] == 1 && s[2] == 1) return row_vv<Op>(po, pa, pb, m);
                     if (s[0] == 1 && s[1] == 1 && s[2] == 0) return row_vs<Op>(po, pa, *pb, m);
                     if (s[0] == 1 && s[1] == 0 && s[2] == 1) return row_sv<Op>(po, *pa, pb, m);
                     for (int64_t i = 0; i < m; ++i) po[i * s[0]] = Op::f(pa[i * s[1]], pb[i * s[2]]);
                 });
    return out;
}

using BinaryFn = Tensor (*)(const Tensor&, const Tensor&, const OpSignature&);

template <BinaryKind K>
constexpr std::array<BinaryFn, kNumDTypes> row_for() {
    return {&binary_typed<K, bool>, &binary_typed<K, int32_t>, &binary_typed<K, int64_t>, &binary_typed<K, float>,
            &binary_typed<K, double>};
}

template <size_t... I>
constexpr std::array<std::array<BinaryFn, kNumDTypes>, kNumBinaryKinds> make_table(std::index_sequence<I...>) {
    return {row_for<static_cast<BinaryKind>(I)>()...};
}

constexpr auto kBinaryTable = make_table(std::make_index_sequence<kNumBinaryKinds>{});

}  // namespace

Tensor binary(BinaryKind kind, const Tensor& a, const Tensor& b) {
    const OpSignature sig = binary_signature(kind, a.dtype(), a.weak(), b.dtype(), b.weak());
    return kBinaryTable[static_cast<int>(kind)][static_cast<int>(sig.compute)](a, b, sig);
}

}  // namespace tg::stdlib
