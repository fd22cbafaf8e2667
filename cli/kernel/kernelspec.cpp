#include "cli/kernel/kernelspec.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace tg::kernel {

std::string kernel_json(const std::string& tg_path) {
    std::string text = kernel_json_template();
    const std::string key = "@TG_EXECUTABLE@";
    // a path is a JSON string: its quotes and backslashes escaped
    const std::string quoted = nlohmann::json(tg_path).dump();
    text.replace(text.find(key), key.size(), quoted.substr(1, quoted.size() - 2));
    return text;
}

int install_kernelspec(bool user, const std::string& prefix) {
    namespace fs = std::filesystem;
    fs::path base;
    if (!prefix.empty()) base = fs::path(prefix) / "share/jupyter";
    else if (user) {
        const char* data = std::getenv("XDG_DATA_HOME");
        const char* home = std::getenv("HOME");
        if ((!data || !*data) && (!home || !*home)) return std::fprintf(stderr, "tg: kernel install --user: $HOME is not set\n"), 1;
        base = data && *data ? fs::path(data) / "jupyter" : fs::path(home) / ".local/share/jupyter";
    } else base = "/usr/local/share/jupyter";
    const fs::path dir = base / "kernels" / "tg";
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return std::fprintf(stderr, "tg: kernel install: cannot find the tg executable: %s\n", ec.message().c_str()), 1;
    fs::create_directories(dir, ec);
    if (ec) return std::fprintf(stderr, "tg: kernel install: cannot create %s: %s\n", dir.c_str(), ec.message().c_str()), 1;
    std::ofstream(dir / "kernel.json") << kernel_json(exe.string());
    for (const Logo& logo : kernel_logos())
        std::ofstream(dir / logo.name, std::ios::binary)
            .write(reinterpret_cast<const char*>(logo.bytes.data()), static_cast<std::streamsize>(logo.bytes.size()));
    if (!fs::exists(dir / "kernel.json", ec)) return std::fprintf(stderr, "tg: kernel install: cannot write into %s\n", dir.c_str()), 1;
    std::printf("installed the tg kernelspec in %s\n", dir.c_str());
    return 0;
}

}  // namespace tg::kernel
