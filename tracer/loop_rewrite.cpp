#include "tracer/loop_rewrite.hpp"

#include <algorithm>

namespace tg::tracer {

namespace {

Node& last_yield(Graph& g, RegionId r) {
    const std::vector<NodeId>& nodes = g.region(r).nodes;
    if (nodes.empty() || g.node(nodes.back()).op != Op::Yield)
        throw VerifyError("loop rewrite: a region without its yield");
    return g.node(nodes.back());
}

size_t position(const Graph& g, NodeId n) {
    const std::vector<NodeId>& order = g.region(g.node(n).parent).nodes;
    return size_t(std::find(order.begin(), order.end(), n) - order.begin());
}

}  // namespace

AddedCarry add_carried(Graph& g, NodeId loop, ValueId init) {
    if (g.node(loop).op != Op::While) throw VerifyError("add_carried: not a while node");
    const ValueType t = g.type(init);
    const RegionId cond_r = g.node(loop).regions[0], body_r = g.node(loop).regions[1];
    g.node(loop).operands.push_back(init);
    AddedCarry c{g.add_arg(cond_r, t), g.add_arg(body_r, t), g.add_result(loop, t)};
    last_yield(g, cond_r).operands.push_back(c.cond_arg);
    last_yield(g, body_r).operands.push_back(c.body_arg);
    return c;
}

void place_before(Graph& g, NodeId anchor, NodeId n) { g.insert(g.node(anchor).parent, position(g, anchor), n); }
void place_after(Graph& g, NodeId anchor, NodeId n) { g.insert(g.node(anchor).parent, position(g, anchor) + 1, n); }

ReopenedRegion::ReopenedRegion(Graph& g, RegionId r) : g_(g), r_(r) {
    last_yield(g, r);
    yield_ = g.region(r).nodes.back();
    g.region(r).nodes.pop_back();
    g.enter(r);
}

ReopenedRegion::~ReopenedRegion() {
    g_.exit();
    g_.region(r_).nodes.push_back(yield_);
}

}  // namespace tg::tracer
