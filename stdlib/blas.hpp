// OpenBLAS (BLAS and its LAPACK), loaded with dlopen on the first f32/f64
// matmul or solve instead of at
// process start. Linking it costs every tg process ~3 ms of startup (the
// library, libgfortran and their relocations) and starts OpenBLAS's worker
// threads, which spin for ~0.1 s on a second core — felt by every short
// script and by the hyperthread sibling of a compiled loop, though most
// scripts never multiply matrices.
#pragma once

#include <cblas.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tg::stdlib::blas {

// LAPACK's Fortran entry points (column-major; every argument by pointer).
using GesvS = void (*)(const int* n, const int* nrhs, float* a, const int* lda, int* ipiv, float* b, const int* ldb, int* info);
using GesvD = void (*)(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b, const int* ldb, int* info);
using GetrfS = void (*)(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
using GetrfD = void (*)(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
// The decompositions (stdlib/lapack.hpp). A CHARACTER argument of a Fortran
// routine comes with a hidden length after the others (gfortran's ABI).
template <class T>
using Gesdd = void (*)(const char* jobz, const int* m, const int* n, T* a, const int* lda, T* s, T* u, const int* ldu,
                       T* vt, const int* ldvt, T* work, const int* lwork, int* iwork, int* info, size_t);
template <class T>
using Syevd = void (*)(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, T* w, T* work,
                       const int* lwork, int* iwork, const int* liwork, int* info, size_t, size_t);
template <class T>
using Geev = void (*)(const char* jobvl, const char* jobvr, const int* n, T* a, const int* lda, T* wr, T* wi, T* vl,
                      const int* ldvl, T* vr, const int* ldvr, T* work, const int* lwork, int* info, size_t, size_t);
template <class T>
using Geqrf = void (*)(const int* m, const int* n, T* a, const int* lda, T* tau, T* work, const int* lwork, int* info);
template <class T>
using Orgqr = void (*)(const int* m, const int* n, const int* k, T* a, const int* lda, const T* tau, T* work,
                       const int* lwork, int* info);
template <class T>
using Potrf = void (*)(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t);

// One precision's decompositions.
template <class T>
struct Decompositions {
    Gesdd<T> gesdd = nullptr;
    Syevd<T> syevd = nullptr;
    Geev<T> geev = nullptr;
    Geqrf<T> geqrf = nullptr;
    Orgqr<T> orgqr = nullptr;
    Potrf<T> potrf = nullptr;
};

struct Functions {
    decltype(&cblas_sgemm) sgemm = nullptr;
    decltype(&cblas_dgemm) dgemm = nullptr;
    // LAPACK, shipped inside OpenBLAS (inv, solve, det: stdlib/linalg_solve.cpp)
    GesvS sgesv = nullptr;
    GesvD dgesv = nullptr;
    GetrfS sgetrf = nullptr;
    GetrfD dgetrf = nullptr;
    // svd, eigh, eig, qr, cholesky (stdlib/lapack.cpp)
    Decompositions<float> s;
    Decompositions<double> d;
};

// Starts loading the library on a background thread, for a program that
// will multiply matrices (the resolver calls it when it sees `@`, `matmul`,
// `inv`, `solve`, `det` or `einsum`): the ~3.5 ms of dlopen and relocation
// then overlap the program's startup instead of delaying its first matmul.
// Once per process; the thread is joined at exit.
void prefetch();

// Loads the library on first use (once per process: a shared library is
// process-wide by nature). Throws std::runtime_error naming the library and
// dlerror()'s reason if it cannot be loaded.
const Functions& functions();

// functions(), or OpError("fn: <why the library could not be loaded>").
const Functions& functions_for(std::string_view fn);

// Row-major C = op(A) op(B) + beta C in f32 or f64 (matmul, conv2d); C's
// leading dimension is ldc, or n when 0 (rows written into a larger matrix).
template <class T>
void gemm(std::string_view fn, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
          int64_t ldb, T* c, T beta = T{0}, int64_t ldc = 0) {
    const auto TA = ta ? CblasTrans : CblasNoTrans;
    const auto TB = tb ? CblasTrans : CblasNoTrans;
    const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
    const Functions& f = functions_for(fn);
    if constexpr (std::is_same_v<T, float>)
        f.sgemm(CblasRowMajor, TA, TB, M, N, K, 1.0f, a, static_cast<blasint>(lda), b, static_cast<blasint>(ldb), beta,
                c, ldc ? static_cast<blasint>(ldc) : N);
    else
        f.dgemm(CblasRowMajor, TA, TB, M, N, K, 1.0, a, static_cast<blasint>(lda), b, static_cast<blasint>(ldb), beta,
                c, ldc ? static_cast<blasint>(ldc) : N);
}

}  // namespace tg::stdlib::blas
