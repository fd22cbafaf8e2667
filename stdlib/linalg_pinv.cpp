// pinv(a, rcond=1e-15, hermitian=False): NumPy's Moore-Penrose
// pseudo-inverse of each matrix of a batch (leading axes): from the SVD
// a = U S V^T (?gesdd), pinv = V S^+ U^T where S^+ inverts the singular
// values above rcond * the largest and zeroes the others. hermitian=True
// takes the SVD from the eigendecomposition of the lower triangle (?syevd;
// singular values |w|, the signs moved into V), as NumPy's svd(hermitian=True).
// Its gradient (grad_rules_linalg.cpp) is JAX's, from the result alone.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "stdlib/blas.hpp"
#include "stdlib/lapack.hpp"
#include "stdlib/linalg_util.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;
using lapack::lapack_int;

namespace {

struct PinvArgs {
    linalg::Matrices q;
    double rcond = 1e-15;
    bool hermitian = false;
};

PinvArgs pinv_args(const Shape& s, std::span<const Attr> attrs) {
    PinvArgs p;
    p.q = linalg::matrices("pinv", "a", s);
    p.rcond = kern::attr_number("pinv", "rcond", attrs[1]);
    p.hermitian = kern::attr_bool("pinv", "hermitian", attrs[2]);
    if (p.hermitian && p.q.m != p.q.n)
        fail("pinv", "hermitian=True needs square matrices, got shape " + s.to_string());
    return p;
}

TensorType infer_pinv(const TypeArgs& a) {
    const PinvArgs p = pinv_args(a.inputs[0].shape, a.attrs);
    return {linalg::float_of(a.inputs[0].dtype), linalg::with_dims(p.q.batch, {p.q.n, p.q.m}), false};
}

// The SVD's factors, column-major: U (m, k), s (k), V^T (k, n).
template <class T>
struct Factors {
    std::vector<T> col, u, s, vt;
    explicit Factors(int64_t m, int64_t n, int64_t k)
        : col(static_cast<size_t>(m * n)), u(static_cast<size_t>(m * k)), s(static_cast<size_t>(k)), vt(static_cast<size_t>(k * n)) {}
};

// hermitian: a = V diag(w) V^T = V diag(|w|) (V diag(sign w))^T
template <class T>
void hermitian_factors(const T* a, int64_t n, Factors<T>& f, int64_t count, int64_t i) {
    linalg::check_finite("pinv", a, n, n, linalg::Part::Lower, count, i);
    lapack::to_column_major(a, n, n, f.col.data());
    if (lapack::syevd<T>("pinv", 'V', 'L', lapack_int("pinv", n), f.col.data(), f.s.data()) != 0)
        fail("pinv", "the eigenvalues of the matrix" + linalg::at_index(count, i) + " did not converge");
    std::copy(f.col.begin(), f.col.end(), f.u.begin());
    for (int64_t l = 0; l < n; ++l) {
        const T w = f.s[static_cast<size_t>(l)];
        const T sign = w > T(0) ? T(1) : w < T(0) ? T(-1) : T(0);
        f.s[static_cast<size_t>(l)] = std::abs(w);
        for (int64_t r = 0; r < n; ++r) f.vt[static_cast<size_t>(r * n + l)] = f.col[static_cast<size_t>(l * n + r)] * sign;
    }
}

template <class T>
void pinv_one(const PinvArgs& p, const T* a, T* out, Factors<T>& f, int64_t i) {
    const int64_t m = p.q.m, n = p.q.n, k = std::min(m, n);
    if (k == 0) return;
    if (p.hermitian) {
        hermitian_factors(a, n, f, p.q.count(), i);
    } else {
        linalg::check_finite("pinv", a, m, n, linalg::Part::All, p.q.count(), i);
        lapack::to_column_major(a, m, n, f.col.data());
        if (lapack::gesdd<T>("pinv", 'S', lapack_int("pinv", m), lapack_int("pinv", n), f.col.data(), f.s.data(),
                             f.u.data(), static_cast<int>(m), f.vt.data(), static_cast<int>(k)) != 0)
            fail("pinv", "the SVD of the matrix" + linalg::at_index(p.q.count(), i) + " did not converge");
    }
    const T cutoff = static_cast<T>(p.rcond) * *std::max_element(f.s.begin(), f.s.end());
    for (int64_t l = 0; l < k; ++l) {
        const T s = f.s[static_cast<size_t>(l)];
        const T inv = s > cutoff ? T(1) / s : T(0);
        for (int64_t r = 0; r < m; ++r) f.u[static_cast<size_t>(l * m + r)] *= inv;
    }
    // column-major V^T (k, n) is row-major V (n, k); column-major U S^+ (m, k)
    // is row-major S^+ U^T (k, m): their product is pinv (n, m), row-major
    blas::gemm<T>("pinv", false, false, n, m, k, f.vt.data(), k, f.u.data(), m, out);
}

Tensor eager_pinv(OpContext&, const OpArgs& args) {
    const PinvArgs p = pinv_args(args.inputs[0].shape(), args.attrs);
    const int64_t m = p.q.m, n = p.q.n;
    return linalg::per_dtype(args.inputs[0], linalg::with_dims(p.q.batch, {n, m}), [&](const auto* a, auto* out, auto tag) {
        using T = decltype(tag);
        Factors<T> f(m, n, std::min(m, n));
        for (int64_t i = 0; i < p.q.count(); ++i) pinv_one<T>(p, a + i * m * n, out + i * m * n, f, i);
    });
}

}  // namespace

void register_pinv_op(OpRegistry& r) {
    r.add({"pinv",
           {{"a", ParamKind::Tensor}, {"rcond", ParamKind::Scalar, false, 1e-15}, {"hermitian", ParamKind::Bool, false, false}},
           &infer_pinv, &eager_pinv, 0,
           "the Moore-Penrose pseudo-inverse (..., n, m) from the SVD; singular values <= rcond * the largest count "
           "as zero; hermitian=True: from the eigendecomposition of the lower triangle",
           OtherKind::Pinv, Raises::OnData, Cost::Contraction});
}

}  // namespace tg::stdlib
