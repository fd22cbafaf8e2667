// Which element-wise ops compiled code computes itself, and in which types
// (the stdlib's own signature rules decide, so promotion is the eager one).
#include <exception>

#include "codegen/lowerer.hpp"

namespace tg::codegen::detail {

std::optional<NativeOp> native_of(const Graph& g, const Node& n) {
    if (n.op != Op::Apply || !(n.def->flags & stdlib::kElementwise) || (n.def->flags & stdlib::kRandom)) return {};
    auto in = [&](size_t i) -> const TensorType& { return g.tensor_type(n.operands[i]); };
    NativeOp op;
    try {
        for (int k = 0; k < 18; ++k) {
            auto bk = static_cast<BinaryKind>(k);
            if (n.def->name != stdlib::binary_name(bk)) continue;
            const stdlib::OpSignature s = stdlib::binary_signature(bk, in(0).dtype, in(0).weak, in(1).dtype, in(1).weak);
            op.kind = NativeOp::Binary;
            op.bk = bk;
            op.compute = ty_of(s.compute);
            if (op.compute == Ty::B && (bk == BinaryKind::Sub || bk == BinaryKind::Div || bk == BinaryKind::FloorDiv ||
                                        bk == BinaryKind::Mod || bk == BinaryKind::Pow))
                return {};
            op.may_raise = is_int_ty(op.compute) &&
                           (bk == BinaryKind::FloorDiv || bk == BinaryKind::Mod || bk == BinaryKind::Pow);
            return op;
        }
        for (int k = 0; k < stdlib::kNumUnaryKinds; ++k) {
            auto uk = static_cast<UnaryKind>(k);
            if (n.def->name != stdlib::unary_name(uk)) continue;
            const stdlib::OpSignature s = stdlib::unary_signature(uk, in(0).dtype, in(0).weak);
            op.kind = NativeOp::Unary;
            op.uk = uk;
            op.compute = ty_of(s.compute);
            if (op.compute == Ty::B && uk == UnaryKind::Neg) return {};
            if (is_float_ty(op.compute) && uk == UnaryKind::Invert) return {};
            return op;
        }
        if (n.def->name == "astype") {
            op.kind = NativeOp::AsType;
            return op;
        }
        if (n.def->name == "where") {
            op.kind = NativeOp::Where;
            return op;
        }
        if (n.def->name == "clip") {
            const stdlib::OpSignature s1 =
                stdlib::binary_signature(BinaryKind::Maximum, in(0).dtype, in(0).weak, in(1).dtype, in(1).weak);
            const stdlib::OpSignature s2 =
                stdlib::binary_signature(BinaryKind::Minimum, s1.result, s1.weak, in(2).dtype, in(2).weak);
            op.kind = NativeOp::Clip;
            op.compute = ty_of(s1.compute);
            op.mid = storage_ty(s1.result, s1.weak);
            op.compute2 = ty_of(s2.compute);
            return op;
        }
    } catch (const std::exception&) {
        return {};  // the kernel rejects these dtypes: leave the error to the runtime
    }
    return {};
}

}  // namespace tg::codegen::detail
