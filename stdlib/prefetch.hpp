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
// The loads run one at a time, in the order they were asked for: dlopen
// holds the process's loader lock while it maps, relocates and constructs
// a library, so two at once gain nothing, and the order decides which
// comes first: the resolver asks for what a program's code calls (OpenBLAS)
// before the JIT plugin, which only background compiles need
// (docs/performance.md "Compiled code").
void prefetch_in_background(std::once_flag& once, void (*load)());

// Waits until every load asked for before this call has run (returns at
// once when none is under way). The JIT compile worker calls it before it
// loads the plugin itself, so that it keeps its place in that order.
void wait_for_prefetches();

}  // namespace tg::stdlib
