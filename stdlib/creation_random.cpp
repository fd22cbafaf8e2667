// Random creation ops of docs/builtins.md: random_uniform, random_normal, random_int.
// The stream layout (which block and word each element comes from) is
// specified in random.hpp; these kernels only reserve the blocks and fill.
#include <cmath>
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

TensorType infer_uniform(const TypeArgs& a) {
    Shape s = kern::attr_shape("random_uniform", "shape", a.attrs[0]);
    finite_number("random_uniform", "low", a.attrs[1]);
    finite_number("random_uniform", "high", a.attrs[2]);
    return {DType::F32, s, false};
}
Tensor eager_uniform(OpContext& ctx, const OpArgs& a) {
    Shape s = kern::attr_shape("random_uniform", "shape", a.attrs[0]);
    double low = finite_number("random_uniform", "low", a.attrs[1]);
    double high = finite_number("random_uniform", "high", a.attrs[2]);
    Tensor out = Tensor::empty(DType::F32, s);
    Rng& rng = rng_of(ctx, "random_uniform");
    const int64_t n = out.numel();
    fill_uniform_f32(rng.key(), rng.take(random_blocks(n)), n, low, high, out.data<float>());
    return out;
}

TensorType infer_normal(const TypeArgs& a) {
    Shape s = kern::attr_shape("random_normal", "shape", a.attrs[0]);
    finite_number("random_normal", "mean", a.attrs[1]);
    finite_number("random_normal", "std", a.attrs[2]);
    return {DType::F32, s, false};
}
Tensor eager_normal(OpContext& ctx, const OpArgs& a) {
    Shape s = kern::attr_shape("random_normal", "shape", a.attrs[0]);
    double mean = finite_number("random_normal", "mean", a.attrs[1]);
    double std = finite_number("random_normal", "std", a.attrs[2]);
    Tensor out = Tensor::empty(DType::F32, s);
    Rng& rng = rng_of(ctx, "random_normal");
    const int64_t n = out.numel();
    fill_normal_f32(rng.key(), rng.take(random_blocks(n)), n, mean, std, out.data<float>());
    return out;
}

void int_bounds(const std::span<const Attr> attrs, int64_t& low, int64_t& high) {
    low = kern::attr_int("random_int", "low", attrs[1]);
    high = kern::attr_int("random_int", "high", attrs[2]);
    if (high <= low)
        fail("random_int", "high (" + std::to_string(high) + ") must be greater than low (" + std::to_string(low) + ")");
}

TensorType infer_int(const TypeArgs& a) {
    Shape s = kern::attr_shape("random_int", "shape", a.attrs[0]);
    int64_t low, high;
    int_bounds(a.attrs, low, high);
    return {DType::I64, s, false};
}
Tensor eager_int(OpContext& ctx, const OpArgs& a) {
    Shape s = kern::attr_shape("random_int", "shape", a.attrs[0]);
    int64_t low, high;
    int_bounds(a.attrs, low, high);
    Tensor out = Tensor::empty(DType::I64, s);
    Rng& rng = rng_of(ctx, "random_int");
    const int64_t n = out.numel();
    fill_int_i64(rng.key(), rng.take(random_int_blocks(n, low, high)), n, low, high, out.data<int64_t>());
    return out;
}

}  // namespace

void register_random_ops(OpRegistry& r) {
    constexpr uint32_t flags = kRandom | kCreation;
    r.add({"random_uniform",
           {{"shape", ParamKind::Shape},
            {"low", ParamKind::Scalar, false, 0.0},
            {"high", ParamKind::Scalar, false, 1.0}},
           &infer_uniform, &eager_uniform, flags, "f32 uniform in [low, high) from the Philox stream",
           OtherKind::RandomUniform});
    r.add({"random_normal",
           {{"shape", ParamKind::Shape},
            {"mean", ParamKind::Scalar, false, 0.0},
            {"std", ParamKind::Scalar, false, 1.0}},
           &infer_normal, &eager_normal, flags, "f32 normal(mean, std) from the Philox stream (Box-Muller)",
           OtherKind::RandomNormal});
    r.add({"random_int", {{"shape", ParamKind::Shape}, {"low", ParamKind::Int}, {"high", ParamKind::Int}},
           &infer_int, &eager_int, flags, "i64 uniform in [low, high) from the Philox stream", OtherKind::RandomInt});
}

}  // namespace tg::stdlib
