// Registration of the reductions in the op table (kernels in reduce.cpp).
#include "stdlib/op_registry.hpp"
#include "stdlib/reduce.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

namespace {

template <ReduceKind K>
TensorType infer(const TypeArgs& a) {
    return reduce_type(K, a.inputs[0], a.attrs[1], kern::attr_bool(reduce_name(K), "keepdims", a.attrs[2]));
}

template <ReduceKind K>
Tensor eager(OpContext&, const OpArgs& a) {
    return reduce(K, a.inputs[0], a.attrs[1], kern::attr_bool(reduce_name(K), "keepdims", a.attrs[2]));
}

template <ReduceKind K>
OpDef reduction(std::string_view doc) {
    return OpDef{reduce_name(K),
                 {{"x", ParamKind::Tensor},
                  {"axis", ParamKind::Axis, false, std::monostate{}},
                  {"keepdims", ParamKind::Bool, false, false}},
                 &infer<K>,
                 &eager<K>,
                 kReduction,
                 doc,
                 K};
}

}  // namespace

void register_reduction_ops(OpRegistry& r) {
    // every row of op_kinds.hpp's TG_REDUCE_OPS, in its order
#define TG_ADD_(K, NAME, DOC) r.add(reduction<ReduceKind::K>(DOC));
    TG_REDUCE_OPS(TG_ADD_)
#undef TG_ADD_
}

}  // namespace tg::stdlib
