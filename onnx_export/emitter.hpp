// Building ONNX graphs node by node (internal to onnx_export/: this header
// includes the ONNX protobuf classes, which never reach include/tg/).
//
// An Emitter appends nodes to one onnx::GraphProto — the model's main graph
// or the body of an If / Loop — and names every value it creates from one
// NameGen shared by the whole model, because ONNX wants names unique across
// a graph and all its subgraphs. The op mappings (map_*.cpp) build tg's
// semantics out of ONNX ops with it: `e.op("Add", {a, b}).out`.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "stdlib/dtype.hpp"
#include "stdlib/shape.hpp"
#include "stdlib/tensor.hpp"

namespace tg::onnx_export {

// ONNX's element type of a tg dtype.
int32_t onnx_type(stdlib::DType d);

// Fresh value names: "v0", "v1", ... (never reused in one model).
class NameGen {
public:
    // The "tg/" prefix keeps them apart from the graph's input and output names.
    std::string next(std::string_view hint = "v") { return "tg/" + std::string(hint) + std::to_string(count_++); }

private:
    uint64_t count_ = 0;
};

// One node just appended, to add attributes to: e.op("Softmax", {x}).attr("axis", 1).out
struct Built {
    onnx::NodeProto* proto;
    std::string out;  // its (first) output

    Built& attr(const char* name, int64_t v);
    Built& attr(const char* name, float v);
    Built& attr(const char* name, const std::string& v);
    Built& attr(const char* name, const std::vector<int64_t>& v);
    Built& attr(const char* name, onnx::GraphProto g);
};

class Emitter {
public:
    Emitter(onnx::GraphProto& graph, NameGen& names) : graph_(graph), names_(names) {}

    onnx::GraphProto& graph() { return graph_; }
    NameGen& names() { return names_; }

    // A node with one output (fresh name), or with `outputs` names given.
    Built op(std::string_view type, std::vector<std::string> inputs);
    Built op_outputs(std::string_view type, std::vector<std::string> inputs, std::vector<std::string> outputs);

    // Constants (Constant nodes, valid in subgraphs too).
    std::string constant(const stdlib::Tensor& t);
    std::string const_i64(const std::vector<int64_t>& values);  // a 1-d i64 tensor
    std::string scalar_i64(int64_t v);                          // a 0-d i64 tensor
    std::string scalar(double v, stdlib::DType d);              // a 0-d tensor of dtype d

    // Conversions and shapes.
    std::string cast(const std::string& x, stdlib::DType from, stdlib::DType to);
    std::string reshape(const std::string& x, const stdlib::Shape& to);
    std::string unsqueeze(const std::string& x, std::vector<int64_t> axes);
    // x != 0 as bool (floats: NaN counts as nonzero, like Python's bool()).
    std::string nonzero(const std::string& x, stdlib::DType d);
    // Element-wise helpers used by several mappings.
    std::string where(const std::string& c, const std::string& a, const std::string& b) { return op("Where", {c, a, b}).out; }
    // The same for operands of any dtype (ONNX Runtime has no bool Where).
    std::string select(const std::string& c, const std::string& a, const std::string& b, stdlib::DType d);

    // A graph input / output declaration with its type; an axis with a name
    // in `dims` is a dynamic dimension (its dim_param), else of its size in `shape`.
    static void declare(onnx::ValueInfoProto& v, const std::string& name, stdlib::DType d, const stdlib::Shape& shape,
                        const std::vector<std::string>& dims = {});

private:
    onnx::GraphProto& graph_;
    NameGen& names_;
};

}  // namespace tg::onnx_export
