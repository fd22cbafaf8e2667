#include "tracer/verifier.hpp"


namespace tg::tracer {

namespace {

using stdlib::TensorType;

std::string node_label(const Graph& g, NodeId n) {
    const Node& node = g.node(n);
    return node.op == Op::Apply && node.def ? std::string(node.def->name) : std::string(op_name(node.op));
}

class Verifier {
public:
    explicit Verifier(const Graph& g)
        : g_(g), visible_(g.num_values(), 0), defined_(g.num_values(), 0), uses_(g.num_values(), 0), placed_(g.num_nodes(), 0) {}

    void run() {
        if (g_.region(Graph::kBody).owner != kNoId) fail_graph("region 0 must not have an owner");
        region(Graph::kBody);
        // Token threading: every token is consumed exactly once.
        for (ValueId v = 0; v < g_.num_values(); ++v) {
            if (!g_.type(v).token || !defined_[v]) continue;
            if (uses_[v] != 1) {
                const ValueInfo& info = g_.value(v);
                std::string what = info.def != kNoId ? "result of " + describe_node(g_, info.def)
                                                     : "argument " + std::to_string(info.index) + " of region " +
                                                           std::to_string(info.region);
                fail_graph("token (" + what + ") is used " + std::to_string(uses_[v]) +
                           " times; a token must be used exactly once");
            }
        }
    }

private:
    [[noreturn]] void fail(NodeId n, const std::string& why) {
        throw VerifyError("verifier: " + describe_node(g_, n) + ": " + why);
    }
    [[noreturn]] void fail_graph(const std::string& why) { throw VerifyError("verifier: " + why); }

    void define(ValueId v) {
        if (defined_[v]) fail_graph("value %" + std::to_string(v) + " is defined twice");
        defined_[v] = 1;
        visible_[v] = 1;
    }

    void region(RegionId r) {
        const Region& reg = g_.region(r);
        for (uint32_t i = 0; i < reg.args.size(); ++i) {
            const ValueInfo& info = g_.value(reg.args[i]);
            if (info.def != kNoId || info.region != r || info.index != i)
                fail_graph("argument " + std::to_string(i) + " of region " + std::to_string(r) + " is not recorded as such");
            define(reg.args[i]);
        }
        if (reg.nodes.empty() || g_.node(reg.nodes.back()).op != Op::Yield)
            fail_graph("region " + std::to_string(r) + " does not end with a yield" +
                       (reg.owner != kNoId ? " (in " + describe_node(g_, reg.owner) + ")" : ""));
        for (size_t i = 0; i < reg.nodes.size(); ++i) {
            NodeId n = reg.nodes[i];
            const Node& node = g_.node(n);
            if (n >= g_.num_nodes()) fail_graph("region " + std::to_string(r) + " lists an unknown node");
            if (node.erased) fail(n, "erased node still listed in region " + std::to_string(r));
            if (placed_[n]++) fail(n, "node listed twice");
            if (node.parent != r) fail(n, "node's parent is not the region listing it");
            if (node.op == Op::Yield && i + 1 != reg.nodes.size()) fail(n, "yield before the end of its region");
            for (size_t k = 0; k < node.operands.size(); ++k) operand(n, k, r);
            check_op(n);
            for (RegionId sub : node.regions) {
                if (g_.region(sub).owner != n) fail(n, "nested region " + std::to_string(sub) + " has another owner");
                region(sub);
            }
            for (uint32_t k = 0; k < node.results.size(); ++k) {
                const ValueInfo& info = g_.value(node.results[k]);
                if (info.def != n || info.index != k) fail(n, "result " + std::to_string(k) + " is not recorded as such");
                define(node.results[k]);
            }
        }
        // Leaving the region: its values go out of scope.
        for (ValueId a : reg.args) visible_[a] = 0;
        for (NodeId n : reg.nodes)
            for (ValueId v : g_.node(n).results) visible_[v] = 0;
    }

    RegionId region_of(ValueId v) const {
        const ValueInfo& info = g_.value(v);
        return info.def == kNoId ? info.region : g_.node(info.def).parent;
    }

    void operand(NodeId n, size_t k, RegionId r) {
        ValueId v = g_.node(n).operands[k];
        if (v >= g_.num_values()) fail(n, "operand " + std::to_string(k) + " is not a value");
        if (!visible_[v]) fail(n, "operand " + std::to_string(k) + " (%" + std::to_string(v) + ") does not dominate its use");
        if (g_.type(v).token) {
            if (region_of(v) != r)
                fail(n, "operand " + std::to_string(k) + " is a token captured from an enclosing region; "
                        "tokens must be passed as region arguments");
            ++uses_[v];
        }
    }

    const TensorType& tensor_operand(NodeId n, size_t k) {
        const Node& node = g_.node(n);
        if (k >= node.operands.size()) fail(n, "missing operand " + std::to_string(k));
        if (g_.type(node.operands[k]).token) fail(n, "operand " + std::to_string(k) + " is a token, expected a tensor");
        return g_.tensor_type(node.operands[k]);
    }
    void token_operand(NodeId n, size_t k) {
        const Node& node = g_.node(n);
        if (k >= node.operands.size() || !g_.type(node.operands[k]).token)
            fail(n, "operand " + std::to_string(k) + " must be a token");
    }
    void results(NodeId n, const std::vector<ValueType>& want) {
        const Node& node = g_.node(n);
        if (node.results.size() != want.size())
            fail(n, "has " + std::to_string(node.results.size()) + " results, expected " + std::to_string(want.size()));
        for (size_t k = 0; k < want.size(); ++k)
            if (!(g_.type(node.results[k]) == want[k]))
                fail(n, "result " + std::to_string(k) + " has type " + to_string(g_.type(node.results[k])) +
                            ", expected " + to_string(want[k]));
    }
    void no_regions(NodeId n) {
        if (!g_.node(n).regions.empty()) fail(n, "only cond and while own regions");
    }
    static bool is_bool_scalar(const ValueType& t) {
        return !t.token && t.tensor.dtype == stdlib::DType::Bool && t.tensor.shape.rank() == 0;
    }

    std::vector<ValueType> yield_types(RegionId r) {
        const Region& reg = g_.region(r);
        if (reg.nodes.empty() || g_.node(reg.nodes.back()).op != Op::Yield)
            fail(reg.owner, "region " + std::to_string(r) + " does not end with a yield");
        std::vector<ValueType> out;
        for (ValueId v : g_.node(g_.region(r).nodes.back()).operands) out.push_back(g_.type(v));
        return out;
    }
    void args_like(NodeId n, RegionId r, std::span<const ValueId> like, const char* what) {
        const Region& reg = g_.region(r);
        if (reg.args.size() != like.size())
            fail(n, std::string(what) + " region has " + std::to_string(reg.args.size()) + " arguments, expected " +
                        std::to_string(like.size()));
        for (size_t i = 0; i < like.size(); ++i)
            if (!(g_.type(reg.args[i]) == g_.type(like[i])))
                fail(n, std::string(what) + " region argument " + std::to_string(i) + " has type " +
                            to_string(g_.type(reg.args[i])) + ", expected " + to_string(g_.type(like[i])));
    }
    void yields_like(NodeId n, const std::vector<ValueType>& got, const std::vector<ValueType>& want, const char* what) {
        if (got.size() != want.size())
            fail(n, std::string(what) + " region yields " + std::to_string(got.size()) + " values, expected " +
                        std::to_string(want.size()));
        for (size_t i = 0; i < want.size(); ++i)
            if (!(got[i] == want[i]))
                fail(n, std::string(what) + " region yield " + std::to_string(i) + " has type " + to_string(got[i]) +
                            ", expected " + to_string(want[i]));
    }

    void check_template(NodeId n, size_t first_value) {
        const Node& node = g_.node(n);
        const Template* t = std::get_if<Template>(&node.payload);
        if (!t) fail(n, "payload must be a text template");
        for (const TextPiece& p : *t) {
            if (p.kind == TextPiece::Text) continue;
            if (p.operand < first_value || p.operand >= node.operands.size())
                fail(n, "text piece refers to operand " + std::to_string(p.operand) + ", which is not a printed value");
            tensor_operand(n, p.operand);
        }
    }

    void check_op(NodeId n) {
        const Node& node = g_.node(n);
        const ValueType tok = ValueType::token_type();
        if (node.op != Op::Apply && node.def) fail(n, "only apply nodes refer to an op definition");
        if (node.op != Op::Cond && node.op != Op::While) no_regions(n);
        switch (node.op) {
            case Op::Apply: {
                if (!node.def) fail(n, "apply without an op definition");
                if (node.attrs.size() != node.def->params.size())
                    fail(n, "has " + std::to_string(node.attrs.size()) + " attributes, op has " +
                                std::to_string(node.def->params.size()) + " parameters");
                bool random = node.def->has_effect();
                size_t first = random ? 1 : 0;
                if (random) token_operand(n, 0);
                std::vector<TensorType> in;
                for (size_t k = first; k < node.operands.size(); ++k) in.push_back(tensor_operand(n, k));
                TensorType want;
                try {
                    want = node.def->infer(stdlib::TypeArgs{in, node.attrs});
                } catch (const stdlib::OpError& e) {
                    fail(n, std::string("operands rejected by the op's shape rule: ") + e.what());
                }
                std::vector<ValueType> rt{ValueType::of(want)};
                if (random) rt.push_back(tok);
                results(n, rt);
                break;
            }
            case Op::Constant: {
                const stdlib::Tensor* t = std::get_if<stdlib::Tensor>(&node.payload);
                if (!t) fail(n, "constant without a tensor payload");
                if (!node.operands.empty()) fail(n, "constant has operands");
                results(n, {ValueType::of(type_of(*t))});
                break;
            }
            case Op::Undef:
                if (!node.operands.empty()) fail(n, "undef has operands");
                if (node.results.size() != 1) fail(n, "undef must have one result");
                break;
            case Op::Truth: {
                if (node.operands.size() != 1) fail(n, "truth takes one operand");
                if (tensor_operand(n, 0).shape.numel() != 1) fail(n, "truth of a tensor without exactly one element");
                results(n, {ValueType::of({stdlib::DType::Bool, {}, false})});
                break;
            }
            case Op::Index: case Op::IndexAssign: {
                const IndexSpec* spec = std::get_if<IndexSpec>(&node.payload);
                if (!spec) fail(n, "index without an IndexSpec payload");
                if (spec->dynamic.size() != spec->items.size()) fail(n, "IndexSpec dynamic flags do not match its items");
                size_t fixed = node.op == Op::Index ? 1 : 2;
                size_t dyn = 0;
                for (size_t i = 0; i < spec->items.size(); ++i)
                    if (spec->dynamic[i]) {
                        if (spec->items[i].kind != stdlib::IndexItem::Int) fail(n, "only integer index items can be dynamic");
                        ++dyn;
                    }
                if (node.operands.size() != fixed + dyn)
                    fail(n, "has " + std::to_string(node.operands.size()) + " operands, expected " +
                                std::to_string(fixed + dyn));
                const TensorType& x = tensor_operand(n, 0);
                if (node.op == Op::IndexAssign) tensor_operand(n, 1);
                for (size_t k = fixed; k < node.operands.size(); ++k) {
                    const TensorType& i = tensor_operand(n, k);
                    if (!stdlib::is_int(i.dtype) || i.shape.rank() != 0) fail(n, "dynamic index " + std::to_string(k) + " must be a 0-d integer");
                }
                if (node.op == Op::Index) {
                    stdlib::Shape shape;
                    try {
                        shape = stdlib::index_shape(x.shape, spec->items);
                    } catch (const stdlib::OpError& e) {
                        fail(n, std::string("index rejected by its shape rule: ") + e.what());
                    }
                    results(n, {ValueType::of({x.dtype, shape, false})});
                } else {
                    results(n, {ValueType::of({x.dtype, x.shape, false})});
                }
                break;
            }
            case Op::Cond: {
                if (node.regions.size() != 2) fail(n, "cond must own two regions (then, else)");
                if (node.operands.empty() || !is_bool_scalar(g_.type(node.operands[0])))
                    fail(n, "cond predicate must be bool[]");
                std::span<const ValueId> ins(node.operands.data() + 1, node.operands.size() - 1);
                std::vector<ValueType> rt;
                for (ValueId v : node.results) rt.push_back(g_.type(v));
                args_like(n, node.regions[0], ins, "then");
                args_like(n, node.regions[1], ins, "else");
                yields_like(n, yield_types(node.regions[0]), rt, "then");
                yields_like(n, yield_types(node.regions[1]), rt, "else");
                break;
            }
            case Op::While: {
                if (node.regions.size() != 2) fail(n, "while must own two regions (cond, body)");
                std::vector<ValueType> carried;
                for (ValueId v : node.operands) carried.push_back(g_.type(v));
                results(n, carried);
                args_like(n, node.regions[0], node.operands, "cond");
                args_like(n, node.regions[1], node.operands, "body");
                std::vector<ValueType> cy = yield_types(node.regions[0]);
                if (cy.empty() || !is_bool_scalar(cy[0])) fail(n, "cond region must yield a bool[] predicate first");
                cy.erase(cy.begin());
                yields_like(n, cy, carried, "cond");
                yields_like(n, yield_types(node.regions[1]), carried, "body");
                break;
            }
            case Op::Yield:
                if (!node.results.empty()) fail(n, "yield has results");
                break;
            case Op::Print: case Op::Raise:
                token_operand(n, 0);
                check_template(n, 1);
                results(n, {tok});
                break;
            case Op::Assert:
                token_operand(n, 0);
                if (node.operands.size() < 2 || !is_bool_scalar(g_.type(node.operands[1])))
                    fail(n, "assert condition must be bool[]");
                check_template(n, 2);
                results(n, {tok});
                break;
            case Op::HostCall:
                token_operand(n, 0);
                if (!std::holds_alternative<HostFn>(node.payload)) fail(n, "host call without a HostFn payload");
                for (size_t k = 1; k < node.operands.size(); ++k) tensor_operand(n, k);
                if (node.results.empty() || !g_.type(node.results.back()).token) fail(n, "host call must return a token last");
                break;
        }
        // Tokens appear only where effects are ordered.
        bool takes_token = node.op == Op::Print || node.op == Op::Assert || node.op == Op::Raise ||
                           node.op == Op::HostCall || node.op == Op::Cond || node.op == Op::While ||
                           node.op == Op::Yield || (node.op == Op::Apply && node.def->has_effect());
        if (!takes_token)
            for (size_t k = 0; k < node.operands.size(); ++k)
                if (g_.type(node.operands[k]).token) fail(n, "operand " + std::to_string(k) + " is a token, but the node has no effect");
    }

    const Graph& g_;
    std::vector<uint8_t> visible_;
    std::vector<uint8_t> defined_;
    std::vector<uint32_t> uses_;
    std::vector<uint8_t> placed_;
};

}  // namespace

std::string describe_node(const Graph& g, NodeId n) {
    std::string s = "#" + std::to_string(n) + " " + node_label(g, n);
    const SrcLoc& loc = g.node(n).loc;
    if (loc.loc.known()) s += " (" + to_string(loc) + ")";
    return s;
}

void verify(const Graph& g) {
    Verifier v(g);
    v.run();
}

}  // namespace tg::tracer
