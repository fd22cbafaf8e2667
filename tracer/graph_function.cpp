#include "tracer/graph_function.hpp"

#include <cctype>

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

bool valid_dim_name(const std::string& name) {
    if (name == kAnyDim) return true;
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

bool IoSpec::has_dynamic_dims() const {
    for (const std::string& d : dims)
        if (!d.empty()) return true;
    return false;
}

namespace {

// v as a spec: its strong type, its dynamic dims by their symbols' names
// ("?0" for a generalized trace's unnamed symbol).
IoSpec value_spec(const Graph& g, ValueId v, std::string name) {
    IoSpec s{std::move(name), g.tensor_type(v), {}};
    s.type.weak = false;
    if (!g.has_dynamic_dims(v)) return s;
    s.dims.resize(static_cast<size_t>(s.type.shape.rank()));
    for (int axis = 0; axis < s.type.shape.rank(); ++axis)
        if (const int k = g.dim_symbol(v, axis); k >= 0) {
            const std::string& n = g.symbol_sources().at(static_cast<size_t>(k)).name;
            s.dims[static_cast<size_t>(axis)] = n.empty() ? "?" + std::to_string(k) : n;
        }
    return s;
}

}  // namespace

std::vector<IoSpec> input_specs(const Graph& g) {
    std::vector<IoSpec> out;
    for (ValueId v : g.inputs()) out.push_back(value_spec(g, v, g.value(v).name));
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
    for (size_t i = 0; i < ys.size(); ++i)
        out.push_back(value_spec(g, ys[i], i < names.size() ? names[i] : "result" + std::to_string(i)));
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

namespace {

// The dims of s joined by `sep`, a dynamic one as `dynamic(name)` shows it.
template <class Show>
std::string dims_text(const IoSpec& s, const char* sep, const Show& dynamic) {
    std::string out;
    for (int a = 0; a < s.type.shape.rank(); ++a)
        out += (a ? sep : "") + (s.dynamic(a) ? dynamic(s.dims[static_cast<size_t>(a)]) : std::to_string(s.type.shape[a]));
    return out;
}

}  // namespace

std::string spec_repr(const IoSpec& s) {
    std::string shape = "(" + dims_text(s, ", ", [](const std::string& d) {
        return d == kAnyDim ? std::string("None") : "'" + d + "'";
    });
    shape += s.type.shape.rank() == 1 ? ",)" : ")";
    std::string out = "spec(" + shape + ", " + stdlib::dtype_name(s.type.dtype);
    if (!s.name.empty()) out += ", name='" + s.name + "'";
    return out + ")";
}

std::string spec_type(const IoSpec& s) {
    return std::string(stdlib::dtype_name(s.type.dtype)) + "[" + dims_text(s, ",", [](const std::string& d) { return d; }) + "]";
}

std::string spec_words(const IoSpec& s) {
    std::string shape = "(" + dims_text(s, ", ", [](const std::string& d) { return d; });
    shape += s.type.shape.rank() == 1 ? ",)" : ")";
    return "shape " + shape + " and dtype " + stdlib::dtype_name(s.type.dtype);
}

std::string FeedCheck::check(size_t i, const stdlib::Shape& given) {
    const IoSpec& spec = f_.inputs.at(i);
    const stdlib::Shape& want = spec.type.shape;
    if (given.rank() != want.rank())
        return "expected " + std::to_string(want.rank()) + " axes (" + spec_words(spec) + "), given " +
               std::to_string(given.rank()) + " (shape " + given.to_string() + ")";
    const std::vector<SymbolSource>& symbols = f_.graph->symbol_sources();
    sizes_.resize(symbols.size(), -1);
    seen_in_.resize(symbols.size());
    const ValueId input = f_.graph->inputs().at(i);
    for (int a = 0; a < want.rank(); ++a) {
        const int k = f_.graph->dim_symbol(input, a);
        if (k < 0) {
            if (given[a] != want[a])
                return "expected " + spec_words(spec) + ", given shape " + given.to_string() + " (axis " +
                       std::to_string(a) + " must be " + std::to_string(want[a]) + ")";
            continue;
        }
        const auto ku = static_cast<size_t>(k);
        const std::string dim = "axis " + std::to_string(a) + " (dimension `" + spec.dims.at(static_cast<size_t>(a)) + "`)";
        if (given[a] < symbols[ku].min_size)
            return dim + " is " + std::to_string(given[a]) + ", but the graph runs at sizes >= " +
                   std::to_string(symbols[ku].min_size) + " of it";
        if (sizes_[ku] >= 0 && given[a] != sizes_[ku])
            return dim + " is " + std::to_string(given[a]) + ", but it is " + std::to_string(sizes_[ku]) + " in `" +
                   seen_in_[ku] + "`";
        if (sizes_[ku] < 0) {
            sizes_[ku] = given[a];
            seen_in_[ku] = spec.name;
        }
    }
    return "";
}

}  // namespace tg::tracer
