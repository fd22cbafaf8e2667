#include "codegen/jit_plugin.hpp"

#include <atomic>
#include <mutex>
#include <string>

#include "codegen/background.hpp"
#include "stdlib/prefetch.hpp"

namespace tg::codegen {

namespace {

std::atomic<const JitPlugin*> loaded_plugin{nullptr};

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
        loaded_plugin.store(l.plugin, std::memory_order_release);
        return l;
    }();
    if (!loaded.plugin) throw JitUnavailable(loaded.error);
    return *loaded.plugin;
}

bool jit_can_detach() {
    const JitPlugin* p = loaded_plugin.load(std::memory_order_acquire);
    return p && p->can_detach;
}

void prefetch_jit() {
    static std::once_flag once;
    stdlib::prefetch_in_background(once, [] { jit_plugin().prepare(); });
}

}  // namespace tg::codegen
