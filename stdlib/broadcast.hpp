// NumPy broadcasting and strided iteration over several operands, shared by
// every kernel that walks tensors element by element.
//
//   Shape out = broadcast_shapes("add", a.shape(), b.shape());
//   auto loop = make_loop<3>(out, {out_strides, broadcast_strides(a, out), broadcast_strides(b, out)});
//   for_each_row(loop, {out_ptr, a_ptr, b_ptr}, {4, 4, 4},
//                [](std::array<char*, 3> p, int64_t n, const int64_t* inner) { ... });
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "stdlib/shape.hpp"
#include "stdlib/tensor.hpp"

namespace tg::stdlib {

// Result shape of broadcasting two shapes, or OpError naming the function:
//   "add: shapes (2, 3) and (4,) cannot be broadcast together: 3 (axis 1) != 4 (axis 0)"
Shape broadcast_shapes(std::string_view fn, const Shape& a, const Shape& b);
// Of N shapes (left to right).
Shape broadcast_shapes(std::string_view fn, std::span<const Shape> shapes);
// True if `from` broadcasts to exactly `to` (e.g. (3,) -> (2, 3)).
bool broadcasts_to(const Shape& from, const Shape& to);

// Strides of a tensor seen with the broadcast shape `out` (0 on broadcast
// axes). The tensor's shape must broadcast to `out`.
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& out);
inline Strides broadcast_strides(const Tensor& x, const Shape& out) {
    return broadcast_strides(x.shape(), x.strides(), out);
}

// A loop nest over N operands that share one shape, with their own element
// strides. make_loop drops size-1 axes and merges axes that are contiguous
// with each other for every operand, so a contiguous operation becomes one row.
template <size_t N>
struct StridedLoop {
    int rank = 1;                        // >= 1
    int64_t shape[kMaxRank] = {};        // shape[rank-1] is the inner row length
    int64_t strides[N][kMaxRank] = {};   // in elements
    bool empty = false;                  // some axis has size 0
};

template <size_t N>
StridedLoop<N> make_loop(const Shape& shape, const std::array<Strides, N>& strides) {
    StridedLoop<N> loop;
    int r = 0;
    for (int i = 0; i < shape.rank(); ++i) {
        int64_t d = shape[i];
        if (d == 0) loop.empty = true;
        if (d == 1) continue;
        // Merge with the previous kept axis when it steps exactly over this one.
        if (r > 0) {
            bool mergeable = true;
            for (size_t k = 0; k < N; ++k)
                if (loop.strides[k][r - 1] != strides[k][i] * d) { mergeable = false; break; }
            if (mergeable) {
                loop.shape[r - 1] *= d;
                for (size_t k = 0; k < N; ++k) loop.strides[k][r - 1] = strides[k][i];
                continue;
            }
        }
        loop.shape[r] = d;
        for (size_t k = 0; k < N; ++k) loop.strides[k][r] = strides[k][i];
        ++r;
    }
    if (r == 0) {  // all axes of size 1 (or a 0-d tensor): one element
        loop.shape[0] = 1;
        for (size_t k = 0; k < N; ++k) loop.strides[k][0] = 1;
        r = 1;
    }
    loop.rank = r;
    return loop;
}

// Calls row(ptrs, n, inner_strides) for every innermost row: ptrs[k] points
// at operand k's first element of the row; inner_strides[k] is its stride in
// elements along the row. elem_size[k] is operand k's element size in bytes.
template <size_t N, class F>
void for_each_row(const StridedLoop<N>& loop, std::array<char*, N> base, const std::array<int64_t, N>& elem_size,
                  F&& row) {
    if (loop.empty) return;
    const int outer = loop.rank - 1;
    int64_t inner_strides[N];
    for (size_t k = 0; k < N; ++k) inner_strides[k] = loop.strides[k][outer];
    int64_t idx[kMaxRank] = {};
    std::array<char*, N> p = base;
    const int64_t n = loop.shape[outer];
    while (true) {
        row(p, n, static_cast<const int64_t*>(inner_strides));
        // Odometer over the outer axes.
        int ax = outer - 1;
        for (; ax >= 0; --ax) {
            for (size_t k = 0; k < N; ++k) p[k] += loop.strides[k][ax] * elem_size[k];
            if (++idx[ax] < loop.shape[ax]) break;
            for (size_t k = 0; k < N; ++k) p[k] -= loop.strides[k][ax] * elem_size[k] * loop.shape[ax];
            idx[ax] = 0;
        }
        if (ax < 0) return;
    }
}

}  // namespace tg::stdlib
