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
        if (!removed) break;
        changed = true;
    }
    return changed;
}

}  // namespace tg::tracer
