// Algebraic simplification. Every rule replaces a node by one of its operands
// and only fires when that is exactly what the node computes, bit for bit:
//   x + 0 is not x for floats (-0.0 + 0.0 is +0.0), so floats need x + (-0.0);
//   x * 0 is not 0 (NaN, inf, -0.0), so there is no such rule;
//   the result type must equal x's type (no broadcasting, no promotion).
// One rule rewrites an operand instead: an element-wise binary op broadcasts
// its operands itself, so an operand made by `broadcast_to`, or a constant
// repeating one value (a folded broadcast: what a gradient's seed becomes
// through `mean`, `sum`, `broadcast_to`), is replaced by what was broadcast
// when that gives the same result type (so the same values, bit for bit):
// the compiled loop reads a scalar instead of a materialized array.
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
            // no identity to remove
            case BinaryKind::Mod: case BinaryKind::Pow: case BinaryKind::Maximum: case BinaryKind::Minimum:
            case BinaryKind::Eq: case BinaryKind::Ne: case BinaryKind::Lt: case BinaryKind::Le: case BinaryKind::Gt:
            case BinaryKind::Ge: case BinaryKind::BitAnd: case BinaryKind::BitOr: case BinaryKind::BitXor:
            case BinaryKind::LeftShift: case BinaryKind::RightShift:
            case BinaryKind::Atan2: break;
            case BinaryKind::Logaddexp: break;
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

// What operand k of binary element-wise node n broadcasts, if n could read
// it instead: the input of a `broadcast_to`, or a 0-d copy of a splat
// constant. Only when the other operand already has the result's type and
// all three dtypes agree, so neither the shape nor the dtype of the result
// can change.
std::optional<ValueId> unbroadcast_operand(Graph& g, NodeId n, size_t k) {
    const Node& node = g.node(n);
    const stdlib::TensorType& rt = g.tensor_type(node.results[0]);
    const stdlib::TensorType& other = g.tensor_type(node.operands[1 - k]);
    const ValueId v = node.operands[k];
    const stdlib::TensorType& vt = g.tensor_type(v);
    if (!same_type(other, rt) || vt.dtype != rt.dtype || vt.weak || rt.weak || vt.shape.rank() == 0) return std::nullopt;
    const NodeId d = g.value(v).def;
    if (d == kNoId) return std::nullopt;
    const Node& def = g.node(d);
    if (def.op == Op::Apply && def.def->kind == stdlib::OpKind{stdlib::OtherKind::BroadcastTo}) {
        const stdlib::TensorType& it = g.tensor_type(def.operands[0]);
        if (it.dtype == rt.dtype && !it.weak) return def.operands[0];
        return std::nullopt;
    }
    const Tensor* c = constant_of(g, v);
    if (!c || c->numel() == 0) return std::nullopt;
    const Tensor first = stdlib::index(*c, std::vector<stdlib::IndexItem>(static_cast<size_t>(c->rank())));
    const double x = stdlib::is_float(first.dtype()) ? first.item_f64() : static_cast<double>(first.item_i64());
    if (x != x || !all_equal(*c, x, true)) return std::nullopt;  // NaN never compares equal
    ValueType t = ValueType::of(type_of(first));
    NodeId s = g.create(Op::Constant, nullptr, {}, {&t, 1}, {}, first.contiguous(), def.loc);
    g.insert(g.node(n).parent, position(g, n), s);
    return g.node(s).results[0];
}

bool unbroadcast_operands(Graph& g, NodeId n) {
    const Node& node = g.node(n);
    if (node.op != Op::Apply || node.results.size() != 1 || node.operands.size() != 2 ||
        !std::holds_alternative<stdlib::BinaryKind>(node.def->kind))
        return false;
    bool changed = false;
    for (size_t k = 0; k < 2; ++k)
        if (std::optional<ValueId> x = unbroadcast_operand(g, n, k)) {
            g.node(n).operands[k] = *x;
            changed = true;
        }
    return changed;
}

}  // namespace

bool simplify_algebra(Graph& g) {
    Substitution sub(g);
    for (NodeId n : all_nodes(g)) {
        if (g.node(n).erased) continue;
        sub.visit(n);
        const bool narrowed = unbroadcast_operands(g, n);
        if (std::optional<ValueId> x = simplified(g, g.node(n))) sub.replace_node(n, {*x});
        else if (narrowed) sub.mark_changed();
    }
    return sub.finish();
}

}  // namespace tg::tracer
