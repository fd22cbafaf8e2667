// Printing (docs/language.md "Values"): Python's repr(float) layout over the shortest
// round-trip digits of the tensor's own precision, nested lists (one line in str; in repr rank 2 and up on aligned lines)
// with NumPy-style summarization, and the common cases of Python's format
// mini-language for f-strings.
#include "stdlib/format.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <cstdio>
#include <cstring>

#include "stdlib/errors.hpp"

namespace tg::stdlib {

namespace {

// Shortest digits of v (finite, nonzero or zero) and its decimal exponent:
// v = 0.d1d2d3... * 10^decpt (Python's convention in float repr).
struct Digits {
    std::string digits;  // no leading or trailing zeros (a single "0" for zero)
    int decpt = 0;
    bool negative = false;
};

Digits from_scientific(const char* s, size_t n) {
    // s looks like "-1.2345e-05" or "1e+16".
    Digits d;
    size_t i = 0;
    if (s[i] == '-') { d.negative = true; ++i; }
    for (; i < n && s[i] != 'e'; ++i)
        if (s[i] != '.') d.digits += s[i];
    int exp = 0;
    if (i < n) std::from_chars(s + i + 1 + (s[i + 1] == '+'), s + n, exp);
    while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
    d.decpt = exp + 1;
    return d;
}

Digits shortest_digits(double v, DType precision) {
    char buf[64];
    std::to_chars_result r = precision == DType::F32
                                 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific)
                                 : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    return from_scientific(buf, static_cast<size_t>(r.ptr - buf));
}

// Digits with a fixed number of significant digits (correctly rounded by printf).
Digits significant_digits(double v, int significant) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%.*e", significant - 1, v);
    return from_scientific(buf, static_cast<size_t>(n));
}

std::string exponent_suffix(int exp) {
    char buf[16];
    snprintf(buf, sizeof buf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return buf;
}

// Lays out digits like Python: exponential "d.ddde+XX" or fixed "ddd.ddd".
std::string layout(const Digits& d, bool exponential, bool add_dot_0) {
    std::string s;
    if (d.negative) s.push_back('-');
    const size_t nd = d.digits.size();
    if (exponential) {
        s.push_back(d.digits[0]);
        if (nd > 1) {
            s.push_back('.');
            s.append(d.digits, 1, std::string::npos);
        }
        s.append(exponent_suffix(d.decpt - 1));
        return s;
    }
    if (d.decpt <= 0) {
        s.append("0.");
        s.append(static_cast<size_t>(-d.decpt), '0');
        s.append(d.digits);
    } else if (static_cast<size_t>(d.decpt) >= nd) {
        s.append(d.digits);
        s.append(static_cast<size_t>(d.decpt) - nd, '0');
        if (add_dot_0) s.append(".0");
    } else {
        s.append(d.digits, 0, static_cast<size_t>(d.decpt));
        s.push_back('.');
        s.append(d.digits, static_cast<size_t>(d.decpt), std::string::npos);
    }
    return s;
}

std::string nonfinite(double v) {
    if (std::isnan(v)) return "nan";
    return v < 0 ? "-inf" : "inf";
}

// One element as str() shows it.
std::string element_str(const Tensor& t, const char* p) {
    switch (t.storage_dtype()) {
        case DType::Bool: return *reinterpret_cast<const bool*>(p) ? "True" : "False";
        case DType::I32: return std::to_string(*reinterpret_cast<const int32_t*>(p));
        case DType::I64: return std::to_string(*reinterpret_cast<const int64_t*>(p));
        case DType::F32: return format_float(*reinterpret_cast<const float*>(p), DType::F32);
        case DType::F64: break;
    }
    // A weak float prints as its default dtype, f32.
    return format_float(*reinterpret_cast<const double*>(p), t.weak() ? DType::F32 : DType::F64);
}

constexpr int64_t kSummarizeThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

// A tensor's text (docs/language.md "Values"): nested lists, elided past
// 1000 elements to the first and last 3 along each axis; on one line for
// str (what programs print), and for repr (the REPL's and a notebook's echo)
// rank 2 and up as NumPy lays out an array: one row per line, every element right-aligned to the widest
// shown, each line indented under its bracket (plus `indent`, the length of
// what precedes the first bracket: `tensor(` in repr), and as many empty
// lines between blocks as the block has axes past 2.
class NestedText {
public:
    // indent: nullopt for one line (str), else the rows' indent (repr)
    NestedText(const Tensor& t, std::optional<size_t> indent)
        : t_(t), indent_(indent.value_or(0)), lines_(indent.has_value()), summarize_(t.numel() > kSummarizeThreshold) {}

    std::string text() {
        const char* p = static_cast<const char*>(t_.raw_data());
        if (lines_ && t_.rank() >= 2) {
            walk(0, p, [&](const char* e) { width_ = std::max(width_, element_str(t_, e).size()); });
        }
        std::string out;
        emit(out, 0, p);
        return out;
    }

private:
    template <class F>
    void walk(int axis, const char* p, const F& f) {
        if (axis == t_.rank()) return f(p);
        const int64_t n = t_.shape()[axis];
        const int64_t step = t_.strides()[axis] * static_cast<int64_t>(dtype_size(t_.storage_dtype()));
        const bool cut = summarize_ && n > 2 * kEdgeItems;
        for (int64_t i = 0; i < n; ++i) {
            if (cut && i == kEdgeItems) i = n - kEdgeItems;
            walk(axis + 1, p + i * step, f);
        }
    }

    void emit(std::string& out, int axis, const char* p) {
        if (axis == t_.rank()) {
            const std::string e = element_str(t_, p);
            out.append(width_ > e.size() ? width_ - e.size() : 0, ' ');
            out += e;
            return;
        }
        const int64_t n = t_.shape()[axis];
        const int64_t step = t_.strides()[axis] * static_cast<int64_t>(dtype_size(t_.storage_dtype()));
        // between items: ", " on the last axis, else a new line (and empty ones) indented under the bracket
        std::string sep = ", ";
        if (lines_ && axis + 1 < t_.rank())
            sep = ",\n" + std::string(static_cast<size_t>(t_.rank() - axis - 2), '\n') +
                  std::string(indent_ + static_cast<size_t>(axis) + 1, ' ');
        out += '[';
        const bool cut = summarize_ && n > 2 * kEdgeItems;
        for (int64_t i = 0; i < n; ++i) {
            if (i > 0) out += sep;
            if (cut && i == kEdgeItems) {
                out += "..." + sep;
                i = n - kEdgeItems;
            }
            emit(out, axis + 1, p + i * step);
        }
        out += ']';
    }

    const Tensor& t_;
    size_t indent_;
    bool lines_;  // rank >= 2 on aligned lines (repr)
    bool summarize_;
    size_t width_ = 0;  // rank >= 2: the widest shown element
};

std::string nested_text(const Tensor& x, std::optional<size_t> indent) {
    if (x.rank() == 0) return element_str(x, static_cast<const char*>(x.raw_data()));
    return NestedText(x, indent).text();
}

// ---------------------------------------------------------- format spec

struct Spec {
    char fill = ' ';
    char align = 0;  // < > ^ = or 0 (default)
    char sign = '-';
    bool zero = false;
    int width = -1;
    char grouping = 0;  // , or _
    int precision = -1;
    char type = 0;
    bool alternate = false;  // '#': 0x / 0o / 0b prefixes
};

[[noreturn]] void bad_spec(std::string_view spec, const std::string& what) {
    throw OpError("invalid format spec '" + std::string(spec) + "' for " + what);
}

Spec parse_spec(std::string_view s, const std::string& what) {
    Spec sp;
    size_t i = 0;
    auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
    if (s.size() >= 2 && is_align(s[1])) {
        sp.fill = s[0];
        sp.align = s[1];
        i = 2;
    } else if (!s.empty() && is_align(s[0])) {
        sp.align = s[0];
        i = 1;
    }
    if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
    if (i < s.size() && s[i] == '#') {
        sp.alternate = true;
        ++i;
    }
    if (i < s.size() && s[i] == '0') {
        sp.zero = true;
        ++i;
    }
    auto read_int = [&](int& v) {
        size_t start = i;
        v = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 6) v = v * 10 + (s[i++] - '0');
        return i > start;
    };
    int w;
    if (read_int(w)) sp.width = w;
    if (i < s.size() && (s[i] == ',' || s[i] == '_')) sp.grouping = s[i++];
    if (i < s.size() && s[i] == '.') {
        ++i;
        int p;
        if (!read_int(p)) bad_spec(s, what);
        sp.precision = p;
    }
    if (i < s.size()) sp.type = s[i++];
    if (i != s.size()) bad_spec(s, what);
    return sp;
}

// Groups of 3 decimal digits, or of 4 hex/octal/binary digits (Python's '_'
// with x o b).
std::string group_digits(const std::string& body, char sep, size_t group = 3) {
    // body: digits, maybe followed by '.', 'e' or '%' parts.
    size_t end = 0;
    auto digit = [&](char c) { return group == 4 ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : c >= '0' && c <= '9'; };
    while (end < body.size() && digit(body[end])) ++end;
    std::string head = body.substr(0, end), out;
    for (size_t k = 0; k < head.size(); ++k) {
        if (k > 0 && (head.size() - k) % group == 0) out += sep;
        out += head[k];
    }
    return out + body.substr(end);
}

// Sign, grouping and padding around a formatted magnitude; `prefix` (0x, 0b)
// goes between the sign and the zero padding, as in Python.
std::string finish(const Spec& sp, bool negative, std::string body, bool numeric, std::string_view prefix = {}) {
    std::string sign = negative ? "-" : (sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : "");
    sign += prefix;
    const size_t group = sp.type == 'x' || sp.type == 'X' || sp.type == 'o' || sp.type == 'b' ? 4 : 3;
    char align = sp.align ? sp.align : (numeric ? '>' : '<');
    char fill = sp.fill;
    if (sp.zero && !sp.align) {
        align = '=';
        fill = '0';
    }
    if (sp.grouping && numeric) {
        if (align == '=' && fill == '0' && sp.width > 0) {
            // Zero padding is grouped too (0,000,042), never with a leading separator.
            while (sign.size() + group_digits(body, sp.grouping, group).size() < static_cast<size_t>(sp.width))
                body.insert(body.begin(), '0');
        }
        body = group_digits(body, sp.grouping, group);
    }
    const size_t len = sign.size() + body.size();
    if (sp.width < 0 || len >= static_cast<size_t>(sp.width)) return sign + body;
    const size_t pad = static_cast<size_t>(sp.width) - len;
    switch (align) {
        case '<': return sign + body + std::string(pad, fill);
        case '^': return std::string(pad / 2, fill) + sign + body + std::string(pad - pad / 2, fill);
        case '=': return sign + std::string(pad, fill) + body;
        default: return std::string(pad, fill) + sign + body;
    }
}

std::string format_float_spec(double v, DType precision, const Spec& sp) {
    const bool negative = std::signbit(v) && !std::isnan(v);
    const double a = std::fabs(v);
    std::string body;
    char type = sp.type;
    if (!std::isfinite(v)) {
        body = std::isnan(v) ? "nan" : "inf";
        if (type == 'F' || type == 'E' || type == 'G') body = std::isnan(v) ? "NAN" : "INF";
        if (type == '%') body += '%';
        return finish(sp, negative, body, true);
    }
    char buf[512];
    switch (type) {
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': {
            const int p = sp.precision < 0 ? 6 : sp.precision;
            const char fmt[] = {'%', '.', '*', type, 0};
            snprintf(buf, sizeof buf, fmt, p, a);
            body = buf;
            break;
        }
        case '%':
            snprintf(buf, sizeof buf, "%.*f", sp.precision < 0 ? 6 : sp.precision, a * 100.0);
            body = std::string(buf) + "%";
            break;
        case 0:
        case 'n':
            if (sp.precision < 0) {
                body = format_float(a, precision);
            } else {
                // Python's default type: like 'g', but exponential once the
                // fixed form would need more digits, and always a ".0".
                const int p = sp.precision == 0 ? 1 : sp.precision;
                Digits d = significant_digits(a, p);
                body = layout(d, d.decpt <= -4 || d.decpt > p - 1, true);
            }
            break;
        default:
            bad_spec(std::string(1, type), "a float tensor");
    }
    return finish(sp, negative, body, true);
}

}  // namespace

std::string format_float(double v, DType precision) {
    // A weak float (a double) beyond f32's range shows as f32 does: inf.
    if (precision == DType::F32 && std::isfinite(v)) v = static_cast<float>(v);
    if (!std::isfinite(v)) return nonfinite(v);
    if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
    const Digits d = shortest_digits(v, precision);
    // Python's repr(float): exponential when decpt <= -4 or decpt > 16.
    return layout(d, d.decpt < -3 || d.decpt > 16, true);
}

std::string to_str(const Tensor& x) { return nested_text(x, std::nullopt); }

std::string to_repr(const Tensor& x) {
    return "tensor(" + nested_text(x, 7) + ", shape=" + x.shape().to_string() + ", dtype=" + dtype_name(x.dtype()) + ")";
}

std::string format_tensor(const Tensor& x, std::string_view spec) {
    if (spec.empty()) return to_str(x);
    const std::string what = std::string("a tensor of shape ") + x.shape().to_string();
    if (x.numel() != 1) bad_spec(spec, what);
    const Spec sp = parse_spec(spec, what);
    const DType d = x.dtype();
    if (is_float(d)) {
        if (sp.type == 'd' || sp.type == 's') bad_spec(spec, "a float tensor");
        // A weak float used alone is an f32.
        const double v = x.weak() ? static_cast<double>(static_cast<float>(x.item_f64())) : x.item_f64();
        return format_float_spec(v, x.weak() ? DType::F32 : d, sp);
    }
    // Integers and bools. Python formats bool with a non-empty spec as an int.
    const int64_t v = x.item_i64();
    switch (sp.type) {
        case 0: case 'd': case 'n': {
            if (sp.precision >= 0) bad_spec(spec, "an integer tensor");
            const uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
            return finish(sp, v < 0, std::to_string(mag), true);
        }
        case 'x': case 'X': case 'o': case 'b': {
            // Python: the magnitude in base 16 / 8 / 2, the sign in front;
            // '#' adds 0x / 0o / 0b; ',' is only for decimal.
            if (sp.precision >= 0 || sp.grouping == ',') bad_spec(spec, "an integer tensor");
            uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
            const unsigned base = sp.type == 'o' ? 8 : sp.type == 'b' ? 2 : 16;
            const char* digits = sp.type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
            std::string body;
            do {
                body.insert(body.begin(), digits[mag % base]);
                mag /= base;
            } while (mag);
            std::string prefix;
            if (sp.alternate) prefix = std::string("0") + (sp.type == 'X' ? 'X' : sp.type);
            return finish(sp, v < 0, body, true, prefix);
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case '%':
            return format_float_spec(static_cast<double>(v), DType::F64, sp);
        default:
            bad_spec(spec, "an integer tensor");
    }
}

std::string format_string(std::string_view s, std::string_view spec) {
    if (spec.empty()) return std::string(s);
    const Spec sp = parse_spec(spec, "a string");
    if ((sp.type && sp.type != 's') || sp.sign != '-' || sp.grouping || sp.align == '=') bad_spec(spec, "a string");
    std::string body(s);
    if (sp.precision >= 0 && body.size() > static_cast<size_t>(sp.precision)) body.resize(static_cast<size_t>(sp.precision));
    Spec pad = sp;
    if (sp.zero && !sp.align) {
        pad.zero = false;
        pad.fill = '0';
        pad.align = '<';
    }
    return finish(pad, false, body, false);
}

}  // namespace tg::stdlib
