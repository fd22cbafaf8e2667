// The REPL's commands as notebook magics (docs/notebooks.md "Magics"): lines
// starting with `%` at the top of a cell.
//   %trace on|off   %eager on|off   %time [STATEMENT]   %graph NAME [dot]
//   %vars           %reset
#pragma once

#include "cli/kernel/session.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace tg::kernel {

// Runs the magic lines at the top of `code` (cell `name`); `rest` receives
// the code after them, magic lines blanked so that errors keep their line
// numbers. `%time` alone on its line times the rest of the cell itself
// (`rest` is then empty). A bad magic is an error located at its line.
std::optional<CellError> run_magics(Session& s, std::string_view code, const std::string& name, std::string& rest);

}  // namespace tg::kernel
