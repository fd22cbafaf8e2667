// matmul, dot, outer (see linalg.hpp).
#include "stdlib/linalg.hpp"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "stdlib/blas.hpp"
#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;

namespace {

struct MatmulPlan {
    Shape a_batch, b_batch, batch;  // leading axes of a, of b, broadcast
    int64_t m = 1, k = 1, n = 1;
    bool a_vec = false, b_vec = false;
    DType dtype = DType::F32;
    Shape out;
};

Shape prefix(const Shape& s, int count) {
    Shape p;
    for (int d = 0; d < count; ++d) p.push_back(s[d]);
    return p;
}

MatmulPlan plan_matmul(std::string_view fn, const TensorType& a, const TensorType& b) {
    const Shape& as = a.shape;
    const Shape& bs = b.shape;
    if (as.rank() == 0 || bs.rank() == 0)
        fail(fn, std::string("operand ") + (as.rank() == 0 ? "a" : "b") +
                     " is 0-d (a scalar); use * to multiply by a scalar (shapes " + as.to_string() + " and " +
                     bs.to_string() + ")");
    MatmulPlan p;
    p.a_vec = as.rank() == 1;
    p.b_vec = bs.rank() == 1;
    p.m = p.a_vec ? 1 : as[as.rank() - 2];
    p.k = as[as.rank() - 1];
    const int b_k_axis = p.b_vec ? 0 : bs.rank() - 2;
    const int64_t bk = bs[b_k_axis];
    p.n = p.b_vec ? 1 : bs[bs.rank() - 1];
    if (p.k != bk)
        fail(fn, "shapes " + as.to_string() + " and " + bs.to_string() + " are not aligned: " + std::to_string(p.k) +
                     " (axis " + std::to_string(as.rank() - 1) + ") != " + std::to_string(bk) + " (axis " +
                     std::to_string(b_k_axis) + ")");
    p.a_batch = prefix(as, p.a_vec ? 0 : as.rank() - 2);
    p.b_batch = prefix(bs, p.b_vec ? 0 : bs.rank() - 2);
    int r = std::max(p.a_batch.rank(), p.b_batch.rank());
    for (int d = 0; d < r; ++d) {
        int da = d - (r - p.a_batch.rank()), db = d - (r - p.b_batch.rank());
        int64_t x = da >= 0 ? p.a_batch[da] : 1, y = db >= 0 ? p.b_batch[db] : 1;
        if (x != y && x != 1 && y != 1)
            fail(fn, "batch dimensions " + p.a_batch.to_string() + " and " + p.b_batch.to_string() + " of shapes " +
                         as.to_string() + " and " + bs.to_string() + " cannot be broadcast together");
        p.batch.push_back(x == 1 ? y : x);
    }
    Promoted pr = promote(a.dtype, a.weak, b.dtype, b.weak);
    p.dtype = pr.dtype;
    p.out = p.batch;
    if (!p.a_vec) p.out.push_back(p.m);
    if (!p.b_vec) p.out.push_back(p.n);
    (void)p.out.numel();
    return p;
}

// One matrix operand: rows x cols with element strides, seen per batch entry.
struct Mat {
    int64_t rows, cols, rs, cs;
};

Mat mat_of(const Tensor& t, bool vec, bool is_a) {
    const int r = t.rank();
    if (vec) {
        if (is_a) return {1, t.shape()[0], 0, t.strides()[0]};
        return {t.shape()[0], 1, t.strides()[0], 0};
    }
    return {t.shape()[r - 2], t.shape()[r - 1], t.strides()[r - 2], t.strides()[r - 1]};
}

// How BLAS can read a matrix in place: (transposed?, leading dimension).
std::optional<std::pair<bool, int64_t>> blas_layout(Mat m) {
    if (m.cols == 1) m.cs = 1;
    if (m.rows == 1) m.rs = m.cs == 1 ? std::max<int64_t>(m.cols, 1) : 1;
    if (m.cs == 1 && m.rs >= std::max<int64_t>(m.cols, 1)) return std::make_pair(false, m.rs);
    if (m.rs == 1 && m.cs >= std::max<int64_t>(m.rows, 1)) return std::make_pair(true, m.cs);
    return std::nullopt;
}

// Calls f(a_offset, b_offset, batch_index) for every entry of the broadcast batch.
template <class F>
void for_each_batch(const MatmulPlan& p, const Tensor& a, const Tensor& b, F&& f) {
    const int r = p.batch.rank();
    Strides as = broadcast_strides(p.a_batch, prefix(a.strides(), p.a_batch.rank()), p.batch);
    Strides bs = broadcast_strides(p.b_batch, prefix(b.strides(), p.b_batch.rank()), p.batch);
    const int64_t count = p.batch.numel();
    int64_t idx[kMaxRank] = {};
    int64_t ao = 0, bo = 0;
    for (int64_t i = 0; i < count; ++i) {
        f(ao, bo, i);
        for (int d = r - 1; d >= 0; --d) {
            ao += as[d];
            bo += bs[d];
            if (++idx[d] < p.batch[d]) break;
            ao -= as[d] * p.batch[d];
            bo -= bs[d] * p.batch[d];
            idx[d] = 0;
        }
    }
}

template <class T>
void matmul_float(const MatmulPlan& p, Tensor a, Tensor b, T* out) {
    auto la = blas_layout(mat_of(a, p.a_vec, true));
    if (!la) {
        a = a.contiguous();
        la = blas_layout(mat_of(a, p.a_vec, true));
    }
    auto lb = blas_layout(mat_of(b, p.b_vec, false));
    if (!lb) {
        b = b.contiguous();
        lb = blas_layout(mat_of(b, p.b_vec, false));
    }
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    const int64_t mn = p.m * p.n;
    for_each_batch(p, a, b, [&](int64_t ao, int64_t bo, int64_t i) {
        blas::gemm<T>("matmul", la->first, lb->first, p.m, p.n, p.k, pa + ao, la->second, pb + bo, lb->second, out + i * mn);
    });
}

// The unsigned type integer products are computed in (so they wrap); uint8 for bool.
template <class T> struct Unsigned { using type = std::make_unsigned_t<T>; };
template <> struct Unsigned<bool> { using type = uint8_t; };

// Integers wrap (computed in the unsigned type); bool is or-of-ands.
template <class T>
void matmul_loop(const MatmulPlan& p, const Tensor& a, const Tensor& b, T* out) {
    using U = typename Unsigned<T>::type;
    const Mat ma = mat_of(a, p.a_vec, true), mb = mat_of(b, p.b_vec, false);
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    const int64_t mn = p.m * p.n;
    std::vector<U> row(static_cast<size_t>(p.n));
    for_each_batch(p, a, b, [&](int64_t ao, int64_t bo, int64_t bi) {
        for (int64_t i = 0; i < p.m; ++i) {
            std::fill(row.begin(), row.end(), U{});
            for (int64_t q = 0; q < p.k; ++q) {
                const U x = static_cast<U>(pa[ao + i * ma.rs + q * ma.cs]);
                const T* brow = pb + bo + q * mb.rs;
                for (int64_t j = 0; j < p.n; ++j) {
                    if constexpr (std::is_same_v<T, bool>) row[j] = static_cast<U>(row[j] | (x & static_cast<U>(brow[j * mb.cs])));
                    else row[j] = static_cast<U>(row[j] + x * static_cast<U>(brow[j * mb.cs]));
                }
            }
            T* o = out + bi * mn + i * p.n;
            for (int64_t j = 0; j < p.n; ++j) o[j] = static_cast<T>(row[j]);  // bool: 0/1
        }
    });
}

TensorType type_of(const Tensor& t) { return {t.dtype(), t.shape(), t.weak()}; }

Tensor matmul_impl(std::string_view fn, const Tensor& a0, const Tensor& b0) {
    MatmulPlan p = plan_matmul(fn, type_of(a0), type_of(b0));
    Tensor a = cast(a0, p.dtype), b = cast(b0, p.dtype);
    if (p.k == 0) return Tensor::zeros(p.dtype, p.out);
    Tensor out = Tensor::empty(p.dtype, p.out);
    if (out.numel() == 0) return out;
    kern::visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) matmul_float<T>(p, a, b, out.data<T>());
        else matmul_loop<T>(p, a, b, out.data<T>());
    });
    return out;
}

// ---- dot: a (..., k) with b (..., k, n) -> a[:-1] + b[:-2] + (n,)
bool dot_is_matmul(const Shape& a, const Shape& b) { return (a.rank() <= 2 && b.rank() <= 2) || b.rank() == 1; }

}  // namespace

TensorType matmul_type(const TensorType& a, const TensorType& b) {
    MatmulPlan p = plan_matmul("matmul", a, b);
    return {p.dtype, p.out, false};
}

Tensor matmul(const Tensor& a, const Tensor& b) { return matmul_impl("matmul", a, b); }

TensorType dot_type(const TensorType& a, const TensorType& b) {
    if (a.shape.rank() == 0 || b.shape.rank() == 0) {
        Promoted pr = promote(a.dtype, a.weak, b.dtype, b.weak);
        return {pr.dtype, a.shape.rank() == 0 ? b.shape : a.shape, pr.weak};
    }
    if (dot_is_matmul(a.shape, b.shape)) {
        MatmulPlan q = plan_matmul("dot", a, b);
        return {q.dtype, q.out, false};
    }
    const int ka = a.shape.rank() - 1, kb = b.shape.rank() - 2;
    if (a.shape[ka] != b.shape[kb])
        fail("dot", "shapes " + a.shape.to_string() + " and " + b.shape.to_string() + " are not aligned: " +
                        std::to_string(a.shape[ka]) + " (axis " + std::to_string(ka) + ") != " +
                        std::to_string(b.shape[kb]) + " (axis " + std::to_string(kb) + ")");
    Promoted pr = promote(a.dtype, a.weak, b.dtype, b.weak);
    Shape out;
    for (int d = 0; d + 1 < a.shape.rank(); ++d) out.push_back(a.shape[d]);
    if (a.shape.rank() + b.shape.rank() - 2 > kMaxRank) fail("dot", "the result would have more than 8 dimensions");
    for (int d = 0; d + 2 < b.shape.rank(); ++d) out.push_back(b.shape[d]);
    out.push_back(b.shape[b.shape.rank() - 1]);
    return {pr.dtype, out, false};
}

Tensor dot(const Tensor& a, const Tensor& b) {
    TensorType t = dot_type(type_of(a), type_of(b));
    if (a.rank() == 0 || b.rank() == 0) return binary(BinaryKind::Mul, a, b);
    if (dot_is_matmul(a.shape(), b.shape())) return matmul_impl("dot", a, b);
    const int rb = b.rank();
    const int64_t k = a.shape()[a.rank() - 1];
    const int64_t a2[2] = {-1, k};
    std::vector<int64_t> perm{rb - 2};
    for (int d = 0; d < rb; ++d)
        if (d != rb - 2) perm.push_back(d);
    const int64_t b2[2] = {k, -1};
    Tensor c = matmul_impl("dot", reshape(a, a2), reshape(transpose(b, perm), b2));
    return reshape(c, t.shape.dims());
}

TensorType outer_type(const TensorType& a, const TensorType& b) {
    Promoted pr = promote(a.dtype, a.weak, b.dtype, b.weak);
    Shape s{a.shape.numel(), b.shape.numel()};
    (void)s.numel();
    return {pr.dtype, s, false};
}

Tensor outer(const Tensor& a0, const Tensor& b0) {
    TensorType t = outer_type(type_of(a0), type_of(b0));
    Tensor a = cast(a0, t.dtype).contiguous(), b = cast(b0, t.dtype).contiguous();
    Tensor out = Tensor::empty(t.dtype, t.shape);
    const int64_t m = t.shape[0], n = t.shape[1];
    kern::visit_dtype(t.dtype, [&](auto tag) {
        using T = decltype(tag);
        const T* pa = a.data<T>();
        const T* pb = b.data<T>();
        T* o = out.data<T>();
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                if constexpr (std::is_same_v<T, bool>) o[i * n + j] = pa[i] && pb[j];
                else if constexpr (std::is_integral_v<T>)
                    o[i * n + j] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(pa[i]) *
                                                  static_cast<std::make_unsigned_t<T>>(pb[j]));
                else o[i * n + j] = pa[i] * pb[j];
            }
    });
    return out;
}

// ---- the op table

namespace {

TensorType infer_matmul(const TypeArgs& a) { return matmul_type(a.inputs[0], a.inputs[1]); }
Tensor eager_matmul(OpContext&, const OpArgs& a) { return matmul(a.inputs[0], a.inputs[1]); }
TensorType infer_dot(const TypeArgs& a) { return dot_type(a.inputs[0], a.inputs[1]); }
Tensor eager_dot(OpContext&, const OpArgs& a) { return dot(a.inputs[0], a.inputs[1]); }
TensorType infer_outer(const TypeArgs& a) { return outer_type(a.inputs[0], a.inputs[1]); }
Tensor eager_outer(OpContext&, const OpArgs& a) { return outer(a.inputs[0], a.inputs[1]); }

}  // namespace

void register_linalg_ops(OpRegistry& r) {
    r.add({"matmul", {{"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}}, &infer_matmul, &eager_matmul, 0,
           "matrix product with NumPy semantics (1-d operands, batch broadcasting); the @ operator",
           OtherKind::Matmul, Raises::Never, Cost::Contraction});
    r.add({"dot", {{"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}}, &infer_dot, &eager_dot, 0,
           "NumPy's dot: sum over the last axis of a and the second-to-last of b", OtherKind::Dot});
    r.add({"outer", {{"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}}, &infer_outer, &eager_outer, 0,
           "outer product of the flattened a and b", OtherKind::Outer});
}

}  // namespace tg::stdlib
