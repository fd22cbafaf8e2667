// ONNX export (docs/language.md "Graphs as values", docs/exporting-onnx.md): a graph value as an ONNX
// model (opset 17, IR version 8) that ONNX Runtime runs with tg's results.
//
// The model is built with the ONNX project's own C++ classes and passes
// onnx::checker::check_model and strict shape inference before any byte is
// returned. Nothing of ONNX or protobuf appears in this header.
#pragma once

#include <string>
#include <string_view>

#include "stdlib/op_table.hpp"
#include "tracer/errors.hpp"
#include "tracer/graph_function.hpp"

namespace tg::onnx_export {

inline constexpr int kOpsetVersion = 17;  // the highest Debian 12's ONNX (1.12) knows
inline constexpr int kIrVersion = 8;      // the IR version of opset 17

struct ExportOptions {
    bool drop_prints = false;  // leave print nodes out instead of failing on them
};

// A node ONNX cannot express (print, assert, tg's random stream, a host
// function, an op without a mapping): the message names the op; `where` is
// the node's .tg location.
struct ExportError : tracer::Error {
    using tracer::Error::Error;
};

// The model's bytes (a serialized onnx.ModelProto). Throws ExportError.
std::string write_onnx(const tracer::GraphFunction& f, const ExportOptions& options = {});

// Whether a graph using `def` can be exported: every op of the table is
// mapped, or unmapped with the reason (read from the same switches the
// exporter dispatches with; tests/onnx/test_mapping_coverage.cpp). A mapped
// op may still reject some operands opset 17 has no op for (integer
// bitwise ops, matmul of bools), with an error saying so.
struct MappingStatus {
    bool mapped = false;
    std::string_view reason;  // why not, when !mapped
};
MappingStatus mapping_status(const stdlib::OpDef& def);

}  // namespace tg::onnx_export
