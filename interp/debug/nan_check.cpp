// --debug-nans (interp/debug/nan_check.hpp).
#include "interp/debug/nan_check.hpp"

#include <cmath>

#include "interp/error.hpp"

namespace tg::interp {

namespace {
template <class T>
bool any_nonfinite(const T* p, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (!std::isfinite(p[i])) return true;
    return false;
}
bool has_nan(const stdlib::Tensor& t) {
    const stdlib::Tensor c = t.contiguous();
    const int64_t n = c.numel();
    if (c.dtype() == stdlib::DType::F32) {
        const float* p = c.data<float>();
        for (int64_t i = 0; i < n; ++i)
            if (std::isnan(p[i])) return true;
    } else if (c.dtype() == stdlib::DType::F64) {
        const double* p = c.data<double>();
        for (int64_t i = 0; i < n; ++i)
            if (std::isnan(p[i])) return true;
    }
    return false;
}
}  // namespace

bool has_nonfinite(const stdlib::Tensor& t) {
    if (t.dtype() != stdlib::DType::F32 && t.dtype() != stdlib::DType::F64) return false;
    const stdlib::Tensor c = t.contiguous();
    return c.dtype() == stdlib::DType::F32 ? any_nonfinite(c.data<float>(), c.numel())
                                           : any_nonfinite(c.data<double>(), c.numel());
}

bool value_has_nonfinite(const Value& v) {
    if (const Scalar* s = v.scalar()) return stdlib::is_float(s->dtype) && !std::isfinite(s->f);
    if (v.is_tensor()) return has_nonfinite(v.tensor());
    if (const auto items = v.children())
        for (const Value& x : *items)
            if (value_has_nonfinite(x)) return true;
    return false;
}

void check_op_result(const stdlib::OpDef& op, std::span<const stdlib::Tensor> inputs, const stdlib::Tensor& out) {
    if (!has_nonfinite(out)) return;
    for (const stdlib::Tensor& in : inputs)
        if (has_nonfinite(in)) return;  // it came in: not made here
    throw Error("--debug-nans: " + std::string(op.name) + " made " + (has_nan(out) ? "a NaN" : "an inf") +
                " from inputs that had none");
}

}  // namespace tg::interp
