// Helpers shared by the shape, reduction, creation, linalg and nn kernels:
// reading static arguments (Attr), normalizing axes, dtype dispatch and
// strided loops. Internal to stdlib/.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/errors.hpp"
#include "stdlib/op_table.hpp"
#include "stdlib/shape.hpp"
#include "stdlib/tensor.hpp"

namespace tg::stdlib::kern {

// ---- messages
[[noreturn]] void fail(std::string_view fn, const std::string& what);  // throws OpError("fn: what")

// ---- static arguments
// "axis 3 is out of bounds for a tensor of rank 2": normalizes a negative axis.
int normalize_axis(std::string_view fn, int64_t axis, int rank);
// An Axis attr: monostate (all axes) or int or tuple. Sorted, unique, in
// [0, rank). A repeated axis is an error.
std::vector<int> attr_axes(std::string_view fn, const Attr& a, int rank);
// The Axis attr of an op along one axis (cumsum, argmax): a tuple is an
// error that says so, also for the method form x.cumsum(0, 1), which
// passes the axes as a tuple ("cumsum: takes one axis (an int or None), but 2 were given").
void check_one_axis(std::string_view fn, const Attr& a);
bool attr_is_none(const Attr& a);
// A Shape attr: an int or a tuple of ints, all >= 0 (shape products are
// checked by Shape::numel).
Shape attr_shape(std::string_view fn, std::string_view arg, const Attr& a);
int64_t attr_int(std::string_view fn, std::string_view arg, const Attr& a);
double attr_number(std::string_view fn, std::string_view arg, const Attr& a);  // int or float
bool attr_bool(std::string_view fn, std::string_view arg, const Attr& a);
std::optional<DType> attr_dtype(const Attr& a);

// ---- layout (contiguous_strides, cast and broadcast_shapes come from
// tensor.hpp, cast.hpp and broadcast.hpp)
// A view of x with a new shape and the same elements in row-major order:
// shares the buffer when x is contiguous, copies otherwise (0-d tensors,
// which have inline storage, are always copied).
Tensor reshaped(const Tensor& x, const Shape& shape);
// x broadcast to shape (a view with zero strides); error
// "fn: cannot broadcast shape (3,) to (2, 4)".
Tensor broadcast_view(std::string_view fn, const Tensor& x, const Shape& shape);
// Weak scalars become strong; everything else is returned as is.
inline Tensor strong(const Tensor& x) { return x.weak() ? x.strong() : x; }

// ---- dtype dispatch: f(T{}) with T the C++ type of the dtype.
template <class F>
decltype(auto) visit_dtype(DType d, F&& f) {
    switch (d) {
        case DType::Bool: return f(bool{});
        case DType::I32: return f(int32_t{});
        case DType::I64: return f(int64_t{});
        case DType::F32: return f(float{});
        case DType::F64: return f(double{});
    }
    return f(float{});
}
template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<bool>() { return DType::Bool; }
template <> constexpr DType dtype_of<int32_t>() { return DType::I32; }
template <> constexpr DType dtype_of<int64_t>() { return DType::I64; }
template <> constexpr DType dtype_of<float>() { return DType::F32; }
template <> constexpr DType dtype_of<double>() { return DType::F64; }

// ---- strided loops
// Calls f(offset) for every element of `shape` in row-major order, where
// offset = sum(index[d] * strides[d]) (in elements). The innermost axis is
// handed over as a run: f(offset, n, stride) covers n elements.
template <class F>
void for_each_run(const Shape& shape, const Strides& strides, F&& f) {
    int r = shape.rank();
    if (r == 0) { f(int64_t{0}, int64_t{1}, int64_t{1}); return; }
    for (int d = 0; d < r; ++d)
        if (shape[d] == 0) return;
    int64_t idx[kMaxRank] = {};
    int64_t off = 0;
    const int64_t n = shape[r - 1], st = strides[r - 1];
    for (;;) {
        f(off, n, st);
        int d = r - 2;
        for (; d >= 0; --d) {
            off += strides[d];
            if (++idx[d] < shape[d]) break;
            off -= strides[d] * shape[d];
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

}  // namespace tg::stdlib::kern
