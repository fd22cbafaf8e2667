#include "tracer/generalize.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace tg::tracer {

namespace {

using Kind = ArgDesc::Kind;

struct Leaf {
    ArgDesc* desc;
    std::string path;  // "x", "xs[1]", "p['w']"
};

// The tensor leaves of an argument list, in order, with their paths.
void collect(ArgDesc& a, const std::string& path, std::vector<Leaf>& out) {
    if (a.kind == Kind::Tensor) out.push_back({&a, path});
    for (size_t i = 0; i < a.items.size(); ++i)
        collect(a.items[i], path + "[" + (a.kind == Kind::Dict ? a.keys[i] : std::to_string(i)) + "]", out);
}
std::vector<Leaf> leaves(Signature& s) {
    std::vector<Leaf> out;
    for (NamedArg& a : s.args) collect(a.desc, a.name, out);
    return out;
}

// `a` and `b` describe alike except for the sizes of their tensors.
bool same_but_sizes(const ArgDesc& a, const ArgDesc& b) {
    return same_structure(a, b, [](const ArgDesc& x, const ArgDesc& y) {
        return x.dtype == y.dtype && x.weak == y.weak && x.shape.rank() == y.shape.rank() && x.dim_symbols.empty() &&
               y.dim_symbols.empty();
    });
}
bool same_but_sizes(const Signature& a, const Signature& b) {
    if (a.args.size() != b.args.size()) return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (a.args[i].name != b.args[i].name || !same_but_sizes(a.args[i].desc, b.args[i].desc)) return false;
    return true;
}

}  // namespace

std::string DynamicPlan::describe() const {
    std::map<int, std::string> by_symbol;
    Signature s = signature;
    for (const Leaf& l : leaves(s))
        for (size_t axis = 0; axis < l.desc->dim_symbols.size(); ++axis)
            if (int k = l.desc->dim_symbols[axis]; k >= 0) {
                std::string& text = by_symbol[k];
                text += (text.empty() ? "`" : ", `") + l.path + "` axis " + std::to_string(axis);
            }
    std::string out;
    for (const auto& [k, text] : by_symbol) out += (out.empty() ? "" : "; ") + text + " as ?" + std::to_string(k);
    return out;
}

std::optional<DynamicPlan> plan_generalization(std::span<const Signature* const> cached, const Signature& call,
                                               DynamicShapes mode) {
    if (mode == DynamicShapes::Never) return std::nullopt;
    DynamicPlan plan{call, {}, {}};
    std::vector<Leaf> now = leaves(plan.signature);
    // The sizes each (leaf, axis) took: in the similar cached traces, then in this call.
    std::vector<Signature> similar;
    if (mode == DynamicShapes::Auto) {
        for (const Signature* s : cached)
            if (same_but_sizes(*s, call)) similar.push_back(*s);
        if (static_cast<int>(similar.size()) < kShapeTracesBeforeGeneralizing) return std::nullopt;
    }
    std::vector<std::vector<Leaf>> history;
    for (Signature& s : similar) history.push_back(leaves(s));
    // A dynamic dim's key: its sizes over the history and this call; equal keys share a symbol.
    std::map<std::vector<int64_t>, int> symbols;
    int64_t largest = 1;
    for (const Leaf& l : now)
        for (int64_t d : l.desc->shape) largest = std::max(largest, d);
    for (size_t i = 0; i < now.size(); ++i) {
        ArgDesc& d = *now[i].desc;
        for (int axis = 0; axis < d.shape.rank(); ++axis) {
            std::vector<int64_t> key;
            bool varied = mode == DynamicShapes::Always;
            for (const auto& h : history) {
                key.push_back(h[i].desc->shape[axis]);
                varied |= key.back() != d.shape[axis];
            }
            key.push_back(d.shape[axis]);
            if (!varied || d.shape[axis] < 2) continue;
            auto [it, fresh] = symbols.try_emplace(key, static_cast<int>(plan.sizes.size()));
            if (fresh) {
                plan.sizes.push_back(d.shape[axis]);
                // above every size of the call, so that no probe size equals another dim
                plan.probe.push_back(largest + 1 + static_cast<int64_t>(plan.probe.size()));
            }
            if (d.dim_symbols.empty()) d.dim_symbols.assign(static_cast<size_t>(d.shape.rank()), -1);
            d.dim_symbols[static_cast<size_t>(axis)] = static_cast<int16_t>(it->second);
        }
    }
    if (plan.sizes.empty()) return std::nullopt;
    return plan;
}

stdlib::Shape probe_shape(const ArgDesc& leaf, const DynamicPlan& plan) {
    stdlib::Shape s = leaf.shape;
    for (size_t axis = 0; axis < leaf.dim_symbols.size(); ++axis)
        if (int k = leaf.dim_symbols[axis]; k >= 0) s[static_cast<int>(axis)] = plan.probe[static_cast<size_t>(k)];
    return s;
}

// ---- comparing the two traces

namespace {

class Comparison {
public:
    Comparison(Graph& a, const Graph& b, const DynamicPlan& plan) : a_(a), b_(b), plan_(plan) {}

    std::string run() {
        if (a_.num_values() != b_.num_values() || a_.num_nodes() != b_.num_nodes() ||
            a_.num_regions() != b_.num_regions())
            return structure();
        marks_.assign(a_.num_values(), {});
        for (ValueId v = 0; v < a_.num_values(); ++v)
            if (std::string why = value(v); !why.empty()) return why;
        for (RegionId r = 0; r < a_.num_regions(); ++r) {
            const Region &ra = a_.region(r), &rb = b_.region(r);
            if (ra.args != rb.args || ra.nodes != rb.nodes || ra.owner != rb.owner) return structure();
        }
        for (NodeId n = 0; n < a_.num_nodes(); ++n)
            if (std::string why = node(n); !why.empty()) return why;
        std::vector<SymbolSource> sources(plan_.sizes.size(), SymbolSource{SIZE_MAX, 0});
        const std::vector<ValueId> inputs = a_.inputs();
        for (size_t i = inputs.size(); i-- > 0;)
            for (size_t axis = 0; axis < marks_[inputs[i]].size(); ++axis)
                if (int k = marks_[inputs[i]][axis]; k >= 0) sources[static_cast<size_t>(k)] = {i, static_cast<int>(axis)};
        for (const SymbolSource& s : sources)
            if (s.input == SIZE_MAX) return "a dynamic size is not the size of an input";
        apply(std::move(sources));
        return "";
    }

private:
    static std::string structure() { return "the graph's structure depends on the sizes"; }
    // " (at 12:5)": where a node comes from.
    static std::string at(const Node& n) {
        return " (at " + std::to_string(n.loc.loc.line) + ":" + std::to_string(n.loc.loc.col) + ")";
    }

    // The symbol whose sizes in the two traces are (da, db), or -1.
    int symbol(int64_t da, int64_t db) const {
        for (size_t k = 0; k < plan_.sizes.size(); ++k)
            if (plan_.sizes[k] == da && plan_.probe[k] == db) return static_cast<int>(k);
        return -1;
    }

    std::string value(ValueId v) {
        const ValueInfo &va = a_.value(v), &vb = b_.value(v);
        if (va.def != vb.def || va.region != vb.region || va.index != vb.index || va.type.token != vb.type.token)
            return structure();
        if (va.type.token) return "";
        const stdlib::TensorType &ta = va.type.tensor, &tb = vb.type.tensor;
        if (ta.dtype != tb.dtype || ta.weak != tb.weak || ta.shape.rank() != tb.shape.rank()) return structure();
        for (int axis = 0; axis < ta.shape.rank(); ++axis) {
            if (ta.shape[axis] == tb.shape[axis]) continue;
            const int k = symbol(ta.shape[axis], tb.shape[axis]);
            if (k < 0)
                return "a size in the graph follows the dynamic sizes without being one of them (a value " +
                       to_string(ta) + " is " + to_string(tb) + " at other sizes)";
            auto& m = marks_[v];
            if (m.empty()) m.assign(static_cast<size_t>(ta.shape.rank()), -1);
            m[static_cast<size_t>(axis)] = static_cast<int16_t>(k);
        }
        return "";
    }

    bool dynamic_axis(ValueId v, int axis) const {
        const auto& m = marks_[v];
        return static_cast<size_t>(axis) < m.size() && m[static_cast<size_t>(axis)] >= 0;
    }

    // A slice with a bound on a dynamic axis clamps to the size: its result
    // has the same size at both traces (x[:5]) but not at every size.
    std::string index_items(const Node& n) {
        const auto& spec = std::get<IndexSpec>(n.payload);
        const int rank = a_.tensor_type(n.operands[0]).shape.rank();
        int consumed = 0;
        for (const auto& it : spec.items) consumed += it.kind != stdlib::IndexItem::Ellipsis;
        int axis = 0;
        for (const auto& it : spec.items) {
            if (it.kind == stdlib::IndexItem::Ellipsis) {
                axis += rank - consumed;
                continue;
            }
            if (it.kind == stdlib::IndexItem::Slice && (it.lo || it.hi) && dynamic_axis(n.operands[0], axis))
                return "a slice bound on a dynamic dimension" + at(n);
            ++axis;
        }
        return "";
    }

    static bool same_tensor(const stdlib::Tensor& x, const stdlib::Tensor& y) {
        if (x.dtype() != y.dtype() || x.weak() != y.weak() || !(x.shape() == y.shape())) return false;
        const stdlib::Tensor cx = x.contiguous(), cy = y.contiguous();
        const size_t bytes = static_cast<size_t>(cx.numel()) * stdlib::dtype_size(cx.storage_dtype());
        return bytes == 0 || std::memcmp(cx.raw_data(), cy.raw_data(), bytes) == 0;
    }

    // A 0-d constant that is c times a symbol's size in both traces (a mean's count).
    bool size_constant(NodeId n, const stdlib::Tensor& x, const stdlib::Tensor& y) {
        if (x.shape().rank() != 0 || y.shape().rank() != 0 || x.dtype() != y.dtype() || x.weak() != y.weak())
            return false;
        if (x.dtype() == stdlib::DType::Bool) return false;
        const double vx = x.item_f64(), vy = y.item_f64();
        for (size_t k = 0; k < plan_.sizes.size(); ++k) {
            const double c = vx / static_cast<double>(plan_.sizes[k]);
            if (c < 1 || c != static_cast<double>(static_cast<int64_t>(c))) continue;
            if (c * static_cast<double>(plan_.probe[k]) != vy) continue;
            constants_.push_back({n, static_cast<int>(k), static_cast<int64_t>(c)});
            return true;
        }
        return false;
    }

    std::string node(NodeId id) {
        const Node &na = a_.node(id), &nb = b_.node(id);
        if (na.erased != nb.erased) return structure();
        if (na.erased) return "";
        if (na.op != nb.op || na.def != nb.def || na.operands != nb.operands || na.results != nb.results ||
            na.regions != nb.regions || na.parent != nb.parent || na.attrs.size() != nb.attrs.size())
            return structure();
        for (size_t i = 0; i < na.attrs.size(); ++i) {
            if (na.attrs[i] == nb.attrs[i]) continue;
            // an attribute that is the result's shape in both traces (reshape, broadcast_to)
            const auto* xa = std::get_if<std::vector<int64_t>>(&na.attrs[i]);
            const auto* xb = std::get_if<std::vector<int64_t>>(&nb.attrs[i]);
            auto is_shape_of = [](const std::vector<int64_t>* xs, const stdlib::TensorType& t) {
                return xs && std::equal(xs->begin(), xs->end(), t.shape.begin(), t.shape.end());
            };
            if (na.results.size() == 1 && is_shape_of(xa, a_.tensor_type(na.results[0])) &&
                is_shape_of(xb, b_.tensor_type(nb.results[0]))) {
                shape_attrs_.push_back({id, i});
                continue;
            }
            return "an argument of `" + std::string(na.def ? na.def->name : op_name(na.op)) + "`" + at(na) + " depends on the sizes";
        }
        if (na.payload.index() != nb.payload.index()) return structure();
        if (const auto* x = std::get_if<stdlib::Tensor>(&na.payload)) {
            const auto& y = std::get<stdlib::Tensor>(nb.payload);
            if (!same_tensor(*x, y) && !size_constant(id, *x, y))
                return "a constant" + at(na) + " depends on the sizes";
        } else if (const auto* s = std::get_if<IndexSpec>(&na.payload)) {
            const auto& t = std::get<IndexSpec>(nb.payload);
            if (s->dynamic != t.dynamic || s->items.size() != t.items.size()) return structure();
            for (size_t i = 0; i < s->items.size(); ++i) {
                const auto &p = s->items[i], &q = t.items[i];
                if (p.kind != q.kind || p.index != q.index || p.lo != q.lo || p.hi != q.hi || p.step != q.step)
                    return "an index" + at(na) + " depends on the sizes";
            }
            if (std::string why = index_items(na); !why.empty()) return why;
        } else if (const auto* t = std::get_if<Template>(&na.payload)) {
            if (*t != std::get<Template>(nb.payload)) return structure();
        } else if (const auto* h = std::get_if<HostFn>(&na.payload)) {
            if (h->id != std::get<HostFn>(nb.payload).id) return structure();
        }
        return "";
    }

    void apply(std::vector<SymbolSource> sources) {
        for (ValueId v = 0; v < a_.num_values(); ++v)
            for (size_t axis = 0; axis < marks_[v].size(); ++axis)
                if (marks_[v][axis] >= 0) a_.set_dim_symbol(v, static_cast<int>(axis), marks_[v][axis]);
        a_.set_symbol_sources(std::move(sources));
        for (const auto& c : constants_) a_.add_size_constant(c);
        for (const auto& s : shape_attrs_) a_.add_shape_attr(s);
    }

    Graph& a_;
    const Graph& b_;
    const DynamicPlan& plan_;
    std::vector<std::vector<int16_t>> marks_;
    std::vector<Graph::SizeConstant> constants_;
    std::vector<Graph::ShapeAttr> shape_attrs_;
};

}  // namespace

std::string mark_dynamic(Graph& a, const Graph& b, const DynamicPlan& plan) { return Comparison(a, b, plan).run(); }

}  // namespace tg::tracer
