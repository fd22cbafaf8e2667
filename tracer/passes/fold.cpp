// Constant folding: evaluate with the same stdlib kernels the program would
// run, so a folded value is bit-identical to the unfolded one.
#include "stdlib/op_table.hpp"
#include "tracer/passes.hpp"
#include "tracer/passes/rewrite.hpp"

namespace tg::tracer {

using stdlib::Tensor;
using namespace passes;

namespace {

bool all_constant(const Graph& g, const Node& node, size_t from) {
    for (size_t k = from; k < node.operands.size(); ++k)
        if (!constant_of(g, node.operands[k])) return false;
    return true;
}

// The value node n would compute, if it can be computed now; nothing if it
// is not constant, too large, or raises (the error must then happen at run time).
std::optional<Tensor> evaluate(const Graph& g, const Node& node) {
    if (node.results.size() != 1 || g.type(node.results[0]).token) return std::nullopt;
    if (g.tensor_type(node.results[0]).shape.numel() > kFoldLimit) return std::nullopt;
    // a value with a dynamic dimension has its traced size only in this trace
    // (a gradient's broadcast seed times 0): a constant would keep that size
    if (g.has_dynamic_dims(node.results[0])) return std::nullopt;
    try {
        switch (node.op) {
            case Op::Apply: {
                if (node.def->has_effect() || !all_constant(g, node, 0)) return std::nullopt;
                std::vector<Tensor> in;
                for (ValueId v : node.operands) in.push_back(*constant_of(g, v));
                stdlib::OpContext ctx{};
                return node.def->eager(ctx, stdlib::OpArgs{in, node.attrs});
            }
            case Op::Truth:
                if (!all_constant(g, node, 0)) return std::nullopt;
                return Tensor::scalar(stdlib::truth(*constant_of(g, node.operands[0])));
            case Op::Index: {
                if (!all_constant(g, node, 0)) return std::nullopt;
                const IndexSpec& spec = std::get<IndexSpec>(node.payload);
                std::vector<stdlib::IndexItem> items = spec.items;
                size_t k = 1;
                for (size_t i = 0; i < items.size(); ++i)
                    if (spec.dynamic[i]) items[i].index = constant_of(g, node.operands[k++])->item_i64();
                return stdlib::index(*constant_of(g, node.operands[0]), items);
            }
            case Op::Constant: case Op::Undef: case Op::IndexAssign: case Op::Cond: case Op::While: case Op::Yield:
            case Op::Print: case Op::Assert: case Op::Raise: case Op::HostCall: return std::nullopt;
        }
        return std::nullopt;
    } catch (const stdlib::OpError&) {
        return std::nullopt;
    }
}

// Replaces cond n by the nodes of the region that runs.
void inline_branch(Graph& g, Substitution& sub, NodeId n, bool taken) {
    const Node& node = g.node(n);
    RegionId r = node.regions[taken ? 0 : 1];
    RegionId parent = node.parent;
    std::vector<ValueId> ins(node.operands.begin() + 1, node.operands.end());
    const std::vector<ValueId> args = g.region(r).args;
    for (size_t i = 0; i < args.size(); ++i) sub.replace_value(args[i], ins[i]);
    std::vector<NodeId> body = g.region(r).nodes;
    NodeId yield = body.back();
    body.pop_back();
    size_t pos = position(g, n);
    g.region(r).nodes.clear();
    for (NodeId m : body) g.insert(parent, pos++, m);
    std::vector<ValueId> outs = g.node(yield).operands;
    g.mark_erased(yield);
    sub.replace_node(n, outs);
}

}  // namespace

bool fold_constants(Graph& g) {
    Substitution sub(g);
    for (NodeId n : all_nodes(g)) {
        if (g.node(n).erased) continue;
        sub.visit(n);
        const Node& node = g.node(n);
        if (node.op == Op::Cond) {
            if (const Tensor* p = constant_of(g, node.operands[0])) inline_branch(g, sub, n, p->item_bool());
            continue;
        }
        if (node.op == Op::Assert) {
            const Tensor* c = constant_of(g, node.operands[1]);
            if (c && c->item_bool()) sub.replace_node(n, {node.operands[0]});  // cannot fail: only the token passes through
            continue;
        }
        if (node.op == Op::Constant) continue;
        std::optional<Tensor> value = evaluate(g, node);
        if (!value) continue;
        // Folding must not change the type; a kernel disagreeing with its shape rule is left alone.
        if (!same_type(type_of(*value), g.tensor_type(node.results[0]))) continue;
        sub.replace_with_constant(n, value->contiguous());
    }
    return sub.finish();
}

}  // namespace tg::tracer
