// where(c, a, b) and clip(x, lo, hi).
#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/elementwise.hpp"

namespace tg::stdlib {

namespace {

template <class T>
void where_rows(const Shape& shape, Tensor& out, const Tensor& c, const Tensor& a, const Tensor& b) {
    auto loop = make_loop<4>(shape, {out.strides(), broadcast_strides(c, shape), broadcast_strides(a, shape),
                                     broadcast_strides(b, shape)});
    auto ptr = [](const Tensor& t) { return const_cast<char*>(static_cast<const char*>(t.raw_data())); };
    for_each_row(loop, {static_cast<char*>(out.raw_data()), ptr(c), ptr(a), ptr(b)},
                 {int64_t(sizeof(T)), 1, int64_t(sizeof(T)), int64_t(sizeof(T))},
                 [](std::array<char*, 4> p, int64_t n, const int64_t* s) {
                     T* o = reinterpret_cast<T*>(p[0]);
                     const bool* pc = reinterpret_cast<const bool*>(p[1]);
                     const T* pa = reinterpret_cast<const T*>(p[2]);
                     const T* pb = reinterpret_cast<const T*>(p[3]);
                     if (s[0] == 1 && s[1] == 1 && s[2] == 1 && s[3] == 1) {
                         for (int64_t i = 0; i < n; ++i) o[i] = pc[i] ? pa[i] : pb[i];
                         return;
                     }
                     for (int64_t i = 0; i < n; ++i) o[i * s[0]] = pc[i * s[1]] ? pa[i * s[2]] : pb[i * s[3]];
                 });
}

}  // namespace

Tensor where(const Tensor& c0, const Tensor& a0, const Tensor& b0) {
    const Promoted p = promote(a0.dtype(), a0.weak(), b0.dtype(), b0.weak());
    const DType dt = p.dtype;  // a weak result would be used alone: its default dtype
    const Shape shapes[] = {c0.shape(), a0.shape(), b0.shape()};
    const Shape shape = broadcast_shapes("where", shapes);
    const Tensor c = cast(c0, DType::Bool), a = cast(a0, dt), b = cast(b0, dt);
    Tensor out = Tensor::empty(dt, shape);
    dispatch_dtype(dt, [&](auto tag) { where_rows<typename decltype(tag)::type>(shape, out, c, a, b); });
    return out;
}

Tensor clip(const Tensor& x, const Tensor& lo, const Tensor& hi) {
    const Shape shapes[] = {x.shape(), lo.shape(), hi.shape()};
    broadcast_shapes("clip", shapes);  // names clip in the error, not maximum
    return binary(BinaryKind::Minimum, binary(BinaryKind::Maximum, x, lo), hi);
}

}  // namespace tg::stdlib
