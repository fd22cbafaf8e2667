// The boundary between tg and its LLVM JIT plugin. LLVM lives in a separate
// shared object (libtg_jit.so, codegen/jit_llvm.cpp) that is loaded the first
// time a graph is compiled, not at process start: linked into tg, LLVM's
// static constructors and relocations cost every process ~1.5 ms before
// main, scripts without @graph included (docs/performance.md "Start-up").
// Both sides are built from the same sources in the same build; the plugin
// descriptor carries the version and an ABI number, checked on load
// (stdlib/plugin.hpp). The plugin is self-contained: it calls nothing of tg's.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/jit_session.hpp"
#include "stdlib/plugin.hpp"

namespace tg::codegen {

// What JitSession does, implemented by the plugin with LLVM ORC (the methods
// mean what JitSession's say). Throws CodegenError.
class JitEngine {
public:
    virtual ~JitEngine() = default;
    virtual JitSession::ModuleId add_ir(std::string_view ir_text, std::string_view cache_key, ModuleTimes* times) = 0;
    virtual bool cached(std::string_view cache_key) const = 0;
    virtual void* lookup(std::string_view symbol) = 0;
    virtual void remove(JitSession::ModuleId id) = 0;
    virtual std::string host_cpu() const = 0;
    virtual std::string target_triple() const = 0;
    virtual JitStats stats() const = 0;
};

// How exit waits for compiles still running on detached threads
// (codegen/background.cpp): once `armed`, every at-exit registration the
// plugin's LLVM makes is followed by one of `wait`, so the wait runs first.
struct ExitWait {
    const std::atomic<bool>* armed = nullptr;
    void (*wait)(void*) = nullptr;
};

// Bumped whenever JitEngine, JitOptions, RuntimeSymbol, ModuleTimes, JitStats
// or this struct change.
inline constexpr uint32_t kJitPluginAbi = 1;

struct JitPlugin {
    stdlib::PluginHeader header;  // kJitPluginAbi and TG_VERSION of the plugin's build
    // Whether a compile may be left running on a detached thread: only when
    // LLVM is linked into the plugin, whose at-exit registrations it routes
    // through the exit wait (with a shared libLLVM it cannot see them).
    bool can_detach;
    // The process-wide setup (LLVM's target registry); safe to call more
    // than once and from any thread. The prefetch calls it ahead of need.
    void (*prepare)();
    std::unique_ptr<JitEngine> (*create)(const JitOptions& options, const std::vector<RuntimeSymbol>& runtime);
    void (*set_exit_wait)(ExitWait wait);
};

}  // namespace tg::codegen

// The plugin's one exported symbol.
extern "C" const tg::codegen::JitPlugin* tg_jit_plugin();
