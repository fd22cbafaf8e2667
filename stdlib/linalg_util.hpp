// Shared by the LAPACK-backed ops (linalg_solve.cpp, linalg_decomp.cpp,
// linalg_factor.cpp): the shapes they accept — matrices with leading batch
// axes, NumPy's stacks — and the float dtype they compute in. Internal to
// stdlib/.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "stdlib/dtype.hpp"
#include "stdlib/shape.hpp"
#include "stdlib/shape_ops_util.hpp"
#include "stdlib/tensor.hpp"

namespace tg::stdlib::linalg {

// f32 and f64 compute in their own precision; bool and integers in f32
// (tg's rule for float functions, where NumPy would give f64).
inline DType float_of(DType d) { return is_float(d) ? d : DType::F32; }

// The matrices of an argument of shape (..., m, n): the batch shape, m, n.
struct Matrices {
    Shape batch;
    int64_t m = 0, n = 0;
    int64_t count() const { return batch.numel(); }
};
// "fn: argument `a` must be a matrix or a batch of them (shape (..., m, n)), got shape (3,)"
Matrices matrices(std::string_view fn, std::string_view arg, const Shape& s);
// The same for square ones (m == n), else "... must be a square matrix or a batch of them ...".
Matrices square(std::string_view fn, std::string_view arg, const Shape& s);

// batch + dims
Shape with_dims(const Shape& batch, std::initializer_list<int64_t> dims);

// " at batch index 3" when the batch has more than one matrix, else "".
std::string at_index(int64_t count, int64_t i);

// "fn: the matrix at batch index 3 has NaN or infinite entries": LAPACK's
// iterations would not converge (NumPy's LinAlgError).
[[noreturn]] void non_finite(std::string_view fn, int64_t count, int64_t i);
// Every element of the (n, n) row-major matrix at `a` finite, else
// non_finite; `part` limits the check to the lower or upper triangle
// (the one a symmetric routine reads: NaN elsewhere is ignored, as by NumPy).
enum class Part : uint8_t { All, Lower, Upper };
template <class T>
void check_finite(std::string_view fn, const T* a, int64_t rows, int64_t cols, Part part, int64_t count, int64_t i) {
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = part == Part::Upper ? r : 0; c < (part == Part::Lower ? std::min(r + 1, cols) : cols); ++c)
            if (!std::isfinite(a[r * cols + c])) non_finite(fn, count, i);
}

// f(a, out, T{}) with `a` the float data of x (converted to its float
// dtype, contiguous) and `out` that of a zero-filled result of `shape`,
// which it returns.
template <class F>
Tensor per_dtype(const Tensor& x, const Shape& shape, F&& f) {
    const DType dt = float_of(x.dtype());
    const Tensor a = cast(kern::strong(x), dt).contiguous();
    Tensor out = Tensor::zeros(dt, shape);
    kern::visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) f(a.data<T>(), out.data<T>(), T{});
    });
    return out;
}

}  // namespace tg::stdlib::linalg
