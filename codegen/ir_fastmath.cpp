// exp, log, tanh and sigmoid in LLVM IR: stdlib/fastmath.hpp's algorithms,
// operation for operation (same constants, same order, no contraction), so
// compiled results are bit-identical to the eager kernels' — and, being
// branch-free IR instead of calls, loops over them vectorize.
//
// The constants are computed here by the very C++ expressions fastmath.hpp
// uses (T(1.0 / 5040) etc.), then written as exact hex literals.
#include <limits>
#include <string>

#include "codegen/ir_builder.hpp"

namespace tg::codegen {

namespace {

template <class T>
struct MathEmitter {
    static constexpr bool f32 = sizeof(T) == 4;
    IrBuilder b;
    const std::string t = f32 ? "float" : "double";
    const std::string it = f32 ? "i32" : "i64";
    const std::string sfx = f32 ? "f32" : "f64";
    static constexpr int kMantissa = f32 ? 23 : 52;
    static constexpr int kBias = f32 ? 127 : 1023;
    static constexpr int kExpMask = f32 ? 0xff : 0x7ff;

    static std::string c(T v) { return float_lit(static_cast<double>(v)); }
    std::string op(const char* inst, const std::string& x, const std::string& y) {
        return b.def(std::string(inst) + " " + t + " " + x + ", " + y);
    }
    std::string mul(const std::string& x, const std::string& y) { return op("fmul", x, y); }
    std::string add(const std::string& x, const std::string& y) { return op("fadd", x, y); }
    std::string sub(const std::string& x, const std::string& y) { return op("fsub", x, y); }
    std::string div(const std::string& x, const std::string& y) { return op("fdiv", x, y); }
    std::string sel(const std::string& cond, const std::string& x, const std::string& y) {
        return b.def("select i1 " + cond + ", " + t + " " + x + ", " + t + " " + y);
    }
    std::string cmp(const char* pred, const std::string& x, const std::string& y) {
        return b.def(std::string("fcmp ") + pred + " " + t + " " + x + ", " + y);
    }
    std::string iop(const char* inst, const std::string& x, const std::string& y) {
        return b.def(std::string(inst) + " " + it + " " + x + ", " + y);
    }
    std::string to_int(const std::string& x) { return b.def("bitcast " + t + " " + x + " to " + it); }
    std::string to_float(const std::string& x) { return b.def("bitcast " + it + " " + x + " to " + t); }
    std::string fabs(const std::string& x) { return b.def("call " + t + " @llvm.fabs." + sfx + "(" + t + " " + x + ")"); }
    // 2^k (detail::pow2i)
    std::string pow2i(const std::string& k) {
        return to_float(iop("shl", iop("add", k, std::to_string(kBias)), std::to_string(kMantissa)));
    }
    // p = c0; p = p * z + c1; ... (Horner, as written in fastmath.hpp)
    std::string horner(std::initializer_list<T> cs, const std::string& z) {
        auto it_c = cs.begin();
        std::string p = c(*it_c++);
        for (; it_c != cs.end(); ++it_c) p = add(mul(p, z), c(*it_c));
        return p;
    }
    std::string function(const char* name, const std::string& body_result) {
        std::string s = "define internal " + t + " @tg_" + name + "_" + sfx + "(" + t + " %x) alwaysinline {\nentry:\n";
        for (const std::string& l : b.lines) s += l + "\n";
        s += "  ret " + t + " " + body_result + "\n}\n";
        return s;
    }

    std::string exp_of(const std::string& x) {
        const T lo = f32 ? T(-104.0) : T(-746.0);
        const T hi = f32 ? T(89.0) : T(710.0);
        const T log2e = T(1.4426950408889634);
        const T ln2_hi = f32 ? T(0.693359375) : T(6.93145751953125e-1);
        const T ln2_lo = f32 ? T(-2.12194440e-4) : T(1.42860682030941723212e-6);
        const T shifter = f32 ? T(12582912.0) : T(6755399441055744.0);
        std::string xc = sel(cmp("olt", x, c(lo)), c(lo), x);
        xc = sel(cmp("ogt", xc, c(hi)), c(hi), xc);
        std::string tt = add(mul(xc, c(log2e)), c(shifter));
        std::string n = sub(tt, c(shifter));
        std::string ni = iop("sub", to_int(tt), to_int(c(shifter)));
        std::string r = sub(sub(xc, mul(n, c(ln2_hi))), mul(n, c(ln2_lo)));
        std::string p;
        if constexpr (f32)
            p = horner({T(1.0 / 5040), T(1.0 / 720), T(1.0 / 120), T(1.0 / 24), T(1.0 / 6), T(0.5), T(1), T(1)}, r);
        else
            p = horner({T(1.0 / 6227020800.0), T(1.0 / 479001600.0), T(1.0 / 39916800.0), T(1.0 / 3628800.0),
                        T(1.0 / 362880.0), T(1.0 / 40320.0), T(1.0 / 5040.0), T(1.0 / 720.0), T(1.0 / 120.0),
                        T(1.0 / 24.0), T(1.0 / 6.0), T(0.5), T(1), T(1)},
                       r);
        std::string n1 = iop("ashr", ni, "1");
        std::string n2 = iop("sub", ni, n1);
        return mul(mul(p, pow2i(n1)), pow2i(n2));
    }

    std::string log_of(const std::string& x) {
        const T ln2_hi = f32 ? T(0.693359375) : T(6.93147180369123816490e-01);
        const T ln2_lo = f32 ? T(-2.12194440e-4) : T(1.90821492927058770002e-10);
        const T sqrt2 = T(1.4142135623730951);
        const T two_m = static_cast<T>(f32 ? 8388608.0 : 4503599627370496.0);  // pow2i(kMantissa)
        std::string tiny = cmp("olt", x, c(std::numeric_limits<T>::min()));
        std::string xs = sel(tiny, mul(x, c(two_m)), x);
        std::string bits = to_int(xs);
        std::string e = iop("and", iop("ashr", bits, std::to_string(kMantissa)), std::to_string(kExpMask));
        e = iop("sub", e, std::to_string(kBias));
        e = iop("sub", e, b.def("select i1 " + tiny + ", " + it + " " + std::to_string(kMantissa) + ", " + it + " 0"));
        const int64_t mant_mask = (int64_t(1) << kMantissa) - 1;
        const int64_t one_bits = int64_t(kBias) << kMantissa;
        std::string m = to_float(iop("or", iop("and", bits, std::to_string(mant_mask)), std::to_string(one_bits)));
        std::string big = cmp("ogt", m, c(sqrt2));
        m = sel(big, mul(m, c(T(0.5))), m);
        e = b.def("select i1 " + big + ", " + it + " " + iop("add", e, "1") + ", " + it + " " + e);
        std::string f = sub(m, c(T(1)));
        std::string s = div(f, add(c(T(2)), f));
        std::string z = mul(s, s);
        std::string R;
        if constexpr (f32)
            R = horner({T(2.0 / 13), T(2.0 / 11), T(2.0 / 9), T(2.0 / 7), T(2.0 / 5), T(2.0 / 3)}, z);
        else
            R = horner({T(2.0 / 23), T(2.0 / 21), T(2.0 / 19), T(2.0 / 17), T(2.0 / 15), T(2.0 / 13), T(2.0 / 11),
                        T(2.0 / 9), T(2.0 / 7), T(2.0 / 5), T(2.0 / 3)},
                       z);
        R = mul(R, z);
        std::string hf = mul(mul(c(T(0.5)), f), f);
        std::string de = b.def("sitofp " + it + " " + e + " to " + t);
        std::string inner = sub(sub(hf, add(mul(s, add(hf, R)), mul(de, c(ln2_lo)))), f);
        std::string r = sub(mul(de, c(ln2_hi)), inner);
        r = sel(cmp("olt", x, "0.0"), c(std::numeric_limits<T>::quiet_NaN()), r);
        r = sel(cmp("oeq", x, "0.0"), c(-std::numeric_limits<T>::infinity()), r);
        r = sel(cmp("oeq", x, c(std::numeric_limits<T>::infinity())), x, r);
        r = sel(cmp("une", x, x), x, r);
        return r;
    }

    std::string tanh_of(const std::string& x) {
        std::string a = fabs(x);
        std::string large = sub(c(T(1)), div(c(T(2)), add(exp_of(add(a, a)), c(T(1)))));
        std::string z = mul(a, a);
        std::string small;
        if constexpr (f32) {
            std::string p = horner({T(-5.70498872745e-3), T(2.06390887954e-2), T(-5.37397155531e-2),
                                    T(1.33314422036e-1), T(-3.33332819422e-1)},
                                   z);
            small = add(mul(mul(p, z), a), a);
        } else {
            std::string p = horner({T(-9.64399179425052238628e-1), T(-9.92877231001918586564e1),
                                    T(-1.61468768441708447952e3)},
                                   z);
            std::string q = add(z, c(T(1.12811678491632931402e2)));
            q = add(mul(q, z), c(T(2.23548839060100448583e3)));
            q = add(mul(q, z), c(T(4.84406305325125486048e3)));
            small = add(a, mul(mul(a, z), div(p, q)));
        }
        std::string r = sel(cmp("olt", a, c(T(0.625))), small, large);
        return b.def("call " + t + " @llvm.copysign." + sfx + "(" + t + " " + r + ", " + t + " " + x + ")");
    }

    std::string sigmoid_of(const std::string& x) {
        std::string e = exp_of(b.def("fneg " + t + " " + fabs(x)));
        std::string s = div(c(T(1)), add(c(T(1)), e));
        return sel(cmp("oge", x, "0.0"), s, mul(e, s));
    }
};

template <class T>
std::string functions() {
    std::string s;
    {
        MathEmitter<T> m;
        s += m.function("exp", m.exp_of("%x"));
    }
    {
        MathEmitter<T> m;
        s += m.function("log", m.log_of("%x"));
    }
    {
        MathEmitter<T> m;
        s += m.function("tanh", m.tanh_of("%x"));
    }
    {
        MathEmitter<T> m;
        s += m.function("sigmoid", m.sigmoid_of("%x"));
    }
    return s;
}

}  // namespace

std::string fastmath_functions() { return functions<float>() + functions<double>(); }

}  // namespace tg::codegen
