// Graphviz DOT rendered to SVG in-process with Graphviz's own library (gvc,
// Debian libgraphviz-dev): `%graph NAME` and graph values in a notebook
// (docs/notebooks.md "Display").
#pragma once

#include <string>

namespace tg::kernel {

// The <svg> element of `dot` laid out by `dot`; "" when Graphviz cannot
// read or render it (the caller shows the text alone).
std::string dot_to_svg(const std::string& dot);

}  // namespace tg::kernel
