// `tg kernel -f CONNECTION_FILE` (docs/notebooks.md): serves one notebook
// until Jupyter shuts it down. Returns the exit status.
#pragma once

#include <tg/tg.hpp>

#include <string>

namespace tg::kernel {

int run_kernel(const std::string& connection_file, Options options);

}  // namespace tg::kernel
