// Finding and loading the LLVM JIT plugin (codegen/jit_engine.hpp) on first
// use. The loaded plugin is a process resource, like OpenBLAS
// (stdlib/blas.hpp) and the thread pool: loaded once, never unloaded, and it
// holds no state that changes a result.
#pragma once

#include "codegen/jit_engine.hpp"

namespace tg::codegen {

// The plugin, loaded by the first call (thread-safe). Looked for beside the
// code that loads it — the installed layout, <libdir>/tg/ from libtg.so or
// from the tg command's <bindir> — then where this build made it. Throws
// JitUnavailable naming the places tried when it is missing or from another
// build of tg.
const JitPlugin& jit_plugin();

// Starts loading the plugin (and LLVM's target registry) on a background
// thread, so the first compile does not wait for it: the resolver calls it
// when a program uses @graph. A failure is reported by the first compile.
void prefetch_jit();

// Whether the plugin lets a compile run on past its interpreter
// (JitPlugin::can_detach). Waits for a load under way (a compile that runs
// is loading it or has it); false when it cannot be loaded.
bool jit_can_detach();

// Whether loading the plugin was tried and failed; never waits (false while
// a load is under way). A compile that finds it failed reports it at once
// instead of leaving it to the background (codegen/compiler.cpp).
bool jit_load_failed();

}  // namespace tg::codegen
