// Scans of docs/builtins.md: cumsum and cumprod along one axis (`axis=None` flattens
// first, as NumPy). dtypes as NumPy: bool and integers give i64 (wrapping),
// floats keep their dtype and accumulate in it, in order (NumPy's
// add.accumulate / multiply.accumulate), so results match NumPy's bit for bit.
// Compiled code runs them through the runtime.
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

namespace {

using kern::fail;

DType scan_dtype(DType x) { return is_float(x) ? x : DType::I64; }

// The axis a scan runs along (-1: all elements, flattened).
int scan_axis(std::string_view fn, const Attr& axis, int rank) {
    if (kern::attr_is_none(axis)) return -1;
    kern::check_one_axis(fn, axis);
    // a 0-d x scans as a 1-d one (NumPy: cumsum(5.0, axis=0) is [5.0])
    if (rank == 0) {
        kern::normalize_axis(fn, std::get<int64_t>(axis), 1);  // 0 or -1
        return -1;
    }
    return kern::normalize_axis(fn, std::get<int64_t>(axis), rank);
}

Shape scan_shape(std::string_view fn, const Shape& x, const Attr& axis) {
    if (scan_axis(fn, axis, x.rank()) < 0) return Shape{x.numel()};
    return x;
}

template <bool Prod>
TensorType infer_scan(const TypeArgs& a) {
    const char* fn = Prod ? "cumprod" : "cumsum";
    return {scan_dtype(a.inputs[0].dtype), scan_shape(fn, a.inputs[0].shape, a.attrs[1]), false};
}

template <bool Prod, class A, class T>
void scan_lanes(const T* px, A* po, int64_t outer, int64_t len, int64_t inner) {
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * len * inner + i;
            A acc = Prod ? A(1) : A(0);
            for (int64_t k = 0; k < len; ++k) {
                const A v = static_cast<A>(px[base + k * inner]);
                acc = Prod ? A(acc * v) : A(acc + v);
                po[base + k * inner] = acc;
            }
        }
}

template <bool Prod>
Tensor eager_scan(OpContext&, const OpArgs& a) {
    const char* fn = Prod ? "cumprod" : "cumsum";
    const Tensor x = kern::strong(a.inputs[0]);
    const int axis = scan_axis(fn, a.attrs[1], x.rank());
    const Shape shape = axis < 0 ? Shape{x.numel()} : x.shape();
    const DType d = scan_dtype(x.dtype());
    Tensor out = Tensor::empty(d, shape);
    if (out.numel() == 0) return out;
    // Contiguous in the result's dtype: lanes of `len` elements, `inner` apart.
    const Tensor xc = kern::reshaped(cast(x, d).contiguous(), shape);
    const int ax = axis < 0 ? 0 : axis;
    int64_t outer = 1, inner = 1;
    for (int k = 0; k < ax; ++k) outer *= shape[k];
    for (int k = ax + 1; k < shape.rank(); ++k) inner *= shape[k];
    const int64_t len = shape.rank() == 0 ? 1 : shape[ax];
    kern::visit_dtype(d, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) scan_lanes<Prod, T>(xc.data<T>(), out.data<T>(), outer, len, inner);
        else if constexpr (std::is_same_v<T, int64_t>) {
            // wrapping integer arithmetic
            std::vector<uint64_t> acc(static_cast<size_t>(out.numel()));
            scan_lanes<Prod, uint64_t>(xc.data<int64_t>(), acc.data(), outer, len, inner);
            for (int64_t i = 0; i < out.numel(); ++i) out.data<int64_t>()[i] = static_cast<int64_t>(acc[static_cast<size_t>(i)]);
        }
    });
    return out;
}

template <bool Prod>
OpDef scan_op(std::string_view doc) {
    return OpDef{Prod ? "cumprod" : "cumsum",
                 {{"x", ParamKind::Tensor}, {"axis", ParamKind::Axis, false, std::monostate{}}},
                 &infer_scan<Prod>,
                 &eager_scan<Prod>,
                 0,
                 doc,
                 Prod ? OtherKind::Cumprod : OtherKind::Cumsum};
}

}  // namespace

void register_scan_ops(OpRegistry& r) {
    r.add(scan_op<false>("cumulative sum along axis (None: of the flattened x); bool and ints give i64"));
    r.add(scan_op<true>("cumulative product along axis (None: of the flattened x); bool and ints give i64"));
}

}  // namespace tg::stdlib
