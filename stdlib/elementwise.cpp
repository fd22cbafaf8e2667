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
void add_binary(OpRegistry& r, std::string_view doc) {
    r.add(OpDef{binary_name(K), {{"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}}, &infer_binary<K>,
                &eager_binary<K>, kElementwise, doc});
}

template <UnaryKind K>
void add_unary(OpRegistry& r, std::string_view doc) {
    r.add(OpDef{unary_name(K), {{"x", ParamKind::Tensor}}, &infer_unary<K>, &eager_unary<K>, kElementwise, doc});
}

}  // namespace

const OpDef& binary_op(BinaryKind kind) {
    static const OpDef* const ops[] = {
#define TG_B(K) find_op(binary_name(BinaryKind::K))
        TG_B(Add), TG_B(Sub), TG_B(Mul), TG_B(Div), TG_B(FloorDiv), TG_B(Mod), TG_B(Pow), TG_B(Maximum),
        TG_B(Minimum), TG_B(Eq), TG_B(Ne), TG_B(Lt), TG_B(Le), TG_B(Gt), TG_B(Ge), TG_B(BitAnd), TG_B(BitOr),
        TG_B(BitXor),
#undef TG_B
    };
    return *ops[static_cast<int>(kind)];
}

void register_elementwise_ops(OpRegistry& r) {
    using B = BinaryKind;
    add_binary<B::Add>(r, "a + b, element-wise with broadcasting");
    add_binary<B::Sub>(r, "a - b");
    add_binary<B::Mul>(r, "a * b");
    add_binary<B::Div>(r, "a / b, true division (integers give f32)");
    add_binary<B::FloorDiv>(r, "a // b, Python's floor division");
    add_binary<B::Mod>(r, "a % b, Python's modulo (the sign follows b)");
    add_binary<B::Pow>(r, "a ** b");
    add_binary<B::Maximum>(r, "element-wise maximum (NaN propagates)");
    add_binary<B::Minimum>(r, "element-wise minimum (NaN propagates)");
    add_binary<B::Eq>(r, "a == b");
    add_binary<B::Ne>(r, "a != b");
    add_binary<B::Lt>(r, "a < b");
    add_binary<B::Le>(r, "a <= b");
    add_binary<B::Gt>(r, "a > b");
    add_binary<B::Ge>(r, "a >= b");
    add_binary<B::BitAnd>(r, "a & b on bool and integer tensors");
    add_binary<B::BitOr>(r, "a | b on bool and integer tensors");
    add_binary<B::BitXor>(r, "a ^ b on bool and integer tensors");

    using U = UnaryKind;
    add_unary<U::Neg>(r, "-x");
    add_unary<U::Invert>(r, "~x: bitwise not (logical not for bool)");
    add_unary<U::LogicalNot>(r, "not x, element-wise: x == 0");
    add_unary<U::Abs>(r, "absolute value");
    add_unary<U::Exp>(r, "e ** x");
    add_unary<U::Log>(r, "natural logarithm");
    add_unary<U::Log1p>(r, "log(1 + x), accurate for small x");
    add_unary<U::Sqrt>(r, "square root");
    add_unary<U::Rsqrt>(r, "1 / sqrt(x)");
    add_unary<U::Sin>(r, "sine");
    add_unary<U::Cos>(r, "cosine");
    add_unary<U::Tan>(r, "tangent");
    add_unary<U::Tanh>(r, "hyperbolic tangent");
    add_unary<U::Sigmoid>(r, "1 / (1 + exp(-x))");
    add_unary<U::Relu>(r, "maximum(x, 0)");
    add_unary<U::Floor>(r, "round toward -inf");
    add_unary<U::Ceil>(r, "round toward +inf");
    add_unary<U::Round>(r, "round half to even");
    add_unary<U::Sign>(r, "-1, 0 or 1 (NaN stays NaN)");
    add_unary<U::Square>(r, "x * x");
    add_unary<U::IsNan>(r, "x is NaN");
    add_unary<U::IsFinite>(r, "x is neither inf nor NaN");

    r.add(OpDef{"where",
                {{"c", ParamKind::Tensor}, {"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}},
                &infer_where, &eager_where, kElementwise, "a where c is nonzero, else b"});
    r.add(OpDef{"clip",
                {{"x", ParamKind::Tensor}, {"lo", ParamKind::Tensor}, {"hi", ParamKind::Tensor}},
                &infer_clip, &eager_clip, kElementwise, "minimum(maximum(x, lo), hi)"});
    r.add(OpDef{"astype", {{"x", ParamKind::Tensor}, {"dtype", ParamKind::DType}}, &infer_astype, &eager_astype,
                kElementwise, "x converted to dtype (float to integer truncates toward zero)"});
}

}  // namespace tg::stdlib
