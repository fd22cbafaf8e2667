// inv, solve, det (docs/builtins.md) through LAPACK from OpenBLAS (stdlib/blas.hpp):
// ?gesv for inv and solve, ?getrf for det. NumPy's semantics: leading axes
// are a batch (broadcast between solve's operands), b is a vector when it
// has one axis fewer than a. f32 and f64 compute in their own precision;
// bool and integer operands are converted to f32 (tg's rule for float
// functions, where NumPy would give f64). A singular matrix is an error for
// inv and solve; its det is 0.
#include <algorithm>
#include <string>
#include <vector>

#include "stdlib/blas.hpp"
#include "stdlib/broadcast.hpp"
#include "stdlib/lapack.hpp"
#include "stdlib/linalg_util.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;

namespace {

using linalg::float_of;
using lapack::lapack_int;
using lapack::to_column_major;

struct Square {
    Shape batch;
    int64_t m = 0;
};
Square square(std::string_view fn, std::string_view arg, const Shape& s) {
    const linalg::Matrices q = linalg::square(fn, arg, s);
    return {q.batch, q.m};
}

template <class T>
void gesv(int n, int nrhs, T* a, int* ipiv, T* b, int* info) {
    const blas::Functions& f = blas::functions();
    if constexpr (std::is_same_v<T, float>) f.sgesv(&n, &nrhs, a, &n, ipiv, b, &n, info);
    else f.dgesv(&n, &nrhs, a, &n, ipiv, b, &n, info);
}

// Solves a[k] x = b[k] for every matrix k of the batch: a is (count, m, m),
// b (count, m, nrhs), both contiguous row-major; returns x like b.
template <class T>
void solve_batch(std::string_view fn, const T* a, const T* b, T* x, int64_t count, int64_t m, int64_t nrhs) {
    const int n = lapack_int(fn, m), k = lapack_int(fn, nrhs);
    std::vector<T> ca(static_cast<size_t>(m * m)), cb(static_cast<size_t>(m * nrhs));
    std::vector<int> ipiv(static_cast<size_t>(std::max<int64_t>(m, 1)));
    for (int64_t i = 0; i < count; ++i) {
        to_column_major(a + i * m * m, m, m, ca.data());
        to_column_major(b + i * m * nrhs, m, nrhs, cb.data());
        int info = 0;
        if (m > 0 && nrhs > 0) gesv<T>(n, k, ca.data(), ipiv.data(), cb.data(), &info);
        if (info > 0) fail(fn, "the matrix" + linalg::at_index(count, i) + " is singular");
        lapack::from_column_major(cb.data(), m, nrhs, x + i * m * nrhs);
    }
}

// ---- inv
TensorType infer_inv(const TypeArgs& a) {
    square("inv", "a", a.inputs[0].shape);
    return {float_of(a.inputs[0].dtype), a.inputs[0].shape, false};
}
Tensor eager_inv(OpContext&, const OpArgs& args) {
    const auto [batch, m] = square("inv", "a", args.inputs[0].shape());
    const DType dt = float_of(args.inputs[0].dtype());
    const Tensor a = cast(kern::strong(args.inputs[0]), dt).contiguous();
    Tensor out = Tensor::empty(dt, a.shape());
    const int64_t count = batch.numel();
    kern::visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
            std::vector<T> eye(static_cast<size_t>(count * m * m), T(0));
            for (int64_t i = 0; i < count; ++i)
                for (int64_t r = 0; r < m; ++r) eye[static_cast<size_t>(i * m * m + r * m + r)] = T(1);
            solve_batch<T>("inv", a.data<T>(), eye.data(), out.data<T>(), count, m, m);
        }
    });
    return out;
}

// ---- solve: the batch of a and b broadcast; b is a vector (..., m) when it
// has one axis fewer than a, else (..., m, k).
struct SolvePlan {
    Shape batch;
    int64_t m = 0, k = 1;
    bool vec = false;
    DType dtype = DType::F32;
    Shape out;
};
SolvePlan plan_solve(const TensorType& a, const TensorType& b) {
    SolvePlan p;
    const Shape abatch = square("solve", "a", a.shape).batch;
    p.m = a.shape[a.shape.rank() - 1];
    p.vec = b.shape.rank() == a.shape.rank() - 1;
    const int brows_axis = b.shape.rank() - (p.vec ? 1 : 2);
    if (brows_axis < 0 || b.shape[brows_axis] != p.m)
        fail("solve", "argument `b` of shape " + b.shape.to_string() + " does not match `a` of shape " +
                          a.shape.to_string() + ": it needs " + std::to_string(p.m) + " rows");
    Shape bbatch;
    for (int d = 0; d < brows_axis; ++d) bbatch.push_back(b.shape[d]);
    if (!p.vec) p.k = b.shape[b.shape.rank() - 1];
    try {
        p.batch = broadcast_shapes("solve", abatch, bbatch);
    } catch (const OpError&) {
        fail("solve", "the batch shapes " + abatch.to_string() + " of `a` and " + bbatch.to_string() +
                          " of `b` do not broadcast");
    }
    const Promoted pr = promote(a.dtype, a.weak, b.dtype, b.weak);
    p.dtype = float_of(pr.dtype);
    p.out = p.batch;
    p.out.push_back(p.m);
    if (!p.vec) p.out.push_back(p.k);
    return p;
}
TensorType infer_solve(const TypeArgs& a) {
    const SolvePlan p = plan_solve(a.inputs[0], a.inputs[1]);
    return {p.dtype, p.out, false};
}
Tensor eager_solve(OpContext&, const OpArgs& args) {
    const Tensor& a0 = args.inputs[0];
    const Tensor& b0 = args.inputs[1];
    const SolvePlan p = plan_solve({a0.dtype(), a0.shape(), a0.weak()}, {b0.dtype(), b0.shape(), b0.weak()});
    Shape as = p.batch, bs = p.batch;
    as.push_back(p.m);
    as.push_back(p.m);
    bs.push_back(p.m);
    bs.push_back(p.k);
    Shape bvec = p.batch;  // b as given, with the batch broadcast
    bvec.push_back(p.m);
    if (!p.vec) bvec.push_back(p.k);
    const Tensor a = cast(kern::broadcast_view("solve", kern::strong(a0), as), p.dtype).contiguous();
    const Tensor b = kern::reshaped(cast(kern::broadcast_view("solve", kern::strong(b0), bvec), p.dtype).contiguous(), bs);
    Tensor out = Tensor::empty(p.dtype, bs);
    kern::visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>)
            solve_batch<T>("solve", a.data<T>(), b.data<T>(), out.data<T>(), p.batch.numel(), p.m, p.k);
    });
    return kern::reshaped(out, p.out);
}

// ---- det: the product of LU's diagonal with the sign of its row swaps
TensorType infer_det(const TypeArgs& a) {
    return {float_of(a.inputs[0].dtype), square("det", "a", a.inputs[0].shape).batch, false};
}
Tensor eager_det(OpContext&, const OpArgs& args) {
    const auto [batch, m] = square("det", "a", args.inputs[0].shape());
    const DType dt = float_of(args.inputs[0].dtype());
    const Tensor a = cast(kern::strong(args.inputs[0]), dt).contiguous();
    Tensor out = Tensor::empty(dt, batch);
    const int n = lapack_int("det", m);
    kern::visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
            const blas::Functions& f = m > 0 ? blas::functions() : blas::Functions{};
            std::vector<T> lu(static_cast<size_t>(m * m));
            std::vector<int> ipiv(static_cast<size_t>(std::max<int64_t>(m, 1)));
            for (int64_t i = 0; i < batch.numel(); ++i) {
                // row-major read as column-major is the transpose: same det
                std::copy(a.data<T>() + i * m * m, a.data<T>() + (i + 1) * m * m, lu.begin());
                int info = 0;
                if (m > 0) {
                    if constexpr (std::is_same_v<T, float>) f.sgetrf(&n, &n, lu.data(), &n, ipiv.data(), &info);
                    else f.dgetrf(&n, &n, lu.data(), &n, ipiv.data(), &info);
                }
                T d = T(1);
                for (int64_t r = 0; r < m; ++r) {
                    d *= lu[static_cast<size_t>(r * m + r)];
                    if (ipiv[static_cast<size_t>(r)] != r + 1) d = -d;
                }
                // info > 0: an exact zero on U's diagonal; NumPy gives +0.0 (never -0.0)
                out.data<T>()[i] = info > 0 ? T(0) : d;
            }
        }
    });
    return out;
}

}  // namespace

void register_solve_ops(OpRegistry& r) {
    r.add({"inv", {{"a", ParamKind::Tensor}}, &infer_inv, &eager_inv, 0,
           "the inverse of a square matrix (or of each in a batch); singular is an error",
           OtherKind::Inv, Raises::OnData,
           Cost::Contraction});
    r.add({"solve", {{"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}}, &infer_solve, &eager_solve, 0,
           "x with a @ x == b for a square a (batches broadcast); singular is an error",
           OtherKind::Solve, Raises::OnData,
           Cost::Contraction});
    r.add({"det", {{"a", ParamKind::Tensor}}, &infer_det, &eager_det, 0,
           "the determinant of a square matrix (or of each in a batch); 0 when singular", OtherKind::Det, Raises::Never,
           Cost::Contraction});
}

}  // namespace tg::stdlib
