#include "tracer/passes/rewrite.hpp"

#include <algorithm>
#include <cmath>

namespace tg::tracer::passes {

using stdlib::DType;
using stdlib::Tensor;

const Tensor* constant_of(const Graph& g, ValueId v) {
    NodeId d = g.value(v).def;
    // a size constant (tracer/generalize.hpp) is not known before the graph runs
    if (d == kNoId || g.node(d).op != Op::Constant || g.is_size_constant(d)) return nullptr;
    return std::get_if<Tensor>(&g.node(d).payload);
}

size_t position(const Graph& g, NodeId n) {
    const auto& list = g.region(g.node(n).parent).nodes;
    return static_cast<size_t>(std::find(list.begin(), list.end(), n) - list.begin());
}

ValueId Substitution::resolve(ValueId v) const {
    for (auto it = map_.find(v); it != map_.end(); it = map_.find(v)) v = it->second;
    return v;
}

void Substitution::visit(NodeId n) {
    if (map_.empty()) return;
    for (ValueId& v : g_.node(n).operands) v = resolve(v);
}

void Substitution::replace_node(NodeId n, const std::vector<ValueId>& values) {
    const std::vector<ValueId>& results = g_.node(n).results;
    for (size_t i = 0; i < results.size(); ++i) map_[results[i]] = resolve(values[i]);
    g_.node(n).erased = true;  // still in its region's list until finish()
    dropped_.push_back(n);
}

void Substitution::replace_with_constant(NodeId n, Tensor value) {
    ValueType t = ValueType::of(type_of(value));
    NodeId c = g_.create(Op::Constant, nullptr, {}, {&t, 1}, {}, std::move(value), g_.node(n).loc);
    g_.insert(g_.node(n).parent, position(g_, n), c);
    replace_node(n, {g_.node(c).results[0]});
}

bool Substitution::finish() {
    const bool changed = changed_;
    changed_ = false;
    if (map_.empty() && dropped_.empty()) return changed;
    std::vector<RegionId> touched;
    for (NodeId n : dropped_) touched.push_back(g_.node(n).parent);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (RegionId r : touched) std::erase_if(g_.region(r).nodes, [&](NodeId n) { return g_.node(n).erased; });
    for (NodeId n : dropped_) g_.mark_erased(n);
    g_.walk(Graph::kBody, [&](NodeId n) { visit(n); });
    map_.clear();
    dropped_.clear();
    return true;
}

std::vector<NodeId> all_nodes(const Graph& g) {
    std::vector<NodeId> out;
    g.walk(Graph::kBody, [&](NodeId n) { out.push_back(n); });
    return out;
}

static double element(const Tensor& c, int64_t i) {
    switch (c.dtype()) {
        case DType::Bool: return c.data<bool>()[i] ? 1.0 : 0.0;
        case DType::I32: return c.data<int32_t>()[i];
        case DType::I64: return static_cast<double>(c.data<int64_t>()[i]);
        case DType::F32: return c.data<float>()[i];
        case DType::F64: return c.data<double>()[i];
    }
    return 0;
}

bool all_equal(const Tensor& t, double v, bool check_sign) {
    auto ok = [&](double x) { return x == v && (!check_sign || std::signbit(x) == std::signbit(v)); };
    if (t.rank() == 0) return ok(stdlib::is_float(t.dtype()) ? t.item_f64() : static_cast<double>(t.item_i64()));
    Tensor c = t.contiguous();
    for (int64_t i = 0, n = c.numel(); i < n; ++i)
        if (!ok(element(c, i))) return false;
    return true;
}

}  // namespace tg::tracer::passes
