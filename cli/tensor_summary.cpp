// A tensor's one-line summary (cli/tensor_summary.hpp).
#include "cli/tensor_summary.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace tg::cli {

namespace {
std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

template <class T>
std::string summarize(const T* p, int64_t n, bool is_float) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
    int64_t nans = 0, infs = 0, finite = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        if (std::isnan(v)) {
            ++nans;
            continue;
        }
        if (std::isinf(v)) ++infs;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        if (!std::isinf(v)) {
            sum += v;
            ++finite;
        }
    }
    if (nans == n) return "all NaN";
    std::string s = "min " + number(lo) + "  max " + number(hi);
    if (finite > 0) s += "  mean " + number(sum / static_cast<double>(finite));
    if (is_float && (nans || infs)) s += "  nan " + std::to_string(nans) + "  inf " + std::to_string(infs);
    return s;
}
}  // namespace

std::string tensor_type(const tg::Tensor& t) {
    std::string s = std::string(tg::dtype_name(t.dtype())) + "[";
    const auto shape = t.shape();
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "]";
}

std::string tensor_summary(const tg::Tensor& t) {
    const int64_t n = t.size();
    if (n == 0) return "";
    switch (t.dtype()) {
    case tg::DType::Bool: return summarize(t.data_as<bool>(), n, false);
    case tg::DType::I32: return summarize(t.data_as<int32_t>(), n, false);
    case tg::DType::I64: return summarize(t.data_as<int64_t>(), n, false);
    case tg::DType::F32: return summarize(t.data_as<float>(), n, true);
    case tg::DType::F64: return summarize(t.data_as<double>(), n, true);
    }
    return "";
}

}  // namespace tg::cli
