// Finding and loading tg's plugins (stdlib/plugin.hpp): a plugin that is
// nowhere, one from another build of tg, one with another descriptor layout,
// one without its entry are each refused with the places looked in and the
// reason (docs/embedding.md "What loads when"). The plugin is
// tests/stdlib/foreign_plugin.cpp, found where the build made it.
#include <doctest/doctest.h>

#include <string>

#include "stdlib/plugin.hpp"

using tg::stdlib::load_plugin;
using tg::stdlib::PluginFile;

namespace {

const char* const kName = "libtg_test_foreign_plugin.so";

PluginFile stand_in(const char* entry, uint32_t abi) { return {kName, TG_TEST_FOREIGN_PLUGIN, entry, abi, false}; }

}  // namespace

TEST_CASE("plugins: one of this build and layout loads, once per process") {
    std::string error;
    const auto* first = load_plugin(stand_in("tg_test_plugin_this_build", 1), error);
    REQUIRE(first != nullptr);
    CHECK(error.empty());
    CHECK(std::string(first->tg_version) == TG_VERSION);
    CHECK(load_plugin(stand_in("tg_test_plugin_this_build", 1), error) == first);
}

TEST_CASE("plugins: a missing one is an error naming the places looked in") {
    std::string error;
    const PluginFile nowhere{"libtg_nothing.so.0.2.0", "/nonexistent/tg-build/libtg_nothing.so.0.2.0", "tg_nothing", 1,
                             false};
    CHECK(load_plugin(nowhere, error) == nullptr);
    CHECK(error.starts_with("cannot load tg's plugin libtg_nothing.so.0.2.0 (looked in "));
    CHECK(error.ends_with(", /nonexistent/tg-build)"));  // beside the test program, then the build's place
}

TEST_CASE("plugins: one from another build of tg, or of another layout, or without its entry is refused") {
    const std::string place = std::string("; ") + TG_TEST_FOREIGN_PLUGIN + ": from another build of tg (version ";
    std::string error;
    CHECK(load_plugin(stand_in("tg_test_plugin_other_build", 1), error) == nullptr);
    CHECK(error.ends_with(place + "0.0.1-elsewhere)"));
    error.clear();
    CHECK(load_plugin(stand_in("tg_test_plugin_this_build", 2), error) == nullptr);
    CHECK(error.ends_with(place + TG_VERSION + ")"));
    error.clear();
    CHECK(load_plugin(stand_in("tg_test_plugin_missing_entry", 1), error) == nullptr);
    CHECK(error.ends_with(place + "?)"));
}
