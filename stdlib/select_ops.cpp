// take, sort, argsort (op table rows) and the eager-only unique / nonzero
// (see select_ops.hpp). Sorting is stable and puts NaNs last, as NumPy.
#include "stdlib/select_ops.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "stdlib/gather_map.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

using kern::fail;

namespace {

// NumPy's order: NaN after every number.
template <class T>
bool less_nan_last(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
    }
    return a < b;
}

// ---- take: elements of x (flattened when axis is None) at integer indices
// (negative ones count from the end); the result's shape is
// x.shape[:axis] + idx.shape + x.shape[axis+1:].
struct TakePlan {
    int axis = 0;
    Shape in, out;
};
TakePlan plan_take(const TensorType& x, const TensorType& idx, const Attr& axis) {
    if (!is_int(idx.dtype))
        fail("take", std::string("argument `idx` must hold integers, not ") + dtype_name(idx.dtype));
    TakePlan p;
    if (kern::attr_is_none(axis)) {
        p.in = Shape{x.shape.numel()};
    } else {
        p.in = x.shape;
        p.axis = kern::normalize_axis("take", kern::attr_int("take", "axis", axis), x.shape.rank());
    }
    for (int d = 0; d < p.axis; ++d) p.out.push_back(p.in[d]);
    for (int64_t d : idx.shape) p.out.push_back(d);
    for (int d = p.axis + 1; d < p.in.rank(); ++d) p.out.push_back(p.in[d]);
    (void)p.out.numel();
    return p;
}
TensorType infer_take(const TypeArgs& a) {
    return {a.inputs[0].dtype, plan_take(a.inputs[0], a.inputs[1], a.attrs[2]).out, false};
}
Tensor eager_take(OpContext&, const OpArgs& a) {
    const Tensor& x0 = a.inputs[0];
    const TakePlan p = plan_take({x0.dtype(), x0.shape(), x0.weak()},
                                 {a.inputs[1].dtype(), a.inputs[1].shape(), false}, a.attrs[2]);
    const Tensor idx = cast(kern::strong(a.inputs[1]), DType::I64).contiguous();
    const int64_t* pi = idx.data<int64_t>();
    const int64_t len = p.in[p.axis], m = idx.numel();
    std::vector<int64_t> norm(static_cast<size_t>(m));
    for (int64_t k = 0; k < m; ++k) {
        const int64_t v = pi[k];
        if (v < -len || v >= len)
            fail("take", "index " + std::to_string(v) + " is out of bounds for axis " + std::to_string(p.axis) +
                             " with size " + std::to_string(len));
        norm[static_cast<size_t>(k)] = v < 0 ? v + len : v;
    }
    const Tensor x = kern::reshaped(kern::strong(x0), p.in);
    const int ir = idx.rank();
    const Strides ist = contiguous_strides(idx.shape());
    return kern::gather_map(x, p.out, [&](const int64_t* i, int64_t* j) {
        for (int d = 0; d < p.axis; ++d) j[d] = i[d];
        int64_t k = 0;
        for (int d = 0; d < ir; ++d) k += i[p.axis + d] * ist[d];
        j[p.axis] = norm[static_cast<size_t>(k)];
        for (int d = p.axis + 1; d < p.in.rank(); ++d) j[d] = i[d + ir - 1];
        return true;
    });
}

// ---- sort / argsort along one axis (axis None: the flattened tensor)
struct SortPlan {
    int axis = 0;
    Shape in;  // x's shape, flattened when axis is None
};
SortPlan plan_sort(std::string_view fn, const Shape& xs, const Attr& axis) {
    SortPlan p;
    if (kern::attr_is_none(axis)) {
        p.in = Shape{xs.numel()};
        return p;
    }
    p.in = xs;
    p.axis = kern::normalize_axis(fn, kern::attr_int(fn, "axis", axis), xs.rank());
    return p;
}

// Calls f(x values of one row (strided), count, stride, the permutation
// that sorts it stably with NaNs last) for every row along the axis.
template <class T, class F>
void sorted_rows(const Tensor& x, int axis, F&& f) {
    const Shape& s = x.shape();
    Shape outer = s;
    outer[axis] = 1;
    const int64_t n = s[axis], st = x.strides()[axis];
    std::vector<int64_t> perm(static_cast<size_t>(n));
    const T* base = x.data<T>();
    kern::for_each_run(outer, x.strides(), [&](int64_t off, int64_t runs, int64_t run_st) {
        for (int64_t r = 0; r < runs; ++r) {
            const T* row = base + off + r * run_st;
            std::iota(perm.begin(), perm.end(), 0);
            std::stable_sort(perm.begin(), perm.end(),
                             [&](int64_t a, int64_t b) { return less_nan_last<T>(row[a * st], row[b * st]); });
            f(off + r * run_st, perm);
        }
    });
}

template <bool Indices>
TensorType infer_sort(const TypeArgs& a) {
    const SortPlan p = plan_sort(Indices ? "argsort" : "sort", a.inputs[0].shape, a.attrs[1]);
    return {Indices ? DType::I64 : a.inputs[0].dtype, p.in, false};
}
template <bool Indices>
Tensor eager_sort(OpContext&, const OpArgs& a) {
    const SortPlan p = plan_sort(Indices ? "argsort" : "sort", a.inputs[0].shape(), a.attrs[1]);
    const Tensor x = kern::reshaped(kern::strong(a.inputs[0]), p.in).contiguous();
    Tensor out = Tensor::empty(Indices ? DType::I64 : x.dtype(), p.in);
    if (out.numel() == 0) return out;
    const int64_t st = x.strides()[p.axis];  // x and out are both contiguous: the same offsets
    kern::visit_dtype(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* px = x.data<T>();
        sorted_rows<T>(x, p.axis, [&](int64_t off, const std::vector<int64_t>& perm) {
            for (size_t k = 0; k < perm.size(); ++k) {
                const int64_t at = off + static_cast<int64_t>(k) * st;
                if constexpr (Indices) out.data<int64_t>()[at] = perm[k];
                else out.data<T>()[at] = px[off + perm[k] * st];
            }
        });
    });
    return out;
}

}  // namespace

Tensor unique(const Tensor& x0) {
    const Tensor x = kern::strong(x0).contiguous();
    return kern::visit_dtype(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> v(x.data<T>(), x.data<T>() + x.numel());
        std::stable_sort(v.begin(), v.end(), less_nan_last<T>);
        // equal neighbours collapse; so do NaNs (NumPy's equal_nan=True)
        auto same = [](T a, T b) {
            if constexpr (std::is_floating_point_v<T>)
                if (std::isnan(a) && std::isnan(b)) return true;
            return a == b;
        };
        v.erase(std::unique(v.begin(), v.end(), same), v.end());
        Tensor out = Tensor::empty(x.dtype(), Shape{static_cast<int64_t>(v.size())});
        std::copy(v.begin(), v.end(), out.data<T>());
        return out;
    });
}

std::vector<Tensor> nonzero(const Tensor& x0) {
    Tensor x = kern::strong(x0).contiguous();
    if (x.rank() == 0) x = kern::reshaped(x, Shape{1});
    const Shape& s = x.shape();
    const int r = s.rank();
    std::vector<std::vector<int64_t>> idx(static_cast<size_t>(r));
    kern::visit_dtype(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* p = x.data<T>();
        int64_t i[kMaxRank] = {};
        for (int64_t k = 0; k < x.numel(); ++k) {
            if (p[k] != T(0))
                for (int d = 0; d < r; ++d) idx[static_cast<size_t>(d)].push_back(i[d]);
            for (int d = r - 1; d >= 0; --d) {
                if (++i[d] < s[d]) break;
                i[d] = 0;
            }
        }
    });
    std::vector<Tensor> out;
    for (const auto& v : idx) {
        Tensor t = Tensor::empty(DType::I64, Shape{static_cast<int64_t>(v.size())});
        std::copy(v.begin(), v.end(), t.data<int64_t>());
        out.push_back(t);
    }
    return out;
}

void register_select_ops(OpRegistry& r) {
    const Attr none = std::monostate{};
    r.add({"take", {{"x", ParamKind::Tensor}, {"idx", ParamKind::Tensor}, {"axis", ParamKind::Axis, false, none}},
           &infer_take, &eager_take, 0,
           "elements at integer indices along axis (of the flattened tensor when axis is None)",
           OtherKind::Take, Raises::OnData});
    r.add({"sort", {{"x", ParamKind::Tensor}, {"axis", ParamKind::Axis, false, int64_t{-1}}}, &infer_sort<false>,
           &eager_sort<false>, 0, "sorted along axis (stable, NaN last; the flattened tensor when axis is None)",
           OtherKind::Sort});
    r.add({"argsort", {{"x", ParamKind::Tensor}, {"axis", ParamKind::Axis, false, int64_t{-1}}}, &infer_sort<true>,
           &eager_sort<true>, 0, "the i64 indices that sort along axis (stable, NaN last)", OtherKind::Argsort});
}

}  // namespace tg::stdlib
