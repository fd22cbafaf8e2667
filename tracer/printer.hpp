// Text and Graphviz DOT forms of a graph. The text form is deterministic:
// values are numbered in print order (function parameters keep their names),
// so golden tests can compare it and it does not change when a pass leaves
// holes in the value table. docs/graph-ir.md shows an example.
#pragma once

#include <string>

#include "tracer/graph.hpp"

namespace tg::tracer {

struct PrintOptions {
    bool locations = true;  // append "loc(f.tg:3:11)" to nodes that have one
};

std::string print_graph(const Graph& g, const PrintOptions& options = {});
std::string to_dot(const Graph& g);

// A constant as the printer shows it: "2.0", "[1, 2, 3]", "[[1.0, 2.0], ...]"
// (at most 16 elements, then "..."), weak values at full precision.
std::string format_constant(const stdlib::Tensor& t);
// An attribute: "3", "2.5", "true", "f32", "(0, 1)", "none".
std::string format_attr(const stdlib::Attr& a);

}  // namespace tg::tracer
