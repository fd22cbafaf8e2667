// softmax, log_softmax, cross_entropy, mse (see nn.hpp).
#include "stdlib/nn.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/fastmath.hpp"
#include "stdlib/reduce_runs.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;

namespace {

DType float_dtype(DType d) { return is_float(d) ? d : DType::F32; }

// Lanes along `axis` of a contiguous tensor: outer blocks of len x inner.
struct Lanes {
    int64_t outer = 1, len = 1, inner = 1;
};
Lanes lanes_of(const Shape& s, int axis) {
    Lanes l;
    for (int d = 0; d < s.rank(); ++d) {
        if (d < axis) l.outer *= s[d];
        else if (d == axis) l.len = s[d];
        else l.inner *= s[d];
    }
    return l;
}

// Both softmaxes, with the exp of the element-wise op (fastmath: the same
// bits as exp(x) in eager and compiled code). Contiguous lanes (inner == 1):
// vectorized max, exp into the output, pairwise sum in f64, scale. Otherwise
// the inner positions of a block are processed together (also vectorizable).
template <class T, bool Log>
void softmax_kernel(const T* x, T* out, Lanes l) {
    if (l.inner == 1) {
        for (int64_t o = 0; o < l.outer; ++o) {
            const T* xb = x + o * l.len;
            T* ob = out + o * l.len;
            T m = runs::extreme<true>(xb, l.len);
            if (Log && !std::isfinite(m)) m = T{0};
            for (int64_t j = 0; j < l.len; ++j) ob[j] = fastmath::exp(xb[j] - m);
            const double s = runs::pairwise_sum<double>(ob, l.len);
            if constexpr (Log) {
                const T ls = fastmath::log(static_cast<T>(s));
                for (int64_t j = 0; j < l.len; ++j) ob[j] = (xb[j] - m) - ls;
            } else {
                const T st = static_cast<T>(s);
                for (int64_t j = 0; j < l.len; ++j) ob[j] = ob[j] / st;
            }
        }
        return;
    }
    std::vector<T> mx(static_cast<size_t>(l.inner));
    std::vector<double> sum(static_cast<size_t>(l.inner));
    for (int64_t o = 0; o < l.outer; ++o) {
        const T* xb = x + o * l.len * l.inner;
        T* ob = out + o * l.len * l.inner;
        std::fill(mx.begin(), mx.end(), -std::numeric_limits<T>::infinity());
        std::fill(sum.begin(), sum.end(), 0.0);
        for (int64_t j = 0; j < l.len; ++j)
            for (int64_t i = 0; i < l.inner; ++i) {
                T v = xb[j * l.inner + i];
                mx[i] = (v > mx[i] || v != v) && mx[i] == mx[i] ? v : mx[i];
            }
        if constexpr (Log)
            for (auto& m : mx)
                if (!std::isfinite(m)) m = T{0};
        for (int64_t j = 0; j < l.len; ++j)
            for (int64_t i = 0; i < l.inner; ++i) {
                T e = fastmath::exp(xb[j * l.inner + i] - mx[i]);
                ob[j * l.inner + i] = e;
                sum[i] += static_cast<double>(e);
            }
        if constexpr (Log)
            for (int64_t i = 0; i < l.inner; ++i) sum[i] = static_cast<double>(fastmath::log(static_cast<T>(sum[i])));
        for (int64_t j = 0; j < l.len; ++j)
            for (int64_t i = 0; i < l.inner; ++i) {
                if constexpr (Log)
                    ob[j * l.inner + i] = (xb[j * l.inner + i] - mx[i]) - static_cast<T>(sum[i]);
                else
                    ob[j * l.inner + i] = ob[j * l.inner + i] / static_cast<T>(sum[i]);
            }
    }
}

template <bool Log>
Tensor softmax_impl(const Tensor& x0, int64_t axis) {
    const char* fn = Log ? "log_softmax" : "softmax";
    Tensor x0s = kern::strong(x0);
    int ax = kern::normalize_axis(fn, axis, x0s.rank());
    DType dt = float_dtype(x0s.dtype());
    Tensor x = cast(x0s, dt).contiguous();
    Tensor out = Tensor::empty(dt, x.shape());
    if (out.numel() == 0) return out;
    Lanes l = lanes_of(x.shape(), ax);
    if (dt == DType::F64) softmax_kernel<double, Log>(x.data<double>(), out.data<double>(), l);
    else softmax_kernel<float, Log>(x.data<float>(), out.data<float>(), l);
    return out;
}

TensorType softmax_type(const char* fn, const TensorType& x, int64_t axis) {
    kern::normalize_axis(fn, axis, x.shape.rank());
    return {float_dtype(x.dtype), x.shape, false};
}

TensorType cross_entropy_type(const TensorType& logits, const TensorType& labels) {
    if (logits.shape.rank() == 0)
        fail("cross_entropy", "logits must have at least one axis (the classes), got shape ()");
    if (!is_int(labels.dtype))
        fail("cross_entropy", std::string("labels must be integers, got ") + dtype_name(labels.dtype));
    Shape expect;
    for (int d = 0; d + 1 < logits.shape.rank(); ++d) expect.push_back(logits.shape[d]);
    if (!(labels.shape == expect))
        fail("cross_entropy", "labels of shape " + labels.shape.to_string() + " do not match logits of shape " +
                                  logits.shape.to_string() + " (labels must have shape " + expect.to_string() + ")");
    return {float_dtype(logits.dtype), Shape{}, false};
}

template <class T>
double cross_entropy_sum(const T* x, const int64_t* labels, int64_t rows, int64_t classes) {
    double total = 0;
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t y = labels[r];
        if (y < 0 || y >= classes)
            fail("cross_entropy", "label " + std::to_string(y) + " at position " + std::to_string(r) +
                                      " is out of range for " + std::to_string(classes) + " classes");
        const T* row = x + r * classes;
        T m = -std::numeric_limits<T>::infinity();
        for (int64_t c = 0; c < classes; ++c) m = (row[c] > m || row[c] != row[c]) && m == m ? row[c] : m;
        if (!std::isfinite(m)) m = T{0};
        double s = 0;
        for (int64_t c = 0; c < classes; ++c) s += static_cast<double>(fastmath::exp(row[c] - m));
        total += std::log(s) + static_cast<double>(m) - static_cast<double>(row[y]);
    }
    return total;
}

TensorType type_of(const Tensor& t) { return {t.dtype(), t.shape(), t.weak()}; }

TensorType mse_type(const TensorType& a, const TensorType& b) {
    broadcast_shapes("mse", a.shape, b.shape);
    return {float_dtype(promote(a.dtype, a.weak, b.dtype, b.weak).dtype), Shape{}, false};
}

}  // namespace

Tensor softmax(const Tensor& x, int64_t axis) { return softmax_impl<false>(x, axis); }
Tensor log_softmax(const Tensor& x, int64_t axis) { return softmax_impl<true>(x, axis); }

Tensor cross_entropy(const Tensor& logits0, const Tensor& labels0) {
    TensorType t = cross_entropy_type(type_of(logits0), type_of(labels0));
    Tensor logits = cast(logits0, t.dtype).contiguous();
    Tensor labels = cast(labels0, DType::I64).contiguous();
    const int64_t classes = logits.shape()[logits.rank() - 1];
    const int64_t rows = labels.numel();
    double total = t.dtype == DType::F64
                       ? cross_entropy_sum(logits.data<double>(), labels.data<int64_t>(), rows, classes)
                       : cross_entropy_sum(logits.data<float>(), labels.data<int64_t>(), rows, classes);
    double mean = rows == 0 ? std::numeric_limits<double>::quiet_NaN() : total / static_cast<double>(rows);
    return Tensor::scalar(mean, t.dtype);
}

Tensor mse(const Tensor& a0, const Tensor& b0) {
    TensorType t = mse_type(type_of(a0), type_of(b0));
    Shape shape = broadcast_shapes("mse", a0.shape(), b0.shape());
    Tensor a = cast(a0, t.dtype), b = cast(b0, t.dtype);
    const int64_t n = shape.numel();
    double total = 0;
    auto loop = make_loop<2>(shape, {broadcast_strides(a, shape), broadcast_strides(b, shape)});
    kern::visit_dtype(t.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
            const int64_t es = sizeof(T);
            for_each_row(loop, {const_cast<char*>(static_cast<const char*>(a.raw_data())),
                                const_cast<char*>(static_cast<const char*>(b.raw_data()))},
                         {es, es}, [&](std::array<char*, 2> p, int64_t len, const int64_t* st) {
                             const T* pa = reinterpret_cast<const T*>(p[0]);
                             const T* pb = reinterpret_cast<const T*>(p[1]);
                             double s = 0;
                             for (int64_t i = 0; i < len; ++i) {
                                 T d = pa[i * st[0]] - pb[i * st[1]];
                                 s += static_cast<double>(d * d);
                             }
                             total += s;
                         });
        }
    });
    double mean = n == 0 ? std::numeric_limits<double>::quiet_NaN() : total / static_cast<double>(n);
    return Tensor::scalar(mean, t.dtype);
}

// ---- the op table

namespace {

int64_t axis_attr(const char* fn, const Attr& a) {
    if (kern::attr_is_none(a)) return -1;
    return kern::attr_int(fn, "axis", a);
}

TensorType infer_softmax(const TypeArgs& a) { return softmax_type("softmax", a.inputs[0], axis_attr("softmax", a.attrs[1])); }
Tensor eager_softmax(OpContext&, const OpArgs& a) { return softmax(a.inputs[0], axis_attr("softmax", a.attrs[1])); }
TensorType infer_log_softmax(const TypeArgs& a) {
    return softmax_type("log_softmax", a.inputs[0], axis_attr("log_softmax", a.attrs[1]));
}
Tensor eager_log_softmax(OpContext&, const OpArgs& a) {
    return log_softmax(a.inputs[0], axis_attr("log_softmax", a.attrs[1]));
}
TensorType infer_cross_entropy(const TypeArgs& a) { return cross_entropy_type(a.inputs[0], a.inputs[1]); }
Tensor eager_cross_entropy(OpContext&, const OpArgs& a) { return cross_entropy(a.inputs[0], a.inputs[1]); }
TensorType infer_mse(const TypeArgs& a) { return mse_type(a.inputs[0], a.inputs[1]); }
Tensor eager_mse(OpContext&, const OpArgs& a) { return mse(a.inputs[0], a.inputs[1]); }

}  // namespace

void register_nn_ops(OpRegistry& r) {
    r.add({"softmax", {{"x", ParamKind::Tensor}, {"axis", ParamKind::Int, false, int64_t{-1}}}, &infer_softmax,
           &eager_softmax, 0, "exp(x) / sum(exp(x)) along an axis, computed stably", OtherKind::Softmax});
    r.add({"log_softmax", {{"x", ParamKind::Tensor}, {"axis", ParamKind::Int, false, int64_t{-1}}},
           &infer_log_softmax, &eager_log_softmax, 0, "x - logsumexp(x) along an axis, computed stably",
           OtherKind::LogSoftmax});
    r.add({"cross_entropy", {{"logits", ParamKind::Tensor}, {"labels", ParamKind::Tensor}}, &infer_cross_entropy,
           &eager_cross_entropy, 0, "mean softmax cross-entropy of logits (..., C) against integer labels (...)",
           OtherKind::CrossEntropy, Raises::OnData});
    r.add({"mse", {{"a", ParamKind::Tensor}, {"b", ParamKind::Tensor}}, &infer_mse, &eager_mse, 0,
           "mean squared error mean((a - b)^2) over the broadcast shape", OtherKind::Mse});
}

}  // namespace tg::stdlib
