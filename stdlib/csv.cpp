#include "stdlib/csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "stdlib/budget.hpp"
#include "stdlib/npy.hpp"

namespace tg::stdlib {

namespace {

bool is_blank(char c, const TextTableOptions& o) {
    return (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') && (!o.delimiter || c != *o.delimiter);
}

std::string_view trim(std::string_view s, const TextTableOptions& o) {
    while (!s.empty() && is_blank(s.front(), o)) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back(), o)) s.remove_suffix(1);
    return s;
}

// Calls row(line_number, fields) for every line that holds values.
template <class F>
void for_each_row(std::string_view text, const TextTableOptions& o, F&& row) {
    std::vector<std::string_view> fields;
    WorkCounter work;
    int64_t line_no = 0;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (++line_no <= o.skiprows) continue;
        line = line.substr(0, line.find('#'));
        line = trim(line, o);
        if (line.empty()) continue;
        work.add();
        fields.clear();
        if (o.delimiter) {
            for (size_t from = 0;;) {
                const size_t at = line.find(*o.delimiter, from);
                fields.push_back(trim(line.substr(from, at == std::string_view::npos ? at : at - from), o));
                if (at == std::string_view::npos) break;
                from = at + 1;
            }
        } else {
            for (size_t i = 0; i < line.size();) {
                while (i < line.size() && is_blank(line[i], o)) ++i;
                const size_t from = i;
                while (i < line.size() && !is_blank(line[i], o)) ++i;
                if (i > from) fields.push_back(line.substr(from, i - from));
            }
        }
        row(line_no, fields);
    }
}

// The value from_chars could not represent of a decimal `digits` (an optional
// '-', digits with a point, an optional exponent): from_chars fails only far
// from 1 (beyond ~1.8e308 or below ~4.9e-324), so the decimal exponent of the
// first nonzero digit decides between +-inf and +-0.0 (NumPy's, as strtod).
double decimal_out_of_range(std::string_view digits) {
    const bool negative = !digits.empty() && digits[0] == '-';
    const size_t e = digits.find_first_of("eE");
    const std::string_view mantissa = digits.substr(0, e);
    long exponent = 0;
    if (e != std::string_view::npos) {
        std::string_view x = digits.substr(e + 1);
        if (!x.empty() && x[0] == '+') x.remove_prefix(1);
        // beyond long: far beyond any dtype's range, either way
        if (std::from_chars(x.data(), x.data() + x.size(), exponent).ec != std::errc())
            exponent = !x.empty() && x[0] == '-' ? -1000000 : 1000000;
        exponent = std::clamp(exponent, -1000000L, 1000000L);
    }
    const size_t point = mantissa.find('.'), first = mantissa.find_first_of("123456789");
    if (first == std::string_view::npos) return negative ? -0.0 : 0.0;
    const size_t end_int = point == std::string_view::npos ? mantissa.size() : point;
    const long place = first < end_int ? static_cast<long>(end_int - first) - 1 : -static_cast<long>(first - point);
    const double v = place + exponent >= 0 ? HUGE_VAL : 0.0;
    return negative ? -v : v;
}

[[noreturn]] void bad_value(int64_t line, size_t column, std::string_view field, const std::string& what) {
    throw FileError("line " + std::to_string(line) + ", value " + std::to_string(column + 1) + ": " +
                    (field.empty() ? std::string("empty value") : "'" + std::string(field) + "' " + what));
}

// One value into out[i] of the tensor's dtype.
void parse_value(std::string_view field, DType dtype, void* out, size_t i, int64_t line, size_t column) {
    std::string_view digits = field;
    if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);  // from_chars takes no '+'
    const char* end = digits.data() + digits.size();
    const std::string as = std::string("is not ") + (is_float(dtype) ? "a number" : "an integer") + " (loading as " +
                           dtype_name(dtype) + ")";
    if (is_float(dtype)) {
        double v = 0;
        auto r = std::from_chars(digits.data(), end, v);
        // from_chars reports overflow and underflow as out of range; NumPy gives +-inf and +-0.0 (as strtod)
        if (r.ec == std::errc::result_out_of_range && r.ptr == end) v = decimal_out_of_range(digits);
        else if (r.ec != std::errc() || r.ptr != end || field.empty()) bad_value(line, column, field, as);
        if (dtype == DType::F32) static_cast<float*>(out)[i] = static_cast<float>(v);
        else static_cast<double*>(out)[i] = v;
        return;
    }
    int64_t v = 0;
    auto r = std::from_chars(digits.data(), end, v);
    if (r.ec == std::errc::result_out_of_range) bad_value(line, column, field, std::string("is out of range for ") + dtype_name(dtype));
    if (r.ec != std::errc() || r.ptr != end || field.empty()) bad_value(line, column, field, as);
    if (dtype == DType::I32) {
        if (v < INT32_MIN || v > INT32_MAX) bad_value(line, column, field, "is out of range for i32");
        static_cast<int32_t*>(out)[i] = static_cast<int32_t>(v);
    } else if (dtype == DType::I64) {
        static_cast<int64_t*>(out)[i] = v;
    } else {
        static_cast<bool*>(out)[i] = v != 0;
    }
}

}  // namespace

Tensor parse_text_table(std::string_view text, const TextTableOptions& o) {
    // First pass: the table's size (every row as long as the first).
    int64_t rows = 0, first_line = 0;
    size_t columns = 0;
    for_each_row(text, o, [&](int64_t line, const std::vector<std::string_view>& fields) {
        if (rows == 0) {
            columns = fields.size();
            first_line = line;
        } else if (fields.size() != columns) {
            throw FileError("line " + std::to_string(line) + " has " + std::to_string(fields.size()) +
                            (fields.size() == 1 ? " value" : " values") + ", but line " + std::to_string(first_line) +
                            " has " + std::to_string(columns));
        }
        ++rows;
    });
    // NumPy's squeeze (ndmin=0): axes of length 1 go
    Shape shape;
    if (rows == 0) shape = Shape{0};
    else {
        if (rows != 1) shape.push_back(rows);
        if (columns != 1) shape.push_back(static_cast<int64_t>(columns));
    }
    Tensor t = Tensor::empty(o.dtype, shape);
    void* out = t.raw_data();
    size_t i = 0;
    for_each_row(text, o, [&](int64_t line, const std::vector<std::string_view>& fields) {
        for (size_t c = 0; c < fields.size(); ++c) parse_value(fields[c], o.dtype, out, i++, line, c);
    });
    return t;
}

}  // namespace tg::stdlib
