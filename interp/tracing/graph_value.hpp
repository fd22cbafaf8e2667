// Graph values (docs/language.md "Graphs as values"): `spec(shape, dtype)` placeholders, `concrete(f,
// *specs)` graphs, calling them, their attributes (`g.inputs`, `g.outputs`,
// `g.dot()`), and saving/loading them as `.tgx` files (tracer/tgx.hpp).
// The tracing itself is the @graph machinery's (Evaluator::trace_body).
#pragma once

#include <cstddef>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codegen/compiler.hpp"
#include "interp/values/value.hpp"
#include "stdlib/file_open.hpp"
#include "tracer/graph_function.hpp"

namespace tg::interp {

struct SpecObj {
    tracer::IoSpec spec;
};

struct GraphObj {
    tracer::GraphFunction fn;
    // Its native code (null with --no-jit); compiled when the value is made.
    std::unique_ptr<codegen::CompiledGraph> compiled;
};

// spec, concrete (graph_value.cpp)
void add_graph_builtins(std::vector<std::pair<std::string, Value>>& out);
// .tgx files (graph_file.cpp) for load / save (builtins_files.cpp): a graph
// value read from a checked path (stdlib::FileError when the file is not a
// valid .tgx), and the bytes of one (an Error when `v` is not a graph).
Value read_graph_file(Runtime& rt, const stdlib::FileRoot& root, const std::string& file);
std::vector<std::byte> graph_file_bytes(const Value& v);
// The ONNX model of a graph value (onnx_export/export.hpp); a node ONNX
// cannot express is an Error located at that node's line, with the frames
// of the traced function down to the save call at `call_loc`.
std::vector<std::byte> graph_onnx_bytes(const Value& v, bool drop_prints, const lang::SourcePtr& call_source,
                                        lang::Loc call_loc);
// `g.attr` / `s.attr` of a graph or a spec; Undefined when there is no such attribute.
Value graph_attribute(const Value& x, const std::string& attr);
// str(g): the IR text; repr(g): "<graph f(a: f32[3], b: f32[]) -> f32[3]>"; a spec: "spec((3,), f32)".
std::string graph_str(const GraphObj& g);
std::string graph_repr(const GraphObj& g);

// A graph value for a graph read from a .tgx file (compiled unless --no-jit).
Value make_graph_value(Runtime& rt, tracer::GraphFunction fn);

}  // namespace tg::interp
