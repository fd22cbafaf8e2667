// The Jupyter kernel plugin's entry (cli/kernel/plugin.hpp).
#include "cli/kernel/plugin.hpp"

#include "cli/kernel/kernel_main.hpp"

extern "C" __attribute__((visibility("default"))) const tg::kernel::KernelPlugin* tg_kernel_plugin() {
    static const tg::kernel::KernelPlugin plugin{{tg::kernel::kKernelPluginAbi, TG_VERSION}, tg::kernel::run_kernel};
    return &plugin;
}
