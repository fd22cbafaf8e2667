#include "codegen/jit_plugin.hpp"

#include <atomic>
#include <mutex>
#include <string>

#include "codegen/background.hpp"
#include "stdlib/prefetch.hpp"

namespace tg::codegen {

namespace {

std::atomic<bool> load_failed{false};  // a process fact, like the loaded plugin: set once

struct Loaded {
    const JitPlugin* plugin = nullptr;
    std::string error;
};

Loaded load() {
    Loaded r;
    const stdlib::PluginFile file{TG_JIT_FILE, TG_JIT_BUILD_PATH, "tg_jit_plugin", kJitPluginAbi, false};
    r.plugin = reinterpret_cast<const JitPlugin*>(stdlib::load_plugin(file, r.error));
    if (r.plugin) r.plugin->set_exit_wait(detached_compiles_exit_wait());
    return r;
}

}  // namespace

const JitPlugin& jit_plugin() {
    static const Loaded loaded = [] {
        Loaded l = load();
        if (!l.plugin) load_failed.store(true, std::memory_order_release);
        return l;
    }();
    if (!loaded.plugin) throw JitUnavailable(loaded.error);
    return *loaded.plugin;
}

bool jit_can_detach() {
    try {
        return jit_plugin().can_detach;
    } catch (const JitUnavailable&) {
        return false;
    }
}

bool jit_load_failed() { return load_failed.load(std::memory_order_acquire); }

void prefetch_jit() {
    static std::once_flag once;
    stdlib::prefetch_in_background(once, [] { jit_plugin().prepare(); });
}

}  // namespace tg::codegen
