#include "tracer/graph.hpp"

#include "stdlib/cast.hpp"
#include "stdlib/errors.hpp"

#include <algorithm>

namespace tg::tracer {

using stdlib::TensorType;

bool same_type(const TensorType& a, const TensorType& b) {
    return a.dtype == b.dtype && a.weak == b.weak && a.shape == b.shape;
}

bool operator==(const ValueType& a, const ValueType& b) {
    if (a.token || b.token) return a.token == b.token;
    return same_type(a.tensor, b.tensor);
}

TensorType type_of(const stdlib::Tensor& t) { return {t.dtype(), t.shape(), t.weak()}; }

std::string to_string(const TensorType& t, std::span<const int16_t> dim_symbols) {
    std::string s = t.weak ? "weak " : "";
    s += stdlib::dtype_name(t.dtype);
    s += '[';
    for (int i = 0; i < t.shape.rank(); ++i) {
        if (i) s += ',';
        const size_t a = static_cast<size_t>(i);
        s += a < dim_symbols.size() && dim_symbols[a] >= 0 ? "?" + std::to_string(dim_symbols[a])
                                                           : std::to_string(t.shape[i]);
    }
    s += ']';
    return s;
}

std::string to_string(const TensorType& t) { return to_string(t, {}); }

std::string Graph::type_string(ValueId v) const {
    const ValueInfo& info = values_[v];
    return info.type.token ? "token" : to_string(info.type.tensor, info.dim_symbols);
}

std::string to_string(const ValueType& t) { return t.token ? "token" : to_string(t.tensor); }

const char* op_name(Op op) {
    switch (op) {
        case Op::Apply: return "apply";
        case Op::Constant: return "const";
        case Op::Undef: return "undef";
        case Op::Truth: return "truth";
        case Op::Index: return "index";
        case Op::IndexAssign: return "index_assign";
        case Op::Cond: return "cond";
        case Op::While: return "while";
        case Op::Yield: return "yield";
        case Op::Print: return "print";
        case Op::Assert: return "assert";
        case Op::Raise: return "raise";
        case Op::HostCall: return "host_call";
    }
    return "?";
}

Graph::Graph(std::string name) : name_(std::move(name)) {
    regions_.push_back(Region{});
    insert_stack_.push_back(kBody);
}

ValueId Graph::new_value(const ValueType& t, NodeId def, RegionId region, uint32_t index) {
    values_.push_back(ValueInfo{t, def, region, index, {}, {}});
    return static_cast<ValueId>(values_.size() - 1);
}

void Graph::set_dim_symbol(ValueId v, int axis, int symbol) {
    auto& s = values_[v].dim_symbols;
    const int rank = values_[v].type.tensor.shape.rank();
    if (axis < 0 || axis >= rank) throw VerifyError("Graph::set_dim_symbol: axis out of range");
    if (s.empty()) s.assign(static_cast<size_t>(rank), -1);
    s[static_cast<size_t>(axis)] = static_cast<int16_t>(symbol);
}

void Graph::drop_dynamic_dims() {
    for (ValueInfo& v : values_) v.dim_symbols.clear();
    symbol_sources_.clear();
    size_constants_.clear();
    shape_attrs_.clear();
}

bool Graph::has_dynamic_dims(ValueId v) const {
    for (int16_t k : values_[v].dim_symbols)
        if (k >= 0) return true;
    return false;
}

std::vector<int64_t> Graph::symbol_sizes(std::span<const stdlib::Tensor> inputs) const {
    std::vector<int64_t> sizes;
    for (const SymbolSource& s : symbol_sources_) {
        if (s.input >= inputs.size() || s.axis >= inputs[s.input].shape().rank())
            throw VerifyError("Graph::symbol_sizes: a symbol's source input is missing");
        sizes.push_back(inputs[s.input].shape()[s.axis]);
    }
    return sizes;
}

stdlib::Shape Graph::shape_at(ValueId v, std::span<const int64_t> sizes) const {
    stdlib::Shape s = values_[v].type.tensor.shape;
    const auto& syms = values_[v].dim_symbols;
    for (size_t a = 0; a < syms.size(); ++a)
        if (syms[a] >= 0) s[static_cast<int>(a)] = sizes[static_cast<size_t>(syms[a])];
    return s;
}

int64_t Graph::SizeConstant::value(int64_t size) const {
    int64_t v = 0;
    if (__builtin_mul_overflow(factor, size, &v))
        throw stdlib::OpError("a size constant (" + std::to_string(factor) + " x a dimension of size " +
                              std::to_string(size) + ") does not fit in i64");
    return v;
}

stdlib::Tensor Graph::constant_at(NodeId n, std::span<const int64_t> sizes) const {
    const stdlib::Tensor& t = std::get<stdlib::Tensor>(nodes_[n].payload);
    for (const SizeConstant& c : size_constants_) {
        if (c.node != n) continue;
        // as the tracer made it from an int: weak float / weak int / strong of t's dtype
        const int64_t value = c.value(sizes[static_cast<size_t>(c.symbol)]);
        stdlib::Tensor v = stdlib::is_float(t.dtype()) ? stdlib::Tensor::weak_float(static_cast<double>(value))
                                                       : stdlib::Tensor::weak_int(value);
        return t.weak() ? v : stdlib::cast(v, t.dtype());
    }
    return t;
}

std::vector<stdlib::Attr> Graph::attrs_at(NodeId n, std::span<const int64_t> sizes) const {
    std::vector<stdlib::Attr> attrs = nodes_[n].attrs;
    for (const ShapeAttr& a : shape_attrs_) {
        if (a.node != n) continue;
        const stdlib::Shape s = shape_at(nodes_[n].results[0], sizes);
        attrs[a.attr] = std::vector<int64_t>(s.begin(), s.end());
    }
    return attrs;
}

RegionId Graph::new_region(NodeId owner, std::span<const ValueId> typed_like) {
    RegionId r = static_cast<RegionId>(regions_.size());
    regions_.push_back(Region{{}, {}, owner});
    for (ValueId v : typed_like) {
        ValueId a = new_value(values_[v].type, kNoId, r, static_cast<uint32_t>(regions_[r].args.size()));
        regions_[r].args.push_back(a);
    }
    return r;
}

ValueId Graph::add_input(const TensorType& t, std::string name) {
    ValueId v = new_value(ValueType::of(t), kNoId, kBody, static_cast<uint32_t>(regions_[kBody].args.size()));
    values_[v].name = std::move(name);
    regions_[kBody].args.push_back(v);
    return v;
}

ValueId Graph::add_input_token() {
    ValueId v = new_value(ValueType::token_type(), kNoId, kBody,
                          static_cast<uint32_t>(regions_[kBody].args.size()));
    regions_[kBody].args.push_back(v);
    return v;
}

std::vector<ValueId> Graph::inputs() const {
    std::vector<ValueId> out;
    for (ValueId a : regions_[kBody].args)
        if (!values_[a].type.token) out.push_back(a);
    return out;
}

void Graph::rollback(const Checkpoint& cp) {
    nodes_.resize(cp.nodes);
    values_.resize(cp.values);
    regions_.resize(cp.regions);
    insert_stack_.resize(cp.stack);
    for (Region& r : regions_)
        std::erase_if(r.nodes, [&](NodeId n) { return n >= cp.nodes; });
}

void Graph::exit() {
    if (insert_stack_.size() <= 1) throw VerifyError("Graph::exit: no region to leave");
    insert_stack_.pop_back();
}

NodeId Graph::create(Op op, const stdlib::OpDef* def, std::vector<ValueId> operands,
                     std::span<const ValueType> result_types, std::vector<stdlib::Attr> attrs,
                     Payload payload, SrcLoc loc) {
    NodeId n = static_cast<NodeId>(nodes_.size());
    Node node;
    node.op = op;
    node.def = def;
    node.operands = std::move(operands);
    node.attrs = std::move(attrs);
    node.payload = std::move(payload);
    node.loc = std::move(loc);
    nodes_.push_back(std::move(node));
    for (uint32_t i = 0; i < result_types.size(); ++i)
        nodes_[n].results.push_back(new_value(result_types[i], n, kNoId, i));
    return n;
}

void Graph::insert(RegionId r, size_t pos, NodeId n) {
    auto& list = regions_[r].nodes;
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(std::min(pos, list.size())), n);
    nodes_[n].parent = r;
    nodes_[n].erased = false;
}

void Graph::erase(NodeId n) {
    Node& node = nodes_[n];
    if (node.parent != kNoId) {
        auto& list = regions_[node.parent].nodes;
        list.erase(std::find(list.begin(), list.end(), n));
    }
    node.parent = kNoId;
    node.erased = true;
}

void Graph::remove_result(NodeId n, size_t i) {
    auto& res = nodes_[n].results;
    res.erase(res.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t k = i; k < res.size(); ++k) values_[res[k]].index = static_cast<uint32_t>(k);
}

ValueId Graph::add_result(NodeId n, const ValueType& t) {
    const ValueId v = new_value(t, n, kNoId, static_cast<uint32_t>(nodes_[n].results.size()));
    nodes_[n].results.push_back(v);
    return v;
}

ValueId Graph::add_arg(RegionId r, const ValueType& t) {
    const ValueId v = new_value(t, kNoId, r, static_cast<uint32_t>(regions_[r].args.size()));
    regions_[r].args.push_back(v);
    return v;
}

void Graph::walk(RegionId r, const std::function<void(NodeId)>& f) const {
    for (NodeId n : regions_[r].nodes) {
        f(n);
        for (RegionId sub : nodes_[n].regions) walk(sub, f);
    }
}

void Graph::replace_all_uses(ValueId from, ValueId to) {
    walk(kBody, [&](NodeId n) {
        for (ValueId& v : nodes_[n].operands)
            if (v == from) v = to;
    });
}

std::vector<uint32_t> Graph::use_counts() const {
    std::vector<uint32_t> uses(values_.size(), 0);
    walk(kBody, [&](NodeId n) {
        for (ValueId v : nodes_[n].operands) ++uses[v];
    });
    return uses;
}

size_t Graph::live_node_count() const {
    size_t count = 0;
    walk(kBody, [&](NodeId) { ++count; });
    return count;
}

// ---------------------------------------------------------------- builder

std::vector<ValueId> Graph::apply(const stdlib::OpDef& def, std::span<const ValueId> inputs,
                                  std::vector<stdlib::Attr> attrs, SrcLoc loc, ValueId token) {
    // Parameters not given take their default, as when eager binds a call.
    stdlib::complete_attrs(def, attrs);
    std::vector<TensorType> in_types;
    in_types.reserve(inputs.size());
    for (ValueId v : inputs) in_types.push_back(values_[v].type.tensor);
    TensorType result = def.infer(stdlib::TypeArgs{in_types, attrs});

    std::vector<ValueId> operands;
    std::vector<ValueType> types{ValueType::of(result)};
    bool random = def.has_effect();
    if (random) {
        if (token == kNoId) throw VerifyError(std::string("random op ") + std::string(def.name) + " needs a token");
        operands.push_back(token);
        types.push_back(ValueType::token_type());
    }
    operands.insert(operands.end(), inputs.begin(), inputs.end());
    NodeId n = create(Op::Apply, &def, std::move(operands), types, std::move(attrs), {}, std::move(loc));
    append(n);
    return nodes_[n].results;
}

ValueId Graph::apply1(const stdlib::OpDef& def, std::span<const ValueId> inputs, std::vector<stdlib::Attr> attrs,
                      SrcLoc loc) {
    return apply(def, inputs, std::move(attrs), std::move(loc))[0];
}

ValueId Graph::apply1(std::string_view op, std::initializer_list<ValueId> inputs, SrcLoc loc,
                      std::vector<stdlib::Attr> attrs) {
    const stdlib::OpDef* def = stdlib::find_op(op);
    if (!def) throw VerifyError("unknown op " + std::string(op));
    return apply1(*def, std::span<const ValueId>(inputs.begin(), inputs.size()), std::move(attrs), std::move(loc));
}

ValueId Graph::constant(stdlib::Tensor value, SrcLoc loc) {
    ValueType t = ValueType::of(type_of(value));
    NodeId n = create(Op::Constant, nullptr, {}, {&t, 1}, {}, std::move(value), std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

ValueId Graph::undef(const ValueType& t, SrcLoc loc) {
    NodeId n = create(Op::Undef, nullptr, {}, {&t, 1}, {}, {}, std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

ValueId Graph::truth(ValueId x, SrcLoc loc) {
    int64_t numel = values_[x].type.tensor.shape.numel();
    if (values_[x].type.token || numel != 1)
        throw stdlib::OpError("the truth value of a tensor with " + std::to_string(numel) +
                              " elements is ambiguous; use any() or all()");
    ValueType t = ValueType::of({stdlib::DType::Bool, {}, false});
    NodeId n = create(Op::Truth, nullptr, {x}, {&t, 1}, {}, {}, std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

ValueId Graph::index(ValueId x, IndexSpec spec, std::span<const ValueId> dynamic, SrcLoc loc) {
    spec.dynamic.resize(spec.items.size(), false);
    ValueType t = ValueType::of({values_[x].type.tensor.dtype, stdlib::index_shape(values_[x].type.tensor.shape, spec.items),
                                 false});
    std::vector<ValueId> operands{x};
    operands.insert(operands.end(), dynamic.begin(), dynamic.end());
    NodeId n = create(Op::Index, nullptr, std::move(operands), {&t, 1}, {}, std::move(spec), std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

ValueId Graph::index_assign(ValueId x, ValueId v, IndexSpec spec, std::span<const ValueId> dynamic, SrcLoc loc) {
    spec.dynamic.resize(spec.items.size(), false);
    ValueType t = ValueType::of(values_[x].type.tensor);
    t.tensor.weak = false;
    std::vector<ValueId> operands{x, v};
    operands.insert(operands.end(), dynamic.begin(), dynamic.end());
    NodeId n = create(Op::IndexAssign, nullptr, std::move(operands), {&t, 1}, {}, std::move(spec), std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

static std::vector<ValueId> with_token(ValueId token, std::span<const ValueId> rest) {
    std::vector<ValueId> operands{token};
    operands.insert(operands.end(), rest.begin(), rest.end());
    return operands;
}

// Template pieces refer to node operands; callers number `values` from 0, so
// shift them past the leading operands (token, cond).
static Template shift_pieces(Template t, uint32_t by) {
    for (TextPiece& p : t)
        if (p.kind != TextPiece::Text) p.operand += by;
    return t;
}

ValueId Graph::print(ValueId token, Template text, std::span<const ValueId> values, SrcLoc loc) {
    ValueType t = ValueType::token_type();
    NodeId n = create(Op::Print, nullptr, with_token(token, values), {&t, 1}, {}, shift_pieces(std::move(text), 1),
                      std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

ValueId Graph::assert_(ValueId token, ValueId cond, Template message, std::span<const ValueId> values, SrcLoc loc) {
    ValueType t = ValueType::token_type();
    std::vector<ValueId> operands{token, cond};
    operands.insert(operands.end(), values.begin(), values.end());
    NodeId n = create(Op::Assert, nullptr, std::move(operands), {&t, 1}, {}, shift_pieces(std::move(message), 2),
                      std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

ValueId Graph::raise(ValueId token, Template message, std::span<const ValueId> values, SrcLoc loc) {
    ValueType t = ValueType::token_type();
    NodeId n = create(Op::Raise, nullptr, with_token(token, values), {&t, 1}, {},
                      shift_pieces(std::move(message), 1), std::move(loc));
    append(n);
    return nodes_[n].results[0];
}

std::vector<ValueId> Graph::host_call(ValueId token, HostFn fn, std::span<const ValueId> args,
                                      std::span<const TensorType> results, SrcLoc loc) {
    std::vector<ValueType> types;
    for (const TensorType& r : results) types.push_back(ValueType::of(r));
    types.push_back(ValueType::token_type());
    NodeId n = create(Op::HostCall, nullptr, with_token(token, args), types, {}, std::move(fn), std::move(loc));
    append(n);
    return nodes_[n].results;
}

NodeId Graph::add_cond(ValueId pred, std::span<const ValueId> ins, SrcLoc loc) {
    NodeId n = create(Op::Cond, nullptr, with_token(pred, ins), {}, {}, {}, std::move(loc));
    RegionId then_r = new_region(n, ins);
    RegionId else_r = new_region(n, ins);
    nodes_[n].regions = {then_r, else_r};
    append(n);
    return n;
}

NodeId Graph::add_while(std::span<const ValueId> inits, SrcLoc loc) {
    NodeId n = create(Op::While, nullptr, {inits.begin(), inits.end()}, {}, {}, {}, std::move(loc));
    RegionId cond_r = new_region(n, inits);
    RegionId body_r = new_region(n, inits);
    nodes_[n].regions = {cond_r, body_r};
    append(n);
    return n;
}

void Graph::yield(std::span<const ValueId> values) {
    NodeId n = create(Op::Yield, nullptr, {values.begin(), values.end()}, {}, {}, {}, {});
    append(n);
}

std::vector<ValueId> Graph::finish(NodeId control) {
    Node& node = nodes_[control];
    if (!node.results.empty()) return node.results;
    std::vector<ValueType> types;
    if (node.op == Op::Cond) {
        const Region& then_r = regions_[node.regions[0]];
        if (then_r.nodes.empty() || nodes_[then_r.nodes.back()].op != Op::Yield)
            throw VerifyError("Graph::finish: the then-region of a cond has no yield");
        for (ValueId v : nodes_[then_r.nodes.back()].operands) types.push_back(values_[v].type);
    } else if (node.op == Op::While) {
        for (ValueId v : node.operands) types.push_back(values_[v].type);
    } else {
        throw VerifyError("Graph::finish: not a cond or while node");
    }
    for (uint32_t i = 0; i < types.size(); ++i) {
        ValueId v = new_value(types[i], control, kNoId, i);
        nodes_[control].results.push_back(v);
    }
    return nodes_[control].results;
}

// ---------------------------------------------------------------- effects

bool has_side_effect(const Graph& g, NodeId n) {
    const Node& node = g.node(n);
    switch (node.op) {
        case Op::Print: case Op::Assert: case Op::Raise: case Op::HostCall: return true;
        case Op::Apply: return node.def->has_effect();
        case Op::Cond: case Op::While:
            for (ValueId v : node.operands)
                if (g.type(v).token) return true;
            return false;
        case Op::Constant: case Op::Undef: case Op::Truth: case Op::Index: case Op::IndexAssign: case Op::Yield:
            return false;
    }
    return false;
}

static bool is_integer_result(const Graph& g, const Node& node) {
    return !node.results.empty() && !g.type(node.results[0]).token &&
           !stdlib::is_float(g.tensor_type(node.results[0]).dtype);
}

bool may_raise(const Graph& g, NodeId n) {
    const Node& node = g.node(n);
    switch (node.op) {
        case Op::Apply: {
            switch (node.def->raises) {  // the op table's fact
                case stdlib::Raises::OnIntegers:  // integer division by zero, ... (stdlib::int_check)
                    if (is_integer_result(g, node)) return true;
                    break;
                case stdlib::Raises::OnData: return true;  // class indices out of range
                case stdlib::Raises::Never: break;
            }
            // A reduction without identity over an empty axis.
            if (node.def->flags & stdlib::kReduction)
                for (ValueId v : node.operands)
                    if (!g.type(v).token && g.tensor_type(v).shape.numel() == 0) return true;
            return false;
        }
        case Op::Index: case Op::IndexAssign: {
            const auto& spec = std::get<IndexSpec>(node.payload);
            return std::find(spec.dynamic.begin(), spec.dynamic.end(), true) != spec.dynamic.end();
        }
        case Op::Assert: case Op::Raise: case Op::HostCall: return true;
        case Op::While: return true;  // may not terminate: never dropped
        case Op::Cond:
            for (RegionId r : node.regions)
                for (NodeId m : g.region(r).nodes)
                    if (may_raise(g, m) || has_side_effect(g, m)) return true;
            return false;
        case Op::Constant: case Op::Undef: case Op::Truth: case Op::Yield: case Op::Print: return false;
    }
    return false;
}

bool is_pure(const Graph& g, NodeId n) {
    Op op = g.node(n).op;
    if (op == Op::Yield) return false;
    return !has_side_effect(g, n) && !may_raise(g, n);
}

}  // namespace tg::tracer
