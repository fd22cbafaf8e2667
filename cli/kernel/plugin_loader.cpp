// Loading the Jupyter kernel plugin (cli/kernel/plugin.hpp).
#include "cli/kernel/plugin.hpp"

#include <cstdio>

#include "api/tool_api.hpp"

namespace tg::kernel {

namespace {
// The tool API only the plugin calls: referred to here so that the command
// links it (the linker leaves out what nothing in the command refers to, and
// the plugin finds its functions in the command: cmake/plugin_symbols.txt).
[[gnu::used]] const void* const kForThePlugin[] = {reinterpret_cast<const void*>(&graph_value_dot),
                                                   reinterpret_cast<const void*>(&figure_svg)};
}  // namespace

int run_kernel_plugin(const std::string& connection_file, Options options) {
    std::string error;
    const stdlib::PluginFile file{TG_KERNEL_FILE, TG_KERNEL_BUILD_PATH, "tg_kernel_plugin", kKernelPluginAbi, true};
    const auto* plugin = reinterpret_cast<const KernelPlugin*>(stdlib::load_plugin(file, error));
    if (!plugin) {
        std::fprintf(stderr, "tg: kernel: %s\n", error.c_str());
        return 1;
    }
    return plugin->run_kernel(connection_file, std::move(options));
}

}  // namespace tg::kernel
