#include "stdlib/blas.hpp"

#include <dlfcn.h>

#include <mutex>
#include <stdexcept>
#include <string>

#include "stdlib/prefetch.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib::blas {

namespace {

struct Loaded {
    Functions fns;
    std::string error;  // non-empty if loading failed
};

template <class F>
bool sym(void* lib, const std::string& name, F& f) {
    f = reinterpret_cast<F>(::dlsym(lib, name.c_str()));
    return f != nullptr;
}

// The routines of one precision: prefix "s" or "d".
template <class T>
bool load_decompositions(void* lib, const std::string& p, Decompositions<T>& d) {
    const bool found[] = {sym(lib, p + "gesdd_", d.gesdd), sym(lib, p + "syevd_", d.syevd), sym(lib, p + "geev_", d.geev),
                          sym(lib, p + "geqrf_", d.geqrf), sym(lib, p + "orgqr_", d.orgqr), sym(lib, p + "potrf_", d.potrf)};
    for (bool f : found)
        if (!f) return false;
    return true;
}

Loaded load() {
    Loaded r;
    // The soname first (what the dynamic linker would have found), then the
    // library CMake found when tg was built.
    const char* names[] = {"libopenblas.so.0", TG_BLAS_LIBRARY};
    void* lib = nullptr;
    for (const char* name : names) {
        if (!*name) continue;
        lib = ::dlopen(name, RTLD_LAZY | RTLD_LOCAL);
        if (lib) break;
        const char* why = ::dlerror();
        r.error += std::string(r.error.empty() ? "" : "; ") + (why ? why : name);
    }
    if (!lib) {
        r.error = "cannot load OpenBLAS (" + r.error + ")";
        return r;
    }
    r.fns.sgemm = reinterpret_cast<decltype(&cblas_sgemm)>(::dlsym(lib, "cblas_sgemm"));
    r.fns.dgemm = reinterpret_cast<decltype(&cblas_dgemm)>(::dlsym(lib, "cblas_dgemm"));
    if (!r.fns.sgemm || !r.fns.dgemm) r.error = "OpenBLAS has no cblas_sgemm/cblas_dgemm";
    r.fns.sgesv = reinterpret_cast<GesvS>(::dlsym(lib, "sgesv_"));
    r.fns.dgesv = reinterpret_cast<GesvD>(::dlsym(lib, "dgesv_"));
    r.fns.sgetrf = reinterpret_cast<GetrfS>(::dlsym(lib, "sgetrf_"));
    r.fns.dgetrf = reinterpret_cast<GetrfD>(::dlsym(lib, "dgetrf_"));
    if (!r.fns.sgesv || !r.fns.dgesv || !r.fns.sgetrf || !r.fns.dgetrf)
        r.error = "OpenBLAS has no LAPACK (sgesv_/dgesv_/sgetrf_/dgetrf_)";
    if (!load_decompositions(lib, "s", r.fns.s) || !load_decompositions(lib, "d", r.fns.d))
        r.error = "OpenBLAS's LAPACK lacks a decomposition (?gesdd_, ?syevd_, ?geev_, ?geqrf_, ?orgqr_, ?potrf_)";
    return r;
}

}  // namespace

const Functions& functions() {
    static const Loaded loaded = load();  // thread-safe initialization, once per process
    if (!loaded.error.empty()) throw std::runtime_error(loaded.error);
    return loaded.fns;
}

const Functions& functions_for(std::string_view fn) {
    try {
        return functions();
    } catch (const std::runtime_error& e) {
        kern::fail(fn, e.what());
    }
}

void prefetch() {
    static std::once_flag once;
    prefetch_in_background(once, [] {
        // loaded, and its first call's one-time setup (buffers) done too
        const Functions& f = functions();
        float a = 1, b = 1, c = 0;
        f.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0f, &a, 1, &b, 1, 0.0f, &c, 1);
    });
}

}  // namespace tg::stdlib::blas
