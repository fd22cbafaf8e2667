// The str methods that pad, partition and change case, with Python's
// semantics (docs/language.md "Tensor, list and string methods"). Widths
// and positions count characters (UTF-8 code points); case changes and
// case tests are ASCII's, as upper() and lower() (a character outside ASCII
// is left as it is, and counts as a letter where title() asks).
#include <cctype>
#include <vector>

#include "interp/builtins/string_method.hpp"
#include "interp/control.hpp"
#include "interp/values/text_chars.hpp"
#include "lang/source.hpp"
#include "stdlib/budget.hpp"

namespace tg::interp::strings {

namespace {

bool ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool ascii_lower(char c) { return c >= 'a' && c <= 'z'; }
char to_upper(char c) { return ascii_lower(c) ? static_cast<char>(c - 'a' + 'A') : c; }
char to_lower(char c) { return ascii_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

// Python's line boundaries that are ASCII (\r\n counts as one)
size_t line_break(std::string_view s, size_t i) {
    const char c = s[i];
    if (c == '\r') return i + 1 < s.size() && s[i + 1] == '\n' ? 2 : 1;
    return c == '\n' || c == '\v' || c == '\f' || c == '\x1c' || c == '\x1d' || c == '\x1e' ? 1 : 0;
}

}  // namespace

bool StringMethod::bounds(size_t i, size_t& lo, size_t& hi) const {
    const std::string& s = self();
    const TextChars chars(s);
    const int64_t n = chars.size();
    auto index = [&](size_t k, const char* what, int64_t dflt) {
        const Value* v = arg(k, what);
        if (!v || v->is(Kind::None)) return dflt;
        int64_t x = to_int(*v, std::string(name_) + ": argument `" + what + "`");
        if (x < 0) x = std::max<int64_t>(x + n, 0);
        return x;
    };
    const int64_t start = index(i, "start", 0);
    const int64_t end = std::min(index(i + 1, "end", n), n);
    if (start > n || end < start) return false;  // Python finds nothing there, not even ""
    auto byte = [&](int64_t k) {
        return k >= n ? s.size() : static_cast<size_t>(chars.at(k).data() - s.data());
    };
    lo = byte(start);
    hi = std::max(lo, byte(end));
    return true;
}

// center / ljust / rjust(width, fillchar=" ")
Value StringMethod::pad() {
    keywords({"width", "fillchar"});
    arity(0, 2);
    const Value* w = arg(0, "width");
    if (!w) fail("missing argument `width`");
    const int64_t width = to_int(*w, std::string(name_) + ": argument `width`");
    std::string fill = " ";
    if (const Value* f = arg(1, "fillchar")) {
        fill = str_arg(*f, "fillchar");
        if (lang::count_chars(fill) != 1) fail("the fill character must be exactly one character long");
    }
    const std::string& s = self();
    const int64_t have = static_cast<int64_t>(lang::count_chars(s));
    if (width <= have) return Value::str(s);
    const int64_t margin = width - have;
    stdlib::check_fits(Value::text_bytes(s.size() + static_cast<size_t>(margin) * fill.size()), "a string");
    stdlib::spend_work(margin);
    // Python's split of the margin: the odd one goes left when width is odd
    const int64_t left = name_ == "ljust" ? 0 : name_ == "rjust" ? margin : margin / 2 + (margin & width & 1);
    std::string out;
    for (int64_t k = 0; k < left; ++k) out += fill;
    out += s;
    for (int64_t k = left; k < margin; ++k) out += fill;
    return Value::str(std::move(out));
}

// partition(sep) / rpartition(sep): (before, sep, after) at the first / last sep
Value StringMethod::partition(bool last) {
    keywords({});
    arity(1, 1);
    const std::string& sep = str_arg(args_.positional[0], "sep");
    if (sep.empty()) fail("empty separator");
    const std::string& s = self();
    const size_t at = last ? s.rfind(sep) : s.find(sep);
    if (at == std::string::npos)
        return last ? Value::tuple({Value::str(""), Value::str(""), Value::str(s)})
                    : Value::tuple({Value::str(s), Value::str(""), Value::str("")});
    return Value::tuple({Value::str(s.substr(0, at)), Value::str(sep), Value::str(s.substr(at + sep.size()))});
}

// upper, lower, casefold, capitalize, title, swapcase
Value StringMethod::recase() {
    keywords({});
    arity(0, 0);
    std::string s = self();
    if (name_ == "upper")
        for (char& c : s) c = to_upper(c);
    else if (name_ == "lower" || name_ == "casefold")
        for (char& c : s) c = to_lower(c);
    else if (name_ == "swapcase")
        for (char& c : s) c = ascii_upper(c) ? to_lower(c) : to_upper(c);
    else if (name_ == "capitalize")
        for (size_t i = 0; i < s.size(); ++i) s[i] = i == 0 ? to_upper(s[i]) : to_lower(s[i]);
    else {  // title: a letter after a letter is lower case, any other upper case
        bool after_letter = false;
        for (char& c : s) {
            const bool letter = ascii_upper(c) || ascii_lower(c) || static_cast<unsigned char>(c) >= 0x80;
            c = !letter ? c : after_letter ? to_lower(c) : to_upper(c);
            after_letter = letter;
        }
    }
    return Value::str(std::move(s));
}

// isupper / islower: at least one ASCII letter, all of one case; istitle:
// upper case only after a non-letter, lower case only after a letter
Value StringMethod::case_test() {
    keywords({});
    arity(0, 0);
    const std::string& s = self();
    bool cased = false, ok = true, after_letter = false;
    for (char c : s) {
        const bool up = ascii_upper(c), low = ascii_lower(c);
        cased = cased || up || low;
        if (name_ == "isupper") ok = ok && !low;
        else if (name_ == "islower") ok = ok && !up;
        else ok = ok && !(up && after_letter) && !(low && !after_letter);
        after_letter = up || low;
    }
    return Value::from_bool(cased && ok);
}

// removeprefix(prefix) / removesuffix(suffix)
Value StringMethod::remove_affix(bool prefix) {
    keywords({});
    arity(1, 1);
    const std::string& t = str_arg(args_.positional[0], prefix ? "prefix" : "suffix");
    const std::string_view s = self();
    if (prefix && s.starts_with(t)) return Value::str(std::string(s.substr(t.size())));
    if (!prefix && !t.empty() && s.ends_with(t)) return Value::str(std::string(s.substr(0, s.size() - t.size())));
    return Value::str(std::string(s));
}

// splitlines(keepends=False): Python's line boundaries (its ASCII ones)
Value StringMethod::splitlines() {
    keywords({"keepends"});
    arity(0, 1);
    bool keep = false;
    if (const Value* k = arg(0, "keepends")) {
        if (has_symbolic(*k)) unsupported_in_graph("`splitlines` with a `keepends` that depends on tensor contents");
        keep = truth(*k);
    }
    const std::string& s = self();
    std::vector<Value> lines;
    size_t start = 0;
    for (size_t i = 0; i < s.size();) {
        const size_t br = line_break(s, i);
        if (!br) {
            ++i;
            continue;
        }
        lines.push_back(Value::str(s.substr(start, i - start + (keep ? br : 0))));
        stdlib::spend_work(Value::kObjectBytes);
        i += br;
        start = i;
    }
    if (start < s.size()) lines.push_back(Value::str(s.substr(start)));
    return Value::list(std::move(lines));
}

// rsplit(sep=None, maxsplit=-1): split's parts, the splits made from the right
Value StringMethod::rsplit() {
    int64_t maxsplit = -1;
    const std::string* sep = split_args(maxsplit);
    const std::string& s = self();
    std::vector<Value> parts;  // from the right, reversed at the end
    auto full = [&] { return maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit; };
    size_t end = s.size();
    if (sep) {
        while (!full()) {
            const size_t k = end < sep->size() ? std::string::npos : s.rfind(*sep, end - sep->size());
            if (k == std::string::npos) break;
            parts.push_back(Value::str(s.substr(k + sep->size(), end - k - sep->size())));
            stdlib::spend_work(Value::kObjectBytes);
            end = k;
        }
        parts.push_back(Value::str(s.substr(0, end)));
    } else {
        while (true) {
            while (end > 0 && is_space(s[end - 1])) --end;
            if (end == 0) break;
            if (full()) {
                parts.push_back(Value::str(s.substr(0, end)));  // the rest, its leading space kept (Python)
                break;
            }
            size_t j = end;
            while (j > 0 && !is_space(s[j - 1])) --j;
            parts.push_back(Value::str(s.substr(j, end - j)));
            stdlib::spend_work(Value::kObjectBytes);
            end = j;
        }
    }
    std::reverse(parts.begin(), parts.end());
    return Value::list(std::move(parts));
}

}  // namespace tg::interp::strings
