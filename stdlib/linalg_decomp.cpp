// The spectral decompositions through OpenBLAS's LAPACK (stdlib/lapack.hpp),
// computed as NumPy computes them: `_svd` (?gesdd), `_eigh` (?syevd),
// `_eig` (?geev), each on the column-major copy of every matrix of a batch
// (leading axes). An op of the table has one result, so a decomposition's
// factors are packed along one last axis, in NumPy's order — svd: U, S,
// Vh; eigh and eig: w, v — each factor flattened row-major; the builtins
// svd, eigh, eig, ... (interp/builtins/np_linalg.cpp) unpack them with
// slices, which differentiate like any slice. Without vectors
// (compute_uv=False, eigvalsh) the result is the values alone.
// A matrix with NaN or inf entries is an error (NumPy's LinAlgError "did
// not converge"); so are complex eigenvalues for eig: tg has no complex
// dtypes (docs/numpy.md, "Linear algebra").
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "stdlib/lapack.hpp"
#include "stdlib/linalg_decomp.hpp"
#include "stdlib/linalg_util.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;
using lapack::from_column_major;
using lapack::lapack_int;
using lapack::to_column_major;
using linalg::float_of;

SvdLayout svd_layout(int64_t m, int64_t n, bool full, bool uv) {
    SvdLayout l;
    l.m = m;
    l.n = n;
    l.k = std::min(m, n);
    l.ku = full ? m : l.k;
    l.kv = full ? n : l.k;
    l.uv = uv;
    return l;
}

namespace {

template <class T>
void eye_into(T* dst, int64_t n) {
    std::fill(dst, dst + n * n, T(0));
    for (int64_t i = 0; i < n; ++i) dst[i * n + i] = T(1);
}

// ---- _svd(a, full_matrices=True, compute_uv=True)
SvdLayout layout_of(std::string_view fn, const Shape& s, const Attr& full, const Attr& uv) {
    const linalg::Matrices q = linalg::matrices(fn, "a", s);
    return svd_layout(q.m, q.n, kern::attr_bool(fn, "full_matrices", full), kern::attr_bool(fn, "compute_uv", uv));
}

TensorType infer_svd(const TypeArgs& a) {
    const TensorType& x = a.inputs[0];
    const SvdLayout l = layout_of("svd", x.shape, a.attrs[1], a.attrs[2]);
    return {float_of(x.dtype), linalg::with_dims(linalg::matrices("svd", "a", x.shape).batch, {l.size()}), false};
}

// One matrix (row-major at `a`) into its packed factors at `out`.
template <class T>
void svd_one(const SvdLayout& l, const T* a, T* out, std::vector<T>& col, std::vector<T>& u, std::vector<T>& vt,
             int64_t count, int64_t i) {
    linalg::check_finite("svd", a, l.m, l.n, linalg::Part::All, count, i);
    T* s = out + (l.uv ? l.m * l.ku : 0);
    if (l.k == 0) {  // no singular values; the full U and V are identities
        if (l.uv && l.ku == l.m) eye_into(out, l.m);
        if (l.uv && l.kv == l.n) eye_into(s + l.k, l.n);
        return;
    }
    to_column_major(a, l.m, l.n, col.data());
    const char jobz = !l.uv ? 'N' : l.ku == l.m && l.kv == l.n ? 'A' : 'S';
    const int info = lapack::gesdd<T>("svd", jobz, lapack_int("svd", l.m), lapack_int("svd", l.n), col.data(), s,
                                      u.data(), static_cast<int>(l.m), vt.data(), static_cast<int>(std::max<int64_t>(l.kv, 1)));
    if (info != 0) fail("svd", "the SVD of the matrix" + linalg::at_index(count, i) + " did not converge");
    if (!l.uv) return;
    from_column_major(u.data(), l.m, l.ku, out);
    from_column_major(vt.data(), l.kv, l.n, s + l.k);
}

Tensor eager_svd(OpContext&, const OpArgs& args) {
    const Shape& shape = args.inputs[0].shape();
    const SvdLayout l = layout_of("svd", shape, args.attrs[1], args.attrs[2]);
    const linalg::Matrices q = linalg::matrices("svd", "a", shape);
    return linalg::per_dtype(args.inputs[0], linalg::with_dims(q.batch, {l.size()}), [&](const auto* a, auto* out, auto tag) {
        using T = decltype(tag);
        std::vector<T> col(static_cast<size_t>(l.m * l.n)), u(static_cast<size_t>(std::max<int64_t>(l.m * l.ku, 1))),
            vt(static_cast<size_t>(std::max<int64_t>(l.kv * l.n, 1)));
        for (int64_t i = 0; i < q.count(); ++i) svd_one<T>(l, a + i * l.m * l.n, out + i * l.size(), col, u, vt, q.count(), i);
    });
}

// ---- _eigh(a, lower=True, vectors=True): w ascending, then v (columns)
TensorType infer_eigh(const TypeArgs& a) {
    const linalg::Matrices q = linalg::square("eigh", "a", a.inputs[0].shape);
    const bool vectors = kern::attr_bool("eigh", "vectors", a.attrs[2]);
    return {float_of(a.inputs[0].dtype), linalg::with_dims(q.batch, {q.n + (vectors ? q.n * q.n : 0)}), false};
}

Tensor eager_eigh(OpContext&, const OpArgs& args) {
    const linalg::Matrices q = linalg::square("eigh", "a", args.inputs[0].shape());
    const bool lower = kern::attr_bool("eigh", "lower", args.attrs[1]);
    const bool vectors = kern::attr_bool("eigh", "vectors", args.attrs[2]);
    const int64_t n = q.n, size = n + (vectors ? n * n : 0);
    return linalg::per_dtype(args.inputs[0], linalg::with_dims(q.batch, {size}), [&](const auto* a, auto* out, auto tag) {
        using T = decltype(tag);
        std::vector<T> col(static_cast<size_t>(n * n));
        for (int64_t i = 0; i < q.count() && n > 0; ++i) {
            const T* ai = a + i * n * n;
            T* oi = out + i * size;
            linalg::check_finite("eigh", ai, n, n, lower ? linalg::Part::Lower : linalg::Part::Upper, q.count(), i);
            to_column_major(ai, n, n, col.data());
            if (lapack::syevd<T>("eigh", vectors ? 'V' : 'N', lower ? 'L' : 'U', lapack_int("eigh", n), col.data(), oi) != 0)
                fail("eigh", "the eigenvalues of the matrix" + linalg::at_index(q.count(), i) + " did not converge");
            if (vectors) from_column_major(col.data(), n, n, oi + n);
        }
    });
}

// ---- _eig(a, vectors=True): real eigenvalues in LAPACK's order, then v
TensorType infer_eig(const TypeArgs& a) {
    const linalg::Matrices q = linalg::square("eig", "a", a.inputs[0].shape);
    const bool vectors = kern::attr_bool("eig", "vectors", a.attrs[1]);
    return {float_of(a.inputs[0].dtype), linalg::with_dims(q.batch, {q.n + (vectors ? q.n * q.n : 0)}), false};
}

template <class T>
[[noreturn]] void complex_eigenvalues(T re, T im, int64_t count, int64_t i) {
    std::ostringstream v;
    v.precision(6);
    v << re << " ± " << std::abs(im) << "i";
    fail("eig", "the matrix" + linalg::at_index(count, i) + " has complex eigenvalues (" + v.str() +
                    "), and tg has no complex dtypes: eig gives real eigenvalues only");
}

template <class T>
void eig_one(const T* a, T* out, int64_t n, bool vectors, std::vector<T>& col, std::vector<T>& wi,
             std::vector<T>& vr, int64_t count, int64_t i) {
    linalg::check_finite("eig", a, n, n, linalg::Part::All, count, i);
    to_column_major(a, n, n, col.data());
    if (lapack::geev<T>("eig", lapack_int("eig", n), col.data(), out, wi.data(), vectors ? vr.data() : nullptr) != 0)
        fail("eig", "the eigenvalues of the matrix" + linalg::at_index(count, i) + " did not converge");
    for (int64_t j = 0; j < n; ++j)
        if (wi[static_cast<size_t>(j)] != T(0)) complex_eigenvalues(out[j], wi[static_cast<size_t>(j)], count, i);
    if (vectors) from_column_major(vr.data(), n, n, out + n);
}

Tensor eager_eig(OpContext&, const OpArgs& args) {
    const linalg::Matrices q = linalg::square("eig", "a", args.inputs[0].shape());
    const bool vectors = kern::attr_bool("eig", "vectors", args.attrs[1]);
    const int64_t n = q.n, size = n + (vectors ? n * n : 0);
    return linalg::per_dtype(args.inputs[0], linalg::with_dims(q.batch, {size}), [&](const auto* a, auto* out, auto tag) {
        using T = decltype(tag);
        std::vector<T> col(static_cast<size_t>(n * n)), wi(static_cast<size_t>(n)), vr(static_cast<size_t>(n * n));
        for (int64_t i = 0; i < q.count() && n > 0; ++i)
            eig_one<T>(a + i * n * n, out + i * size, n, vectors, col, wi, vr, q.count(), i);
    });
}

}  // namespace

void register_decomposition_ops(OpRegistry& r) {
    const ParamDef a{"a", ParamKind::Tensor};
    r.add({"_svd", {a, {"full_matrices", ParamKind::Bool, false, true}, {"compute_uv", ParamKind::Bool, false, true}},
           &infer_svd, &eager_svd, kInternal,
           "svd's factors packed along one last axis (U, S, Vh; S alone without compute_uv)", OtherKind::Svd,
           Raises::OnData, Cost::Contraction});
    r.add({"_eigh", {a, {"lower", ParamKind::Bool, false, true}, {"vectors", ParamKind::Bool, false, true}}, &infer_eigh,
           &eager_eigh, kInternal, "eigh's eigenvalues (ascending) and eigenvectors packed along one last axis",
           OtherKind::Eigh, Raises::OnData, Cost::Contraction});
    r.add({"_eig", {a, {"vectors", ParamKind::Bool, false, true}}, &infer_eig, &eager_eig, kInternal,
           "eig's real eigenvalues and eigenvectors packed along one last axis; complex eigenvalues are an error",
           OtherKind::Eig, Raises::OnData, Cost::Contraction});
}

}  // namespace tg::stdlib
