// A tg value as a Jupyter mime bundle (docs/notebooks.md "Display"): always
// text/plain (its repr, as the REPL echoes it); a 1-D or 2-D tensor also
// text/html (a table); a graph value image/svg+xml (its DOT drawn by
// Graphviz); a figure of the plot module image/svg+xml.
#pragma once

#include <tg/tg.hpp>

#include <nlohmann/json.hpp>

namespace tg::kernel {

nlohmann::json mime_bundle(const Value& v);

}  // namespace tg::kernel
