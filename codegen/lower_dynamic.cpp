// Dynamic dimensions in the lowering (docs/codegen.md "Dynamic dimensions"):
// a generalized trace marks some dimensions with a symbol whose size is read
// from an input when the graph runs. Values whose only dynamic dimension is
// axis 0 keep static strides, so their fused loops and reductions are the
// static ones with the outer bound read at run time; everything else dynamic
// runs in the runtime on real tensors.
#include <algorithm>

#include "codegen/lowerer.hpp"

namespace tg::codegen::detail {

std::vector<int64_t> Lowerer::plan_sizes(const Graph& g) {
    std::vector<int64_t> sizes;
    const std::vector<ValueId> inputs = g.inputs();
    for (const tracer::SymbolSource& s : g.symbol_sources()) {
        const Shape& shape = g.tensor_type(inputs.at(s.input)).shape;
        // at least 2, as at run time: planning must never take the dimension for a broadcast one
        sizes.push_back(std::max<int64_t>(2, shape[s.axis]));
    }
    return sizes;
}

bool Lowerer::batch_only(ValueId v) const {
    const int rank = g_.tensor_type(v).shape.rank();
    for (int a = 1; a < rank; ++a)
        if (g_.dim_symbol(v, a) >= 0) return false;
    return true;
}

bool Lowerer::fusable_dims(const Node& node) const {
    const ValueId r = node.results[0];
    bool any = dynamic(r);
    for (ValueId o : node.operands) any = any || (tensor(o) && dynamic(o));
    if (!any) return true;
    if (!batch_only(r)) return false;
    const int sym = g_.dim_symbol(r, 0), rank = g_.tensor_type(r).shape.rank();
    if (sym < 0) return false;  // a static result of dynamic operands: the runtime checks it
    for (ValueId o : node.operands) {
        if (!tensor(o)) continue;
        const Shape& s = g_.tensor_type(o).shape;
        if (dynamic(o)) {
            if (!batch_only(o) || s.rank() != rank || g_.dim_symbol(o, 0) != sym) return false;
        } else if (s.rank() == rank && s[0] != 1) {
            return false;  // a static extent against the dynamic one: the runtime raises eager's error
        }
    }
    return true;
}

bool Lowerer::same_dims(ValueId a, ValueId b) const {
    if (!(plan_shape(a) == plan_shape(b))) return false;
    const int rank = g_.tensor_type(a).shape.rank();
    for (int k = 0; k < rank; ++k)
        if (g_.dim_symbol(a, k) != g_.dim_symbol(b, k)) return false;
    return true;
}

std::string Lowerer::extent(int64_t planned, int sym) {
    if (sym < 0) return std::to_string(planned);
    const int64_t factor = planned / plan_sizes_[static_cast<size_t>(sym)];
    const std::string n = "%dim" + std::to_string(sym);
    return factor == 1 ? n : b_.def("mul i64 " + n + ", " + std::to_string(factor));
}

void Lowerer::load_dims() {
    for (int k = 0; k < g_.num_dim_symbols(); ++k)
        b_.emit("%dim" + std::to_string(k) + " = call i64 @tg_rt_dim(ptr %ctx, i32 " + std::to_string(k) + ")");
}

}  // namespace tg::codegen::detail
