// A graph as a value (docs/language.md "Graphs as values"): a traced function's graph together with what
// a caller needs to feed it and read it — the parameters it takes, the
// structure of each argument and of the result (tuples and lists of
// tensors), and the flat input and output specs. It is what `concrete`
// returns in tg, what a `.tgx` file holds (tracer/tgx.hpp) and what
// tg::Graph runs in a host; it knows nothing of interp's values.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tracer/graph.hpp"

namespace tg::tracer {

// One input or output of a graph: its name ("x", "xs[1]", "result[0]") and type.
struct IoSpec {
    std::string name;
    stdlib::TensorType type;  // never weak
    // Dynamic dimensions (docs/deploying.md "Dynamic dimensions"): per axis,
    // "" for a static one (its size in `type`), else the dimension's name
    // (`batch`): any size, equal for equal names. In a graph's specs `type`
    // keeps the size it was traced at. In a spec value written by the user,
    // kAnyDim is a dimension of its own (`None`, `?`). Empty: all static.
    std::vector<std::string> dims;
    bool dynamic(int axis) const { return static_cast<size_t>(axis) < dims.size() && !dims[static_cast<size_t>(axis)].empty(); }
    bool has_dynamic_dims() const;
    friend bool operator==(const IoSpec& a, const IoSpec& b) {
        return a.name == b.name && same_type(a.type, b.type) && a.dims == b.dims;
    }
};
inline constexpr const char* kAnyDim = "?";
// A dimension's name in a spec: kAnyDim, or a letter or `_` then letters, digits or `_`.
bool valid_dim_name(const std::string& name);

// How one argument (or the result) is made of the flat tensors: a tensor, a
// tuple or a list of parts, or None.
struct Structure {
    enum Kind : uint8_t { Tensor, Tuple, List, None, Dict };
    Kind kind = Tensor;
    std::vector<Structure> items;  // Tuple, List, Dict (its values)
    std::vector<std::string> keys;  // Dict: its keys, in order (weights kept as inputs: docs/deploying.md)
    friend bool operator==(const Structure&, const Structure&) = default;
    size_t leaves() const;  // number of tensors
};

struct GraphFunction {
    std::string name;                 // the traced function's name ("<lambda>" for a lambda)
    std::vector<std::string> params;  // the arguments a caller passes (baked-in ones excluded)
    std::vector<Structure> args;      // one per param
    Structure result;
    std::vector<IoSpec> inputs;       // the graph's tensor inputs, in order (the args' leaves)
    std::vector<IoSpec> outputs;      // the tensors the body yields, in order (the result's leaves)
    std::shared_ptr<const Graph> graph;
};

// The body's yielded tensors (tokens skipped), as the graph types them.
std::vector<ValueId> graph_outputs(const Graph& g);
// inputs/outputs of f from its graph: names of the inputs from the graph's
// value names, of the outputs from the result's structure ("result",
// "result[0]", "result[1][0]").
std::vector<IoSpec> input_specs(const Graph& g);
std::vector<IoSpec> output_specs(const Graph& g, const Structure& result);

// A trace as a graph value with flat structure: one tensor parameter per
// input (named after it) and a tuple of the outputs as its result. What
// `--dump-graphs` saves of each trace, for tools that run or export every
// graph a script makes (tests/onnx).
GraphFunction flat_function(std::shared_ptr<const Graph> g);

// "f32[3,4]" as spec shows it to the user: "spec((3, 4), f32)", "spec((None, 4), f32)",
// "spec(('batch', 4), f32)".
std::string spec_repr(const IoSpec& s);
// The type with dynamic dims by name: "f32[batch,4]".
std::string spec_type(const IoSpec& s);
// "shape (batch, 4) and dtype f32" (error messages).
std::string spec_words(const IoSpec& s);

// The sizes of a graph's dynamic dimensions as a call's inputs give them,
// checked input by input (what feeding a graph value and tg::Graph::run do).
class FeedCheck {
public:
    explicit FeedCheck(const GraphFunction& f) : f_(f) {}
    // "" when input i (its spec f.inputs[i]) admits a tensor of shape
    // `given` (dtypes are the caller's check), else why not: a wrong rank,
    // a static size, a dynamic size below its minimum or unequal to the size
    // of the same dimension in an earlier input.
    std::string check(size_t i, const stdlib::Shape& given);

private:
    const GraphFunction& f_;
    std::vector<int64_t> sizes_;        // per symbol, once seen (-1 before)
    std::vector<std::string> seen_in_;  // the input that gave it
};

}  // namespace tg::tracer
