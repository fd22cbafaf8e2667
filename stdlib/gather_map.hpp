// The one loop behind the reordering ops (flip, roll, tile, repeat, pad,
// diag, tril, triu, take): every element of the result is an element of x
// (or a fill value), found from the result's multi-index. Internal to stdlib/.
#pragma once

#include <cstdint>

#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib::kern {

// out[i] = x[src(i)] for every multi-index i of `out_shape`, where
// src(const int64_t* i, int64_t* j) writes x's multi-index j and returns
// true, or returns false for "the fill value" (cast to x's dtype).
template <class F>
Tensor gather_map(const Tensor& x0, const Shape& out_shape, F&& src, double fill = 0) {
    const Tensor x = strong(x0);
    Tensor out = Tensor::empty(x.dtype(), out_shape);
    const int64_t n = out.numel();
    if (n == 0) return out;
    const int r = out_shape.rank(), xr = x.rank();
    const Strides& st = x.strides();
    visit_dtype(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* px = x.numel() > 0 ? x.data<T>() : nullptr;
        T* po = out.data<T>();
        const T f = static_cast<T>(fill);
        int64_t i[kMaxRank] = {}, j[kMaxRank] = {};
        for (int64_t k = 0; k < n; ++k) {
            if (src(static_cast<const int64_t*>(i), j)) {
                int64_t off = 0;
                for (int d = 0; d < xr; ++d) off += j[d] * st[d];
                po[k] = px[off];
            } else {
                po[k] = f;
            }
            for (int d = r - 1; d >= 0; --d) {
                if (++i[d] < out_shape[d]) break;
                i[d] = 0;
            }
        }
    });
    return out;
}

}  // namespace tg::stdlib::kern
