// Small helpers the passes share.
#pragma once

#include <unordered_map>
#include <vector>

#include "tracer/graph.hpp"

namespace tg::tracer::passes {

// The tensor of a value defined by a Constant node; null otherwise.
const stdlib::Tensor* constant_of(const Graph& g, ValueId v);

// Position of n in its region's node list.
size_t position(const Graph& g, NodeId n);

// Replacing every use of a value walks the whole graph, so a pass that
// replaced node after node that way was quadratic (a 20,000-node chain of
// `x * 1.0` took 6 s to simplify). A pass records its replacements here:
// each node it visits — in program order, so after every definition it can
// use — first takes its operands through the map (visit), and finish()
// rewrites every other use and takes the replaced nodes out of their
// regions in one sweep. A replaced node is marked erased at once.
class Substitution {
public:
    explicit Substitution(Graph& g) : g_(g) {}
    ValueId resolve(ValueId v) const;
    void visit(NodeId n);
    void replace_value(ValueId from, ValueId to) { map_[from] = resolve(to); }
    // Every use of n's results now uses `values` instead; n goes.
    void replace_node(NodeId n, const std::vector<ValueId>& values);
    // Replaces single-result node n by a Constant node holding `value` (same place, same location).
    void replace_with_constant(NodeId n, stdlib::Tensor value);
    // A rewrite in place (not a replacement) that finish() reports as a change.
    void mark_changed() { changed_ = true; }
    // Applies what was recorded; whether anything was (or mark_changed).
    bool finish();

private:
    Graph& g_;
    std::unordered_map<ValueId, ValueId> map_;
    std::vector<NodeId> dropped_;
    bool changed_ = false;
};

// Live nodes of the whole graph in pre-order (a snapshot: passes may rewrite while iterating).
std::vector<NodeId> all_nodes(const Graph& g);

// Whether every element of t equals v (compared as double; for -0.0 / +0.0
// the sign must match when `sign` is set).
bool all_equal(const stdlib::Tensor& t, double v, bool check_sign);

}  // namespace tg::tracer::passes
