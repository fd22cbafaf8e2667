// Every op of the table (stdlib::all_ops()) is mapped to ONNX or says why
// not (onnx_export::mapping_status, read from the exporter's switches over
// the op kinds): an op added to stdlib without its case in
// onnx_export/map_ops.cpp is a compile error there, and one whose case gives
// no reason fails here, by name. The status is what exporting a graph of
// the op does: checked on every op that takes one tensor.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "onnx_export/export.hpp"
#include "stdlib/op_table.hpp"
#include "tracer/graph.hpp"
#include "tracer/graph_function.hpp"

using namespace tg;
using onnx_export::MappingStatus;
using stdlib::OpDef;

namespace {

bool is_operand(stdlib::ParamKind k) { return k == stdlib::ParamKind::Tensor || k == stdlib::ParamKind::Value; }

// A graph applying `op` to one f32[3, 3] input, its other parameters at their
// defaults; null when the op needs more (several tensors, a required
// static argument, the effect token) or rejects that operand.
std::shared_ptr<tracer::Graph> one_operand_graph(const OpDef& op) {
    int operands = 0;
    for (const stdlib::ParamDef& p : op.params) {
        if (is_operand(p.kind)) ++operands;
        else if (p.required) return nullptr;
    }
    if (operands != 1 || op.has_effect()) return nullptr;
    auto g = std::make_shared<tracer::Graph>("f");
    const tracer::ValueId x = g->add_input({stdlib::DType::F32, stdlib::Shape{3, 3}, false}, "x");
    tracer::ValueId y;
    try {
        y = g->apply1(op, std::span<const tracer::ValueId>(&x, 1));
    } catch (const stdlib::OpError&) {
        return nullptr;
    }
    g->yield(std::span<const tracer::ValueId>(&y, 1));
    return g;
}

}  // namespace

TEST_CASE("every op is mapped to ONNX or says why not") {
    int mapped = 0, unmapped = 0;
    for (const OpDef* op : stdlib::all_ops()) {
        const MappingStatus s = onnx_export::mapping_status(*op);
        CHECK_MESSAGE((s.mapped || !s.reason.empty()),
                      "op `" << op->name
                             << "` has no ONNX mapping and no reason: add its case to route() in "
                                "onnx_export/map_ops.cpp (docs/adding-an-op.md)");
        if (s.mapped) CHECK_MESSAGE(s.reason.empty(), "op `" << op->name << "` is mapped but gives a reason");
        ++(s.mapped ? mapped : unmapped);
    }
    CHECK(mapped > 100);
    // unmapped, each with its reason: tensor, the random ops, the saved-value
    // stack, inv, solve, _median_weights and the seven decompositions
    CHECK(unmapped < 20);
}

TEST_CASE("an op without a kind has no mapping") {
    const OpDef untyped{"untyped", {}, nullptr, nullptr, 0, "", {}};
    const MappingStatus s = onnx_export::mapping_status(untyped);
    CHECK(!s.mapped);
    CHECK(!s.reason.empty());
}

TEST_CASE("exporting an op does what its mapping status says") {
    int exported = 0;
    for (const OpDef* op : stdlib::all_ops()) {
        const std::shared_ptr<tracer::Graph> g = one_operand_graph(*op);
        if (!g) continue;
        INFO("op `" << op->name << "`");
        const tracer::GraphFunction f = tracer::flat_function(g);
        if (onnx_export::mapping_status(*op).mapped) {
            CHECK_NOTHROW(onnx_export::write_onnx(f));
            ++exported;
        } else {
            CHECK_THROWS_WITH_AS(onnx_export::write_onnx(f),
                                 ("cannot export `" + std::string(op->name) + "` to ONNX: it has no ONNX mapping").c_str(),
                                 onnx_export::ExportError);
        }
    }
    CHECK(exported > 50);
}
