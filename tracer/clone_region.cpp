#include "tracer/clone_region.hpp"

namespace tg::tracer {

namespace {

// The copy of a cond or while node `n` and of its regions, in the insertion region.
void clone_control(Graph& g, NodeId n, CloneMap& map, bool drop_prints) {
    // (no reference into the node table is held: copying appends to it)
    std::vector<ValueId> operands;
    for (ValueId v : g.node(n).operands) operands.push_back(map.value(v));
    const SrcLoc loc = g.node(n).loc;
    const NodeId copy = g.node(n).op == Op::Cond
                            ? g.add_cond(operands[0], std::span<const ValueId>(operands).subspan(1), loc)
                            : g.add_while(operands, loc);
    map.nodes[n] = copy;
    for (size_t r = 0; r < g.node(n).regions.size(); ++r) {
        const RegionId from = g.node(n).regions[r], to = g.node(copy).regions[r];
        for (size_t a = 0; a < g.args(from).size(); ++a) {
            map.values[g.args(from)[a]] = g.args(to)[a];
            g.set_name(g.args(to)[a], g.value(g.args(from)[a]).name);
        }
        g.enter(to);
        const std::vector<ValueId> ys = clone_region_nodes(g, from, map, drop_prints);
        g.yield(ys);
        g.exit();
    }
    const std::vector<ValueId> res = g.finish(copy);
    for (size_t k = 0; k < res.size(); ++k) map.values[g.node(n).results[k]] = res[k];
}

}  // namespace

std::vector<ValueId> clone_region_nodes(Graph& g, RegionId src, CloneMap& map, bool drop_prints) {
    const std::vector<NodeId> order = g.region(src).nodes;  // (copying appends to the node table)
    std::vector<ValueId> yielded;
    for (NodeId n : order) {
        const Node& node = g.node(n);  // (valid until the next node is created)
        if (node.op == Op::Yield) {
            for (ValueId v : node.operands) yielded.push_back(map.value(v));
            continue;
        }
        if (node.op == Op::Cond || node.op == Op::While) {
            clone_control(g, n, map, drop_prints);
            continue;
        }
        if (node.op == Op::Print && drop_prints) {
            map.values[node.results[0]] = map.value(node.operands[0]);
            continue;
        }
        std::vector<ValueId> operands;
        for (ValueId v : node.operands) operands.push_back(map.value(v));
        std::vector<ValueType> types;
        for (ValueId r : node.results) types.push_back(g.type(r));
        const NodeId copy = g.create(node.op, node.def, std::move(operands), types, g.node(n).attrs,
                                     g.node(n).payload, g.node(n).loc);
        g.append(copy);
        map.nodes[n] = copy;
        for (size_t k = 0; k < g.node(n).results.size(); ++k) map.values[g.node(n).results[k]] = g.node(copy).results[k];
    }
    return yielded;
}

}  // namespace tg::tracer
