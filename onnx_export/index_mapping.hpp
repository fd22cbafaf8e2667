// Basic indexing in ONNX: `x[items]` (Op::Index) and `x[items] = v`
// (Op::IndexAssign) with ints (static or traced), slices and `...`. Both
// become one GatherND / ScatterND over the index grid of the selected region:
// its static part is a constant, a traced int adds its (normalized) index on
// its axis. tg checks a traced index at run time; ONNX Runtime rejects an
// index out of range too.
#pragma once

#include <string>
#include <vector>

#include "onnx_export/emitter.hpp"
#include "tracer/graph.hpp"

namespace tg::onnx_export {

struct IndexOperands {
    const tracer::Node& node;
    const tracer::Graph& g;
    const std::vector<std::string>& names;  // ONNX name of each graph value
    Emitter& e;
};

std::string map_index(const IndexOperands& io);
std::string map_index_assign(const IndexOperands& io);

}  // namespace tg::onnx_export
