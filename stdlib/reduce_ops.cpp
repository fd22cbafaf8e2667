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

constexpr bool has_ddof(ReduceKind k) { return k == ReduceKind::Var || k == ReduceKind::Std; }

template <ReduceKind K>
Tensor eager(OpContext&, const OpArgs& a) {
    const double ddof = has_ddof(K) ? kern::attr_number(reduce_name(K), "ddof", a.attrs[3]) : 0.0;
    return reduce(K, a.inputs[0], a.attrs[1], kern::attr_bool(reduce_name(K), "keepdims", a.attrs[2]), ddof);
}

template <ReduceKind K>
std::vector<ParamDef> params() {
    std::vector<ParamDef> p = {{"x", ParamKind::Tensor},
                               {"axis", ParamKind::Axis, false, std::monostate{}},
                               {"keepdims", ParamKind::Bool, false, false}};
    if (has_ddof(K)) p.push_back({"ddof", ParamKind::Scalar, false, int64_t{0}});  // var and std
    return p;
}

// _median_weights(x, axis): the gradient rule of median (reduce.hpp's median_weights).
TensorType infer_median_weights(const TypeArgs& a) {
    kern::attr_axes("median", a.attrs[1], a.inputs[0].shape.rank());
    return {is_float(a.inputs[0].dtype) ? a.inputs[0].dtype : DType::F32, a.inputs[0].shape, false};
}
Tensor eager_median_weights(OpContext&, const OpArgs& a) { return median_weights(a.inputs[0], a.attrs[1]); }

template <ReduceKind K>
OpDef reduction(std::string_view doc) {
    return OpDef{reduce_name(K),
                 params<K>(),
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
    r.add(OpDef{"_median_weights",
                {{"x", ParamKind::Tensor}, {"axis", ParamKind::Axis, false, std::monostate{}}},
                &infer_median_weights, &eager_median_weights, kInternal,
                "the weight of each element in median(x, axis): what its gradient gives each",
                OtherKind::MedianWeights});
}

}  // namespace tg::stdlib
