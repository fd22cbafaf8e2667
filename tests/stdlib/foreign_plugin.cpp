// Stand-ins for tg's plugins, for test_plugin.cpp: descriptors of this
// build's version and of another one (stdlib/plugin.hpp).
#include "stdlib/plugin.hpp"

namespace {
const tg::stdlib::PluginHeader kThisBuild{1, TG_VERSION};
const tg::stdlib::PluginHeader kOtherBuild{1, "0.0.1-elsewhere"};
}  // namespace

extern "C" __attribute__((visibility("default"))) const tg::stdlib::PluginHeader* tg_test_plugin_this_build() {
    return &kThisBuild;
}
extern "C" __attribute__((visibility("default"))) const tg::stdlib::PluginHeader* tg_test_plugin_other_build() {
    return &kOtherBuild;
}
