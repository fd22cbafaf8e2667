// Which ops compiled code computes itself, and how: the rows of
// codegen/native_ops.hpp, one per element-wise op and reduction, and
// native_of, which decides per node in which types (the stdlib's own
// signature rules decide, so promotion is the eager one).
//
// Each row mirrors the op's functor in stdlib/elementwise_scalar.hpp (and
// convert in stdlib/cast.hpp): the same operations in the same order, so
// compiled results are bit-identical to eager ones. Runtime functions are the
// functors themselves (rt1 / rt2 below), so they cannot drift apart.
#include "codegen/native_ops.hpp"

#include <algorithm>
#include <array>
#include <exception>

#include "codegen/lowerer.hpp"
#include "stdlib/elementwise_scalar.hpp"

namespace tg::codegen {

using stdlib::BinaryKind;
using stdlib::ReduceKind;
using stdlib::UnaryKind;

namespace {

// ---- building blocks of rows
template <class E> constexpr ElemImpl<E> none() { return {}; }
template <class E> constexpr ElemImpl<E> same() { return {How::Identity}; }
template <class E> constexpr ElemImpl<E> lit(const char* v) { return {How::Literal, v}; }
template <class E> constexpr ElemImpl<E> inst(const char* i) { return {How::Inst, i}; }
template <class E> constexpr ElemImpl<E> intrinsic(const char* n) { return {How::Intrinsic, n}; }
template <class E> constexpr ElemImpl<E> call(const char* n) { return {How::Call, n}; }
template <class E> constexpr ElemImpl<E> emit(E fn) { return {How::Emit, nullptr, fn}; }

// The eager functor as the runtime function compiled code calls.
template <class Op, class T> T rt1(T x) { return Op::f(x); }
template <class Op, class T> T rt2(T a, T b) { return Op::f(a, b); }
#define TG_RT1(K) {&rt1<stdlib::elem::K, float>, &rt1<stdlib::elem::K, double>}
#define TG_RT2(K) {&rt2<stdlib::elem::K, float>, &rt2<stdlib::elem::K, double>}

std::string zero(Ty t) { return is_float_ty(t) ? "0.0" : (t == Ty::B ? "false" : "0"); }
std::string tx(Ty t, const std::string& x) { return std::string(llvm_ty(t)) + " " + x; }
std::string intrinsic_call(IrBuilder& b, const char* name, Ty t, const std::string& x) {
    return b.def("call " + std::string(llvm_ty(t)) + " @llvm." + name + "." + (t == Ty::F32 ? "f32" : "f64") + "(" +
                 tx(t, x) + ")");
}

// ---- unary emitters
std::string not_bool(IrBuilder& b, Ty, const std::string& x) { return b.def("xor i1 " + x + ", true"); }
std::string neg_int(IrBuilder& b, Ty t, const std::string& x) { return b.def("sub " + tx(t, "0, ") + x); }
std::string invert_int(IrBuilder& b, Ty t, const std::string& x) { return b.def("xor " + tx(t, x) + ", -1"); }
std::string is_zero(IrBuilder& b, Ty t, const std::string& x) {
    return b.def(std::string(is_float_ty(t) ? "fcmp oeq " : "icmp eq ") + tx(t, x) + ", " + zero(t));
}
std::string abs_int(IrBuilder& b, Ty t, const std::string& x) {
    const std::string T = llvm_ty(t);
    return b.def("select i1 " + b.def("icmp slt " + tx(t, x) + ", 0") + ", " + T + " " + b.def("sub " + T + " 0, " + x) +
                 ", " + tx(t, x));
}
std::string rsqrt(IrBuilder& b, Ty t, const std::string& x) {
    return b.def("fdiv " + tx(t, "1.0, ") + intrinsic_call(b, "sqrt", t, x));
}
std::string relu(IrBuilder& b, Ty t, const std::string& x) {
    const bool fl = is_float_ty(t);
    return b.def("select i1 " + b.def(std::string(fl ? "fcmp olt " : "icmp slt ") + tx(t, x) + ", " + zero(t)) + ", " +
                 tx(t, zero(t)) + ", " + tx(t, x));
}
// x > 0 ? 1 : (x < 0 ? -1 : (x == 0 ? +0 : x)): NumPy's sign(-0.0) is +0, NaN stays NaN
std::string sign_float(IrBuilder& b, Ty t, const std::string& x) {
    std::string gt = b.def("fcmp ogt " + tx(t, x) + ", 0.0");
    std::string lt = b.def("fcmp olt " + tx(t, x) + ", 0.0");
    std::string eq = b.def("fcmp oeq " + tx(t, x) + ", 0.0");
    std::string z = b.def("select i1 " + eq + ", " + tx(t, "0.0") + ", " + tx(t, x));
    std::string s = b.def("select i1 " + lt + ", " + tx(t, "-1.0") + ", " + tx(t, z));
    return b.def("select i1 " + gt + ", " + tx(t, "1.0") + ", " + tx(t, s));
}
std::string sign_int(IrBuilder& b, Ty t, const std::string& x) {
    const std::string T = llvm_ty(t);
    std::string gt = b.def("zext i1 " + b.def("icmp sgt " + tx(t, x) + ", 0") + " to " + T);
    std::string lt = b.def("zext i1 " + b.def("icmp slt " + tx(t, x) + ", 0") + " to " + T);
    return b.def("sub " + T + " " + gt + ", " + lt);
}
std::string square(IrBuilder& b, Ty t, const std::string& x) { return b.binary(BinaryKind::Mul, t, x, x, 0); }
std::string is_nan(IrBuilder& b, Ty t, const std::string& x) { return b.def("fcmp uno " + tx(t, x) + ", " + x); }
std::string is_inf(IrBuilder& b, Ty t, const std::string& x) {  // fabs(x) == inf
    return b.def("fcmp oeq " + tx(t, intrinsic_call(b, "fabs", t, x)) + ", 0x7FF0000000000000");
}
std::string reciprocal(IrBuilder& b, Ty t, const std::string& x) { return b.def("fdiv " + tx(t, "1.0, ") + x); }
std::string is_finite(IrBuilder& b, Ty t, const std::string& x) {
    return b.def("fcmp oeq " + tx(t, b.def("fsub " + tx(t, x) + ", " + x)) + ", 0.0");
}

// ---- binary emitters
template <BinaryKind K>
std::string int_divmod(IrBuilder& b, Ty t, const std::string& x, const std::string& y) {
    return b.int_floor_divmod(K, t, x, y);
}
template <bool IsMax>
std::string extreme_int(IrBuilder& b, Ty t, const std::string& x, const std::string& y) {
    const std::string T = llvm_ty(t);
    const std::string c = b.def(std::string(IsMax ? "icmp sgt " : "icmp slt ") + T + " " + x + ", " + y);
    return b.def("select i1 " + c + ", " + T + " " + x + ", " + T + " " + y);
}
template <bool IsMax>
std::string extreme_float(IrBuilder& b, Ty t, const std::string& x, const std::string& y) {  // (x > y || x != x) ? x : y
    const std::string T = llvm_ty(t);
    std::string c1 = b.def(std::string(IsMax ? "fcmp ogt " : "fcmp olt ") + T + " " + x + ", " + y);
    std::string c2 = b.def("fcmp uno " + T + " " + x + ", " + x);
    std::string c = b.def("or i1 " + c1 + ", " + c2);
    return b.def("select i1 " + c + ", " + T + " " + x + ", " + T + " " + y);
}

// elem::LeftShift / RightShift: LLVM's shifts are poison for a count of
// the width or more, so such counts select 0 (left) or shift by width - 1
// (right: -1 or 0, the sign); negative counts were checked before.
std::string shift_left(IrBuilder& b, Ty t, const std::string& x, const std::string& y) {
    const std::string T = llvm_ty(t);
    const std::string width = std::to_string(T == std::string_view("i32") ? 32 : 64);
    const std::string wide = b.def("icmp uge " + T + " " + y + ", " + width);
    const std::string s = b.def("shl " + T + " " + x + ", " + y);
    return b.def("select i1 " + wide + ", " + T + " 0, " + T + " " + s);
}
std::string shift_right(IrBuilder& b, Ty t, const std::string& x, const std::string& y) {
    const std::string T = llvm_ty(t);
    const int width = T == std::string_view("i32") ? 32 : 64;
    const std::string wide = b.def("icmp uge " + T + " " + y + ", " + std::to_string(width));
    const std::string n = b.def("select i1 " + wide + ", " + T + " " + std::to_string(width - 1) + ", " + T + " " + y);
    return b.def("ashr " + T + " " + x + ", " + n);
}

using U = UnaryEmit;
using B = BinaryEmit;

// ---- the rows: {kind, bool, integers, floats[, runtime functions]}
const UnaryLowering kUnaryRows[] = {
    {UnaryKind::Neg, none<U>(), emit<U>(neg_int), inst<U>("fneg")},
    {UnaryKind::Invert, emit<U>(not_bool), emit<U>(invert_int), none<U>()},
    {UnaryKind::LogicalNot, emit<U>(not_bool), emit<U>(is_zero), emit<U>(is_zero)},
    {UnaryKind::Abs, same<U>(), emit<U>(abs_int), intrinsic<U>("fabs")},
    {UnaryKind::Exp, none<U>(), none<U>(), call<U>("exp")},  // fastmath IR (ir_fastmath.cpp)
    {UnaryKind::Expm1, none<U>(), none<U>(), call<U>("expm1"), TG_RT1(Expm1)},
    {UnaryKind::Log, none<U>(), none<U>(), call<U>("log")},
    {UnaryKind::Log1p, none<U>(), none<U>(), call<U>("log1p"), TG_RT1(Log1p)},
    {UnaryKind::Sqrt, none<U>(), none<U>(), intrinsic<U>("sqrt")},
    {UnaryKind::Rsqrt, none<U>(), none<U>(), emit<U>(rsqrt)},
    {UnaryKind::Sin, none<U>(), none<U>(), call<U>("sin"), TG_RT1(Sin)},
    {UnaryKind::Cos, none<U>(), none<U>(), call<U>("cos"), TG_RT1(Cos)},
    {UnaryKind::Tan, none<U>(), none<U>(), call<U>("tan"), TG_RT1(Tan)},
    {UnaryKind::Tanh, none<U>(), none<U>(), call<U>("tanh")},
    {UnaryKind::Sigmoid, none<U>(), none<U>(), call<U>("sigmoid")},
    {UnaryKind::Relu, same<U>(), emit<U>(relu), emit<U>(relu)},
    {UnaryKind::Floor, same<U>(), same<U>(), intrinsic<U>("floor")},
    {UnaryKind::Ceil, same<U>(), same<U>(), intrinsic<U>("ceil")},
    {UnaryKind::Round, same<U>(), same<U>(), intrinsic<U>("nearbyint")},
    {UnaryKind::Sign, same<U>(), emit<U>(sign_int), emit<U>(sign_float)},
    {UnaryKind::Square, emit<U>(square), emit<U>(square), emit<U>(square)},
    {UnaryKind::IsNan, lit<U>("false"), lit<U>("false"), emit<U>(is_nan)},
    {UnaryKind::IsFinite, lit<U>("true"), lit<U>("true"), emit<U>(is_finite)},
    {UnaryKind::IsInf, lit<U>("false"), lit<U>("false"), emit<U>(is_inf)},
    {UnaryKind::Log2, none<U>(), none<U>(), call<U>("log2"), TG_RT1(Log2)},
    {UnaryKind::Log10, none<U>(), none<U>(), call<U>("log10"), TG_RT1(Log10)},
    {UnaryKind::Asin, none<U>(), none<U>(), call<U>("asin"), TG_RT1(Asin)},
    {UnaryKind::Acos, none<U>(), none<U>(), call<U>("acos"), TG_RT1(Acos)},
    {UnaryKind::Atan, none<U>(), none<U>(), call<U>("atan"), TG_RT1(Atan)},
    {UnaryKind::Sinh, none<U>(), none<U>(), call<U>("sinh"), TG_RT1(Sinh)},
    {UnaryKind::Cosh, none<U>(), none<U>(), call<U>("cosh"), TG_RT1(Cosh)},
    {UnaryKind::Erf, none<U>(), none<U>(), call<U>("erf"), TG_RT1(Erf)},
    {UnaryKind::Gelu, none<U>(), none<U>(), call<U>("gelu"), TG_RT1(Gelu)},
    {UnaryKind::GeluTanh, none<U>(), none<U>(), call<U>("gelu_tanh"), TG_RT1(GeluTanh)},
    {UnaryKind::Softplus, none<U>(), none<U>(), call<U>("softplus"), TG_RT1(Softplus)},
    {UnaryKind::Trunc, same<U>(), same<U>(), intrinsic<U>("trunc")},
    {UnaryKind::Reciprocal, none<U>(), none<U>(), emit<U>(reciprocal)},
};

// Integer operands of rows with a stdlib::int_check are checked first (IrBuilder::binary).
const BinaryLowering kBinaryRows[] = {
    {BinaryKind::Add, inst<B>("or"), inst<B>("add"), inst<B>("fadd")},
    {BinaryKind::Sub, none<B>(), inst<B>("sub"), inst<B>("fsub")},
    {BinaryKind::Mul, inst<B>("and"), inst<B>("mul"), inst<B>("fmul")},
    {BinaryKind::Div, none<B>(), none<B>(), inst<B>("fdiv")},
    {BinaryKind::FloorDiv, none<B>(), emit<B>(int_divmod<BinaryKind::FloorDiv>), call<B>("floordiv")},  // prelude
    {BinaryKind::Mod, none<B>(), emit<B>(int_divmod<BinaryKind::Mod>), call<B>("mod")},                  // prelude
    {BinaryKind::Pow, none<B>(), call<B>("ipow"), call<B>("pow"), TG_RT2(Pow)},
    {BinaryKind::Maximum, inst<B>("or"), emit<B>(extreme_int<true>), emit<B>(extreme_float<true>)},
    {BinaryKind::Minimum, inst<B>("and"), emit<B>(extreme_int<false>), emit<B>(extreme_float<false>)},
    {BinaryKind::Eq, inst<B>("icmp eq"), inst<B>("icmp eq"), inst<B>("fcmp oeq")},
    {BinaryKind::Ne, inst<B>("icmp ne"), inst<B>("icmp ne"), inst<B>("fcmp une")},
    {BinaryKind::Lt, inst<B>("icmp ult"), inst<B>("icmp slt"), inst<B>("fcmp olt")},
    {BinaryKind::Le, inst<B>("icmp ule"), inst<B>("icmp sle"), inst<B>("fcmp ole")},
    {BinaryKind::Gt, inst<B>("icmp ugt"), inst<B>("icmp sgt"), inst<B>("fcmp ogt")},
    {BinaryKind::Ge, inst<B>("icmp uge"), inst<B>("icmp sge"), inst<B>("fcmp oge")},
    {BinaryKind::BitAnd, inst<B>("and"), inst<B>("and"), none<B>()},
    {BinaryKind::BitOr, inst<B>("or"), inst<B>("or"), none<B>()},
    {BinaryKind::BitXor, inst<B>("xor"), inst<B>("xor"), none<B>()},
    {BinaryKind::LeftShift, none<B>(), emit<B>(shift_left), none<B>()},
    {BinaryKind::RightShift, none<B>(), emit<B>(shift_right), none<B>()},
    {BinaryKind::Atan2, none<B>(), none<B>(), call<B>("atan2"), TG_RT2(Atan2)},
    {BinaryKind::Logaddexp, none<B>(), none<B>(), call<B>("logaddexp"), TG_RT2(Logaddexp)},
};

const ReduceLowering kReduceRows[] = {
    {ReduceKind::Sum, true},     {ReduceKind::Mean, true},    {ReduceKind::Max, true},
    {ReduceKind::Min, true},     {ReduceKind::Prod, true},    {ReduceKind::Argmax, false},
    {ReduceKind::Argmin, false}, {ReduceKind::Any, true},     {ReduceKind::All, true},
    {ReduceKind::Logsumexp, false}, {ReduceKind::Var, false},     {ReduceKind::Std, false},
    {ReduceKind::Median, false},
};

#undef TG_RT1
#undef TG_RT2

// Rows by kind (null where a kind has none).
template <class Row, size_t N, size_t M>
std::array<const Row*, N> index_rows(const Row (&rows)[M]) {
    std::array<const Row*, N> by_kind{};
    for (const Row& r : rows) by_kind[static_cast<size_t>(r.kind)] = &r;
    return by_kind;
}

}  // namespace

const UnaryLowering* unary_lowering(UnaryKind k) {
    static const auto rows = index_rows<UnaryLowering, stdlib::kNumUnaryKinds>(kUnaryRows);
    return rows[static_cast<size_t>(k)];
}
const BinaryLowering* binary_lowering(BinaryKind k) {
    static const auto rows = index_rows<BinaryLowering, stdlib::kNumBinaryKinds>(kBinaryRows);
    return rows[static_cast<size_t>(k)];
}
const ReduceLowering* reduce_lowering(ReduceKind k) {
    static const auto rows = index_rows<ReduceLowering, stdlib::kNumReduceKinds>(kReduceRows);
    return rows[static_cast<size_t>(k)];
}

Coverage coverage(const stdlib::OpDef& op) {
    if (const auto* k = std::get_if<UnaryKind>(&op.kind)) return unary_lowering(*k) ? Coverage::Native : Coverage::Missing;
    if (const auto* k = std::get_if<BinaryKind>(&op.kind))
        return binary_lowering(*k) ? Coverage::Native : Coverage::Missing;
    if (const auto* k = std::get_if<ReduceKind>(&op.kind)) {
        const ReduceLowering* r = reduce_lowering(*k);
        return !r ? Coverage::Missing : r->fused ? Coverage::Fused : Coverage::Runtime;
    }
    if (std::holds_alternative<stdlib::ElementwiseKind>(op.kind)) return Coverage::Native;  // native_of's switch
    // An element-wise op or reduction must have a kind and a row.
    if (op.flags & (stdlib::kElementwise | stdlib::kReduction)) return Coverage::Missing;
    // The other ops run through the runtime (tg_rt_node); an op without a kind has no rule at all.
    return std::holds_alternative<stdlib::OtherKind>(op.kind) ? Coverage::Runtime : Coverage::Missing;
}

std::string row_declarations() {
    std::string s;
    for (const char* T : {"float", "double"}) {
        const std::string t = T, sfx = t == "float" ? "f32" : "f64";
        const std::string attrs = " nounwind willreturn memory(none)\n";
        for (const UnaryLowering& r : kUnaryRows)
            if (r.runtime.f32) s += "declare " + t + " @tg_" + r.f.name + "_" + sfx + "(" + t + ")" + attrs;
        for (const BinaryLowering& r : kBinaryRows)
            if (r.runtime.f32) s += "declare " + t + " @tg_" + r.f.name + "_" + sfx + "(" + t + ", " + t + ")" + attrs;
        std::vector<std::string> intrinsics = {"floor", "sqrt", "fabs"};  // also used by prelude helpers
        for (const UnaryLowering& r : kUnaryRows)
            if (r.f.how == How::Intrinsic && std::find(intrinsics.begin(), intrinsics.end(), r.f.name) == intrinsics.end())
                intrinsics.push_back(r.f.name);
        for (const std::string& fn : intrinsics) s += "declare " + t + " @llvm." + fn + "." + sfx + "(" + t + ")\n";
    }
    return s;
}

void add_row_symbols(std::vector<RuntimeSymbol>& out) {
    auto add = [&](const char* stem, void* f32, void* f64) {
        out.push_back(RuntimeSymbol{std::string("tg_") + stem + "_f32", f32});
        out.push_back(RuntimeSymbol{std::string("tg_") + stem + "_f64", f64});
    };
    for (const UnaryLowering& r : kUnaryRows)
        if (r.runtime.f32) add(r.f.name, reinterpret_cast<void*>(r.runtime.f32), reinterpret_cast<void*>(r.runtime.f64));
    for (const BinaryLowering& r : kBinaryRows)
        if (r.runtime.f32) add(r.f.name, reinterpret_cast<void*>(r.runtime.f32), reinterpret_cast<void*>(r.runtime.f64));
}

namespace detail {

std::optional<NativeOp> native_of(const Graph& g, const Node& n) {
    if (n.op != Op::Apply || !(n.def->flags & stdlib::kElementwise) || n.def->has_effect()) return {};
    auto in = [&](size_t i) -> const TensorType& { return g.tensor_type(n.operands[i]); };
    NativeOp op;
    try {
        if (const auto* bk = std::get_if<BinaryKind>(&n.def->kind)) {
            const BinaryLowering* row = binary_lowering(*bk);
            if (!row) return {};
            const stdlib::OpSignature s = stdlib::binary_signature(*bk, in(0).dtype, in(0).weak, in(1).dtype, in(1).weak);
            op.kind = NativeOp::Binary;
            op.bk = *bk;
            op.compute = ty_of(s.compute);
            if (row->impl(op.compute).how == How::Excluded) return {};
            op.may_raise = is_int_ty(op.compute) && stdlib::int_check(*bk).kind != stdlib::IntCheck::None;
            return op;
        }
        if (const auto* uk = std::get_if<UnaryKind>(&n.def->kind)) {
            const UnaryLowering* row = unary_lowering(*uk);
            if (!row) return {};
            const stdlib::OpSignature s = stdlib::unary_signature(*uk, in(0).dtype, in(0).weak);
            op.kind = NativeOp::Unary;
            op.uk = *uk;
            op.compute = ty_of(s.compute);
            if (row->impl(op.compute).how == How::Excluded) return {};
            return op;
        }
        if (const auto* ek = std::get_if<stdlib::ElementwiseKind>(&n.def->kind)) {
            switch (*ek) {
                case stdlib::ElementwiseKind::AsType: op.kind = NativeOp::AsType; return op;
                case stdlib::ElementwiseKind::Where: op.kind = NativeOp::Where; return op;
                case stdlib::ElementwiseKind::Clip: {
                    const stdlib::OpSignature s1 = stdlib::binary_signature(BinaryKind::Maximum, in(0).dtype,
                                                                            in(0).weak, in(1).dtype, in(1).weak);
                    const stdlib::OpSignature s2 =
                        stdlib::binary_signature(BinaryKind::Minimum, s1.result, s1.weak, in(2).dtype, in(2).weak);
                    op.kind = NativeOp::Clip;
                    op.compute = ty_of(s1.compute);
                    op.mid = storage_ty(s1.result, s1.weak);
                    op.compute2 = ty_of(s2.compute);
                    return op;
                }
            }
        }
    } catch (const std::exception&) {
        return {};  // the kernel rejects these dtypes: leave the error to the runtime
    }
    return {};
}

}  // namespace detail

}  // namespace tg::codegen
