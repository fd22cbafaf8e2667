// Registration of the element-wise ops: shape-and-dtype rules (no data) and
// eager kernels, one OpDef per builtin.
#include <string>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/elementwise.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

namespace {

template <BinaryKind K>
TensorType infer_binary(const TypeArgs& args) {
    const TensorType& a = args.inputs[0];
    const TensorType& b = args.inputs[1];
    const OpSignature s = binary_signature(K, a.dtype, a.weak, b.dtype, b.weak);
    return {s.result, broadcast_shapes(binary_name(K), a.shape, b.shape), s.weak};
}

template <BinaryKind K>
Tensor eager_binary(OpContext&, const OpArgs& args) {
    return binary(K, args.inputs[0], args.inputs[1]);
}

template <UnaryKind K>
TensorType infer_unary(const TypeArgs& args) {
    const TensorType& x = args.inputs[0];
    const OpSignature s = unary_signature(K, x.dtype, x.weak);
    return {s.result, x.shape, s.weak};
}

template <UnaryKind K>
Tensor eager_unary(OpContext&, const OpArgs& args) {
    return unary(K, args.inputs[0]);
}

TensorType infer_where(const TypeArgs& args) {
    const TensorType &c = args.inputs[0], &a = args.inputs[1], &b = args.inputs[2];
    const Shape shapes[] = {c.shape, a.shape, b.shape};
    return {promote(a.dtype, a.weak, b.dtype, b.weak).dtype, broadcast_shapes("where", shapes), false};
}

Tensor eager_where(OpContext&, const OpArgs& args) { return where(args.inputs[0], args.inputs[1], args.inputs[2]); }

TensorType infer_clip(const TypeArgs& args) {
    const TensorType &x = args.inputs[0], &lo = args.inputs[1], &hi = args.inputs[2];
    const Shape shapes[] = {x.shape, lo.shape, hi.shape};
    const Shape shape = broadcast_shapes("clip", shapes);
    const OpSignature s1 = binary_signature(BinaryKind::Maximum, x.dtype, x.weak, lo.dtype, lo.weak);
    const OpSignature s2 = binary_signature(BinaryKind::Minimum, s1.result, s1.weak, hi.dtype, hi.weak);
    return {s2.result, shape, s2.weak};
}

Tensor eager_clip(OpContext&, const OpArgs& args) { return clip(args.inputs[0], args.inputs[1], args.inputs[2]); }

DType dtype_attr(const OpArgs& args, size_t i) { return std::get<DType>(args.attrs[i]); }

TensorType infer_astype(const TypeArgs& args) {
    return {std::get<DType>(args.attrs[1]), args.inputs[0].shape, false};
}

Tensor eager_astype(OpContext&, const OpArgs& args) { return cast(args.inputs[0], dtype_attr(args, 1)); }

template <BinaryKind K>
void add_binary(OpRegistry& r) {
    constexpr const BinaryRow& row = binary_row(K);
    r.add(OpDef{row.name, {{"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}}, &infer_binary<K>, &eager_binary<K>,
                kElementwise, row.doc, K, row.check.kind != IntCheck::None ? Raises::OnIntegers : Raises::Never});
}

template <UnaryKind K>
void add_unary(OpRegistry& r) {
    constexpr const UnaryRow& row = unary_row(K);
    r.add(OpDef{row.name, {{"x", ParamKind::Tensor}}, &infer_unary<K>, &eager_unary<K>, kElementwise, row.doc, K});
}

}  // namespace

const OpDef& binary_op(BinaryKind kind) { return op_of(kind); }

void register_elementwise_ops(OpRegistry& r) {
    // every row of op_kinds.hpp's tables, in their order
#define TG_ADD_(K, ...) add_binary<BinaryKind::K>(r);
    TG_BINARY_OPS(TG_ADD_)
#undef TG_ADD_
#define TG_ADD_(K, ...) add_unary<UnaryKind::K>(r);
    TG_UNARY_OPS(TG_ADD_)
#undef TG_ADD_

    r.add(OpDef{"where",
                {{"c", ParamKind::Tensor}, {"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}},
                &infer_where, &eager_where, kElementwise, "a where c is nonzero, else b", ElementwiseKind::Where});
    r.add(OpDef{"clip",
                {{"x", ParamKind::Tensor}, {"lo", ParamKind::Tensor}, {"hi", ParamKind::Tensor}},
                &infer_clip, &eager_clip, kElementwise, "minimum(maximum(x, lo), hi)", ElementwiseKind::Clip});
    r.add(OpDef{"astype", {{"x", ParamKind::Tensor}, {"dtype", ParamKind::DType}}, &infer_astype, &eager_astype,
                kElementwise, "x converted to dtype (float to integer truncates toward zero)", ElementwiseKind::AsType});
}

}  // namespace tg::stdlib
