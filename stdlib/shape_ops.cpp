// Kernels and shape rules of the shape ops (see shape_ops.hpp).
#include "stdlib/shape_ops.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;
using kern::normalize_axis;

namespace {

std::string ints_to_string(std::span<const int64_t> v) {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(v[i]);
    }
    if (v.size() == 1) s += ",";
    return s + ")";
}

// An Axis/Shape attr as a list of ints (None -> empty, int -> one).
std::vector<int64_t> attr_ints(std::string_view fn, std::string_view arg, const Attr& a) {
    if (kern::attr_is_none(a)) return {};
    if (auto* i = std::get_if<int64_t>(&a)) return {*i};
    if (auto* v = std::get_if<std::vector<int64_t>>(&a)) return *v;
    fail(fn, std::string(arg) + " must be an int or a tuple of ints");
}

// Normalized, sorted, unique axes of `axes` for a tensor of rank `rank`.
std::vector<int> unique_axes(std::string_view fn, std::span<const int64_t> axes, int rank) {
    std::vector<int> out;
    for (int64_t a : axes) {
        int n = normalize_axis(fn, a, rank);
        if (std::find(out.begin(), out.end(), n) != out.end()) fail(fn, "axis " + std::to_string(a) + " is repeated");
        out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

Shape expand_dims_shape(const Shape& x, std::span<const int64_t> axes, std::vector<int>* norm = nullptr) {
    if (axes.empty()) fail("expand_dims", "axis must be given");
    int out_rank = x.rank() + static_cast<int>(axes.size());
    if (out_rank > kMaxRank)
        fail("expand_dims", "the result would have " + std::to_string(out_rank) + " dimensions; at most " +
                                std::to_string(kMaxRank) + " are supported");
    std::vector<int> ax = unique_axes("expand_dims", axes, out_rank);
    Shape out;
    int src = 0;
    for (int d = 0; d < out_rank; ++d) out.push_back(contains(ax, d) ? 1 : x[src++]);
    if (norm) *norm = ax;
    return out;
}

Shape squeeze_shape(const Shape& x, const Attr& axis, std::vector<int>* removed = nullptr) {
    std::vector<int> ax;
    if (kern::attr_is_none(axis)) {
        for (int d = 0; d < x.rank(); ++d)
            if (x[d] == 1) ax.push_back(d);
    } else {
        std::vector<int64_t> given = attr_ints("squeeze", "axis", axis);
        ax = unique_axes("squeeze", given, x.rank());
        for (int d : ax)
            if (x[d] != 1)
                fail("squeeze", "cannot squeeze axis " + std::to_string(d) + " of shape " + x.to_string() +
                                    ": its size is " + std::to_string(x[d]) + ", not 1");
    }
    Shape out;
    for (int d = 0; d < x.rank(); ++d)
        if (!contains(ax, d)) out.push_back(x[d]);
    if (removed) *removed = ax;
    return out;
}

// The dtype of concatenating / stacking tensors: promotion of all of them.
TensorType join_type(std::string_view fn, std::span<const TensorType> xs) {
    if (xs.empty()) fail(fn, "needs at least one tensor");
    Promoted p{xs[0].dtype, xs[0].weak};
    for (size_t i = 1; i < xs.size(); ++i) p = promote(p.dtype, p.weak, xs[i].dtype, xs[i].weak);
    return {p.dtype, {}, false};
}

Shape concat_shape(std::span<const Shape> shapes, int64_t axis, int* norm_axis) {
    const Shape& first = shapes[0];
    if (first.rank() == 0) fail("concat", "0-d tensors cannot be concatenated (tensor 0 has shape ())");
    int ax = normalize_axis("concat", axis, first.rank());
    Shape out = first;
    for (size_t i = 1; i < shapes.size(); ++i) {
        const Shape& s = shapes[i];
        bool ok = s.rank() == first.rank();
        for (int d = 0; ok && d < s.rank(); ++d)
            if (d != ax && s[d] != first[d]) ok = false;
        if (!ok)
            fail("concat", "tensor " + std::to_string(i) + " has shape " + s.to_string() +
                               ", which does not match shape " + first.to_string() + " of tensor 0 outside axis " +
                               std::to_string(ax));
        out[ax] += s[ax];
    }
    (void)out.numel();
    if (norm_axis) *norm_axis = ax;
    return out;
}

Shape stack_shape(std::span<const Shape> shapes, int64_t axis, int* norm_axis) {
    const Shape& first = shapes[0];
    for (size_t i = 1; i < shapes.size(); ++i)
        if (!(shapes[i] == first))
            fail("stack", "all tensors must have the same shape: tensor 0 has shape " + first.to_string() +
                              " and tensor " + std::to_string(i) + " has shape " + shapes[i].to_string());
    if (first.rank() + 1 > kMaxRank) fail("stack", "the result would have more than 8 dimensions");
    int ax = normalize_axis("stack", axis, first.rank() + 1);
    Shape out;
    for (int d = 0, src = 0; d <= first.rank(); ++d) out.push_back(d == ax ? static_cast<int64_t>(shapes.size()) : first[src++]);
    (void)out.numel();
    if (norm_axis) *norm_axis = ax;
    return out;
}

}  // namespace

// ---- public kernels

Shape transpose_shape(const Shape& x, std::span<const int64_t> perm, std::vector<int>* out_perm) {
    std::vector<int> p;
    if (perm.empty()) {
        for (int d = x.rank() - 1; d >= 0; --d) p.push_back(d);
    } else {
        bool ok = static_cast<int>(perm.size()) == x.rank();
        for (size_t i = 0; ok && i < perm.size(); ++i) {
            if (perm[i] < -x.rank() || perm[i] >= x.rank()) { ok = false; break; }
            int a = static_cast<int>(perm[i] < 0 ? perm[i] + x.rank() : perm[i]);
            if (contains(p, a)) ok = false;
            p.push_back(a);
        }
        if (!ok)
            fail("transpose", "axes " + ints_to_string(perm) + " are not a permutation of the " +
                                  std::to_string(x.rank()) + " axes of shape " + x.to_string());
    }
    Shape out;
    for (int a : p) out.push_back(x[a]);
    if (out_perm) *out_perm = p;
    return out;
}

Tensor transpose(const Tensor& x0, std::span<const int64_t> perm) {
    Tensor x = kern::strong(x0);
    std::vector<int> p;
    Shape shape = transpose_shape(x.shape(), perm, &p);
    if (x.rank() < 2) return x;
    Strides st;
    for (int a : p) st.push_back(x.strides()[a]);
    return x.view(shape, st, 0);
}

Shape reshape_shape(const Shape& x, std::span<const int64_t> shape) {
    if (shape.size() > static_cast<size_t>(kMaxRank))
        fail("reshape", "shape " + ints_to_string(shape) + " has more than 8 dimensions");
    int unknown = -1;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (unknown >= 0) fail("reshape", "can only specify one unknown dimension (-1), got shape " + ints_to_string(shape));
            unknown = static_cast<int>(i);
        } else if (shape[i] < 0) {
            fail("reshape", "shape " + ints_to_string(shape) + " has a negative dimension " + std::to_string(shape[i]));
        } else if (__builtin_mul_overflow(known, shape[i], &known)) {
            fail("reshape", "shape " + ints_to_string(shape) + " has too many elements");
        }
    }
    const int64_t n = x.numel();
    Shape out;
    for (int64_t d : shape) out.push_back(d);
    bool ok = unknown >= 0 ? (known != 0 && n % known == 0) : known == n;
    if (!ok)
        fail("reshape", "cannot reshape a tensor of shape " + x.to_string() + " (" + std::to_string(n) +
                            " elements) into shape " + ints_to_string(shape));
    if (unknown >= 0) out[unknown] = n / known;
    return out;
}

Tensor reshape(const Tensor& x0, std::span<const int64_t> shape) {
    Tensor x = kern::strong(x0);
    Shape out = reshape_shape(x.shape(), shape);
    if (out == x.shape()) return x;
    return kern::reshaped(x, out);
}

Tensor broadcast_to(const Tensor& x, const Shape& shape) { return kern::broadcast_view("broadcast_to", x, shape); }

void copy_into(void* dst, const Strides& dst_strides, const Tensor& src) {
    const int64_t es = static_cast<int64_t>(dtype_size(src.dtype()));
    auto loop = make_loop<2>(src.shape(), {dst_strides, src.strides()});
    kern::visit_dtype(src.dtype(), [&](auto tag) {
        using T = decltype(tag);
        for_each_row(loop, {static_cast<char*>(dst), const_cast<char*>(static_cast<const char*>(src.raw_data()))},
                     {es, es}, [](std::array<char*, 2> p, int64_t n, const int64_t* st) {
                         T* d = reinterpret_cast<T*>(p[0]);
                         const T* s = reinterpret_cast<const T*>(p[1]);
                         if (st[0] == 1 && st[1] == 1) {
                             std::memcpy(d, s, static_cast<size_t>(n) * sizeof(T));
                         } else {
                             for (int64_t i = 0; i < n; ++i) d[i * st[0]] = s[i * st[1]];
                         }
                     });
    });
}

Tensor concat(std::span<const Tensor> xs, int64_t axis) {
    std::vector<TensorType> types;
    std::vector<Shape> shapes;
    for (const Tensor& x : xs) {
        types.push_back({x.dtype(), x.shape(), x.weak()});
        shapes.push_back(x.shape());
    }
    DType dt = join_type("concat", types).dtype;
    int ax = 0;
    Shape out_shape = concat_shape(shapes, axis, &ax);
    Tensor out = Tensor::empty(dt, out_shape);
    if (out.numel() == 0) return out;
    const Strides st = out.strides();
    char* base = static_cast<char*>(out.raw_data());
    int64_t offset = 0;
    for (const Tensor& x : xs) {
        if (x.numel() > 0) copy_into(base + offset * st[ax] * static_cast<int64_t>(dtype_size(dt)), st, cast(x, dt));
        offset += x.shape()[ax];
    }
    return out;
}

Tensor stack(std::span<const Tensor> xs, int64_t axis) {
    if (xs.empty()) fail("stack", "needs at least one tensor");
    std::vector<Shape> shapes;
    for (const Tensor& x : xs) shapes.push_back(x.shape());
    int ax = 0;
    stack_shape(shapes, axis, &ax);
    std::vector<Tensor> parts;
    const int64_t one = ax;
    for (const Tensor& x : xs) {
        Shape s = expand_dims_shape(x.shape(), std::span<const int64_t>(&one, 1));
        parts.push_back(kern::reshaped(x, s));
    }
    // reshaped() made the weak scalars strong: promote as the originals would.
    std::vector<TensorType> types;
    for (const Tensor& x : xs) types.push_back({x.dtype(), x.shape(), x.weak()});
    DType dt = join_type("stack", types).dtype;
    for (Tensor& p : parts) p = cast(p, dt);
    return concat(parts, ax);
}

// ---- the op table

namespace {

TensorType infer_transpose(const TypeArgs& a) {
    std::vector<int64_t> perm = attr_ints("transpose", "axes", a.attrs[1]);
    return {a.inputs[0].dtype, transpose_shape(a.inputs[0].shape, perm), false};
}
Tensor eager_transpose(OpContext&, const OpArgs& a) {
    std::vector<int64_t> perm = attr_ints("transpose", "axes", a.attrs[1]);
    return transpose(a.inputs[0], perm);
}

TensorType infer_reshape(const TypeArgs& a) {
    std::vector<int64_t> s = attr_ints("reshape", "shape", a.attrs[1]);
    return {a.inputs[0].dtype, reshape_shape(a.inputs[0].shape, s), false};
}
Tensor eager_reshape(OpContext&, const OpArgs& a) {
    std::vector<int64_t> s = attr_ints("reshape", "shape", a.attrs[1]);
    return reshape(a.inputs[0], s);
}

TensorType infer_expand_dims(const TypeArgs& a) {
    std::vector<int64_t> ax = attr_ints("expand_dims", "axis", a.attrs[1]);
    return {a.inputs[0].dtype, expand_dims_shape(a.inputs[0].shape, ax), false};
}
Tensor eager_expand_dims(OpContext&, const OpArgs& a) {
    Tensor x = kern::strong(a.inputs[0]);
    std::vector<int64_t> ax = attr_ints("expand_dims", "axis", a.attrs[1]);
    std::vector<int> norm;
    Shape s = expand_dims_shape(x.shape(), ax, &norm);
    if (x.rank() == 0) return kern::reshaped(x, s);
    Strides st;
    for (int d = 0, src = 0; d < s.rank(); ++d) st.push_back(contains(norm, d) ? 0 : x.strides()[src++]);
    return x.view(s, st, 0);
}

TensorType infer_squeeze(const TypeArgs& a) { return {a.inputs[0].dtype, squeeze_shape(a.inputs[0].shape, a.attrs[1]), false}; }
Tensor eager_squeeze(OpContext&, const OpArgs& a) {
    Tensor x = kern::strong(a.inputs[0]);
    std::vector<int> removed;
    Shape s = squeeze_shape(x.shape(), a.attrs[1], &removed);
    if (removed.empty()) return x;
    if (s.rank() == 0) return kern::reshaped(x, s);
    Strides st;
    for (int d = 0; d < x.rank(); ++d)
        if (!contains(removed, d)) st.push_back(x.strides()[d]);
    return x.view(s, st, 0);
}

TensorType infer_flatten(const TypeArgs& a) { return {a.inputs[0].dtype, Shape{a.inputs[0].shape.numel()}, false}; }
Tensor eager_flatten(OpContext&, const OpArgs& a) {
    const int64_t minus_one = -1;
    return reshape(a.inputs[0], std::span<const int64_t>(&minus_one, 1));
}

TensorType infer_broadcast_to(const TypeArgs& a) {
    Shape s = kern::attr_shape("broadcast_to", "shape", a.attrs[1]);
    const Shape& x = a.inputs[0].shape;
    if (!broadcasts_to(x, s)) fail("broadcast_to", "cannot broadcast shape " + x.to_string() + " to " + s.to_string());
    return {a.inputs[0].dtype, s, false};
}
Tensor eager_broadcast_to(OpContext&, const OpArgs& a) {
    return broadcast_to(a.inputs[0], kern::attr_shape("broadcast_to", "shape", a.attrs[1]));
}

TensorType infer_concat(const TypeArgs& a) {
    TensorType t = join_type("concat", a.inputs);
    std::vector<Shape> shapes;
    for (const TensorType& x : a.inputs) shapes.push_back(x.shape);
    t.shape = concat_shape(shapes, kern::attr_int("concat", "axis", a.attrs[1]), nullptr);
    return t;
}
Tensor eager_concat(OpContext&, const OpArgs& a) { return concat(a.inputs, kern::attr_int("concat", "axis", a.attrs[1])); }

TensorType infer_stack(const TypeArgs& a) {
    TensorType t = join_type("stack", a.inputs);
    std::vector<Shape> shapes;
    for (const TensorType& x : a.inputs) shapes.push_back(x.shape);
    t.shape = stack_shape(shapes, kern::attr_int("stack", "axis", a.attrs[1]), nullptr);
    return t;
}
Tensor eager_stack(OpContext&, const OpArgs& a) { return stack(a.inputs, kern::attr_int("stack", "axis", a.attrs[1])); }

TensorType infer_one_hot(const TypeArgs& a) {
    const TensorType& idx = a.inputs[0];
    if (!is_int(idx.dtype)) fail("one_hot", std::string("indices must be integers, got ") + dtype_name(idx.dtype));
    int64_t n = kern::attr_int("one_hot", "n", a.attrs[1]);
    if (n < 0) fail("one_hot", "n must be >= 0, got " + std::to_string(n));
    Shape s = idx.shape;
    if (s.rank() == kMaxRank) fail("one_hot", "the result would have more than 8 dimensions");
    s.push_back(n);
    (void)s.numel();
    return {kern::attr_dtype(a.attrs[2]).value_or(DType::F32), s, false};
}
Tensor eager_one_hot(OpContext&, const OpArgs& a) {
    TensorType idx_t{a.inputs[0].dtype(), a.inputs[0].shape(), a.inputs[0].weak()};
    TensorType t = infer_one_hot(TypeArgs{std::span<const TensorType>(&idx_t, 1), a.attrs});
    const int64_t n = t.shape[t.shape.rank() - 1];
    Tensor idx = cast(a.inputs[0], DType::I64).contiguous();
    Tensor out = Tensor::zeros(t.dtype, t.shape);
    const int64_t* pi = idx.data<int64_t>();
    const int64_t count = idx.numel();
    for (int64_t i = 0; i < count; ++i)
        if (pi[i] < 0 || pi[i] >= n)
            fail("one_hot", "index " + std::to_string(pi[i]) + " (at position " + std::to_string(i) +
                                ") is out of range for n = " + std::to_string(n));
    kern::visit_dtype(t.dtype, [&](auto tag) {
        using T = decltype(tag);
        T* po = out.data<T>();
        for (int64_t i = 0; i < count; ++i) po[i * n + pi[i]] = T(1);
    });
    return out;
}

}  // namespace

void register_shape_ops(OpRegistry& r) {
    const Attr none = std::monostate{};
    r.add({"transpose", {{"x", ParamKind::Tensor}, {"axes", ParamKind::Axis, false, none}}, &infer_transpose,
           &eager_transpose, 0, "permute the axes (reverse them when axes is None); a view", OtherKind::Transpose});
    r.add({"reshape", {{"x", ParamKind::Tensor}, {"shape", ParamKind::Shape}}, &infer_reshape, &eager_reshape, 0,
           "the same elements in a new shape (one -1 is inferred)", OtherKind::Reshape});
    r.add({"expand_dims", {{"x", ParamKind::Tensor}, {"axis", ParamKind::Axis}}, &infer_expand_dims,
           &eager_expand_dims, 0, "insert axes of size 1 at the given positions; a view", OtherKind::ExpandDims});
    r.add({"squeeze", {{"x", ParamKind::Tensor}, {"axis", ParamKind::Axis, false, none}}, &infer_squeeze,
           &eager_squeeze, 0, "remove axes of size 1 (all of them when axis is None); a view", OtherKind::Squeeze});
    r.add({"flatten", {{"x", ParamKind::Tensor}}, &infer_flatten, &eager_flatten, 0,
           "the elements as a 1-d tensor, row-major", OtherKind::Flatten});
    r.add({"broadcast_to", {{"x", ParamKind::Tensor}, {"shape", ParamKind::Shape}}, &infer_broadcast_to,
           &eager_broadcast_to, 0, "broadcast to a shape with NumPy rules; a view", OtherKind::BroadcastTo});
    r.add({"concat", {{"xs", ParamKind::TensorList}, {"axis", ParamKind::Int, false, int64_t{0}}}, &infer_concat,
           &eager_concat, 0, "join tensors along an existing axis (dtypes promote)", OtherKind::Concat});
    r.add({"stack", {{"xs", ParamKind::TensorList}, {"axis", ParamKind::Int, false, int64_t{0}}}, &infer_stack,
           &eager_stack, 0, "join tensors of one shape along a new axis (dtypes promote)", OtherKind::Stack});
    r.add({"one_hot",
           {{"indices", ParamKind::Tensor}, {"n", ParamKind::Int}, {"dtype", ParamKind::DType, false, DType::F32}},
           &infer_one_hot, &eager_one_hot, 0, "indices (integers in [0, n)) to one-hot vectors on a new last axis",
           OtherKind::OneHot, Raises::OnData});
}

}  // namespace tg::stdlib
