// OpenBLAS, loaded with dlopen on the first f32/f64 matmul instead of at
// process start. Linking it costs every tg process ~3 ms of startup (the
// library, libgfortran and their relocations) and starts OpenBLAS's worker
// threads, which spin for ~0.1 s on a second core — felt by every short
// script and by the hyperthread sibling of a compiled loop, though most
// scripts never multiply matrices.
#pragma once

#include <cblas.h>

namespace tg::stdlib::blas {

struct Functions {
    decltype(&cblas_sgemm) sgemm = nullptr;
    decltype(&cblas_dgemm) dgemm = nullptr;
};

// Loads the library on first use (once per process: a shared library is
// process-wide by nature). Throws std::runtime_error naming the library and
// dlerror()'s reason if it cannot be loaded.
const Functions& functions();

}  // namespace tg::stdlib::blas
