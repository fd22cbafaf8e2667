// Entry points of the tg command only (cli/), not of the embedding API: they
// are in the static libraries the tg command links, not in libtg.so's
// exported symbols nor in the installed header.
#pragma once

#include <string>
#include <string_view>

#include <tg/tg.hpp>

namespace tg {

// `tg check`: parse and resolve only. Returns every syntax error rendered
// (empty when the file is fine); `ast` receives the AST printout when given.
struct CheckResult {
    int errors = 0;
    bool incomplete = false;  // the input ended inside a statement (the REPL asks for more)
    std::string report;
    std::string ast;
};
CheckResult check_source(std::string_view source, std::string_view name, bool want_ast = false);
// The Graphviz DOT of a graph value (concrete, load of a .tgx); "" for any
// other value. The notebook draws it (docs/notebooks.md "Display").
std::string graph_value_dot(const Value& v);
// The SVG picture of a figure of the plot module; "" for any other value;
// throws tg::Error when the figure cannot be drawn.
std::string figure_svg(const Value& v);
// Reads a file; throws tg::Error when it cannot be read.
std::string read_file(const std::string& path);

}  // namespace tg
