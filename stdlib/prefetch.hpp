// Loading a shared library ahead of need (OpenBLAS, stdlib/blas.hpp; the
// LLVM JIT plugin, codegen/jit_plugin.hpp): the load runs on a background
// thread while the program starts, instead of delaying the first use.
#pragma once

#include <mutex>

namespace tg::stdlib {

// Runs `load` once per `once` on a background thread. The thread that
// called this waits for the load when it ends or calls exit(), before any
// at-exit function runs (a library half loaded must not have its
// destructors run under it); the process joins it at exit too. `load`
// reports failures through its first real use, so what it throws is
// dropped; when no thread can be started nothing happens (the first use
// loads it).
void prefetch_in_background(std::once_flag& once, void (*load)());

}  // namespace tg::stdlib
