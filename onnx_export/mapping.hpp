// The op mappings: one tg node (an Apply of the op table) as ONNX nodes with
// tg's exact semantics. Each map_*.cpp file covers one group of ops; the
// exporter (export.cpp) dispatches by the op's typed kind, and each group
// switches over its kind enum (map_ops.cpp's route for the OtherKind ops).
#pragma once

#include <string>
#include <vector>

#include "onnx_export/emitter.hpp"
#include "stdlib/op_table.hpp"
#include "tracer/graph.hpp"

namespace tg::onnx_export {

// An operand as ONNX holds it: weak scalars are stored in their compute
// dtype (i64 / f64), like stdlib::Tensor::storage_dtype.
struct Operand {
    std::string name;
    stdlib::TensorType type;
    stdlib::DType storage;
};

stdlib::DType storage_dtype(const stdlib::TensorType& t);

struct ApplyCtx {
    Emitter& e;
    const tracer::Node& node;
    std::vector<Operand> in;
    stdlib::TensorType out;     // the result's type
    stdlib::DType out_storage;  // and the dtype its ONNX value has
    // With dynamic dims: the result's run-time shape (a 1-d i64 ONNX value;
    // onnx_export/dynamic.hpp); "" when it is static, out.shape.
    std::string out_shape;

    // x reshaped to the result's shape; expanded to it.
    std::string reshape_out(const std::string& x) const;
    std::string expand_out(const std::string& x) const;

    // Operand i converted to dtype d.
    std::string arg(size_t i, stdlib::DType d) const { return e.cast(in[i].name, in[i].storage, d); }
    const stdlib::Attr& attr(size_t i) const { return node.attrs[i]; }
    int64_t attr_int(size_t i) const;
    double attr_number(size_t i, double otherwise) const;  // an int or float attr; `otherwise` when None
    // The axes an Axis attr names, normalized for rank (None: all).
    std::vector<int64_t> axes(size_t i, int rank) const;
    // Throws ExportError at the node's location: "`op`: why".
    [[noreturn]] void fail(const std::string& why) const;
};

// Each returns the name of the result, of dtype out_storage and shape out.shape.
std::string map_unary(ApplyCtx& c, stdlib::UnaryKind k);
std::string map_binary(ApplyCtx& c, stdlib::BinaryKind k);
std::string map_select(ApplyCtx& c, stdlib::ElementwiseKind k);
std::string map_reduce(ApplyCtx& c, stdlib::ReduceKind k);
// linear algebra, shapes, nn, gather/scatter, creation: fails naming the op when it has no mapping
std::string map_other(ApplyCtx& c, stdlib::OtherKind k);
std::string map_norm(ApplyCtx& c);   // (map_reduce.cpp) norm's ord 1, 2 and inf
// (map_scan_sort.cpp) along the axis attr (None: of the flattened x)
std::string map_sort(ApplyCtx& c);
std::string map_argsort(ApplyCtx& c);
std::string map_cumsum(ApplyCtx& c);
std::string map_cumprod(ApplyCtx& c);
// (map_conv.cpp) conv2d, conv_transpose2d, _conv2d_weight_grad, max_pool2d
// (indices = false), _max_pool2d_indices and _max_pool2d_backward
std::string map_conv2d(ApplyCtx& c);
std::string map_conv_transpose2d(ApplyCtx& c);
std::string map_conv2d_weight_grad(ApplyCtx& c);
std::string map_max_pool(ApplyCtx& c, bool indices);
std::string map_max_pool_backward(ApplyCtx& c);

// The indices that sort x (dtype d) along axis (of size len), stably, NaN
// last (map_scan_sort.cpp; sort, argsort and median use it).
std::string sorted_indices(Emitter& e, const std::string& x, stdlib::DType d, int64_t axis, int64_t len);

// Shared compositions (map_binary.cpp): NaN-propagating maximum / minimum,
// as tg's (and NumPy's) maximum, in dtype d.
std::string nan_max(Emitter& e, const std::string& a, const std::string& b, stdlib::DType d, bool is_max);
// log(1 + y) in dtype d, accurate near 0 (map_unary.cpp; log1p, softplus, logaddexp).
std::string log1p(Emitter& e, const std::string& y, stdlib::DType d);

}  // namespace tg::onnx_export
