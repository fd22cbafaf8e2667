#include "tracer/graph_function.hpp"

namespace tg::tracer {

size_t Structure::leaves() const {
    if (kind == Tensor) return 1;
    size_t n = 0;
    for (const Structure& s : items) n += s.leaves();
    return n;
}

std::vector<ValueId> graph_outputs(const Graph& g) {
    std::vector<ValueId> out;
    const Region& body = g.region(Graph::kBody);
    if (body.nodes.empty() || g.node(body.nodes.back()).op != Op::Yield) return out;
    for (ValueId v : g.node(body.nodes.back()).operands)
        if (!g.type(v).token) out.push_back(v);
    return out;
}

std::vector<IoSpec> input_specs(const Graph& g) {
    std::vector<IoSpec> out;
    for (ValueId v : g.inputs()) {
        stdlib::TensorType t = g.tensor_type(v);
        t.weak = false;
        out.push_back({g.value(v).name, t});
    }
    return out;
}

namespace {

void leaf_names(const Structure& s, const std::string& name, std::vector<std::string>& out) {
    if (s.kind == Structure::Tensor) out.push_back(name);
    for (size_t i = 0; i < s.items.size(); ++i) leaf_names(s.items[i], name + "[" + std::to_string(i) + "]", out);
}

}  // namespace

std::vector<IoSpec> output_specs(const Graph& g, const Structure& result) {
    std::vector<std::string> names;
    leaf_names(result, "result", names);
    std::vector<IoSpec> out;
    const std::vector<ValueId> ys = graph_outputs(g);
    for (size_t i = 0; i < ys.size(); ++i) {
        stdlib::TensorType t = g.tensor_type(ys[i]);
        t.weak = false;
        out.push_back({i < names.size() ? names[i] : "result" + std::to_string(i), t});
    }
    return out;
}

GraphFunction flat_function(std::shared_ptr<const Graph> g) {
    GraphFunction f;
    f.name = g->name();
    f.inputs = input_specs(*g);
    for (size_t i = 0; i < f.inputs.size(); ++i) {
        f.params.push_back(f.inputs[i].name.empty() ? "x" + std::to_string(i) : f.inputs[i].name);
        f.args.push_back(Structure{});
    }
    f.result.kind = Structure::Tuple;
    f.result.items.resize(graph_outputs(*g).size());
    f.outputs = output_specs(*g, f.result);
    f.graph = std::move(g);
    return f;
}

std::string spec_repr(const IoSpec& s) {
    std::string out = "spec(" + s.type.shape.to_string() + ", " + stdlib::dtype_name(s.type.dtype);
    if (!s.name.empty()) out += ", name='" + s.name + "'";
    return out + ")";
}

}  // namespace tg::tracer
