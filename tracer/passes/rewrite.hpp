// Small helpers the passes share.
#pragma once

#include <vector>

#include "tracer/graph.hpp"

namespace tg::tracer::passes {

// The tensor of a value defined by a Constant node; null otherwise.
const stdlib::Tensor* constant_of(const Graph& g, ValueId v);

// Position of n in its region's node list.
size_t position(const Graph& g, NodeId n);

// Replaces single-result node n by a Constant node holding `value` (same place, same location).
void replace_with_constant(Graph& g, NodeId n, stdlib::Tensor value);

// Every use of n's results now uses `values` instead; n is erased.
void replace_node(Graph& g, NodeId n, const std::vector<ValueId>& values);

// Live nodes of the whole graph in pre-order (a snapshot: passes may rewrite while iterating).
std::vector<NodeId> all_nodes(const Graph& g);

// Whether every element of t equals v (compared as double; for -0.0 / +0.0
// the sign must match when `sign` is set).
bool all_equal(const stdlib::Tensor& t, double v, bool check_sign);

}  // namespace tg::tracer::passes
