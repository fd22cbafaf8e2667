// Dead-code elimination: a pure node whose results nobody uses goes.
#include "tracer/passes.hpp"
#include "tracer/passes/rewrite.hpp"

namespace tg::tracer {

using namespace passes;

bool eliminate_dead_code(Graph& g) {
    bool changed = false;
    for (;;) {
        std::vector<uint32_t> uses = g.use_counts();
        std::vector<NodeId> order = all_nodes(g);
        bool removed = false;
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
            g.erase(n);
            removed = true;
            // Uses from inside an erased cond's regions: recount from scratch.
            if (nested) break;
        }
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
        if (!removed) break;
        changed = true;
    }
    return changed;
}

}  // namespace tg::tracer
