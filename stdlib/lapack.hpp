// The LAPACK decompositions of OpenBLAS (loaded by stdlib/blas.hpp), typed
// for float and double, their workspaces queried and allocated here:
// SVD (?gesdd, what NumPy's svd calls), symmetric eigen (?syevd, NumPy's
// eigh), general eigen (?geev, NumPy's eig), QR (?geqrf + ?orgqr, NumPy's
// qr), Cholesky (?potrf) and LU (?getrf). Every matrix is column-major, as
// LAPACK's; the copies between tg's row-major matrices and column-major
// buffers are the helpers below. Each call returns LAPACK's `info`.
// Used by stdlib/linalg_decomp.cpp and stdlib/linalg_factor.cpp.
#pragma once

#include <cstdint>
#include <string_view>

namespace tg::stdlib::lapack {

// Copies the (rows, cols) row-major matrix at `src` into column-major `dst`,
// and back.
template <class T>
void to_column_major(const T* src, int64_t rows, int64_t cols, T* dst) {
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) dst[j * rows + i] = src[i * cols + j];
}
template <class T>
void from_column_major(const T* src, int64_t rows, int64_t cols, T* dst) {
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) dst[i * cols + j] = src[j * rows + i];
}

// A matrix size as LAPACK's int; "fn: matrices of size N are too large for LAPACK".
int lapack_int(std::string_view fn, int64_t v);

// `fn` names the builtin in the error raised when OpenBLAS cannot be loaded.
// jobz 'A' (all columns of U and V^T), 'S' (min(m, n) of them) or 'N' (none);
// a (m, n) is destroyed.
template <class T>
int gesdd(std::string_view fn, char jobz, int m, int n, T* a, T* s, T* u, int ldu, T* vt, int ldvt);
// jobz 'V' (eigenvectors into a) or 'N'; uplo 'L' or 'U': the triangle read.
// Eigenvalues ascending.
template <class T>
int syevd(std::string_view fn, char jobz, char uplo, int n, T* a, T* w);
// The right eigenvectors into vr (n, n) unless it is null; a is destroyed.
template <class T>
int geev(std::string_view fn, int n, T* a, T* wr, T* wi, T* vr);
// Householder QR of a (m, n), lda = max(1, m); tau has min(m, n) elements.
template <class T>
int geqrf(std::string_view fn, int m, int n, T* a, T* tau);
// The first n columns of Q from k reflectors held in a (m, n).
template <class T>
int orgqr(std::string_view fn, int m, int n, int k, T* a, const T* tau);
template <class T>
int potrf(std::string_view fn, char uplo, int n, T* a);
template <class T>
int getrf(std::string_view fn, int n, T* a, int* ipiv);

}  // namespace tg::stdlib::lapack
