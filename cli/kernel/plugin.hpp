// The Jupyter kernel as a plugin (stdlib/plugin.hpp): cli/kernel/ is built
// into libtg_kernel.so with xeus, ZeroMQ and Graphviz, which `tg kernel`
// loads — linked, those libraries cost every tg process ~3 ms of start-up
// (docs/performance.md "Start-up"). The plugin calls the public API and the
// tool API, which the tg command exports (cmake/plugin_symbols.txt).
#pragma once

#include <tg/tg.hpp>

#include <string>

#include "stdlib/plugin.hpp"

namespace tg::kernel {

inline constexpr uint32_t kKernelPluginAbi = 1;  // bumped when KernelPlugin changes

struct KernelPlugin {
    stdlib::PluginHeader header;
    int (*run_kernel)(const std::string& connection_file, Options options);  // kernel_main.hpp's
};

// run_kernel (kernel_main.hpp) in the plugin, loaded first; when it cannot
// be loaded, says why on stderr and returns 1.
int run_kernel_plugin(const std::string& connection_file, Options options);

}  // namespace tg::kernel

// The plugin's one exported symbol.
extern "C" const tg::kernel::KernelPlugin* tg_kernel_plugin();
