#include "stdlib/lapack.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "stdlib/blas.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib::lapack {

namespace {

template <class T>
const blas::Decompositions<T>& routines(std::string_view fn) {
    const blas::Functions& f = blas::functions_for(fn);
    if constexpr (std::is_same_v<T, float>) return f.s;
    else return f.d;
}

// A workspace size LAPACK returned in a T (a query with lwork = -1).
// (rounded up a little: a float may hold a large size rounded down)
template <class T>
int work_size(T w) {
    return std::max(1, static_cast<int>(std::ceil(static_cast<double>(w) * (1.0 + 1e-6))));
}

}  // namespace

int lapack_int(std::string_view fn, int64_t v) {
    if (v > 0x7fffffff) kern::fail(fn, "matrices of size " + std::to_string(v) + " are too large for LAPACK");
    return static_cast<int>(v);
}

template <class T>
int gesdd(std::string_view fn, char jobz, int m, int n, T* a, T* s, T* u, int ldu, T* vt, int ldvt) {
    const auto& r = routines<T>(fn);
    const int lda = std::max(1, m);
    std::vector<int> iwork(static_cast<size_t>(8 * std::max(1, std::min(m, n))));
    int info = 0, lwork = -1;
    T query{};
    r.gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &query, &lwork, iwork.data(), &info, 1);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    r.gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work.data(), &lwork, iwork.data(), &info, 1);
    return info;
}

template <class T>
int syevd(std::string_view fn, char jobz, char uplo, int n, T* a, T* w) {
    const auto& r = routines<T>(fn);
    const int lda = std::max(1, n);
    int info = 0, lwork = -1, liwork = -1, iquery = 0;
    T query{};
    r.syevd(&jobz, &uplo, &n, a, &lda, w, &query, &lwork, &iquery, &liwork, &info, 1, 1);
    if (info != 0) return info;
    lwork = work_size(query);
    liwork = std::max(1, iquery);
    std::vector<T> work(static_cast<size_t>(lwork));
    std::vector<int> iwork(static_cast<size_t>(liwork));
    r.syevd(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, iwork.data(), &liwork, &info, 1, 1);
    return info;
}

template <class T>
int geev(std::string_view fn, int n, T* a, T* wr, T* wi, T* vr) {
    const auto& r = routines<T>(fn);
    const int lda = std::max(1, n), ldvl = 1, ldvr = vr ? lda : 1;
    const char jobvl = 'N', jobvr = vr ? 'V' : 'N';
    T unused{};
    T* vl = &unused;
    T* right = vr ? vr : &unused;
    int info = 0, lwork = -1;
    T query{};
    r.geev(&jobvl, &jobvr, &n, a, &lda, wr, wi, vl, &ldvl, right, &ldvr, &query, &lwork, &info, 1, 1);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    r.geev(&jobvl, &jobvr, &n, a, &lda, wr, wi, vl, &ldvl, right, &ldvr, work.data(), &lwork, &info, 1, 1);
    return info;
}

template <class T>
int geqrf(std::string_view fn, int m, int n, T* a, T* tau) {
    const auto& r = routines<T>(fn);
    const int lda = std::max(1, m);
    int info = 0, lwork = -1;
    T query{};
    r.geqrf(&m, &n, a, &lda, tau, &query, &lwork, &info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    r.geqrf(&m, &n, a, &lda, tau, work.data(), &lwork, &info);
    return info;
}

template <class T>
int orgqr(std::string_view fn, int m, int n, int k, T* a, const T* tau) {
    const auto& r = routines<T>(fn);
    const int lda = std::max(1, m);
    int info = 0, lwork = -1;
    T query{};
    r.orgqr(&m, &n, &k, a, &lda, tau, &query, &lwork, &info);
    if (info != 0) return info;
    lwork = work_size(query);
    std::vector<T> work(static_cast<size_t>(lwork));
    r.orgqr(&m, &n, &k, a, &lda, tau, work.data(), &lwork, &info);
    return info;
}

template <class T>
int potrf(std::string_view fn, char uplo, int n, T* a) {
    const int lda = std::max(1, n);
    int info = 0;
    routines<T>(fn).potrf(&uplo, &n, a, &lda, &info, 1);
    return info;
}

template <class T>
int getrf(std::string_view fn, int n, T* a, int* ipiv) {
    const blas::Functions& f = blas::functions_for(fn);
    const int lda = std::max(1, n);
    int info = 0;
    if constexpr (std::is_same_v<T, float>) f.sgetrf(&n, &n, a, &lda, ipiv, &info);
    else f.dgetrf(&n, &n, a, &lda, ipiv, &info);
    return info;
}

#define TG_LAPACK_INSTANTIATE_(T)                                                                      \
    template int gesdd<T>(std::string_view, char, int, int, T*, T*, T*, int, T*, int);                \
    template int syevd<T>(std::string_view, char, char, int, T*, T*);                                  \
    template int geev<T>(std::string_view, int, T*, T*, T*, T*);                                       \
    template int geqrf<T>(std::string_view, int, int, T*, T*);                                         \
    template int orgqr<T>(std::string_view, int, int, int, T*, const T*);                              \
    template int potrf<T>(std::string_view, char, int, T*);                                            \
    template int getrf<T>(std::string_view, int, T*, int*);
TG_LAPACK_INSTANTIATE_(float)
TG_LAPACK_INSTANTIATE_(double)
#undef TG_LAPACK_INSTANTIATE_

}  // namespace tg::stdlib::lapack
