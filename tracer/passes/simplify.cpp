// Algebraic simplification. Every rule replaces a node by one of its operands
// and only fires when that is exactly what the node computes, bit for bit:
//   x + 0 is not x for floats (-0.0 + 0.0 is +0.0), so floats need x + (-0.0);
//   x * 0 is not 0 (NaN, inf, -0.0), so there is no such rule;
//   the result type must equal x's type (no broadcasting, no promotion).
#include "tracer/passes.hpp"
#include "tracer/passes/rewrite.hpp"

namespace tg::tracer {

using stdlib::Tensor;
using namespace passes;

namespace {

// The operand that `node` equals, if a rule applies.
std::optional<ValueId> simplified(const Graph& g, const Node& node) {
    // the truth of a bool[] value is that value
    if (node.op == Op::Truth && same_type(g.tensor_type(node.operands[0]), g.tensor_type(node.results[0])))
        return node.operands[0];
    if (node.op != Op::Apply || node.results.size() != 1) return std::nullopt;
    using stdlib::BinaryKind;
    using stdlib::UnaryKind;
    const stdlib::OpKind& kind = node.def->kind;  // the rules are keyed on the op's kind, not its name
    const stdlib::TensorType& rt = g.tensor_type(node.results[0]);
    const bool fl = stdlib::is_float(rt.dtype);
    auto same = [&](ValueId x) { return same_type(g.tensor_type(x), rt); };
    auto is_const = [&](ValueId c, double v, bool sign) {
        const Tensor* t = constant_of(g, c);
        return t && all_equal(*t, v, sign);
    };
    // The producer of x, if it is the same op as `node`.
    auto producer = [&](ValueId x) -> const Node* {
        NodeId d = g.value(x).def;
        if (d == kNoId || g.node(d).op != Op::Apply || g.node(d).def != node.def) return nullptr;
        return &g.node(d);
    };
    const auto& in = node.operands;
    if (const auto* bk = std::get_if<BinaryKind>(&kind); bk && in.size() == 2) {
        ValueId a = in[0], b = in[1];
        switch (*bk) {
            case BinaryKind::Mul:
                if (same(a) && is_const(b, 1.0, false)) return a;
                if (same(b) && is_const(a, 1.0, false)) return b;
                break;
            case BinaryKind::Add:
                if (fl) {
                    if (same(a) && is_const(b, -0.0, true)) return a;
                    if (same(b) && is_const(a, -0.0, true)) return b;
                } else if (stdlib::is_int(rt.dtype)) {
                    if (same(a) && is_const(b, 0.0, false)) return a;
                    if (same(b) && is_const(a, 0.0, false)) return b;
                }
                break;
            case BinaryKind::Sub:
                if (same(a) && (fl ? is_const(b, 0.0, true) : stdlib::is_int(rt.dtype) && is_const(b, 0.0, false)))
                    return a;
                break;
            case BinaryKind::Div:
                if (fl && same(a) && is_const(b, 1.0, false)) return a;
                break;
            case BinaryKind::FloorDiv:
                if (stdlib::is_int(rt.dtype) && same(a) && is_const(b, 1.0, false)) return a;
                break;
            default: break;
        }
    } else if (const auto* uk = std::get_if<UnaryKind>(&kind); uk && in.size() == 1) {
        if (*uk == UnaryKind::Neg || *uk == UnaryKind::LogicalNot) {  // involutions
            if (const Node* p = producer(in[0]); p && p->operands.size() == 1 && same(p->operands[0]))
                return p->operands[0];
        }
    } else if (kind == stdlib::OpKind{stdlib::ElementwiseKind::AsType} && in.size() == 1) {
        if (same(in[0])) return in[0];
    }
    return std::nullopt;
}

}  // namespace

bool simplify_algebra(Graph& g) {
    Substitution sub(g);
    for (NodeId n : all_nodes(g)) {
        if (g.node(n).erased) continue;
        sub.visit(n);
        if (std::optional<ValueId> x = simplified(g, g.node(n))) sub.replace_node(n, {*x});
    }
    return sub.finish();
}

}  // namespace tg::tracer
