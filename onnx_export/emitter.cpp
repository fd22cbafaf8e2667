#include "onnx_export/emitter.hpp"

#include <cstring>

namespace tg::onnx_export {

using stdlib::DType;

int32_t onnx_type(DType d) {
    switch (d) {
        case DType::Bool: return onnx::TensorProto::BOOL;
        case DType::I32: return onnx::TensorProto::INT32;
        case DType::I64: return onnx::TensorProto::INT64;
        case DType::F32: return onnx::TensorProto::FLOAT;
        case DType::F64: break;
    }
    return onnx::TensorProto::DOUBLE;
}

Built& Built::attr(const char* name, int64_t v) {
    auto* a = proto->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
    return *this;
}

Built& Built::attr(const char* name, float v) {
    auto* a = proto->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
    return *this;
}

Built& Built::attr(const char* name, const std::string& v) {
    auto* a = proto->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
    return *this;
}

Built& Built::attr(const char* name, const std::vector<int64_t>& v) {
    auto* a = proto->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
    return *this;
}

Built& Built::attr(const char* name, onnx::GraphProto g) {
    auto* a = proto->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    *a->mutable_g() = std::move(g);
    return *this;
}

Built Emitter::op(std::string_view type, std::vector<std::string> inputs) {
    return op_outputs(type, std::move(inputs), {names_.next()});
}

Built Emitter::op_outputs(std::string_view type, std::vector<std::string> inputs, std::vector<std::string> outputs) {
    onnx::NodeProto* n = graph_.add_node();
    n->set_op_type(std::string(type));
    n->set_name(names_.next("n"));
    for (auto& i : inputs) n->add_input(std::move(i));
    for (const auto& o : outputs) n->add_output(o);
    return {n, outputs.empty() ? std::string() : outputs[0]};
}

namespace {

onnx::TensorProto tensor_proto(const stdlib::Tensor& t0) {
    const stdlib::Tensor t = t0.contiguous();
    onnx::TensorProto p;
    const DType d = t.storage_dtype();
    p.set_data_type(onnx_type(d));
    for (int64_t dim : t.shape()) p.add_dims(dim);
    const size_t bytes = static_cast<size_t>(t.numel()) * stdlib::dtype_size(d);
    std::string raw(bytes, '\0');
    if (bytes) std::memcpy(raw.data(), t.raw_data(), bytes);
    p.set_raw_data(std::move(raw));
    return p;
}

}  // namespace

std::string Emitter::constant(const stdlib::Tensor& t) {
    Built b = op("Constant", {});
    auto* a = b.proto->add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = tensor_proto(t);
    return b.out;
}

std::string Emitter::const_i64(const std::vector<int64_t>& values) {
    stdlib::Tensor t = stdlib::Tensor::empty(DType::I64, stdlib::Shape{static_cast<int64_t>(values.size())});
    if (!values.empty()) std::memcpy(t.data<int64_t>(), values.data(), values.size() * sizeof(int64_t));
    return constant(t);
}

std::string Emitter::scalar_i64(int64_t v) { return constant(stdlib::Tensor::scalar(v, DType::I64)); }

std::string Emitter::scalar(double v, DType d) {
    if (stdlib::is_float(d)) return constant(stdlib::Tensor::scalar(v, d));
    return constant(stdlib::Tensor::scalar(static_cast<int64_t>(v), d));
}

std::string Emitter::cast(const std::string& x, DType from, DType to) {
    if (from == to) return x;
    return op("Cast", {x}).attr("to", int64_t{onnx_type(to)}).out;
}

std::string Emitter::reshape(const std::string& x, const stdlib::Shape& to) {
    std::vector<int64_t> dims(to.begin(), to.end());
    return op("Reshape", {x, const_i64(dims)}).out;
}

std::string Emitter::unsqueeze(const std::string& x, std::vector<int64_t> axes) {
    return op("Unsqueeze", {x, const_i64(axes)}).out;
}

std::string Emitter::nonzero(const std::string& x, DType d) {
    if (d == DType::Bool) return x;
    return op("Not", {op("Equal", {x, scalar(0, d)}).out}).out;
}

std::string Emitter::select(const std::string& c, const std::string& a, const std::string& b, DType d) {
    if (d != DType::Bool) return where(c, a, b);
    return op("Or", {op("And", {c, a}).out, op("And", {op("Not", {c}).out, b}).out}).out;
}

void Emitter::declare(onnx::ValueInfoProto& v, const std::string& name, DType d, const stdlib::Shape& shape,
                      const std::vector<std::string>& dims) {
    v.set_name(name);
    auto* tt = v.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx_type(d));
    auto* sh = tt->mutable_shape();
    for (int a = 0; a < shape.rank(); ++a) {
        const auto at = static_cast<size_t>(a);
        if (at < dims.size() && !dims[at].empty()) sh->add_dim()->set_dim_param(dims[at]);
        else sh->add_dim()->set_dim_value(shape[a]);
    }
}

}  // namespace tg::onnx_export
