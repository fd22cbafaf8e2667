// Loading a shared library ahead of need (OpenBLAS, stdlib/blas.hpp; the
// LLVM JIT plugin, codegen/jit_plugin.hpp): the load runs on a background
// thread while the program starts, instead of delaying the first use.
#pragma once

#include <mutex>

namespace tg::stdlib {

// Runs `load` once per `once` on a background thread, joined when the
// process exits (a dlopen in flight must not be cut). `load` reports
// failures through its first real use, so what it throws is dropped; when no
// thread can be started nothing happens (the first use loads it).
void prefetch_in_background(std::once_flag& once, void (*load)());

}  // namespace tg::stdlib
