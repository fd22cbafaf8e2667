// Dead-code elimination: a pure node whose results nobody uses goes.
#include <algorithm>

#include "tracer/passes.hpp"
#include "tracer/passes/rewrite.hpp"

namespace tg::tracer {

using namespace passes;

namespace {

bool removable_cond(Graph& g, NodeId n, const std::vector<uint32_t>& uses) {
    const Node& node = g.node(n);
    // the token among the ins, and the token result
    size_t tok_in = SIZE_MAX, tok_out = SIZE_MAX;
    for (size_t j = 1; j < node.operands.size(); ++j)
        if (g.type(node.operands[j]).token) tok_in = j - 1;
    for (size_t i = 0; i < node.results.size(); ++i) {
        if (g.type(node.results[i]).token) tok_out = i;
        else if (uses[node.results[i]] != 0) return false;
    }
    if (tok_in == SIZE_MAX || tok_out == SIZE_MAX) return false;
    for (RegionId r : node.regions) {
        const Region& reg = g.region(r);
        if (g.node(reg.nodes.back()).operands[tok_out] != reg.args[tok_in]) return false;
        bool pure = true;
        g.walk(r, [&](NodeId k) { pure = pure && (g.node(k).op == Op::Yield || is_pure(g, k)); });
        if (!pure) return false;
    }
    g.replace_all_uses(node.results[tok_out], node.operands[1 + tok_in]);
    g.erase(n);
    return true;
}

// Erases the nodes `dead` with one sweep of each region holding them (one
// search of the region's list per node made a long chain quadratic).
void erase_all(Graph& g, const std::vector<NodeId>& dead) {
    std::vector<RegionId> regions;
    std::vector<char> is_dead(g.num_nodes(), 0);
    for (NodeId n : dead) {
        regions.push_back(g.node(n).parent);
        is_dead[n] = 1;
    }
    std::sort(regions.begin(), regions.end());
    regions.erase(std::unique(regions.begin(), regions.end()), regions.end());
    for (RegionId r : regions) std::erase_if(g.region(r).nodes, [&](NodeId m) { return is_dead[m] != 0; });
    for (NodeId n : dead) g.mark_erased(n);
}

}  // namespace

bool eliminate_dead_code(Graph& g) {
    bool changed = false;
    for (;;) {
        std::vector<uint32_t> uses = g.use_counts();
        std::vector<NodeId> order = all_nodes(g);
        std::vector<NodeId> dead;
        // Reverse program order: users go before their operands' producers.
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            NodeId n = *it;
            const Node& node = g.node(n);
            if (node.erased || !is_pure(g, n)) continue;
            bool used = false;
            for (ValueId v : node.results) used |= uses[v] != 0;
            if (used) continue;
            bool nested = !node.regions.empty();
            for (ValueId v : node.operands) --uses[v];
            dead.push_back(n);
            // Uses from inside an erased cond's regions: recount from scratch.
            if (nested) break;
        }
        erase_all(g, dead);
        bool removed = !dead.empty();
        // A cond result nobody reads: drop it and what its branches yield for it.
        if (!removed) {
            for (NodeId n : all_nodes(g)) {
                const Node& node = g.node(n);
                if (node.erased || node.op != Op::Cond) continue;
                for (size_t i = node.results.size(); i-- > 0;) {
                    ValueId v = g.node(n).results[i];
                    if (uses[v] != 0 || g.type(v).token) continue;
                    for (RegionId r : g.node(n).regions) {
                        auto& ops = g.node(g.region(r).nodes.back()).operands;
                        ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i));
                    }
                    g.remove_result(n, i);
                    removed = true;
                }
            }
        }
        // A cond whose branches have no effect and can raise nothing, whose
        // results nobody reads but the token it only passes through: the
        // token flows around it and it goes. (`while` nodes stay: removing
        // one could remove a loop that never ends.)
        if (!removed) {
            for (NodeId n : all_nodes(g)) {
                const Node& node = g.node(n);
                if (node.erased || node.op != Op::Cond) continue;
                if (removable_cond(g, n, uses)) {
                    removed = true;
                    break;  // use counts changed: recount
                }
            }
        }
        if (!removed) break;
        changed = true;
    }
    return changed;
}

}  // namespace tg::tracer
