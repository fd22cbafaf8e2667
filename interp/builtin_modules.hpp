// The tg modules shipped inside tg (modules/*.tg, compiled in by
// interp/CMakeLists.txt): `import optim` finds them after the module search
// path, so a script's own optim.tg shadows the shipped one, as in Python.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tg::interp {

struct BuiltinModule {
    std::string_view name;
    std::string_view source;
};
const std::vector<BuiltinModule>& builtin_modules();
// Module `name` shipped with tg: sets its path ("<tg>/optim.tg") and text.
bool find_builtin_module(const std::string& name, std::string& path, std::string& text);

}  // namespace tg::interp
