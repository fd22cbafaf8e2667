// Per-element semantics of tg's element-wise ops in LLVM IR. Each case
// mirrors stdlib/elementwise_scalar.hpp (and convert in stdlib/cast.hpp):
// the same operations in the same order, so compiled results are
// bit-identical to eager ones. No fast-math flags and no FMA contraction
// (the stdlib is built with -ffp-contract=off too).
#include <bit>
#include <cstdio>
#include <stdexcept>

#include "codegen/ir_builder.hpp"
#include "codegen/runtime.hpp"

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
std::string zero(Ty t) { return is_float_ty(t) ? "0.0" : (t == Ty::B ? "false" : "0"); }
std::string one(Ty t) { return is_float_ty(t) ? "1.0" : (t == Ty::B ? "true" : "1"); }
}  // namespace

std::string IrBuilder::convert(const std::string& x, Ty from, Ty to) {
    if (from == to) return x;
    const std::string F = llvm_ty(from), T = llvm_ty(to);
    if (to == Ty::B) {
        if (is_float_ty(from)) return def("fcmp une " + F + " " + x + ", 0.0");  // NaN is true
        return def("icmp ne " + F + " " + x + ", 0");
    }
    if (from == Ty::B) return def((is_float_ty(to) ? "uitofp i1 " : "zext i1 ") + x + " to " + T);
    if (is_int_ty(from) && is_int_ty(to))
        return def((bits(from) < bits(to) ? "sext " : "trunc ") + F + " " + x + " to " + T);
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

void IrBuilder::check_int_rhs(BinaryKind k, Ty t, const std::string& b, uint32_t node) {
    const std::string T = llvm_ty(t);
    ErrorCode code;
    std::string bad;
    if (k == BinaryKind::Pow) {
        code = ErrorCode::NegativeIntPower;
        bad = def("icmp slt " + T + " " + b + ", 0");
    } else {
        code = k == BinaryKind::FloorDiv ? ErrorCode::IntDivByZero : ErrorCode::IntModByZero;
        bad = def("icmp eq " + T + " " + b + ", 0");
    }
    std::string err = label("err"), ok = label("ok");
    emit("br i1 " + bad + ", label %" + err + ", label %" + ok);
    start(err);
    emit("call i32 @tg_rt_error(ptr %ctx, i32 " + std::to_string(node) + ", i32 " +
         std::to_string(static_cast<int>(code)) + ")");
    emit("br label %fail");
    start(ok);
}

std::string IrBuilder::binary(BinaryKind k, Ty t, const std::string& a, const std::string& b, uint32_t node) {
    const std::string T = llvm_ty(t);
    const std::string ab = " " + a + ", " + b;
    auto op = [&](const char* inst) { return def(std::string(inst) + " " + T + ab); };
    if (t == Ty::B) {
        switch (k) {
            case BinaryKind::Add: case BinaryKind::Maximum: case BinaryKind::BitOr: return op("or");
            case BinaryKind::Mul: case BinaryKind::Minimum: case BinaryKind::BitAnd: return op("and");
            case BinaryKind::BitXor: return op("xor");
            case BinaryKind::Eq: return op("icmp eq");
            case BinaryKind::Ne: return op("icmp ne");
            case BinaryKind::Lt: return op("icmp ult");
            case BinaryKind::Le: return op("icmp ule");
            case BinaryKind::Gt: return op("icmp ugt");
            case BinaryKind::Ge: return op("icmp uge");
            default: throw std::logic_error("codegen: bool op not lowered");
        }
    }
    if (is_int_ty(t)) {
        switch (k) {
            case BinaryKind::Add: return op("add");
            case BinaryKind::Sub: return op("sub");
            case BinaryKind::Mul: return op("mul");
            case BinaryKind::BitAnd: return op("and");
            case BinaryKind::BitOr: return op("or");
            case BinaryKind::BitXor: return op("xor");
            case BinaryKind::Eq: return op("icmp eq");
            case BinaryKind::Ne: return op("icmp ne");
            case BinaryKind::Lt: return op("icmp slt");
            case BinaryKind::Le: return op("icmp sle");
            case BinaryKind::Gt: return op("icmp sgt");
            case BinaryKind::Ge: return op("icmp sge");
            case BinaryKind::Maximum: return def("select i1 " + op("icmp sgt") + ", " + T + " " + a + ", " + T + " " + b);
            case BinaryKind::Minimum: return def("select i1 " + op("icmp slt") + ", " + T + " " + a + ", " + T + " " + b);
            case BinaryKind::FloorDiv:
            case BinaryKind::Mod: {
                check_int_rhs(k, t, b, node);
                // b == -1 is special-cased (INT_MIN // -1 wraps); divide by 1 instead to avoid UB
                std::string m1 = def("icmp eq " + T + " " + b + ", -1");
                std::string bs = def("select i1 " + m1 + ", " + T + " 1, " + T + " " + b);
                std::string r = def("srem " + T + " " + a + ", " + bs);
                std::string rnz = def("icmp ne " + T + " " + r + ", 0");
                std::string rneg = def("icmp slt " + T + " " + r + ", 0");
                std::string bneg = def("icmp slt " + T + " " + b + ", 0");
                std::string adj = def("and i1 " + rnz + ", " + def("xor i1 " + rneg + ", " + bneg));
                if (k == BinaryKind::Mod) {
                    std::string rb = def("add " + T + " " + r + ", " + b);
                    std::string r0 = def("select i1 " + adj + ", " + T + " " + rb + ", " + T + " " + r);
                    return def("select i1 " + m1 + ", " + T + " 0, " + T + " " + r0);
                }
                std::string q = def("sdiv " + T + " " + a + ", " + bs);
                std::string q1 = def("sub " + T + " " + q + ", 1");
                std::string r0 = def("select i1 " + adj + ", " + T + " " + q1 + ", " + T + " " + q);
                std::string neg = def("sub " + T + " 0, " + a);
                return def("select i1 " + m1 + ", " + T + " " + neg + ", " + T + " " + r0);
            }
            case BinaryKind::Pow:
                check_int_rhs(k, t, b, node);
                return def("call " + T + " @tg_ipow_" + ty_suffix(t) + "(" + T + " " + a + ", " + T + " " + b + ")");
            default: throw std::logic_error("codegen: int op not lowered");
        }
    }
    auto call2 = [&](const char* fn) {
        return def("call " + T + " @" + fn + ty_suffix(t) + "(" + T + " " + a + ", " + T + " " + b + ")");
    };
    switch (k) {
        case BinaryKind::Add: return op("fadd");
        case BinaryKind::Sub: return op("fsub");
        case BinaryKind::Mul: return op("fmul");
        case BinaryKind::Div: return op("fdiv");
        case BinaryKind::FloorDiv: return call2("tg_floordiv_");
        case BinaryKind::Mod: return call2("tg_mod_");
        case BinaryKind::Pow: return call2("tg_pow_");
        case BinaryKind::Eq: return op("fcmp oeq");
        case BinaryKind::Ne: return op("fcmp une");
        case BinaryKind::Lt: return op("fcmp olt");
        case BinaryKind::Le: return op("fcmp ole");
        case BinaryKind::Gt: return op("fcmp ogt");
        case BinaryKind::Ge: return op("fcmp oge");
        case BinaryKind::Maximum:
        case BinaryKind::Minimum: {  // (a > b || a != a) ? a : b
            std::string c1 = op(k == BinaryKind::Maximum ? "fcmp ogt" : "fcmp olt");
            std::string c2 = def("fcmp uno " + T + " " + a + ", " + a);
            std::string c = def("or i1 " + c1 + ", " + c2);
            return def("select i1 " + c + ", " + T + " " + a + ", " + T + " " + b);
        }
        default: throw std::logic_error("codegen: float op not lowered");
    }
}

std::string IrBuilder::unary(UnaryKind k, Ty t, const std::string& x) {
    const std::string T = llvm_ty(t);
    const std::string tx = T + " " + x;
    auto intrinsic = [&](const char* name) {
        return def("call " + T + " @llvm." + name + "." + (t == Ty::F32 ? "f32" : "f64") + "(" + tx + ")");
    };
    auto call = [&](const char* name) { return def("call " + T + " @tg_" + name + "_" + ty_suffix(t) + "(" + tx + ")"); };
    const bool fl = is_float_ty(t);
    switch (k) {
        case UnaryKind::Neg: return fl ? def("fneg " + tx) : def("sub " + T + " 0, " + x);
        case UnaryKind::Invert: return def("xor " + tx + (t == Ty::B ? ", true" : ", -1"));
        case UnaryKind::LogicalNot:
            if (t == Ty::B) return def("xor i1 " + x + ", true");
            return def(std::string(fl ? "fcmp oeq " : "icmp eq ") + tx + ", " + zero(t));
        case UnaryKind::Abs:
            if (t == Ty::B) return x;
            if (fl) return intrinsic("fabs");
            return def("select i1 " + def("icmp slt " + tx + ", 0") + ", " + T + " " + def("sub " + T + " 0, " + x) +
                       ", " + tx);
        case UnaryKind::Exp: return call("exp");
        case UnaryKind::Log: return call("log");
        case UnaryKind::Log1p: return call("log1p");
        case UnaryKind::Sin: return call("sin");
        case UnaryKind::Cos: return call("cos");
        case UnaryKind::Tan: return call("tan");
        case UnaryKind::Tanh: return call("tanh");
        case UnaryKind::Sigmoid: return call("sigmoid");
        case UnaryKind::Sqrt: return intrinsic("sqrt");
        case UnaryKind::Rsqrt: return def("fdiv " + T + " 1.0, " + intrinsic("sqrt"));
        case UnaryKind::Relu:
            if (t == Ty::B) return x;
            return def("select i1 " + def(std::string(fl ? "fcmp olt " : "icmp slt ") + tx + ", " + zero(t)) + ", " +
                       T + " " + zero(t) + ", " + tx);
        case UnaryKind::Floor: return fl ? intrinsic("floor") : x;
        case UnaryKind::Ceil: return fl ? intrinsic("ceil") : x;
        case UnaryKind::Round: return fl ? intrinsic("nearbyint") : x;
        case UnaryKind::Sign:
            if (t == Ty::B) return x;
            if (fl) {  // x > 0 ? 1 : (x < 0 ? -1 : x)
                std::string gt = def("fcmp ogt " + tx + ", 0.0");
                std::string lt = def("fcmp olt " + tx + ", 0.0");
                std::string s = def("select i1 " + lt + ", " + T + " -1.0, " + tx);
                return def("select i1 " + gt + ", " + T + " 1.0, " + T + " " + s);
            } else {
                std::string gt = def("zext i1 " + def("icmp sgt " + tx + ", 0") + " to " + T);
                std::string lt = def("zext i1 " + def("icmp slt " + tx + ", 0") + " to " + T);
                return def("sub " + T + " " + gt + ", " + lt);
            }
        case UnaryKind::Square: return binary(BinaryKind::Mul, t, x, x, 0);
        case UnaryKind::IsNan: return fl ? def("fcmp uno " + tx + ", " + x) : "false";
        case UnaryKind::IsFinite: return fl ? def("fcmp oeq " + T + " " + def("fsub " + tx + ", " + x) + ", 0.0") : "true";
    }
    (void)one;
    throw std::logic_error("codegen: unary op not lowered");
}

std::string module_prelude_for(const std::string& code) {
    const std::string all = module_prelude();
    std::string out;
    size_t pos = 0;
    while (pos < all.size()) {
        const size_t start = all.find("define internal ", pos);
        if (start == std::string::npos) {
            out += all.substr(pos);
            break;
        }
        out += all.substr(pos, start - pos);
        const size_t end = all.find("\n}\n", start) + 3;
        const size_t at = all.find('@', start), paren = all.find('(', at);
        const std::string call = all.substr(at, paren - at + 1);  // "@name("
        if (code.find(call) != std::string::npos) out += all.substr(start, end - start);
        pos = end;
    }
    return out;
}

std::string module_prelude() {
    // tg_rt_in is declared read-only although it may make a view contiguous in
    // its slot: that write is idempotent and invisible to compiled code, and
    // the declaration lets the optimizer hoist it out of loops.
    std::string s = R"(declare i32 @tg_rt_node(ptr, i32) nounwind
declare i32 @tg_rt_tick(ptr, i64) nounwind
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
)";
    for (const char* T : {"float", "double"}) {
        const std::string t = T, sfx = t == "float" ? "f32" : "f64";
        for (const char* fn : {"log1p", "sin", "cos", "tan"})
            s += "declare " + t + " @tg_" + fn + "_" + sfx + "(" + t + ") nounwind willreturn memory(none)\n";
        for (const char* fn : {"pow", "fmod"})
            s += "declare " + t + " @tg_" + fn + "_" + sfx + "(" + t + ", " + t + ") nounwind willreturn memory(none)\n";
        for (const char* fn : {"floor", "ceil", "nearbyint", "sqrt", "fabs"})
            s += "declare " + t + " @llvm." + fn + "." + sfx + "(" + t + ")\n";
        s += "declare " + t + " @llvm.copysign." + sfx + "(" + t + ", " + t + ")\n";
        // Python's floor division and modulo on floats (NumPy's npy_divmod), as elem::FloorDiv / elem::Mod.
        s += "define internal " + t + " @tg_floordiv_" + sfx + "(" + t + " %a, " + t + " %b) alwaysinline {\n"
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
        s += "define internal " + t + " @tg_mod_" + sfx + "(" + t + " %a, " + t + " %b) alwaysinline {\n"
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
    // Integer power by squaring, wrapping (elem::Pow); the exponent is >= 0.
    for (const char* T : {"i32", "i64"}) {
        const std::string t = T;
        s += "define internal " + t + " @tg_ipow_" + t + "(" + t + " %a, " + t + " %b) alwaysinline {\n"
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
    return s + fastmath_functions();
}

}  // namespace tg::codegen
