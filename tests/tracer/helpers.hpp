// Shared helpers of the tracer tests: types, locations, op lookup.
#pragma once

#include <memory>
#include <string>

#include "lang/source.hpp"
#include "stdlib/op_table.hpp"
#include "tracer/graph.hpp"
#include "tracer/printer.hpp"
#include "tracer/verifier.hpp"

namespace tg::tracer::test {

using stdlib::DType;
using stdlib::Shape;
using stdlib::Tensor;
using stdlib::TensorType;

inline TensorType f32(Shape s = {}) { return {DType::F32, s, false}; }
inline TensorType i64(Shape s = {}) { return {DType::I64, s, false}; }
inline TensorType boolean(Shape s = {}) { return {DType::Bool, s, false}; }

inline const lang::SourcePtr& source() {
    static const lang::SourcePtr s = std::make_shared<lang::Source>("f.tg", "line 1\nline 2\nline 3\nline 4\nline 5\n");
    return s;
}
inline SrcLoc at(uint32_t line, uint32_t col) { return {source(), {line, col}, nullptr}; }

inline const stdlib::OpDef& op(std::string_view name) {
    const stdlib::OpDef* d = stdlib::find_op(name);
    if (!d) throw std::logic_error("no op " + std::string(name));
    return *d;
}

inline Tensor vec(std::initializer_list<float> xs) {
    Tensor t = Tensor::empty(DType::F32, Shape{static_cast<int64_t>(xs.size())});
    float* p = t.data<float>();
    for (float x : xs) *p++ = x;
    return t;
}
inline Tensor ivec(std::initializer_list<int64_t> xs) {
    Tensor t = Tensor::empty(DType::I64, Shape{static_cast<int64_t>(xs.size())});
    int64_t* p = t.data<int64_t>();
    for (int64_t x : xs) *p++ = x;
    return t;
}

inline std::string print_nl(const Graph& g) { return "\n" + print_graph(g); }

}  // namespace tg::tracer::test
