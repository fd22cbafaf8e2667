// The packed results of the decomposition ops (linalg_decomp.cpp,
// linalg_factor.cpp): a table op has one result, so the factors of a
// decomposition are laid out one after the other along a last axis, each
// flattened row-major, after the batch axes. Their gradient rules
// (grad_rules_linalg.cpp) and the builtins that unpack them
// (interp/builtins/np_linalg.cpp) read the layout here.
#pragma once

#include <cstdint>
#include <vector>

namespace tg::stdlib {

// One factor: where it starts along the packed axis, and its shape (after the batch axes).
struct Piece {
    int64_t offset = 0;
    std::vector<int64_t> dims;
    int64_t size() const {
        int64_t p = 1;
        for (int64_t d : dims) p *= d;
        return p;
    }
};

// _svd of (m, n): U (m, ku), S (k), Vh (kv, n) with k = min(m, n) and
// ku = m, kv = n for full matrices (else k); S alone without compute_uv.
struct SvdLayout {
    int64_t m = 0, n = 0, k = 0, ku = 0, kv = 0;
    bool uv = true;
    int64_t size() const { return uv ? m * ku + k + kv * n : k; }
    Piece u() const { return {0, {m, ku}}; }
    Piece s() const { return {uv ? m * ku : 0, {k}}; }
    Piece vh() const { return {m * ku + k, {kv, n}}; }
};
SvdLayout svd_layout(int64_t m, int64_t n, bool full, bool uv);

// _eigh and _eig of (n, n): the eigenvalues w (n), then the eigenvectors v (n, n) as columns.
inline Piece eig_values(int64_t n) { return {0, {n}}; }
inline Piece eig_vectors(int64_t n) { return {n, {n, n}}; }

// _qr(a, mode): NumPy's modes. Reduced: Q (m, k), R (k, n); complete:
// Q (m, m), R (m, n); r: R (k, n) alone.
enum class QrMode : int64_t { Reduced = 0, Complete = 1, R = 2 };
struct QrLayout {
    int64_t m = 0, n = 0, k = 0, kq = 0;  // Q (m, kq); R (kq, n)
    bool q = true;
    int64_t size() const { return (q ? m * kq : 0) + kq * n; }
    Piece qf() const { return {0, {m, kq}}; }
    Piece r() const { return {q ? m * kq : 0, {kq, n}}; }
};
QrLayout qr_layout(int64_t m, int64_t n, QrMode mode);

// _slogdet: the sign at 0, log |det| at 1.
inline Piece slogdet_sign() { return {0, {}}; }
inline Piece slogdet_logabs() { return {1, {}}; }

}  // namespace tg::stdlib
