// Random creation ops of docs/builtins.md: random_uniform, random_normal, random_int.
// The stream layout (which block and word each element comes from) is
// specified in random.hpp; these kernels only reserve the blocks and fill.
// dtype= picks the fill: f32 or f64 for the floats (f64 draws 53 random bits
// per number, not an f32 draw cast up), i64, i32 or bool for random_int (the
// same numbers). Compiled code runs these kernels through the runtime, so eager
// and compiled code draw the same numbers after the same seed.
#include <cmath>
#include <limits>
#include <string>

#include "stdlib/op_registry.hpp"
#include "stdlib/random.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;

namespace {

Rng& rng_of(OpContext& ctx, std::string_view fn) {
    if (!ctx.rng) fail(fn, "no random number generator in this context");
    return *ctx.rng;
}

double finite_number(std::string_view fn, std::string_view arg, const Attr& a) {
    double v = kern::attr_number(fn, arg, a);
    if (!std::isfinite(v)) fail(fn, std::string(arg) + " must be finite");
    return v;
}

// The dtype of a draw: dtype= (None: the default), one of `a` and `b`.
DType draw_dtype(std::string_view fn, const Attr& attr, DType a, DType b) {
    const DType d = kern::attr_dtype(attr).value_or(a);
    if (d != a && d != b)
        fail(fn, std::string("dtype must be ") + dtype_name(a) + " or " + dtype_name(b) + ", not " + dtype_name(d));
    return d;
}

// random_uniform(shape, low, high, dtype) and random_normal(shape, mean, std, dtype):
// attrs 1 and 2 are the two finite numbers, named a and b.
template <bool Normal>
struct FloatDraw {
    static constexpr const char* fn = Normal ? "random_normal" : "random_uniform";
    static constexpr const char* a = Normal ? "mean" : "low";
    static constexpr const char* b = Normal ? "std" : "high";

    static TensorType infer(const TypeArgs& t) {
        Shape s = kern::attr_shape(fn, "shape", t.attrs[0]);
        finite_number(fn, a, t.attrs[1]);
        finite_number(fn, b, t.attrs[2]);
        return {draw_dtype(fn, t.attrs[3], DType::F32, DType::F64), s, false};
    }

    static Tensor eager(OpContext& ctx, const OpArgs& args) {
        const TensorType t = infer(TypeArgs{{}, args.attrs});
        const double x = finite_number(fn, a, args.attrs[1]), y = finite_number(fn, b, args.attrs[2]);
        Tensor out = Tensor::empty(t.dtype, t.shape);
        Rng& rng = rng_of(ctx, fn);
        const int64_t n = out.numel();
        if (t.dtype == DType::F64) {
            const uint64_t c0 = rng.take(random_f64_blocks(n));
            (Normal ? fill_normal_f64 : fill_uniform_f64)(rng.key(), c0, n, x, y, out.data<double>());
        } else {
            const uint64_t c0 = rng.take(random_blocks(n));
            (Normal ? fill_normal_f32 : fill_uniform_f32)(rng.key(), c0, n, x, y, out.data<float>());
        }
        return out;
    }
};

void int_bounds(const std::span<const Attr> attrs, DType d, int64_t& low, int64_t& high) {
    low = kern::attr_int("random_int", "low", attrs[1]);
    high = kern::attr_int("random_int", "high", attrs[2]);
    if (high <= low)
        fail("random_int", "high (" + std::to_string(high) + ") must be greater than low (" + std::to_string(low) + ")");
    // high is exclusive: an i32 draw takes high up to 2^31 (NumPy's integers(..., dtype=int32))
    constexpr int64_t lo32 = std::numeric_limits<int32_t>::min(), hi32 = int64_t{std::numeric_limits<int32_t>::max()} + 1;
    if (d == DType::I32 && (low < lo32 || high > hi32))
        fail("random_int", "low and high must be within [" + std::to_string(lo32) + ", " + std::to_string(hi32) +
                               "] for dtype i32, got [" + std::to_string(low) + ", " + std::to_string(high) + ")");
    // a bool draw is a draw of 0s and 1s (NumPy's integers(0, 2, dtype=bool))
    if (d == DType::Bool && (low < 0 || high > 2))
        fail("random_int", "low and high must be within [0, 2] for dtype bool, got [" + std::to_string(low) + ", " +
                               std::to_string(high) + ")");
}

// random_int's dtype: i64 (the default), i32 or bool.
DType int_draw_dtype(const Attr& attr) {
    const DType d = kern::attr_dtype(attr).value_or(DType::I64);
    if (d != DType::I64 && d != DType::I32 && d != DType::Bool)
        fail("random_int", std::string("dtype must be i64, i32 or bool, not ") + dtype_name(d));
    return d;
}

TensorType infer_int(const TypeArgs& a) {
    Shape s = kern::attr_shape("random_int", "shape", a.attrs[0]);
    const DType d = int_draw_dtype(a.attrs[3]);
    int64_t low, high;
    int_bounds(a.attrs, d, low, high);
    return {d, s, false};
}
Tensor eager_int(OpContext& ctx, const OpArgs& a) {
    const TensorType t = infer_int(TypeArgs{{}, a.attrs});
    int64_t low, high;
    int_bounds(a.attrs, t.dtype, low, high);
    Tensor out = Tensor::empty(t.dtype, t.shape);
    Rng& rng = rng_of(ctx, "random_int");
    const int64_t n = out.numel();
    const uint64_t c0 = rng.take(random_int_blocks(n, low, high));
    if (t.dtype == DType::I32) fill_int_i32(rng.key(), c0, n, low, high, out.data<int32_t>());
    else if (t.dtype == DType::Bool) fill_int_bool(rng.key(), c0, n, low, high, out.data<bool>());
    else fill_int_i64(rng.key(), c0, n, low, high, out.data<int64_t>());
    return out;
}

}  // namespace

void register_random_ops(OpRegistry& r) {
    constexpr uint32_t flags = kRandom | kCreation;
    const ParamDef f32{"dtype", ParamKind::DType, false, DType::F32};
    r.add({"random_uniform",
           {{"shape", ParamKind::Shape},
            {"low", ParamKind::Scalar, false, 0.0},
            {"high", ParamKind::Scalar, false, 1.0},
            f32},
           &FloatDraw<false>::infer, &FloatDraw<false>::eager, flags,
           "uniform in [low, high) from the Philox stream, f32 or f64 (53 random bits each)", OtherKind::RandomUniform});
    r.add({"random_normal",
           {{"shape", ParamKind::Shape},
            {"mean", ParamKind::Scalar, false, 0.0},
            {"std", ParamKind::Scalar, false, 1.0},
            f32},
           &FloatDraw<true>::infer, &FloatDraw<true>::eager, flags,
           "normal(mean, std) from the Philox stream (Box-Muller), f32 or f64", OtherKind::RandomNormal});
    r.add({"random_int",
           {{"shape", ParamKind::Shape},
            {"low", ParamKind::Int},
            {"high", ParamKind::Int},
            {"dtype", ParamKind::DType, false, DType::I64}},
           &infer_int, &eager_int, flags,
           "uniform integers in [low, high) from the Philox stream, i64, i32 or bool (low and high within [0, 2]: "
           "coin flips)",
           OtherKind::RandomInt});
}

}  // namespace tg::stdlib
