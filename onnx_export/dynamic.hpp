// Dynamic dimensions in ONNX (docs/exporting-onnx.md "Dynamic dimensions"):
// a graph exported with dynamic dims in its specs (docs/deploying.md) keeps
// them as dim_params of its inputs and outputs, and the nodes that depend on
// them compute their shapes when the model runs. Only the mappings that use
// no operand's static size are allowed to touch a dynamic value; any other
// is an error naming the op (export with static specs instead).
#pragma once

#include <string>
#include <vector>

#include "onnx_export/emitter.hpp"
#include "tracer/graph.hpp"

namespace tg::onnx_export {

// "" when node n, which may touch dynamic dims, maps to ONNX with them kept
// dynamic; else why not ("`roll` with a dynamic dimension ...").
std::string dynamic_refusal(const tracer::Graph& g, const tracer::Node& n);
// Whether n or a node in its regions has an operand or result with a dynamic dim.
bool touches_dynamic(const tracer::Graph& g, const tracer::Node& n);

// The symbols' run-time sizes: per symbol an ONNX 1-d i64 value of one element.
// Emitted once at the top of the model from the inputs (named `inputs`).
std::vector<std::string> symbol_sizes(Emitter& e, const tracer::Graph& g, const std::vector<std::string>& inputs);
// v's run-time shape as a 1-d i64 ONNX value; "" when v's shape is static.
std::string runtime_shape(Emitter& e, const tracer::Graph& g, tracer::ValueId v, const std::vector<std::string>& sizes);
// A size constant (Graph::SizeConstant: a mean's count) computed from its symbol's size, of dtype d.
std::string size_constant(Emitter& e, const tracer::Graph::SizeConstant& c, const std::vector<std::string>& sizes,
                          stdlib::DType d);

}  // namespace tg::onnx_export
