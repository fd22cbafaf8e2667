#include "stdlib/index_gather.hpp"

#include <cstring>
#include <string>

#include "stdlib/cast.hpp"
#include "stdlib/errors.hpp"
#include "stdlib/grad.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

namespace {

int normalize_axis(const char* op, int64_t axis, int rank) {
    if (axis < -rank || axis >= rank)
        throw OpError(std::string(op) + ": axis " + std::to_string(axis) + " is out of range for a tensor of rank " +
                      std::to_string(rank));
    return static_cast<int>(axis < 0 ? axis + rank : axis);
}

void check_indices(const char* op, DType d) {
    if (d != DType::I32 && d != DType::I64)
        throw OpError(std::string(op) + ": indices must be an integer tensor, not " + std::string(dtype_name(d)));
}

// The indices as i64 in [0, n), negative ones counted from the end.
std::vector<int64_t> positions(const Tensor& idx, int64_t n, int axis) {
    const Tensor c = cast(idx, DType::I64).contiguous();
    std::vector<int64_t> out(static_cast<size_t>(c.numel()));
    const int64_t* p = c.data<int64_t>();
    for (size_t k = 0; k < out.size(); ++k) {
        const int64_t i = p[k] < 0 ? p[k] + n : p[k];
        if (i < 0 || i >= n)
            throw OpError("index " + std::to_string(p[k]) + " is out of range for axis " + std::to_string(axis) +
                          " with size " + std::to_string(n));
        out[k] = i;
    }
    return out;
}

// x viewed as [outer, n, inner] around the axis
struct Split {
    int64_t outer = 1, n = 1, inner = 1;
};
Split split_at(const Shape& s, int axis) {
    Split r;
    for (int d = 0; d < axis; ++d) r.outer *= s[d];
    r.n = s[axis];
    for (int d = axis + 1; d < s.rank(); ++d) r.inner *= s[d];
    return r;
}

TensorType infer_gather(const TypeArgs& a) {
    const TensorType& x = a.inputs[0];
    check_indices("_gather", a.inputs[1].dtype);
    const int axis = normalize_axis("_gather", std::get<int64_t>(a.attrs[2]), x.shape.rank());
    return {x.dtype, gather_shape(x.shape, a.inputs[1].shape, axis), false};
}

Tensor eager_gather(OpContext&, const OpArgs& a) {
    const Tensor x = a.inputs[0].strong().contiguous();
    const int axis = normalize_axis("_gather", std::get<int64_t>(a.attrs[2]), x.rank());
    check_indices("_gather", a.inputs[1].dtype());
    const std::vector<int64_t> pos = positions(a.inputs[1], x.shape()[axis], axis);
    Tensor out = Tensor::empty(x.dtype(), gather_shape(x.shape(), a.inputs[1].shape(), axis));
    const Split s = split_at(x.shape(), axis);
    const size_t row = static_cast<size_t>(s.inner) * dtype_size(x.dtype());
    const char* src = static_cast<const char*>(x.raw_data());
    char* dst = static_cast<char*>(out.raw_data());
    const int64_t k_count = static_cast<int64_t>(pos.size());
    for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t k = 0; k < k_count; ++k)
            if (row) std::memcpy(dst + (o * k_count + k) * row, src + (o * s.n + pos[static_cast<size_t>(k)]) * row, row);
    return out;
}

TensorType infer_scatter(const TypeArgs& a) {
    const TensorType& x = a.inputs[0];
    check_indices("_scatter", a.inputs[1].dtype);
    const int axis = normalize_axis("_scatter", std::get<int64_t>(a.attrs[3]), x.shape.rank());
    const Shape want = gather_shape(x.shape, a.inputs[1].shape, axis);
    if (!(a.inputs[2].shape == want))
        throw OpError("_scatter: values of shape " + a.inputs[2].shape.to_string() + " do not match the indexed shape " +
                      want.to_string());
    return {x.dtype, x.shape, false};
}

template <bool Add>
Tensor eager_scatter(OpContext&, const OpArgs& a) {
    const TensorType t = infer_scatter(TypeArgs{std::vector<TensorType>{{a.inputs[0].dtype(), a.inputs[0].shape(), false},
                                                                        {a.inputs[1].dtype(), a.inputs[1].shape(), false},
                                                                        {a.inputs[2].dtype(), a.inputs[2].shape(), false}},
                                                a.attrs});
    const int axis = normalize_axis("_scatter", std::get<int64_t>(a.attrs[3]), t.shape.rank());
    const std::vector<int64_t> pos = positions(a.inputs[1], t.shape[axis], axis);
    Tensor out = a.inputs[0].strong().copy();
    const Tensor v = cast(a.inputs[2], t.dtype).contiguous();
    const Split s = split_at(t.shape, axis);
    const int64_t k_count = static_cast<int64_t>(pos.size());
    dispatch_dtype(t.dtype, [&](auto tag) {
        using E = typename decltype(tag)::type;
        E* dst = out.data<E>();
        const E* src = v.data<E>();
        for (int64_t o = 0; o < s.outer; ++o)
            for (int64_t k = 0; k < k_count; ++k) {
                E* d = dst + (o * s.n + pos[static_cast<size_t>(k)]) * s.inner;
                const E* w = src + (o * k_count + k) * s.inner;
                for (int64_t i = 0; i < s.inner; ++i) {
                    if constexpr (!Add) d[i] = w[i];
                    else if constexpr (std::is_same_v<E, bool>) d[i] = d[i] || w[i];
                    else d[i] = static_cast<E>(d[i] + w[i]);
                }
            }
    });
    return out;
}

// ---- gradients: gather and scatter-add are each other's transpose

const OpDef& op(std::string_view name) { return *find_op(name); }

GradVar gather(GradBuilder& b, GradVar x, GradVar idx, const Attr& axis) {
    GradVar in[2] = {x, idx};
    return b.apply(op("_gather"), in, {std::monostate{}, std::monostate{}, axis});
}
GradVar scatter(GradBuilder& b, std::string_view name, GradVar x, GradVar idx, GradVar v, const Attr& axis) {
    GradVar in[3] = {x, idx, v};
    return b.apply(op(name), in, {std::monostate{}, std::monostate{}, std::monostate{}, axis});
}

void vjp_gather(GradBuilder& b, const VjpArgs& a) {
    if (!a.wanted[0]) return;
    a.cots[0] = scatter(b, "_scatter_add", zeros_of(b, b.type(a.inputs[0])), a.inputs[1], a.cot, a.attrs[2]);
}

// _scatter: the positions written lose x's gradient and pass it to values
// (with repeated indices, each repeat receives it).
void vjp_scatter(GradBuilder& b, const VjpArgs& a) {
    if (a.wanted[0])
        a.cots[0] = scatter(b, "_scatter", a.cot, a.inputs[1], zeros_of(b, b.type(a.inputs[2])), a.attrs[3]);
    if (a.wanted[2]) a.cots[2] = gather(b, a.cot, a.inputs[1], a.attrs[3]);
}

void vjp_scatter_add(GradBuilder& b, const VjpArgs& a) {
    if (a.wanted[0]) a.cots[0] = a.cot;
    if (a.wanted[2]) a.cots[2] = gather(b, a.cot, a.inputs[1], a.attrs[3]);
}

}  // namespace

Shape gather_shape(const Shape& x, const Shape& indices, int axis) {
    Shape out;
    for (int d = 0; d < axis; ++d) out.push_back(x[d]);
    for (int64_t k : indices) out.push_back(k);
    for (int d = axis + 1; d < x.rank(); ++d) out.push_back(x[d]);
    return out;
}

void register_gather_ops(OpRegistry& r) {
    const ParamDef x{"x", ParamKind::Tensor}, idx{"indices", ParamKind::Tensor}, vals{"values", ParamKind::Tensor},
        axis{"axis", ParamKind::Int};
    OpDef g{"_gather", {x, idx, axis}, &infer_gather, &eager_gather, kInternal,
            "x[idx] along one axis (integer-tensor indexing)"};
    g.kind = OtherKind::Gather;
    g.raises = Raises::OnData;
    g.grad = {GradRule::Vjp, &vjp_gather};
    r.add(std::move(g));
    OpDef s{"_scatter", {x, idx, vals, axis}, &infer_scatter, &eager_scatter<false>, kInternal,
            "x with x[idx] = values along one axis (integer-tensor index assignment)"};
    s.kind = OtherKind::Scatter;
    s.raises = Raises::OnData;
    s.grad = {GradRule::Vjp, &vjp_scatter};
    r.add(std::move(s));
    OpDef sa{"_scatter_add", {x, idx, vals, axis}, &infer_scatter, &eager_scatter<true>, kInternal,
             "x with values added at x[idx] along one axis (the gradient of a gather)"};
    sa.kind = OtherKind::ScatterAdd;
    sa.raises = Raises::OnData;
    sa.grad = {GradRule::Vjp, &vjp_scatter_add};
    r.add(std::move(sa));
}

}  // namespace tg::stdlib
