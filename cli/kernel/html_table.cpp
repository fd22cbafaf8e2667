#include "cli/kernel/html_table.hpp"

#include "cli/tensor_summary.hpp"
#include "stdlib/format.hpp"

#include <vector>

namespace tg::kernel {

namespace {

constexpr int64_t kThreshold = 1000;  // NumPy's printoptions threshold and edgeitems
constexpr int64_t kEdge = 3;

// Element `i` (C order) as print() writes it.
std::string element(const Tensor& t, int64_t i) {
    switch (t.dtype()) {
    case DType::Bool: return t.data_as<bool>()[i] ? "True" : "False";
    case DType::I32: return std::to_string(t.data_as<int32_t>()[i]);
    case DType::I64: return std::to_string(t.data_as<int64_t>()[i]);
    case DType::F32: return stdlib::format_float(t.data_as<float>()[i], stdlib::DType::F32);
    case DType::F64: return stdlib::format_float(t.data_as<double>()[i], stdlib::DType::F64);
    }
    return "?";
}

// The indices of a dimension of size n that are shown; -1 marks the "…".
std::vector<int64_t> shown(int64_t n, bool elide) {
    std::vector<int64_t> out;
    if (!elide || n <= 2 * kEdge) {
        for (int64_t i = 0; i < n; ++i) out.push_back(i);
        return out;
    }
    for (int64_t i = 0; i < kEdge; ++i) out.push_back(i);
    out.push_back(-1);
    for (int64_t i = n - kEdge; i < n; ++i) out.push_back(i);
    return out;
}

std::string caption(const Tensor& t) {
    std::string shape = "(";
    for (size_t i = 0; i < t.shape().size(); ++i) shape += (i ? ", " : "") + std::to_string(t.shape()[i]);
    shape += t.shape().size() == 1 ? ",)" : ")";
    std::string s = "tensor shape=" + shape + " dtype=" + dtype_name(t.dtype());
    if (t.size() > 10) s += " &middot; " + html_escape(cli::tensor_summary(t));
    return "<caption style=\"caption-side:top;text-align:left;font-family:monospace\">" + s + "</caption>";
}

}  // namespace

std::string html_escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

std::string tensor_html(const Tensor& t) {
    if (t.rank() != 1 && t.rank() != 2) return "";
    const bool elide = t.size() > kThreshold;
    const int64_t rows = t.rank() == 2 ? t.shape()[0] : 1, cols = t.shape().back();
    const std::vector<int64_t> rs = t.rank() == 2 ? shown(rows, elide) : std::vector<int64_t>{0}, cs = shown(cols, elide);
    std::string h = "<table class=\"tg-tensor\">" + caption(t) + "<thead><tr>";
    if (t.rank() == 2) h += "<th></th>";
    for (int64_t c : cs) h += c < 0 ? "<th>&hellip;</th>" : "<th>" + std::to_string(c) + "</th>";
    h += "</tr></thead><tbody>";
    for (int64_t r : rs) {
        h += "<tr>";
        if (t.rank() == 2) h += r < 0 ? "<th>&vellip;</th>" : "<th>" + std::to_string(r) + "</th>";
        for (int64_t c : cs)
            h += r < 0 || c < 0 ? "<td>&hellip;</td>" : "<td>" + element(t, r * cols + c) + "</td>";
        h += "</tr>";
    }
    return h + "</tbody></table>";
}

}  // namespace tg::kernel
