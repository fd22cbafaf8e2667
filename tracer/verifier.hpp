// The verifier: checks every invariant of the graph IR (docs/graph-ir.md,
// "Verifier rules") and throws VerifyError naming the node that broke one.
// Run after building a graph and after every pass; tests always run it.
#pragma once

#include <string>

#include "tracer/graph.hpp"

namespace tg::tracer {

void verify(const Graph& g);

// "#12 mul (f.tg:3:11)": how verifier and pass errors name a node.
std::string describe_node(const Graph& g, NodeId n);

}  // namespace tg::tracer
