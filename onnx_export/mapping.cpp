#include "onnx_export/mapping.hpp"

#include "onnx_export/export.hpp"

namespace tg::onnx_export {

stdlib::DType storage_dtype(const stdlib::TensorType& t) {
    return t.weak ? stdlib::weak_compute_dtype(t.dtype) : t.dtype;
}

int64_t ApplyCtx::attr_int(size_t i) const {
    const stdlib::Attr& a = node.attrs[i];
    if (const auto* v = std::get_if<int64_t>(&a)) return *v;
    if (const auto* d = std::get_if<double>(&a)) return static_cast<int64_t>(*d);
    if (const auto* b = std::get_if<bool>(&a)) return *b;
    fail("expected an int argument");
}

double ApplyCtx::attr_number(size_t i, double otherwise) const {
    const stdlib::Attr& a = node.attrs[i];
    if (const auto* v = std::get_if<int64_t>(&a)) return static_cast<double>(*v);
    if (const auto* d = std::get_if<double>(&a)) return *d;
    return otherwise;
}

std::vector<int64_t> ApplyCtx::axes(size_t i, int rank) const {
    std::vector<int64_t> out;
    const stdlib::Attr& a = node.attrs[i];
    if (std::holds_alternative<std::monostate>(a)) {
        for (int64_t d = 0; d < rank; ++d) out.push_back(d);
        return out;
    }
    if (const auto* v = std::get_if<int64_t>(&a)) out.push_back(*v);
    if (const auto* vs = std::get_if<std::vector<int64_t>>(&a)) out = *vs;
    for (int64_t& d : out)
        if (d < 0) d += rank;
    return out;
}

std::string ApplyCtx::reshape_out(const std::string& x) const {
    return out_shape.empty() ? e.reshape(x, out.shape) : e.op("Reshape", {x, out_shape}).out;
}

std::string ApplyCtx::expand_out(const std::string& x) const {
    const std::vector<int64_t> dims(out.shape.begin(), out.shape.end());
    return e.op("Expand", {x, out_shape.empty() ? e.const_i64(dims) : out_shape}).out;
}

void ApplyCtx::fail(const std::string& why) const {
    throw ExportError("cannot export `" + std::string(node.def->name) + "` to ONNX: " + why, node.loc);
}

}  // namespace tg::onnx_export
