// Creation ops of docs/builtins.md: tensor (alias constant), zeros, ones, full,
// zeros_like, ones_like, arange, linspace, eye.
//
// Decisions (NumPy's where docs/language.md is silent):
//  * tensor(data, dtype) casts a given dtype with the cast rules of astype.
//  * full(shape, value, dtype=None): value broadcasts to shape; its dtype is
//    used when dtype is None (a literal gives its default dtype, i64 or f32).
//  * arange: all-int arguments give i64 computed exactly; any float argument
//    gives f32 computed as start + i * step in f64, then rounded. The length
//    is ceil((stop - start) / step), at least 0, as NumPy's.
//  * linspace(start, stop, num, dtype=None): f32 unless dtype; element i is start + i * step in f64
//    with step = (stop - start) / (num - 1), the last element exactly stop.
#include <cmath>
#include <string>

#include "stdlib/cast.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;

namespace {

DType dtype_or(const Attr& a, DType d) { return kern::attr_dtype(a).value_or(d); }

template <class T>
void fill(Tensor& t, T v) {
    T* p = t.data<T>();
    const int64_t n = t.numel();
    for (int64_t i = 0; i < n; ++i) p[i] = v;
}

Tensor filled(DType dt, const Shape& s, double v) {
    Tensor t = Tensor::empty(dt, s);
    kern::visit_dtype(dt, [&](auto tag) { fill(t, convert<decltype(tag)>(v)); });
    return t;
}

// ---- tensor / constant
TensorType infer_tensor(const TypeArgs& a) {
    return {dtype_or(a.attrs[1], a.inputs[0].dtype), a.inputs[0].shape, false};
}
Tensor eager_tensor(OpContext&, const OpArgs& a) {
    const Tensor& x = a.inputs[0];
    auto dt = kern::attr_dtype(a.attrs[1]);
    return dt ? cast(x, *dt) : kern::strong(x);
}

// ---- zeros / ones
TensorType infer_zeros(const TypeArgs& a) {
    return {dtype_or(a.attrs[1], DType::F32), kern::attr_shape("zeros", "shape", a.attrs[0]), false};
}
Tensor eager_zeros(OpContext&, const OpArgs& a) {
    return Tensor::zeros(dtype_or(a.attrs[1], DType::F32), kern::attr_shape("zeros", "shape", a.attrs[0]));
}
TensorType infer_ones(const TypeArgs& a) {
    return {dtype_or(a.attrs[1], DType::F32), kern::attr_shape("ones", "shape", a.attrs[0]), false};
}
Tensor eager_ones(OpContext&, const OpArgs& a) {
    return filled(dtype_or(a.attrs[1], DType::F32), kern::attr_shape("ones", "shape", a.attrs[0]), 1.0);
}

// ---- full
TensorType infer_full(const TypeArgs& a) {
    Shape s = kern::attr_shape("full", "shape", a.attrs[0]);
    const TensorType& v = a.inputs[0];
    if (!broadcasts_to(v.shape, s))
        fail("full", "value of shape " + v.shape.to_string() + " cannot be broadcast to shape " + s.to_string());
    return {dtype_or(a.attrs[2], v.dtype), s, false};
}
Tensor eager_full(OpContext&, const OpArgs& a) {
    TensorType v{a.inputs[0].dtype(), a.inputs[0].shape(), a.inputs[0].weak()};
    TensorType t = infer_full(TypeArgs{std::span<const TensorType>(&v, 1), a.attrs});
    Tensor value = cast(a.inputs[0], t.dtype);
    return kern::broadcast_view("full", value, t.shape).copy();
}

// ---- zeros_like / ones_like
TensorType infer_like(const TypeArgs& a) { return {a.inputs[0].dtype, a.inputs[0].shape, false}; }
Tensor eager_zeros_like(OpContext&, const OpArgs& a) { return Tensor::zeros(a.inputs[0].dtype(), a.inputs[0].shape()); }
Tensor eager_ones_like(OpContext&, const OpArgs& a) { return filled(a.inputs[0].dtype(), a.inputs[0].shape(), 1.0); }

// ---- arange
struct ArangePlan {
    bool ints = true;
    int64_t istart = 0, istep = 1;
    double start = 0, step = 1;
    int64_t n = 0;
    DType dtype = DType::I64;
};

ArangePlan plan_arange(std::span<const Attr> attrs) {
    ArangePlan p;
    const Attr& a0 = attrs[0];
    const Attr& a1 = attrs[1];
    const Attr& a2 = attrs[2];
    Attr start = a0, stop = a1, step = kern::attr_is_none(a2) ? Attr{int64_t{1}} : a2;
    if (kern::attr_is_none(a1)) {
        start = int64_t{0};
        stop = a0;
    }
    for (const Attr* x : {&start, &stop, &step})
        if (std::holds_alternative<double>(*x)) p.ints = false;
    if (p.ints) {
        p.istart = kern::attr_int("arange", "start", start);
        int64_t istop = kern::attr_int("arange", "stop", stop);
        p.istep = kern::attr_int("arange", "step", step);
        if (p.istep == 0) fail("arange", "step must not be zero");
        // Exact ceil((stop - start) / step) without overflow.
        __int128 span = static_cast<__int128>(istop) - p.istart;
        __int128 q = span / p.istep;
        if (q * p.istep != span && ((span > 0) == (p.istep > 0))) ++q;
        p.n = q > 0 ? static_cast<int64_t>(q) : 0;
        p.start = static_cast<double>(p.istart);
        p.step = static_cast<double>(p.istep);
        p.dtype = DType::I64;
    } else {
        p.start = kern::attr_number("arange", "start", start);
        double dstop = kern::attr_number("arange", "stop", stop);
        p.step = kern::attr_number("arange", "step", step);
        if (p.step == 0) fail("arange", "step must not be zero");
        if (!std::isfinite(p.start) || !std::isfinite(dstop) || !std::isfinite(p.step))
            fail("arange", "start, stop and step must be finite");
        double len = std::ceil((dstop - p.start) / p.step);
        if (len > 9.0e18) fail("arange", "the result would have too many elements");
        p.n = len > 0 ? static_cast<int64_t>(len) : 0;
        p.dtype = DType::F32;
    }
    if (auto d = kern::attr_dtype(attrs[3])) p.dtype = *d;
    return p;
}

TensorType infer_arange(const TypeArgs& a) {
    ArangePlan p = plan_arange(a.attrs);
    return {p.dtype, Shape{p.n}, false};
}
Tensor eager_arange(OpContext&, const OpArgs& a) {
    ArangePlan p = plan_arange(a.attrs);
    Tensor out = Tensor::empty(p.dtype, Shape{p.n});
    kern::visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        T* o = out.data<T>();
        if (p.ints) {
            for (int64_t i = 0; i < p.n; ++i)
                o[i] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(p.istart) +
                                                       static_cast<uint64_t>(i) * static_cast<uint64_t>(p.istep)));
        } else {
            for (int64_t i = 0; i < p.n; ++i) o[i] = convert<T>(p.start + static_cast<double>(i) * p.step);
        }
    });
    return out;
}

// ---- linspace
TensorType infer_linspace(const TypeArgs& a) {
    int64_t num = kern::attr_int("linspace", "num", a.attrs[2]);
    if (num < 0) fail("linspace", "num must be >= 0, got " + std::to_string(num));
    return {dtype_or(a.attrs[3], DType::F32), Shape{num}, false};
}
// The values in f64, then in the dtype asked for: floats rounded once,
// integers rounded toward -inf (NumPy's linspace since 1.20), bool nonzero.
Tensor eager_linspace(OpContext&, const OpArgs& a) {
    double start = kern::attr_number("linspace", "start", a.attrs[0]);
    double stop = kern::attr_number("linspace", "stop", a.attrs[1]);
    int64_t num = kern::attr_int("linspace", "num", a.attrs[2]);
    if (num < 0) fail("linspace", "num must be >= 0, got " + std::to_string(num));
    Tensor values = Tensor::empty(DType::F64, Shape{num});
    double* v = values.data<double>();
    const double step = num > 1 ? (stop - start) / static_cast<double>(num - 1) : 0.0;
    for (int64_t i = 0; i < num; ++i) v[i] = static_cast<double>(i) * step + start;
    if (num > 1) v[num - 1] = stop;
    const DType d = dtype_or(a.attrs[3], DType::F32);
    if (is_int(d))
        for (int64_t i = 0; i < num; ++i) v[i] = std::floor(v[i]);
    return d == DType::F64 ? values : cast(values, d);
}

// ---- eye
TensorType infer_eye(const TypeArgs& a) {
    int64_t n = kern::attr_int("eye", "n", a.attrs[0]);
    if (n < 0) fail("eye", "n must be >= 0, got " + std::to_string(n));
    Shape s{n, n};
    (void)s.numel();
    return {dtype_or(a.attrs[1], DType::F32), s, false};
}
Tensor eager_eye(OpContext&, const OpArgs& a) {
    TensorType t = infer_eye(TypeArgs{{}, a.attrs});
    Tensor out = Tensor::zeros(t.dtype, t.shape);
    const int64_t n = t.shape[0];
    kern::visit_dtype(t.dtype, [&](auto tag) {
        using T = decltype(tag);
        T* o = out.data<T>();
        for (int64_t i = 0; i < n; ++i) o[i * n + i] = T(1);
    });
    return out;
}

}  // namespace

void register_creation_ops(OpRegistry& r) {
    const Attr none = std::monostate{};
    r.add({"tensor", {{"data", ParamKind::Value}, {"dtype", ParamKind::DType, false, none}}, &infer_tensor,
           &eager_tensor, kCreation, "a tensor from a number or nested lists, cast to dtype if given",
           OtherKind::Tensor});
    r.alias("constant", "tensor");
    r.add({"zeros", {{"shape", ParamKind::Shape}, {"dtype", ParamKind::DType, false, DType::F32}}, &infer_zeros,
           &eager_zeros, kCreation, "a tensor of zeros", OtherKind::Zeros});
    r.add({"ones", {{"shape", ParamKind::Shape}, {"dtype", ParamKind::DType, false, DType::F32}}, &infer_ones,
           &eager_ones, kCreation, "a tensor of ones", OtherKind::Ones});
    r.add({"full",
           {{"shape", ParamKind::Shape}, {"value", ParamKind::Tensor}, {"dtype", ParamKind::DType, false, none}},
           &infer_full, &eager_full, kCreation, "a tensor filled with value (its dtype unless dtype is given)",
           OtherKind::Full});
    r.add({"zeros_like", {{"x", ParamKind::Tensor}}, &infer_like, &eager_zeros_like, 0,
           "zeros with the shape and dtype of x", OtherKind::ZerosLike});
    r.add({"ones_like", {{"x", ParamKind::Tensor}}, &infer_like, &eager_ones_like, 0,
           "ones with the shape and dtype of x", OtherKind::OnesLike});
    r.add({"arange",
           {{"start", ParamKind::Scalar},
            {"stop", ParamKind::Scalar, false, none},
            {"step", ParamKind::Scalar, false, int64_t{1}},
            {"dtype", ParamKind::DType, false, none}},
           &infer_arange, &eager_arange, kCreation,
           "evenly spaced values in [start, stop) (ints give i64, any float f32)", OtherKind::Arange});
    r.add({"linspace",
           {{"start", ParamKind::Scalar}, {"stop", ParamKind::Scalar}, {"num", ParamKind::Int},
            {"dtype", ParamKind::DType, false, none}},
           &infer_linspace, &eager_linspace, kCreation,
           "num evenly spaced values from start to stop inclusive (f32 unless dtype says)", OtherKind::Linspace});
    r.add({"eye", {{"n", ParamKind::Int}, {"dtype", ParamKind::DType, false, DType::F32}}, &infer_eye, &eager_eye,
           kCreation, "the n x n identity matrix", OtherKind::Eye});
}

}  // namespace tg::stdlib
