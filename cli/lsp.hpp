// `tg lsp`: the Language Server Protocol server editors start for .tg files
// (docs/editors.md; editors/vscode starts it through vscode-languageclient).
#pragma once

namespace tg::cli {

// Serves one client on stdin/stdout (nothing else is written to stdout)
// until `exit`, or the end of the input. Returns 0 after shutdown and exit,
// else 1 (the protocol's rule).
int lsp();

}  // namespace tg::cli
