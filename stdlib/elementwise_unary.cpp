// Unary element-wise ops: signatures and kernels (0-d without allocation,
// contiguous loops that vectorize, strided views made contiguous first).
#include <string>

#include "stdlib/cast.hpp"
#include "stdlib/elementwise.hpp"
#include "stdlib/elementwise_scalar.hpp"

namespace tg::stdlib {

namespace {

[[noreturn]] void unsupported(UnaryKind k, DType d) {
    throw OpError(std::string(unary_name(k)) + ": not supported for " + dtype_name(d) + " tensors");
}

}  // namespace

OpSignature unary_signature(UnaryKind k, DType x, bool weak) {
    if (x == DType::Bool) weak = false;
    // neg and invert are literal arithmetic: a weak operand stays weak.
    const UnaryClass c = unary_row(k).cls;
    if (weak && (c == UnaryClass::Negate || c == UnaryClass::Invert)) {
        if (c == UnaryClass::Invert && is_float(x)) unsupported(k, DType::F32);
        return {weak_compute_dtype(x), x, true};
    }
    // Otherwise a weak value behaves as its default dtype (x already reports it).
    switch (c) {
        case UnaryClass::Negate:
            if (x == DType::Bool) unsupported(k, x);
            return {x, x, false};
        case UnaryClass::Invert:
            if (is_float(x)) unsupported(k, x);
            return {x, x, false};
        case UnaryClass::Predicate:
            return {x, DType::Bool, false};
        case UnaryClass::FloatFn: {
            const DType d = is_float(x) ? x : DType::F32;
            return {d, d, false};
        }
        case UnaryClass::Same:
            break;
    }
    return {x, x, false};
}

namespace {

// The functor of each kind: elem::<Kind> (op_kinds.hpp's table).
template <UnaryKind K> struct UOpOf;
#define TG_UOP_OF_(K, ...) \
    template <> struct UOpOf<UnaryKind::K> { using type = elem::K; };
TG_UNARY_OPS(TG_UOP_OF_)
#undef TG_UOP_OF_

template <class T>
T load_one(const Tensor& t) {
    return dispatch_dtype(t.storage_dtype(), [&](auto tag) {
        using S = typename decltype(tag)::type;
        return convert<T>(*static_cast<const S*>(t.raw_data()));
    });
}

template <class Op, class T, class R>
void unary_row(R* __restrict o, const T* __restrict x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(x[i]);
}

template <UnaryKind K, class T>
Tensor unary_typed(const Tensor& x0, const OpSignature& sig) {
    using Op = typename UOpOf<K>::type;
    using R = decltype(Op::f(T{}));
    if (x0.rank() == 0) {
        const R r = Op::f(load_one<T>(x0));
        if (sig.weak) {
            if constexpr (std::is_floating_point_v<R>) return Tensor::weak_float(static_cast<double>(r));
            else return Tensor::weak_int(static_cast<int64_t>(r));
        }
        Tensor t = Tensor::empty(sig.result, Shape{});
        *t.data<R>() = r;
        return t;
    }
    const DType ct = DTypeOf<T>::value;
    const bool ok = x0.dtype() == ct && !x0.weak() && x0.is_contiguous();
    Tensor conv;
    if (!ok) conv = cast(x0, ct).contiguous();
    const Tensor& x = ok ? x0 : conv;
    Tensor out = Tensor::empty(sig.result, x.shape());
    unary_row<Op>(out.data<R>(), x.data<T>(), x.numel());
    return out;
}

// x's value as T: what load_one reads from a 0-d tensor holding it
template <class T>
T number_as(const Number& x) {
    return is_float(x.dtype) ? convert<T>(x.f) : convert<T>(x.i);
}

template <class R>
Number number_of(R r, DType dtype, bool weak) {
    Number out;
    out.dtype = dtype;
    out.weak = weak;
    if constexpr (std::is_floating_point_v<R>) out.f = static_cast<double>(r);
    else out.i = static_cast<int64_t>(r);
    return out;
}

// unary_typed's 0-d case on a Number
template <UnaryKind K, class T>
Number unary_number(const Number& x, const OpSignature& sig) {
    using Op = typename UOpOf<K>::type;
    return number_of(Op::f(number_as<T>(x)), sig.result, sig.weak);
}

using UnaryFn = Tensor (*)(const Tensor&, const OpSignature&);
using UnaryNumberFn = Number (*)(const Number&, const OpSignature&);

template <UnaryKind K>
constexpr std::array<UnaryFn, kNumDTypes> urow_for() {
    return {&unary_typed<K, bool>, &unary_typed<K, int32_t>, &unary_typed<K, int64_t>, &unary_typed<K, float>,
            &unary_typed<K, double>};
}

template <size_t... I>
constexpr std::array<std::array<UnaryFn, kNumDTypes>, kNumUnaryKinds> make_utable(std::index_sequence<I...>) {
    return {urow_for<static_cast<UnaryKind>(I)>()...};
}

constexpr auto kUnaryTable = make_utable(std::make_index_sequence<kNumUnaryKinds>{});

template <UnaryKind K>
constexpr std::array<UnaryNumberFn, kNumDTypes> unumber_row_for() {
    return {&unary_number<K, bool>, &unary_number<K, int32_t>, &unary_number<K, int64_t>, &unary_number<K, float>,
            &unary_number<K, double>};
}

template <size_t... I>
constexpr std::array<std::array<UnaryNumberFn, kNumDTypes>, kNumUnaryKinds> make_unumber_table(std::index_sequence<I...>) {
    return {unumber_row_for<static_cast<UnaryKind>(I)>()...};
}

constexpr auto kUnaryNumberTable = make_unumber_table(std::make_index_sequence<kNumUnaryKinds>{});

}  // namespace

Tensor unary(UnaryKind kind, const Tensor& x) {
    const OpSignature sig = unary_signature(kind, x.dtype(), x.weak());
    return kUnaryTable[static_cast<int>(kind)][static_cast<int>(sig.compute)](x, sig);
}

Number unary(UnaryKind kind, const Number& x) {
    const OpSignature sig = unary_signature(kind, x.dtype, x.weak);
    return kUnaryNumberTable[static_cast<int>(kind)][static_cast<int>(sig.compute)](x, sig);
}

Number cast(const Number& x, DType dtype) {
    if (!x.weak && x.dtype == dtype) return x;
    return dispatch_dtype(dtype, [&](auto to) {
        using T = typename decltype(to)::type;
        return number_of(number_as<T>(x), dtype, false);
    });
}

}  // namespace tg::stdlib
