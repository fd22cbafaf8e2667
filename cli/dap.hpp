// `tg dap`: the Debug Adapter Protocol server editors start to debug a tg
// script (docs/debugging.md "VS Code"; editors/vscode starts `tg dap`).
#pragma once

#include <tg/tg.hpp>

namespace tg::cli {

// Serves one debug session. port 0: Content-Length framed messages on
// stdin/stdout (nothing else is written to stdout); port N: listens on
// 127.0.0.1:N and serves the one client that connects. `base` gives the
// interpreter's options (from the environment); the launch request adds
// the script's arguments. Returns the exit status: 0, or 1 when the
// transport could not be set up.
int dap(Options base, int port);

}  // namespace tg::cli
