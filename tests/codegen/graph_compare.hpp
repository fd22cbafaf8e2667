// Comparing compiled graphs with the reference graph interpreter, bit for
// bit: shared by the codegen tests (test_lowering.cpp, test_parallel.cpp).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codegen/compiler.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/printer.hpp"
#include "tracer/verifier.hpp"

namespace tg::codegen_test {

using stdlib::DType;
using stdlib::Tensor;
using stdlib::TensorType;
using tracer::Graph;
using tracer::ValueId;

// Element i of a contiguous tensor, exactly (floats as %a).
inline std::string element_text(const Tensor& t, int64_t i) {
    char buf[64];
    switch (t.storage_dtype()) {
        case DType::F32:
            std::snprintf(buf, sizeof buf, "%a", static_cast<double>(static_cast<const float*>(t.raw_data())[i]));
            break;
        case DType::F64: std::snprintf(buf, sizeof buf, "%a", static_cast<const double*>(t.raw_data())[i]); break;
        case DType::I64: return std::to_string(static_cast<const int64_t*>(t.raw_data())[i]);
        case DType::I32: return std::to_string(static_cast<const int32_t*>(t.raw_data())[i]);
        case DType::Bool: return static_cast<const bool*>(t.raw_data())[i] ? "true" : "false";
    }
    return buf;
}

// Empty when a and b are bit-identical (any NaN matches any NaN); else what
// differs first (type, or the first element: its index and both values).
inline std::string first_difference(const Tensor& a, const Tensor& b) {
    auto type = [](const Tensor& t) { return tracer::to_string(tracer::ValueType::of(TensorType{t.dtype(), t.shape(), t.weak()})); };
    if (a.dtype() != b.dtype() || a.weak() != b.weak() || !(a.shape() == b.shape()))
        return "types differ: " + type(a) + " vs " + type(b);
    Tensor ca = a.contiguous(), cb = b.contiguous();
    const int64_t n = ca.numel();
    const DType d = ca.storage_dtype();
    for (int64_t i = 0; i < n; ++i) {
        bool same;
        if (d == DType::F32) {
            float x = static_cast<const float*>(ca.raw_data())[i], y = static_cast<const float*>(cb.raw_data())[i];
            same = (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, 4) == 0;
        } else if (d == DType::F64) {
            double x = static_cast<const double*>(ca.raw_data())[i], y = static_cast<const double*>(cb.raw_data())[i];
            same = (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, 8) == 0;
        } else {
            const size_t sz = stdlib::dtype_size(d);
            same = std::memcmp(static_cast<const char*>(ca.raw_data()) + i * sz,
                               static_cast<const char*>(cb.raw_data()) + i * sz, sz) == 0;
        }
        if (!same)
            return "element " + std::to_string(i) + " of " + std::to_string(n) + ": interpreter " + element_text(ca, i) +
                   ", compiled " + element_text(cb, i);
    }
    return "";
}

// What computes output k of g: its op's name ("add", "while", ...).
inline std::string output_op(const Graph& g, size_t k) {
    const tracer::Node& y = g.node(g.region(Graph::kBody).nodes.back());
    const tracer::NodeId d = g.value(y.operands[k]).def;
    if (d == tracer::kNoId) return "an input";
    const tracer::Node& n = g.node(d);
    return n.def ? std::string(n.def->name) : std::string(tracer::op_name(n.op));
}

struct Outcome {
    std::vector<Tensor> values;
    std::string error;  // message @ line:col
};

inline Outcome run_ref(const Graph& g, const std::vector<Tensor>& in) {
    tracer::RunContext ctx;
    Outcome o;
    try {
        o.values = tracer::run_graph(g, in, ctx);
    } catch (const tracer::RuntimeError& e) {
        o.error = std::string(e.what()) + " @ " + tracer::to_string(e.where);
    }
    return o;
}

inline Outcome run_jit(const codegen::CompiledGraph& c, const std::vector<Tensor>& in) {
    tracer::RunContext ctx;
    Outcome o;
    try {
        o.values = c.run(in, ctx);
    } catch (const tracer::RuntimeError& e) {
        o.error = std::string(e.what()) + " @ " + tracer::to_string(e.where);
    }
    return o;
}

// Runs g both ways on `in` and checks they agree; returns the reference outcome.
inline Outcome agree(const Graph& g, const codegen::CompiledGraph& c, const std::vector<Tensor>& in, const std::string& what) {
    Outcome r = run_ref(g, in), j = run_jit(c, in);
    INFO(what);
    CHECK(r.error == j.error);
    REQUIRE(r.values.size() == j.values.size());
    for (size_t k = 0; k < r.values.size(); ++k) {
        const std::string diff = first_difference(r.values[k], j.values[k]);
        CHECK_MESSAGE(diff.empty(), "output " << k << " (" << output_op(g, k) << "): " << diff << "\n"
                                              << tracer::print_graph(g));
    }
    return r;
}

// A graph over inputs of `types` whose outputs are every op `build` adds.
struct Built {
    std::unique_ptr<Graph> g;
    std::vector<std::string> names;
};
inline Built build(const std::vector<TensorType>& types,
            const std::function<void(Graph&, const std::vector<ValueId>&, std::vector<ValueId>&, std::vector<std::string>&)>& body) {
    Built b{std::make_unique<Graph>("ops"), {}};
    Graph& g = *b.g;
    ValueId tok = g.add_input_token();
    std::vector<ValueId> ins, outs;
    for (const TensorType& t : types) ins.push_back(g.add_input(t));
    body(g, ins, outs, b.names);
    outs.push_back(tok);
    g.yield(outs);
    tracer::verify(g);
    return b;
}

}  // namespace tg::codegen_test
