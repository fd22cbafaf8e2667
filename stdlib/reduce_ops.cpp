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
                 doc};
}

}  // namespace

void register_reduction_ops(OpRegistry& r) {
    r.add(reduction<ReduceKind::Sum>("sum of the elements over the given axes (pairwise for floats; ints give i64)"));
    r.add(reduction<ReduceKind::Mean>("arithmetic mean over the given axes (ints give f32)"));
    r.add(reduction<ReduceKind::Max>("largest element over the given axes (NaN propagates)"));
    r.add(reduction<ReduceKind::Min>("smallest element over the given axes (NaN propagates)"));
    r.add(reduction<ReduceKind::Prod>("product of the elements over the given axes (ints give i64)"));
    r.add(reduction<ReduceKind::Argmax>("index (i64) of the first largest element, over all elements or one axis"));
    r.add(reduction<ReduceKind::Argmin>("index (i64) of the first smallest element, over all elements or one axis"));
    r.add(reduction<ReduceKind::Any>("True if any element over the given axes is nonzero"));
    r.add(reduction<ReduceKind::All>("True if every element over the given axes is nonzero"));
    r.add(reduction<ReduceKind::Logsumexp>("log(sum(exp(x))) over the given axes, computed stably"));
}

}  // namespace tg::stdlib
