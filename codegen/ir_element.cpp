// Per-element semantics of tg's element-wise ops in LLVM IR: conversions,
// the integer checks and divisions, and IrBuilder::unary / binary, which
// emit an op's row (codegen/native_ops.cpp). Everything mirrors
// stdlib/elementwise_scalar.hpp (and convert in stdlib/cast.hpp): the same
// operations in the same order, so compiled results are bit-identical to
// eager ones. No fast-math flags and no FMA contraction (the stdlib is built
// with -ffp-contract=off too).
#include <bit>
#include <cstdio>
#include <stdexcept>

#include "codegen/ir_builder.hpp"
#include "codegen/native_ops.hpp"
#include "codegen/runtime_abi.hpp"

namespace tg::codegen {

using stdlib::BinaryKind;
using stdlib::DType;
using stdlib::UnaryKind;

Ty ty_of(DType d) {
    switch (d) {
        case DType::Bool: return Ty::B;
        case DType::I32: return Ty::I32;
        case DType::I64: return Ty::I64;
        case DType::F32: return Ty::F32;
        case DType::F64: break;
    }
    return Ty::F64;
}

Ty storage_ty(DType d, bool weak) {
    if (weak && d != DType::Bool) return stdlib::is_float(d) ? Ty::F64 : Ty::I64;
    return ty_of(d);
}

const char* llvm_ty(Ty t) {
    static const char* names[] = {"i1", "i32", "i64", "float", "double"};
    return names[static_cast<int>(t)];
}
const char* mem_ty(Ty t) { return t == Ty::B ? "i8" : llvm_ty(t); }
const char* ty_suffix(Ty t) {
    static const char* names[] = {"b", "i32", "i64", "f32", "f64"};
    return names[static_cast<int>(t)];
}

std::string int_lit(int64_t v) { return std::to_string(v); }

std::string float_lit(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llX", static_cast<unsigned long long>(std::bit_cast<uint64_t>(v)));
    return buf;
}

namespace {
int bits(Ty t) { return t == Ty::I32 ? 32 : 64; }
}  // namespace

std::string IrBuilder::convert(const std::string& x, Ty from, Ty to) {
    if (from == to) return x;
    const std::string F = llvm_ty(from), T = llvm_ty(to);
    if (to == Ty::B) {
        if (is_float_ty(from)) return def("fcmp une " + F + " " + x + ", 0.0");  // NaN is true
        return def("icmp ne " + F + " " + x + ", 0");
    }
    if (from == Ty::B) return def((is_float_ty(to) ? "uitofp i1 " : "zext i1 ") + x + " to " + T);
    if (is_int_ty(from) && is_int_ty(to)) {
        // a literal stays a literal (a constant divisor must look like one: floor_divmod_by_constant)
        if (x.size() < 21 && !x.empty() && x.find_first_not_of("-0123456789") == std::string::npos) {
            const int64_t v = std::stoll(x);
            return int_lit(to == Ty::I32 ? static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))) : v);
        }
        return def((bits(from) < bits(to) ? "sext " : "trunc ") + F + " " + x + " to " + T);
    }
    if (is_int_ty(from)) return def("sitofp " + F + " " + x + " to " + T);
    if (is_float_ty(to)) return def((from == Ty::F32 ? "fpext " : "fptrunc ") + F + " " + x + " to " + T);
    // float to integer: truncation; NaN, inf and out-of-range give the minimum
    const double lo = -static_cast<double>(uint64_t(1) << (bits(to) - 1));
    std::string ge = def("fcmp oge " + F + " " + x + ", " + float_lit(lo));
    std::string lt = def("fcmp olt " + F + " " + x + ", " + float_lit(-lo));
    std::string ok = def("and i1 " + ge + ", " + lt);
    std::string c = def("fptosi " + F + " " + x + " to " + T);
    const std::string min = to == Ty::I32 ? "-2147483648" : "-9223372036854775808";
    return def("select i1 " + ok + ", " + T + " " + c + ", " + T + " " + min);
}

// The check stdlib::int_check(k) asks for: compiled code reports the failure
// with the kind as its code, and the runtime raises the check's message.
void IrBuilder::check_int_rhs(BinaryKind k, Ty t, const std::string& b, uint32_t node) {
    const std::string T = llvm_ty(t);
    const bool negative = stdlib::int_check(k).kind == stdlib::IntCheck::NonNegative;
    const std::string bad = def((negative ? "icmp slt " : "icmp eq ") + T + " " + b + ", 0");
    std::string err = label("err"), ok = label("ok");
    emit("br i1 " + bad + ", label %" + err + ", label %" + ok);
    start(err);
    emit("call i32 @tg_rt_error(ptr %ctx, i32 " + std::to_string(node) + ", i32 " +
         std::to_string(static_cast<int>(k)) + ")");
    emit("br label %fail");
    start(ok);
}

// A divisor that is an integer literal >= 2 that fits type t ("7", not "%t3").
static std::optional<uint64_t> divisor_constant(const std::string& v, Ty t) {
    if (v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const uint64_t d = std::stoull(v);
    if (d < 2 || d >= (uint64_t(1) << (bits(t) - 1))) return std::nullopt;
    return d;
}

namespace {
struct Magic {
    uint64_t multiplier;  // a bits(t)-wide two's complement value
    int shift;
};

// The magic multiplier of signed division by d >= 2 in w-bit arithmetic
// (Hacker's Delight, 2nd ed., figure 10-1): for every w-bit a,
// floor(a * M / 2^(w + shift)) = trunc(a / d) - (a < 0 ? 1 : 0), with M read
// as a signed w-bit number and "+ a" after the high half when it is negative.
Magic signed_magic(uint64_t d, int w) {
    using u128 = unsigned __int128;
    const u128 two = u128(1) << (w - 1);
    const u128 anc = two - 1 - two % d;  // |nc|
    int p = w - 1;
    u128 q1 = two / anc, r1 = two - q1 * anc;
    u128 q2 = two / d, r2 = two - q2 * d;
    u128 delta;
    do {
        ++p;
        q1 *= 2, r1 *= 2;
        if (r1 >= anc) ++q1, r1 -= anc;
        q2 *= 2, r2 *= 2;
        if (r2 >= d) ++q2, r2 -= d;
        delta = d - r2;
    } while (q1 < delta || (q1 == delta && r1 == 0));
    const u128 mask = (u128(1) << w) - 1;
    return {static_cast<uint64_t>((q2 + 1) & mask), p - w};
}
}  // namespace

// Python's a // d and a % d for a constant d >= 2, without srem's sign
// fix-ups. A power of two is a shift or a mask (exact for two's complement).
// Otherwise q0 = (high half of a * M) >> shift is the floor of a / d except
// when a < 0 is a multiple of d, where it is one less; then a - d * q0 is d
// instead of 0, and one compare repairs both results. In `s += (i * i) % 7`
// this is as many instructions as C's truncating % (llvm-mca: 3.1 cycles an
// iteration on Sapphire Rapids, C++ 3.0; srem + fix-up 4.0; docs/codegen.md).
std::string IrBuilder::floor_divmod_by_constant(BinaryKind k, Ty t, const std::string& a, uint64_t d) {
    const std::string T = llvm_ty(t), D = std::to_string(d);
    const int w = bits(t);
    if ((d & (d - 1)) == 0) {
        if (k == BinaryKind::Mod) return def("and " + T + " " + a + ", " + std::to_string(d - 1));
        return def("ashr " + T + " " + a + ", " + std::to_string(std::countr_zero(d)));
    }
    const Magic m = signed_magic(d, w);
    const int64_t ms = w == 64 ? static_cast<int64_t>(m.multiplier)
                               : static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(m.multiplier)));
    const std::string W2 = w == 64 ? "i128" : "i64";
    std::string wide = def("mul " + W2 + " " + def("sext " + T + " " + a + " to " + W2) + ", " + std::to_string(ms));
    std::string hi = def("trunc " + W2 + " " + def("ashr " + W2 + " " + wide + ", " + std::to_string(w)) + " to " + T);
    if (ms < 0) hi = def("add " + T + " " + hi + ", " + a);
    std::string q0 = m.shift ? def("ashr " + T + " " + hi + ", " + std::to_string(m.shift)) : hi;
    std::string r0 = def("sub " + T + " " + a + ", " + def("mul " + T + " " + q0 + ", " + D));
    std::string off = def("icmp eq " + T + " " + r0 + ", " + D);
    if (k == BinaryKind::Mod) return def("select i1 " + off + ", " + T + " 0, " + T + " " + r0);
    return def("add " + T + " " + q0 + ", " + def("zext i1 " + off + " to " + T));
}

// Python's a // b and a % b on integers (after check_int_rhs).
std::string IrBuilder::int_floor_divmod(BinaryKind k, Ty t, const std::string& a, const std::string& b) {
    const std::string T = llvm_ty(t);
    if (auto d = divisor_constant(b, t)) return floor_divmod_by_constant(k, t, a, *d);
    // b == -1 is special-cased (INT_MIN // -1 wraps); divide by 1 instead to avoid UB
    std::string m1 = def("icmp eq " + T + " " + b + ", -1");
    std::string bs = def("select i1 " + m1 + ", " + T + " 1, " + T + " " + b);
    std::string r = def("srem " + T + " " + a + ", " + bs);
    std::string rnz = def("icmp ne " + T + " " + r + ", 0");
    std::string rneg = def("icmp slt " + T + " " + r + ", 0");
    std::string bneg = def("icmp slt " + T + " " + b + ", 0");
    std::string adj = def("and i1 " + rnz + ", " + def("xor i1 " + rneg + ", " + bneg));
    // The fix-ups are r + (adj ? b : 0) and q - adj rather than
    // adj ? r + b : r: for a constant b > 0 that selects into
    // sar/and/add instead of lea + cmov, and the 3-operand lea
    // competes with the multiplies for one port — `s += (i * i) % 7`
    // takes 3.4 cycles an iteration instead of 4 (llvm-mca,
    // Sapphire Rapids; docs/codegen.md).
    if (k == BinaryKind::Mod) {
        std::string fix = def("select i1 " + adj + ", " + T + " " + b + ", " + T + " 0");
        std::string r0 = def("add " + T + " " + r + ", " + fix);
        return def("select i1 " + m1 + ", " + T + " 0, " + T + " " + r0);
    }
    std::string q = def("sdiv " + T + " " + a + ", " + bs);
    std::string r0 = def("sub " + T + " " + q + ", " + def("zext i1 " + adj + " to " + T));
    std::string neg = def("sub " + T + " 0, " + a);
    return def("select i1 " + m1 + ", " + T + " " + neg + ", " + T + " " + r0);
}

namespace {
[[noreturn]] void not_lowered(const char* op, Ty t) {
    throw std::logic_error(std::string("codegen: ") + op + " is not lowered for " + llvm_ty(t));
}
}  // namespace

// The op's row (codegen/native_ops.cpp) in compute type t.
std::string IrBuilder::binary(BinaryKind k, Ty t, const std::string& a, const std::string& b, uint32_t node) {
    const BinaryLowering* row = binary_lowering(k);
    if (!row) not_lowered(stdlib::binary_name(k), t);
    const auto& impl = row->impl(t);
    if (is_int_ty(t) && stdlib::int_check(k).kind != stdlib::IntCheck::None) check_int_rhs(k, t, b, node);
    const std::string T = llvm_ty(t);
    switch (impl.how) {
        case How::Inst: return def(std::string(impl.name) + " " + T + " " + a + ", " + b);
        case How::Call:
            return def("call " + T + " @tg_" + impl.name + "_" + ty_suffix(t) + "(" + T + " " + a + ", " + T + " " + b +
                       ")");
        case How::Emit: return impl.emit(*this, t, a, b);
        case How::Excluded:
        case How::Identity:  // unary forms: a binary row has none
        case How::Literal:
        case How::Intrinsic: break;
    }
    not_lowered(stdlib::binary_name(k), t);
}

std::string IrBuilder::unary(UnaryKind k, Ty t, const std::string& x) {
    const UnaryLowering* row = unary_lowering(k);
    if (!row) not_lowered(stdlib::unary_name(k), t);
    const auto& impl = row->impl(t);
    const std::string T = llvm_ty(t);
    switch (impl.how) {
        case How::Identity: return x;
        case How::Literal: return impl.name;
        case How::Inst: return def(std::string(impl.name) + " " + T + " " + x);
        case How::Intrinsic:
            return def("call " + T + " @llvm." + impl.name + "." + (t == Ty::F32 ? "f32" : "f64") + "(" + T + " " + x + ")");
        case How::Call: return def("call " + T + " @tg_" + impl.name + "_" + ty_suffix(t) + "(" + T + " " + x + ")");
        case How::Emit: return impl.emit(*this, t, x);
        case How::Excluded: break;
    }
    not_lowered(stdlib::unary_name(k), t);
}

std::string module_prelude_for(const std::string& code) {
    const std::string all = module_prelude();
    // "@name(" of the function a `declare` or `define` line at `start` names
    auto callee = [&](size_t start) {
        const size_t at = all.find('@', start), paren = all.find('(', at);
        return all.substr(at, paren - at + 1);
    };
    // helper definitions the code calls, then the declarations they or the code call
    std::string helpers, decls;
    for (size_t pos = all.find("define internal "); pos != std::string::npos; pos = all.find("define internal ", pos)) {
        const size_t end = all.find("\n}\n", pos) + 3;
        if (code.find(callee(pos)) != std::string::npos) helpers += all.substr(pos, end - pos);
        pos = end;
    }
    for (size_t pos = all.find("declare "); pos != std::string::npos; pos = all.find("declare ", pos)) {
        const size_t end = all.find('\n', pos) + 1;
        const std::string name = callee(pos);
        if (code.find(name) != std::string::npos || helpers.find(name) != std::string::npos)
            decls += all.substr(pos, end - pos);
        pos = end;
    }
    return decls + helpers;
}

namespace {

// The runtime functions compiled code calls (codegen/runtime_abi.cpp).
std::string runtime_declarations() {
    // tg_rt_in is declared read-only although it may make a view contiguous in
    // its slot: that write is idempotent and invisible to compiled code, and
    // the declaration lets the optimizer hoist it out of loops.
    return R"(declare i32 @tg_rt_node(ptr, i32) nounwind
declare i32 @tg_rt_tick(ptr, i64, ptr, i32) nounwind
declare i32 @tg_rt_error(ptr, i32, i32) nounwind
declare ptr @tg_rt_in(ptr, i32) nounwind willreturn memory(read)
declare ptr @tg_rt_out(ptr, i32) nounwind
declare void @tg_rt_copies(ptr, ptr, ptr, ptr, i32) nounwind
declare ptr @tg_rt_own(ptr, i32, i32, i32) nounwind
declare void @tg_rt_release(ptr, ptr, i32) nounwind
declare i32 @tg_rt_get_b(ptr, i32) nounwind
declare i32 @tg_rt_get_i32(ptr, i32) nounwind
declare i64 @tg_rt_get_i64(ptr, i32) nounwind
declare float @tg_rt_get_f32(ptr, i32) nounwind
declare double @tg_rt_get_f64(ptr, i32) nounwind
declare void @tg_rt_set_b(ptr, i32, i32) nounwind
declare void @tg_rt_set_i32(ptr, i32, i32) nounwind
declare void @tg_rt_set_i64(ptr, i32, i64) nounwind
declare void @tg_rt_set_f32(ptr, i32, float) nounwind
declare void @tg_rt_set_f64(ptr, i32, double) nounwind
declare void @tg_rt_parallel(ptr, ptr, ptr, i64, i64, i64) nounwind
declare double @tg_rt_pairwise_f64(ptr, ptr, ptr, i64, i64) nounwind
declare i64 @tg_rt_pairwise_i64(ptr, ptr, ptr, i64, i64) nounwind
declare i64 @tg_rt_fold(ptr, ptr, ptr, i64, i64, i32) nounwind
declare double @tg_rt_extreme_f64(ptr, ptr, ptr, i64, i64, i32) nounwind
declare i64 @tg_rt_extreme_i64(ptr, ptr, ptr, i64, i64, i32) nounwind
declare i64 @tg_rt_dim(ptr, i32) nounwind willreturn memory(read)
)";
}

// Python's floor division on floats (NumPy's npy_divmod), as elem::FloorDiv;
// t is "float" or "double", sfx its suffix.
std::string float_floordiv_function(const std::string& t, const std::string& sfx) {
    return "define internal " + t + " @tg_floordiv_" + sfx + "(" + t + " %a, " + t + " %b) alwaysinline {\n"
           "entry:\n"
           "  %bz = fcmp oeq " + t + " %b, 0.0\n"
           "  br i1 %bz, label %zero, label %nz\n"
           "zero:\n"
           "  %q0 = fdiv " + t + " %a, %b\n"
           "  ret " + t + " %q0\n"
           "nz:\n"
           "  %mod = call " + t + " @tg_fmod_" + sfx + "(" + t + " %a, " + t + " %b)\n"
           "  %am = fsub " + t + " %a, %mod\n"
           "  %div0 = fdiv " + t + " %am, %b\n"
           "  %mnz = fcmp une " + t + " %mod, 0.0\n"
           "  %bneg = fcmp olt " + t + " %b, 0.0\n"
           "  %mneg = fcmp olt " + t + " %mod, 0.0\n"
           "  %sd = xor i1 %bneg, %mneg\n"
           "  %adj = and i1 %mnz, %sd\n"
           "  %divm1 = fsub " + t + " %div0, 1.0\n"
           "  %div = select i1 %adj, " + t + " %divm1, " + t + " %div0\n"
           "  %dnz = fcmp une " + t + " %div, 0.0\n"
           "  br i1 %dnz, label %fl, label %zr\n"
           "fl:\n"
           "  %f = call " + t + " @llvm.floor." + sfx + "(" + t + " %div)\n"
           "  %diff = fsub " + t + " %div, %f\n"
           "  %gt = fcmp ogt " + t + " %diff, 0.5\n"
           "  %f1 = fadd " + t + " %f, 1.0\n"
           "  %r = select i1 %gt, " + t + " %f1, " + t + " %f\n"
           "  ret " + t + " %r\n"
           "zr:\n"
           "  %q = fdiv " + t + " %a, %b\n"
           "  %r2 = call " + t + " @llvm.copysign." + sfx + "(" + t + " 0.0, " + t + " %q)\n"
           "  ret " + t + " %r2\n"
           "}\n";
}

// Python's modulo on floats (NumPy's npy_divmod), as elem::Mod.
std::string float_mod_function(const std::string& t, const std::string& sfx) {
    return "define internal " + t + " @tg_mod_" + sfx + "(" + t + " %a, " + t + " %b) alwaysinline {\n"
           "entry:\n"
           "  %mod = call " + t + " @tg_fmod_" + sfx + "(" + t + " %a, " + t + " %b)\n"
           "  %bz = fcmp oeq " + t + " %b, 0.0\n"
           "  %mnz = fcmp une " + t + " %mod, 0.0\n"
           "  %bneg = fcmp olt " + t + " %b, 0.0\n"
           "  %mneg = fcmp olt " + t + " %mod, 0.0\n"
           "  %sd = xor i1 %bneg, %mneg\n"
           "  %mb = fadd " + t + " %mod, %b\n"
           "  %r1 = select i1 %sd, " + t + " %mb, " + t + " %mod\n"
           "  %cs = call " + t + " @llvm.copysign." + sfx + "(" + t + " 0.0, " + t + " %b)\n"
           "  %r2 = select i1 %mnz, " + t + " %r1, " + t + " %cs\n"
           "  %r = select i1 %bz, " + t + " %mod, " + t + " %r2\n"
           "  ret " + t + " %r\n"
           "}\n";
}

// Integer power by squaring, wrapping (elem::Pow); the exponent is >= 0. t
// is "i32" or "i64".
std::string int_pow_function(const std::string& t) {
    return "define internal " + t + " @tg_ipow_" + t + "(" + t + " %a, " + t + " %b) alwaysinline {\n"
           "entry:\n  br label %loop\n"
           "loop:\n"
           "  %base = phi " + t + " [%a, %entry], [%base2, %body]\n"
           "  %res = phi " + t + " [1, %entry], [%res2, %body]\n"
           "  %e = phi " + t + " [%b, %entry], [%e2, %body]\n"
           "  %z = icmp eq " + t + " %e, 0\n"
           "  br i1 %z, label %done, label %body\n"
           "body:\n"
           "  %bit = and " + t + " %e, 1\n"
           "  %odd = icmp ne " + t + " %bit, 0\n"
           "  %rm = mul " + t + " %res, %base\n"
           "  %res2 = select i1 %odd, " + t + " %rm, " + t + " %res\n"
           "  %base2 = mul " + t + " %base, %base\n"
           "  %e2 = lshr " + t + " %e, 1\n"
           "  br label %loop\n"
           "done:\n  ret " + t + " %res\n"
           "}\n";
}

}  // namespace

std::string module_prelude() {
    std::string s = runtime_declarations();
    s += row_declarations();  // the element-wise rows' runtime functions and intrinsics
    for (const char* T : {"float", "double"}) {
        const std::string t = T, sfx = t == "float" ? "f32" : "f64";
        // what the helpers below call
        s += "declare " + t + " @tg_fmod_" + sfx + "(" + t + ", " + t + ") nounwind willreturn memory(none)\n";
        s += "declare " + t + " @llvm.copysign." + sfx + "(" + t + ", " + t + ")\n";
        s += float_floordiv_function(t, sfx);
        s += float_mod_function(t, sfx);
    }
    for (const char* T : {"i32", "i64"}) s += int_pow_function(T);
    return s + fastmath_functions();
}

}  // namespace tg::codegen
