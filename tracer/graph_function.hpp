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
    friend bool operator==(const IoSpec& a, const IoSpec& b) { return a.name == b.name && same_type(a.type, b.type); }
};

// How one argument (or the result) is made of the flat tensors: a tensor, a
// tuple or a list of parts, or None.
struct Structure {
    enum Kind : uint8_t { Tensor, Tuple, List, None };
    Kind kind = Tensor;
    std::vector<Structure> items;  // Tuple, List
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

// "f32[3,4]" as spec shows it to the user: "spec((3, 4), f32)".
std::string spec_repr(const IoSpec& s);

}  // namespace tg::tracer
