// Strings parsed to numbers as Python's int() and float() parse them
// (docs/language.md "Calls"): int(s), int(s, base), float(s) and the dtypes
// called on a string, f64("0.1"), f32, i64, i32 (bool(s) is Python's truth
// of a string: it is not empty). The result's dtype is the callee's: float
// gives f32 like every float of tg; f64 is how a program asks for Python's
// float. Errors are Python's ValueError texts, named by the callee.
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/error.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/values/printing.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/tensor.hpp"

namespace tg::interp {

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

bool lower_equals(std::string_view s, std::string_view word) {
    if (s.size() != word.size()) return false;
    for (size_t i = 0; i < s.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != word[i]) return false;
    return true;
}

// The digits of s from i in `base` with single underscores between them,
// appended to out without the underscores; false when there is none or an
// underscore is misplaced. Stops at the first other character.
bool digits(std::string_view s, size_t& i, int base, std::string& out) {
    auto value = [&](char c) {
        const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
        return v < base ? v : -1;
    };
    const size_t start = out.size();
    while (i < s.size()) {
        if (s[i] == '_') {
            if (out.size() == start || i + 1 >= s.size() || value(s[i + 1]) < 0) return false;
            ++i;
            continue;
        }
        if (value(s[i]) < 0) break;
        out += s[i++];
    }
    return out.size() > start;
}

// Python's float() grammar: [sign] (digits [. [digits]] | . digits) [e [sign] digits], inf, infinity, nan
std::optional<std::string> float_text(std::string_view s) {
    std::string out;
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) out += s[i++];
    const std::string_view word = s.substr(i);
    if (lower_equals(word, "inf") || lower_equals(word, "infinity")) return out + "inf";
    if (lower_equals(word, "nan")) return out + "nan";
    const bool whole = digits(s, i, 10, out);
    bool frac = false;
    if (i < s.size() && s[i] == '.') {
        out += s[i++];
        frac = digits(s, i, 10, out);
    }
    if (!whole && !frac) return std::nullopt;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        out += s[i++];
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) out += s[i++];
        if (!digits(s, i, 10, out)) return std::nullopt;
    }
    if (i != s.size()) return std::nullopt;
    return out;
}

}  // namespace

double parse_float(const std::string& fn, const std::string& text, stdlib::DType d) {
    const auto t = float_text(trimmed(text));
    if (!t) throw Error(fn + ": could not convert string to float: " + quote(text));
    // glibc's strtod and strtof round correctly; overflow gives inf and underflow 0, as Python
    return d == stdlib::DType::F32 ? static_cast<double>(std::strtof(t->c_str(), nullptr)) : std::strtod(t->c_str(), nullptr);
}

int64_t parse_int(const std::string& fn, const std::string& text, int base) {
    const std::string_view s = trimmed(text);
    const auto bad = [&] { return Error(fn + ": invalid literal for int() with base " + std::to_string(base) + ": " + quote(text)); };
    size_t i = 0;
    const bool negative = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    // a prefix 0x / 0o / 0b matching the base (base 0: any, else decimal)
    const auto prefix = [&](char p) { return i + 1 < s.size() && s[i] == '0' && std::tolower(static_cast<unsigned char>(s[i + 1])) == p; };
    int b = base;
    for (auto [p, pb] : {std::pair{'x', 16}, std::pair{'o', 8}, std::pair{'b', 2}})
        if ((base == 0 || base == pb) && prefix(p)) {
            b = pb;
            i += 2;
            if (i < s.size() && s[i] == '_') ++i;  // Python allows 0x_ff
        }
    if (b == 0) b = 10;
    std::string d;
    if (!digits(s, i, b, d) || i != s.size()) throw bad();
    // base 0 refuses leading zeros in a decimal, as Python's literals do
    if (base == 0 && b == 10 && d.size() > 1 && d[0] == '0' && d.find_first_not_of('0') != std::string::npos) throw bad();
    errno = 0;
    const unsigned long long m = std::strtoull(d.c_str(), nullptr, b);
    const unsigned long long limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
    if (errno == ERANGE || m > limit)
        throw Error(fn + ": " + quote(text) + " does not fit in an i64 (tg's integers are 64-bit)");
    return negative ? static_cast<int64_t>(0 - m) : static_cast<int64_t>(m);
}

Value parse_as(const std::string& fn, const Value& s, stdlib::DType d) {
    if (s.sym_str()) unsupported_in_graph("`" + fn + "` of a string that shows traced tensor values");
    const std::string& text = s.text();
    switch (d) {
    case stdlib::DType::Bool: return Value::from_bool(!text.empty());  // Python's bool of a str
    case stdlib::DType::F32:
    case stdlib::DType::F64: return Value(stdlib::Tensor::scalar(parse_float(fn, text, d), d));
    default: {
        const int64_t v = parse_int(fn, text, 10);
        if (d == stdlib::DType::I32 && (v < INT32_MIN || v > INT32_MAX))
            throw Error(fn + ": " + quote(text) + " does not fit in an i32");
        return Value(stdlib::Tensor::scalar(v, d));
    }
    }
}

}  // namespace tg::interp
