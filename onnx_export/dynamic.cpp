#include "onnx_export/dynamic.hpp"

#include <algorithm>

namespace tg::onnx_export {

using stdlib::DType;
using tracer::Graph;
using tracer::Op;
using tracer::ValueId;

namespace {

bool dynamic_value(const Graph& g, ValueId v) { return !g.type(v).token && g.has_dynamic_dims(v); }

// The axes a reduction's axis attribute (operand 0 of rank `rank`) names; all for None.
std::vector<int64_t> reduced_axes(const tracer::Node& n, size_t attr, int rank) {
    std::vector<int64_t> out;
    const stdlib::Attr& a = n.attrs.at(attr);
    if (std::holds_alternative<std::monostate>(a))
        for (int64_t d = 0; d < rank; ++d) out.push_back(d);
    if (const auto* v = std::get_if<int64_t>(&a)) out.push_back(*v);
    if (const auto* vs = std::get_if<std::vector<int64_t>>(&a)) out = *vs;
    for (int64_t& d : out)
        if (d < 0) d += rank;
    return out;
}

// Mappings that read no operand's static size: their operands may be dynamic
// (the result's shape, where they need it, is computed at run time).
struct Allowed {
    const Graph& g;
    const tracer::Node& n;
    bool operator()(stdlib::UnaryKind) const { return true; }
    bool operator()(stdlib::BinaryKind) const { return true; }
    bool operator()(stdlib::ElementwiseKind) const { return true; }
    bool operator()(stdlib::ReduceKind k) const {
        using K = stdlib::ReduceKind;
        const ValueId x = n.operands.at(0);
        const int rank = g.tensor_type(x).shape.rank();
        switch (k) {
            case K::Median: return false;
            case K::Argmax: case K::Argmin: return !std::holds_alternative<std::monostate>(n.attrs.at(1));
            case K::Var: case K::Std:  // the count is static: no reduced axis may be dynamic
                for (int64_t a : reduced_axes(n, 1, rank))
                    if (g.dim_symbol(x, static_cast<int>(a)) >= 0) return false;
                return true;
            default: return true;
        }
    }
    bool operator()(stdlib::OtherKind k) const {
        using K = stdlib::OtherKind;
        switch (k) {
            case K::Matmul: case K::Dot: case K::Transpose: case K::Reshape: case K::ExpandDims: case K::Squeeze:
            case K::Flatten: case K::BroadcastTo: case K::Concat: case K::Stack: case K::Softmax:
            case K::LogSoftmax: case K::CrossEntropy: case K::Mse: case K::ZerosLike: case K::OnesLike:
                return true;
            default: return false;
        }
    }
    bool operator()(std::monostate) const { return false; }
};

bool node_dynamic(const Graph& g, const tracer::Node& n) {
    for (ValueId v : n.operands)
        if (dynamic_value(g, v)) return true;
    for (ValueId v : n.results)
        if (dynamic_value(g, v)) return true;
    return n.op == Op::Constant && g.is_size_constant(static_cast<tracer::NodeId>(g.value(n.results.at(0)).def));
}

}  // namespace

bool touches_dynamic(const Graph& g, const tracer::Node& n) {
    if (node_dynamic(g, n)) return true;
    for (tracer::RegionId r : n.regions) {
        for (ValueId a : g.region(r).args)
            if (dynamic_value(g, a)) return true;
        for (tracer::NodeId m : g.region(r).nodes)
            if (touches_dynamic(g, g.node(m))) return true;
    }
    return false;
}

std::string dynamic_refusal(const Graph& g, const tracer::Node& n) {
    if (!touches_dynamic(g, n)) return "";
    const std::string tail = " with a dynamic dimension has no ONNX mapping yet (export it with static specs)";
    switch (n.op) {
        case Op::Apply:
            if (std::visit(Allowed{g, n}, n.def->kind)) return "";
            return "`" + std::string(n.def->name) + "`" + tail;
        case Op::Constant: case Op::Truth: case Op::Yield: case Op::Print: case Op::Assert: case Op::Raise:
        case Op::HostCall:
            return "";
        case Op::Undef: return "an undefined value" + tail;
        case Op::Index: case Op::IndexAssign: return "indexing" + tail;
        case Op::Cond: return "a dynamic `if`" + tail;
        case Op::While: return "a dynamic loop" + tail;
    }
    return "";
}

std::vector<std::string> symbol_sizes(Emitter& e, const Graph& g, const std::vector<std::string>& inputs) {
    std::vector<std::string> out;
    for (const tracer::SymbolSource& s : g.symbol_sources())
        out.push_back(e.op("Shape", {inputs.at(s.input)})
                          .attr("start", int64_t{s.axis})
                          .attr("end", int64_t{s.axis + 1})
                          .out);
    return out;
}

std::string runtime_shape(Emitter& e, const Graph& g, ValueId v, const std::vector<std::string>& sizes) {
    if (!g.has_dynamic_dims(v)) return "";
    const stdlib::Shape& s = g.tensor_type(v).shape;
    std::vector<std::string> parts;
    for (int a = 0; a < s.rank(); ++a) {
        const int k = g.dim_symbol(v, a);
        parts.push_back(k >= 0 ? sizes.at(static_cast<size_t>(k)) : e.const_i64({s[a]}));
    }
    return e.op("Concat", parts).attr("axis", int64_t{0}).out;
}

std::string size_constant(Emitter& e, const Graph::SizeConstant& c, const std::vector<std::string>& sizes, DType d) {
    std::string n = sizes.at(static_cast<size_t>(c.symbol));
    if (c.factor != 1) n = e.op("Mul", {n, e.const_i64({c.factor})}).out;
    return e.cast(e.reshape(n, stdlib::Shape{}), DType::I64, d);
}

}  // namespace tg::onnx_export
