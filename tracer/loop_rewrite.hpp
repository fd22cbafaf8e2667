// Rewriting a finished `while` node in place: what autodiff's bounded loop
// gradients (docs/training.md "Bounding a loop's saved values") do to a
// converted loop once its backward pass is built — make it count its
// iterations and save its state every k of them.
#pragma once

#include "tracer/graph.hpp"

namespace tg::tracer {

// One more carried value of a while node: its argument in the condition
// region and in the body region, and the loop's result.
struct AddedCarry {
    ValueId cond_arg, body_arg, result;
};
// Makes `loop` carry one more value, starting at `init` (which must dominate
// the loop): appended to its operands, to both regions' arguments and
// yields, and to its results. The condition passes it on unchanged; the
// body yields its argument until the caller sets the body yield's last operand.
AddedCarry add_carried(Graph& g, NodeId loop, ValueId init);

// Places the created, unplaced node `n` just before / just after `anchor`,
// in anchor's region.
void place_before(Graph& g, NodeId anchor, NodeId n);
void place_after(Graph& g, NodeId anchor, NodeId n);

// Region `r` (whose last node is its yield) open for appending again: while
// this lives, r is the insertion region and the nodes built go before the
// yield, whose operands the caller may change.
class ReopenedRegion {
public:
    ReopenedRegion(Graph& g, RegionId r);
    ~ReopenedRegion();
    ReopenedRegion(const ReopenedRegion&) = delete;
    ReopenedRegion& operator=(const ReopenedRegion&) = delete;
    Node& yield() { return g_.node(yield_); }

private:
    Graph& g_;
    RegionId r_;
    NodeId yield_;
};

}  // namespace tg::tracer
