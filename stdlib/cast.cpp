// Tensor-level casts (astype, f32(x), ...): element conversion per cast.hpp.
#include "stdlib/cast.hpp"

#include "stdlib/broadcast.hpp"
#include "stdlib/tensor.hpp"

namespace tg::stdlib {

namespace {

template <class To, class From>
void convert_row(To* __restrict o, const From* __restrict x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) o[i] = convert<To>(x[i]);
}

template <class To, class From>
void convert_into(Tensor& out, const Tensor& x) {
    To* o = out.data<To>();
    if (x.is_contiguous()) return convert_row(o, x.data<From>(), x.numel());
    auto loop = make_loop<2>(x.shape(), {out.strides(), x.strides()});
    for_each_row(loop, {reinterpret_cast<char*>(o), const_cast<char*>(static_cast<const char*>(x.raw_data()))},
                 {int64_t(sizeof(To)), int64_t(sizeof(From))},
                 [](std::array<char*, 2> p, int64_t n, const int64_t* s) {
                     To* po = reinterpret_cast<To*>(p[0]);
                     const From* px = reinterpret_cast<const From*>(p[1]);
                     for (int64_t i = 0; i < n; ++i) po[i * s[0]] = convert<To>(px[i * s[1]]);
                 });
}

}  // namespace

Tensor cast(const Tensor& x, DType dtype) {
    if (!x.weak() && x.dtype() == dtype) return x;
    Tensor out = Tensor::empty(dtype, x.shape());
    dispatch_dtype(dtype, [&](auto to) {
        dispatch_dtype(x.storage_dtype(), [&](auto from) {
            convert_into<typename decltype(to)::type, typename decltype(from)::type>(out, x);
        });
    });
    return out;
}

}  // namespace tg::stdlib
