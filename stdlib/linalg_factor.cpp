// QR, Cholesky, slogdet and the pseudo-inverse through OpenBLAS's LAPACK
// (stdlib/lapack.hpp), as NumPy computes them: `_qr` (?geqrf then ?orgqr,
// NumPy's modes reduced / complete / r, packed as linalg_decomp.hpp says),
// `cholesky` (?potrf on the lower triangle; not positive definite is an
// error), `_slogdet` (?getrf: sign and log |det| packed, a singular matrix
// giving (0, -inf)); `pinv` (?gesdd, or ?syevd for hermitian=True,
// singular values <= rcond * the largest dropped: linalg_pinv.cpp). Leading
// axes are a batch.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "stdlib/blas.hpp"
#include "stdlib/lapack.hpp"
#include "stdlib/linalg_decomp.hpp"
#include "stdlib/linalg_util.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;
using lapack::lapack_int;
using lapack::to_column_major;
using linalg::float_of;

QrLayout qr_layout(int64_t m, int64_t n, QrMode mode) {
    QrLayout l;
    l.m = m;
    l.n = n;
    l.k = std::min(m, n);
    l.kq = mode == QrMode::Complete ? m : l.k;
    l.q = mode != QrMode::R;
    return l;
}

namespace {

// ---- _qr(a, mode=0): QrMode
QrLayout qr_layout_of(const Shape& s, const Attr& mode) {
    const linalg::Matrices q = linalg::matrices("qr", "a", s);
    const int64_t m = kern::attr_int("qr", "mode", mode);
    if (m < 0 || m > 2) fail("qr", "mode must be 0 (reduced), 1 (complete) or 2 (r), got " + std::to_string(m));
    return qr_layout(q.m, q.n, static_cast<QrMode>(m));
}

TensorType infer_qr(const TypeArgs& a) {
    const QrLayout l = qr_layout_of(a.inputs[0].shape, a.attrs[1]);
    return {float_of(a.inputs[0].dtype), linalg::with_dims(linalg::matrices("qr", "a", a.inputs[0].shape).batch, {l.size()}), false};
}

template <class T>
void qr_one(const QrLayout& l, const T* a, T* out, std::vector<T>& col, std::vector<T>& tau, std::vector<T>& q) {
    const int64_t m = l.m, n = l.n;
    to_column_major(a, m, n, col.data());
    if (l.k > 0 && lapack::geqrf<T>("qr", lapack_int("qr", m), lapack_int("qr", n), col.data(), tau.data()) != 0)
        fail("qr", "LAPACK's geqrf failed");
    T* r = out + l.r().offset;
    for (int64_t i = 0; i < l.kq; ++i)
        for (int64_t j = i; j < n; ++j) r[i * n + j] = col[static_cast<size_t>(j * m + i)];
    if (!l.q) return;
    if (l.k == 0) {  // no reflectors: Q is the identity's first columns
        for (int64_t i = 0; i < std::min(m, l.kq); ++i) out[i * l.kq + i] = T(1);
        return;
    }
    std::fill(q.begin(), q.end(), T(0));
    std::copy(col.begin(), col.begin() + m * std::min(n, l.kq), q.begin());
    if (lapack::orgqr<T>("qr", static_cast<int>(m), static_cast<int>(l.kq), static_cast<int>(l.k), q.data(), tau.data()) != 0)
        fail("qr", "LAPACK's orgqr failed");
    lapack::from_column_major(q.data(), m, l.kq, out);
}

Tensor eager_qr(OpContext&, const OpArgs& args) {
    const Shape& shape = args.inputs[0].shape();
    const QrLayout l = qr_layout_of(shape, args.attrs[1]);
    const linalg::Matrices mats = linalg::matrices("qr", "a", shape);
    return linalg::per_dtype(args.inputs[0], linalg::with_dims(mats.batch, {l.size()}), [&](const auto* a, auto* out, auto tag) {
        using T = decltype(tag);
        std::vector<T> col(static_cast<size_t>(l.m * l.n)), tau(static_cast<size_t>(std::max<int64_t>(l.k, 1))),
            q(static_cast<size_t>(l.m * l.kq));
        for (int64_t i = 0; i < mats.count(); ++i) qr_one<T>(l, a + i * l.m * l.n, out + i * l.size(), col, tau, q);
    });
}

// ---- cholesky(a, upper=False): L with a = L L^T from a's lower triangle (or U = L^T)
TensorType infer_cholesky(const TypeArgs& a) {
    linalg::square("cholesky", "a", a.inputs[0].shape);
    return {float_of(a.inputs[0].dtype), a.inputs[0].shape, false};
}

Tensor eager_cholesky(OpContext&, const OpArgs& args) {
    const linalg::Matrices q = linalg::square("cholesky", "a", args.inputs[0].shape());
    const bool upper = kern::attr_bool("cholesky", "upper", args.attrs[1]);
    const int64_t n = q.n;
    return linalg::per_dtype(args.inputs[0], args.inputs[0].shape(), [&](const auto* a, auto* out, auto tag) {
        using T = decltype(tag);
        std::vector<T> col(static_cast<size_t>(n * n));
        for (int64_t i = 0; i < q.count() && n > 0; ++i) {
            const T* ai = a + i * n * n;
            T* oi = out + i * n * n;
            linalg::check_finite("cholesky", ai, n, n, linalg::Part::Lower, q.count(), i);
            to_column_major(ai, n, n, col.data());
            if (lapack::potrf<T>("cholesky", 'L', lapack_int("cholesky", n), col.data()) != 0)
                fail("cholesky", "the matrix" + linalg::at_index(q.count(), i) + " is not positive definite");
            for (int64_t r = 0; r < n; ++r)
                for (int64_t c = 0; c <= r; ++c) (upper ? oi[c * n + r] : oi[r * n + c]) = col[static_cast<size_t>(c * n + r)];
        }
    });
}

// ---- _slogdet(a): (sign, log |det|) from LU's diagonal and its row swaps
TensorType infer_slogdet(const TypeArgs& a) {
    const linalg::Matrices q = linalg::square("slogdet", "a", a.inputs[0].shape);
    return {float_of(a.inputs[0].dtype), linalg::with_dims(q.batch, {2}), false};
}

template <class T>
void slogdet_one(const T* a, T* out, int64_t n, std::vector<T>& lu, std::vector<int>& ipiv) {
    // row-major read as column-major is the transpose: the same determinant
    std::copy(a, a + n * n, lu.begin());
    T sign = T(1), log_abs = T(0);
    const int info = n > 0 ? lapack::getrf<T>("slogdet", lapack_int("slogdet", n), lu.data(), ipiv.data()) : 0;
    for (int64_t r = 0; r < n; ++r) {
        const T d = lu[static_cast<size_t>(r * n + r)];
        if (d < T(0)) sign = -sign;
        if (ipiv[static_cast<size_t>(r)] != r + 1) sign = -sign;
        log_abs += std::log(std::abs(d));
    }
    out[0] = info > 0 ? T(0) : sign;  // an exact zero on U's diagonal: NumPy's (0, -inf)
    out[1] = info > 0 ? -std::numeric_limits<T>::infinity() : log_abs;
}

Tensor eager_slogdet(OpContext&, const OpArgs& args) {
    const linalg::Matrices q = linalg::square("slogdet", "a", args.inputs[0].shape());
    const int64_t n = q.n;
    return linalg::per_dtype(args.inputs[0], linalg::with_dims(q.batch, {2}), [&](const auto* a, auto* out, auto tag) {
        using T = decltype(tag);
        std::vector<T> lu(static_cast<size_t>(n * n));
        std::vector<int> ipiv(static_cast<size_t>(std::max<int64_t>(n, 1)));
        for (int64_t i = 0; i < q.count(); ++i) slogdet_one<T>(a + i * n * n, out + 2 * i, n, lu, ipiv);
    });
}

}  // namespace

void register_factor_ops(OpRegistry& r) {
    const ParamDef a{"a", ParamKind::Tensor};
    r.add({"_qr", {a, {"mode", ParamKind::Int, false, int64_t{0}}}, &infer_qr, &eager_qr, kInternal,
           "qr's factors packed along one last axis (Q then R; R alone for mode 2)", OtherKind::Qr, Raises::Never,
           Cost::Contraction});
    r.add({"cholesky", {a, {"upper", ParamKind::Bool, false, false}}, &infer_cholesky, &eager_cholesky, 0,
           "the lower-triangular L with a == L @ L.T, from a's lower triangle (upper=True: L.T); not positive "
           "definite is an error",
           OtherKind::Cholesky, Raises::OnData, Cost::Contraction});
    r.add({"_slogdet", {a}, &infer_slogdet, &eager_slogdet, kInternal,
           "slogdet's sign and log |det| packed along one last axis", OtherKind::Slogdet, Raises::Never,
           Cost::Contraction});
}

}  // namespace tg::stdlib
