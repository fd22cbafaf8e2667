// Scans and sorts: cumsum (ONNX's CumSum), cumprod (a Loop, as ONNX has no
// cumulative product), and sort / argsort (TopK, stable and NaN last).
#include <cstdint>
#include <string>
#include <vector>

#include "onnx_export/mapping.hpp"

namespace tg::onnx_export {

using stdlib::DType;

// ONNX's TopK (smallest first, sorted) breaks ties by the lower index, so it
// is a stable sort. NaN goes last, as in tg: sort by the value (NaN as 0),
// then stably by isnan.
std::string sorted_indices(Emitter& e, const std::string& x, DType d, int64_t axis, int64_t len) {
    const DType kd = d == DType::Bool ? DType::I32 : d;
    const std::string key = e.cast(x, d, kd);
    const std::string k = e.const_i64({len});
    auto order = [&](const std::string& v) {
        const std::string values = e.names().next(), indices = e.names().next();
        e.op_outputs("TopK", {v, k}, {values, indices}).attr("axis", axis).attr("largest", int64_t{0}).attr("sorted", int64_t{1});
        return indices;
    };
    if (!stdlib::is_float(kd)) return order(key);
    auto along = [&](const std::string& v, const std::string& idx) {
        return e.op("GatherElements", {v, idx}).attr("axis", axis).out;
    };
    const std::string nan = e.op("IsNaN", {key}).out;
    const std::string first = order(e.where(nan, e.scalar(0, kd), key));
    return along(first, order(e.cast(along(nan, first), DType::Bool, kd)));
}

namespace {

int64_t norm_axis(int64_t a, int rank) { return a < 0 ? a + rank : a; }

// sort / argsort on the order of sorted_indices (above).
template <bool Indices>
std::string sort_along(ApplyCtx& c) {
    Emitter& e = c.e;
    const DType xd = c.in[0].storage;
    const stdlib::Shape& shape = c.out.shape;  // x's, or flattened when axis is None
    const int rank = shape.rank();
    if (rank == 0) return Indices ? e.scalar_i64(0) : c.arg(0, c.out_storage);
    const int64_t axis = std::holds_alternative<std::monostate>(c.attr(1)) ? 0 : norm_axis(c.attr_int(1), rank);
    const std::string x = e.reshape(c.in[0].name, shape);
    const std::string idx = sorted_indices(e, x, xd, axis, shape[static_cast<int>(axis)]);
    return Indices ? idx : e.op("GatherElements", {x, idx}).attr("axis", axis).out;
}

}  // namespace

std::string map_sort(ApplyCtx& c) { return sort_along<false>(c); }
std::string map_argsort(ApplyCtx& c) { return sort_along<true>(c); }

std::string map_cumsum(ApplyCtx& c) {
    Emitter& e = c.e;
    std::string x = c.arg(0, c.out_storage);
    int64_t axis = 0;
    if (std::holds_alternative<std::monostate>(c.attr(1)) || c.in[0].type.shape.rank() == 0)
        x = e.reshape(x, stdlib::Shape{c.in[0].type.shape.numel()});
    else
        axis = c.axes(1, c.in[0].type.shape.rank())[0];
    return e.op("CumSum", {x, e.scalar_i64(axis)}).out;
}

// cumprod: no ONNX op; a Loop over the axis multiplies in tg's order (so
// floats round as tg's do and integers wrap), its scan output the result.
std::string map_cumprod(ApplyCtx& c) {
    Emitter& e = c.e;
    const DType d = c.out_storage;
    const stdlib::Shape& xs = c.in[0].type.shape;
    std::string x = c.arg(0, d);
    stdlib::Shape shape = xs;
    int64_t axis = 0;
    if (std::holds_alternative<std::monostate>(c.attr(1)) || xs.rank() == 0) {
        shape = stdlib::Shape{xs.numel()};
        x = e.reshape(x, shape);
    } else {
        axis = c.axes(1, xs.rank())[0];
    }
    const int rank = shape.rank();
    std::vector<int64_t> front{axis}, back(static_cast<size_t>(rank));
    for (int64_t a = 0; a < rank; ++a)
        if (a != axis) front.push_back(a);
    for (int64_t a = 0; a < rank; ++a) back[static_cast<size_t>(front[static_cast<size_t>(a)])] = a;
    stdlib::Shape rest;
    for (size_t a = 1; a < front.size(); ++a) rest.push_back(shape[static_cast<int>(front[a])]);
    const std::string xt = e.op("Transpose", {x}).attr("perm", front).out;

    onnx::GraphProto body;
    body.set_name(e.names().next("cumprod"));
    Emitter b(body, e.names());
    const std::string iter = e.names().next("iter"), cond = e.names().next("cond"), acc = e.names().next("acc");
    Emitter::declare(*body.add_input(), iter, DType::I64, {});
    Emitter::declare(*body.add_input(), cond, DType::Bool, {});
    Emitter::declare(*body.add_input(), acc, d, rest);
    const std::string xi = b.op("Gather", {xt, iter}).attr("axis", int64_t{0}).out;
    const std::string next = b.op(d == DType::Bool ? "And" : "Mul", {acc, xi}).out;
    const std::string cond_out = b.op("Identity", {cond}).out, carried = b.op("Identity", {next}).out,
                      scanned = b.op("Identity", {next}).out;
    Emitter::declare(*body.add_output(), cond_out, DType::Bool, {});
    Emitter::declare(*body.add_output(), carried, d, rest);
    Emitter::declare(*body.add_output(), scanned, d, rest);

    std::vector<int64_t> rest_dims(rest.begin(), rest.end());
    const std::string ones = e.op("Expand", {e.scalar(1, d), e.const_i64(rest_dims)}).out;
    const std::string final_acc = e.names().next(), out = e.names().next();
    e.op_outputs("Loop", {e.scalar_i64(shape[static_cast<int>(axis)]), "", ones}, {final_acc, out})
        .attr("body", std::move(body));
    return e.op("Transpose", {out}).attr("perm", back).out;
}

}  // namespace tg::onnx_export
