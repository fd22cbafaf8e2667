// Copies of a region's nodes (docs/graph-ir.md): what autodiff's bounded
// loop gradients (docs/training.md "Bounding a loop's saved values") run
// again in the backward pass — a converted loop's body, recomputed from a
// saved state inside another loop.
//
// A nested region reads its own arguments, the values before it in its
// region and, implicitly, any value that dominates it (only the token is
// passed explicitly). So a copy placed elsewhere needs a map for the
// source region's arguments and for the captured values that do not
// dominate the new place; every value the copied nodes define, and every
// nested region's arguments, are mapped as they are copied.
#pragma once

#include <unordered_map>
#include <vector>

#include "tracer/graph.hpp"

namespace tg::tracer {

struct CloneMap {
    // original -> copy. Seeded by the caller with the source region's
    // arguments and the captured values to replace; a value not in it is
    // read as is (it must dominate the copy).
    std::unordered_map<ValueId, ValueId> values;
    std::unordered_map<NodeId, NodeId> nodes;  // filled by the copy, nested nodes too

    ValueId value(ValueId v) const {
        auto it = values.find(v);
        return it == values.end() ? v : it->second;
    }
    NodeId node(NodeId n) const {
        auto it = nodes.find(n);
        return it == nodes.end() ? n : it->second;
    }
};

// Appends to the graph's insertion region a copy of every node of region
// `src` but its final yield, in order, nested regions copied recursively;
// returns the yield's operands, mapped. With `drop_prints`, print nodes are
// not copied (their token passes through): a recomputation prints nothing.
std::vector<ValueId> clone_region_nodes(Graph& g, RegionId src, CloneMap& map, bool drop_prints);

}  // namespace tg::tracer
