// The kernelspec that tells Jupyter how to start tg (docs/notebooks.md
// "Install"): share/jupyter/kernels/tg/{kernel.json, logos}.
#pragma once

#include <span>
#include <string>

namespace tg::kernel {

// The logos, compiled in from share/jupyter/kernels/tg (cli/CMakeLists.txt):
// `tg kernel install` works from a build folder or a lone executable.
struct Logo {
    const char* name;
    std::span<const unsigned char> bytes;
};
std::span<const Logo> kernel_logos();
// share/jupyter/kernels/tg/kernel.json.in, whose @TG_EXECUTABLE@ names tg
const char* kernel_json_template();

// kernel.json for the tg executable at `tg_path`.
std::string kernel_json(const std::string& tg_path);
// `tg kernel install`: writes the kernelspec into PREFIX/share/jupyter/kernels/tg
// (`prefix`), ~/.local/share/jupyter/kernels/tg (`user`) or
// /usr/local/share/jupyter/kernels/tg; prints where. Returns the exit status.
int install_kernelspec(bool user, const std::string& prefix);

}  // namespace tg::kernel
