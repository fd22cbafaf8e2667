#include "onnx_export/index_mapping.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "onnx_export/mapping.hpp"

namespace tg::onnx_export {

using stdlib::DType;
using stdlib::IndexItem;

namespace {

// What one axis of x is indexed by: an int (static, or a traced 0-d int) or
// the positions a slice selects.
struct AxisSel {
    bool is_int = false;
    int64_t index = 0;               // a static int, normalized
    std::string dynamic;             // or the name of a traced 0-d int
    DType dynamic_dtype = DType::I64;
    std::vector<int64_t> positions;  // a slice
};

// The positions of Python's slice lo:hi:step on an axis of size n.
std::vector<int64_t> slice_positions(const IndexItem& it, int64_t n) {
    const int64_t step = it.step.value_or(1);
    auto bound = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v < 0 ? *v + n : *v;
        return step > 0 ? std::clamp<int64_t>(x, 0, n) : std::clamp<int64_t>(x, -1, n - 1);
    };
    const int64_t lo = bound(it.lo, step > 0 ? 0 : n - 1);
    const int64_t hi = bound(it.hi, step > 0 ? n : -1);
    std::vector<int64_t> out;
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) out.push_back(i);
    return out;
}

std::vector<int64_t> all_positions(int64_t n) {
    std::vector<int64_t> p(static_cast<size_t>(n));
    std::iota(p.begin(), p.end(), int64_t{0});
    return p;
}

std::vector<AxisSel> selections(const IndexOperands& io, size_t first_dynamic) {
    const tracer::IndexSpec& spec = std::get<tracer::IndexSpec>(io.node.payload);
    const stdlib::Shape& shape = io.g.tensor_type(io.node.operands[0]).shape;
    const int rank = shape.rank();
    int used = 0;
    for (const IndexItem& it : spec.items)
        if (it.kind != IndexItem::Ellipsis) ++used;
    std::vector<AxisSel> axes;
    auto full = [&] {
        AxisSel s;
        s.positions = all_positions(shape[static_cast<int>(axes.size())]);
        axes.push_back(std::move(s));
    };
    size_t k = first_dynamic;
    for (size_t i = 0; i < spec.items.size(); ++i) {
        const IndexItem& it = spec.items[i];
        if (it.kind == IndexItem::Ellipsis) {
            for (int j = used; j < rank; ++j) full();
            continue;
        }
        const int64_t n = shape[static_cast<int>(axes.size())];
        AxisSel s;
        if (it.kind == IndexItem::Slice) {
            s.positions = slice_positions(it, n);
        } else if (spec.dynamic[i]) {
            s.is_int = true;
            const tracer::ValueId v = io.node.operands[k++];
            s.dynamic = io.names[v];
            s.dynamic_dtype = storage_dtype(io.g.tensor_type(v));
        } else {
            s.is_int = true;
            s.index = it.index < 0 ? it.index + n : it.index;
        }
        axes.push_back(std::move(s));
    }
    while (static_cast<int>(axes.size()) < rank) full();
    return axes;
}

struct Grid {
    std::string indices;  // i64 of shape region + [rank]
    stdlib::Shape region;
};

// The index grid of x[items]; traced ints are the node's operands from `first_dynamic` on.
Grid index_grid(const IndexOperands& io, size_t first_dynamic) {
    Emitter& e = io.e;
    const stdlib::Shape& shape = io.g.tensor_type(io.node.operands[0]).shape;
    const int rank = shape.rank();
    const std::vector<AxisSel> axes = selections(io, first_dynamic);
    Grid grid;
    std::vector<int> sliced;  // the axes of x the region's axes walk
    for (int a = 0; a < rank; ++a)
        if (!axes[a].is_int) {
            grid.region.push_back(static_cast<int64_t>(axes[a].positions.size()));
            sliced.push_back(a);
        }
    stdlib::Shape grid_shape = grid.region;
    grid_shape.push_back(rank);
    stdlib::Tensor t = stdlib::Tensor::zeros(DType::I64, grid_shape);
    int64_t* p = t.data<int64_t>();
    const int64_t count = grid.region.numel();
    std::vector<int64_t> at(sliced.size(), 0);  // the current position in the region
    for (int64_t i = 0; i < count; ++i) {
        size_t s = 0;
        for (int a = 0; a < rank; ++a)
            p[i * rank + a] = axes[a].is_int ? axes[a].index : axes[a].positions[static_cast<size_t>(at[s++])];
        for (size_t d = sliced.size(); d-- > 0;) {  // the next position, row-major
            if (++at[d] < grid.region[static_cast<int>(d)]) break;
            at[d] = 0;
        }
    }
    grid.indices = e.constant(t);
    for (int a = 0; a < rank; ++a) {
        if (axes[a].dynamic.empty()) continue;
        const std::string idx = e.reshape(e.cast(axes[a].dynamic, axes[a].dynamic_dtype, DType::I64), stdlib::Shape{1});
        const std::string wrapped =
            e.where(e.op("Less", {idx, e.scalar_i64(0)}).out, e.op("Add", {idx, e.scalar_i64(shape[a])}).out, idx);
        std::vector<int64_t> unit(static_cast<size_t>(rank), 0);
        unit[static_cast<size_t>(a)] = 1;
        grid.indices = e.op("Add", {grid.indices, e.op("Mul", {wrapped, e.const_i64(unit)}).out}).out;
    }
    return grid;
}

}  // namespace

std::string map_index(const IndexOperands& io) {
    const tracer::ValueId x = io.node.operands[0];
    const Grid grid = index_grid(io, 1);
    const std::string r = io.e.op("GatherND", {io.names[x], grid.indices}).out;
    return io.e.cast(r, storage_dtype(io.g.tensor_type(x)), storage_dtype(io.g.tensor_type(io.node.results[0])));
}

std::string map_index_assign(const IndexOperands& io) {
    Emitter& e = io.e;
    const tracer::ValueId x = io.node.operands[0], v = io.node.operands[1];
    const DType xd = storage_dtype(io.g.tensor_type(x));
    const Grid grid = index_grid(io, 2);
    std::vector<int64_t> region(grid.region.begin(), grid.region.end());
    const std::string updates =
        e.op("Expand", {e.cast(io.names[v], storage_dtype(io.g.tensor_type(v)), xd), e.const_i64(region)}).out;
    const std::string r = e.op("ScatterND", {io.names[x], grid.indices, updates}).out;
    return e.cast(r, xd, storage_dtype(io.g.tensor_type(io.node.results[0])));
}

}  // namespace tg::onnx_export
