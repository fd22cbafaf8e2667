#include "interp/builtins/string_methods.hpp"
#include "interp/builtins/string_method.hpp"

#include "interp/suggest.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "interp/runtime.hpp"
#include "interp/values/text_builder.hpp"
#include "lang/source.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/errors.hpp"

namespace tg::interp {

namespace strings {

Value StringMethod::run() {
    check_method_arguments(method_, args_);  // what each takes: interp/method_signatures.cpp
    // every method reads its string once (the limits act by work, stdlib/budget.hpp)
    if (self_.is(Kind::Str) && !self_.sym_str()) stdlib::spend_work(static_cast<int64_t>(self_.text().size()));
    // (each method's handler looked up by its index once per process: comparing
    // the name with each method's was most of `s.upper()`)
    static const std::vector<Handler> handlers = [] {
        std::vector<Handler> out;
        for (std::string_view name : method_names(MethodOf::Str)) out.push_back(handler_for(name));
        return out;
    }();
    return handlers[method_.index](*this);
}

StringMethod::Handler StringMethod::handler_for(std::string_view name) {
    using M = StringMethod;
    if (name == "join") return [](M& m) { return m.join(); };
    if (name == "split") return [](M& m) { return m.split(); };
    if (name == "strip") return [](M& m) { return m.strip(true, true); };
    if (name == "lstrip") return [](M& m) { return m.strip(true, false); };
    if (name == "rstrip") return [](M& m) { return m.strip(false, true); };
    if (name == "replace") return [](M& m) { return m.replace(); };
    if (name == "startswith") return [](M& m) { return m.affix(true); };
    if (name == "endswith") return [](M& m) { return m.affix(false); };
    if (name == "format") return [](M& m) { return m.format(); };
    if (name == "find" || name == "rfind" || name == "index" || name == "rindex" || name == "count")
        return [](M& m) { return m.search(); };
    if (name == "isupper" || name == "islower" || name == "istitle") return [](M& m) { return m.case_test(); };
    if (name.rfind("is", 0) == 0) return [](M& m) { return m.predicate(); };
    if (name == "zfill") return [](M& m) { return m.zfill(); };
    if (name == "center" || name == "ljust" || name == "rjust") return [](M& m) { return m.pad(); };
    if (name == "partition") return [](M& m) { return m.partition(false); };
    if (name == "rpartition") return [](M& m) { return m.partition(true); };
    if (name == "removeprefix") return [](M& m) { return m.remove_affix(true); };
    if (name == "removesuffix") return [](M& m) { return m.remove_affix(false); };
    if (name == "splitlines") return [](M& m) { return m.splitlines(); };
    if (name == "rsplit") return [](M& m) { return m.rsplit(); };
    return [](M& m) { return m.recase(); };  // upper, lower, casefold, capitalize, title, swapcase
}

// find, rfind, index, rindex (the first / last position of sub, in
// characters; find gives -1 and index an error where it is absent) and
// count (non-overlapping occurrences), as Python's, in s[start:end]
Value StringMethod::search() {
    keywords({"sub", "start", "end"});
    arity(0, 3);
    const Value* v = arg(0, "sub");
    if (!v) fail("missing argument `sub`");
    const std::string& sub = str_arg(*v, "sub");
    const std::string& s = self();
    size_t lo = 0, hi = 0;
    const bool inside = bounds(1, lo, hi);
    const std::string_view w = std::string_view(s).substr(lo, hi - lo);
    if (name_ == "count") {
        if (!inside) return Value::from_int(0);
        if (sub.empty()) return Value::from_int(static_cast<int64_t>(lang::count_chars(w)) + 1);
        int64_t n = 0;
        for (size_t at = w.find(sub); at != std::string::npos; at = w.find(sub, at + sub.size())) ++n;
        return Value::from_int(n);
    }
    const bool last = name_[0] == 'r';
    const size_t at = !inside ? std::string::npos : last ? w.rfind(sub) : w.find(sub);
    if (at == std::string::npos) {
        if (name_.find("index") != std::string::npos) fail("substring not found");
        return Value::from_int(-1);
    }
    return Value::from_int(static_cast<int64_t>(lang::count_chars(std::string_view(s).substr(0, lo + at))));
}

// isdigit (isdecimal, isnumeric), isalpha, isspace, isalnum: every
// character is one (ASCII, as the rest of tg's text), and there is at least
// one; isascii: every character is ASCII (also of "")
Value StringMethod::predicate() {
    keywords({});
    arity(0, 0);
    const std::string& s = self();
    auto test = [&](unsigned char c) {
        if (name_ == "isdigit" || name_ == "isdecimal" || name_ == "isnumeric") return std::isdigit(c) != 0;
        if (name_ == "isalpha") return std::isalpha(c) != 0;
        if (name_ == "isalnum") return std::isalnum(c) != 0;
        if (name_ == "isascii") return c < 0x80;
        return is_space(static_cast<char>(c));
    };
    bool all = !s.empty() || name_ == "isascii";
    for (char c : s) all = all && test(static_cast<unsigned char>(c));
    return Value::from_bool(all);
}

// zfill(width): zeros after the sign, up to width characters
Value StringMethod::zfill() {
    keywords({"width"});
    arity(0, 1);
    const Value* v = arg(0, "width");
    if (!v) fail("missing argument `width`");
    const int64_t width = to_int(*v, "zfill: argument `width`");
    std::string s = self();
    const int64_t have = static_cast<int64_t>(lang::count_chars(s));
    if (width <= have) return Value::str(std::move(s));
    const size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
    s.insert(sign, static_cast<size_t>(width - have), '0');
    return Value::str(std::move(s));
}

// sep.join(xs): every item must be a str (Python does not convert numbers)
Value StringMethod::join() {
    keywords({});
    arity(1, 1);
    const Value& xs = args_.positional[0];
    if (!xs.is_sequence()) fail("argument must be a list or a tuple of str, not " + std::string(kind_name(xs.kind())));
    TextBuilder out(rt_);
    const std::string& sep = self();
    size_t total = 0;  // checked against the memory limit before it is built
    for (const Value& x : xs.items())
        if (x.is(Kind::Str) && !x.sym_str()) total += x.text().size() + sep.size();
    stdlib::check_fits(Value::text_bytes(total), "a string");
    stdlib::spend_work(static_cast<int64_t>(total + xs.items().size()));
    for (size_t i = 0; i < xs.items().size(); ++i) {
        const Value& x = xs.items()[i];
        if (!x.is(Kind::Str))
            fail("item " + std::to_string(i) + " is a " + std::string(kind_name(x.kind())) + ", not a str (use str(x))");
        if (i) out.text(sep);
        out.value(x, {});
    }
    return out.finish();
}

// Python's split(sep=None, maxsplit=-1): no sep splits on runs of whitespace
// and drops empty parts; a sep keeps them.
const std::string* StringMethod::split_args(int64_t& maxsplit) const {
    keywords({"sep", "maxsplit"});
    arity(0, 2);
    const std::string* sep = optional_str(arg(0, "sep"), "sep");
    maxsplit = -1;
    if (const Value* m = arg(1, "maxsplit")) maxsplit = to_int(*m, std::string(name_) + ": argument `maxsplit`");
    if (sep && sep->empty()) fail("empty separator");
    return sep;
}

Value StringMethod::split() {
    int64_t maxsplit = -1;
    const std::string* sep = split_args(maxsplit);
    const std::string& s = self();
    std::vector<Value> parts;
    if (sep) {
        size_t count = 1;  // the parts, counted first (one allocation for the list)
        for (size_t k = s.find(*sep); k != std::string::npos && (maxsplit < 0 || static_cast<int64_t>(count) <= maxsplit);
             k = s.find(*sep, k + sep->size()))
            ++count;
        stdlib::check_fits(Value::slots_bytes(count), "a list");
        parts.reserve(count);
        size_t start = 0;
        while (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) {
            const size_t k = s.find(*sep, start);
            if (k == std::string::npos) break;
            parts.push_back(Value::str(s.substr(start, k - start)));
            start = k + sep->size();
            stdlib::spend_work(Value::kObjectBytes);  // a new string each
            if (parts.size() % 4096 == 0) stdlib::check_fits(Value::slots_bytes(parts.size()), "a list");
        }
        parts.push_back(Value::str(s.substr(start)));
        return Value::list(std::move(parts));
    }
    size_t i = 0;
    while (true) {
        while (i < s.size() && is_space(s[i])) ++i;
        if (i == s.size()) break;
        if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
            parts.push_back(Value::str(s.substr(i)));  // the rest, as it is (Python keeps its trailing space)
            break;
        }
        size_t j = i;
        while (j < s.size() && !is_space(s[j])) ++j;
        parts.push_back(Value::str(s.substr(i, j - i)));
        i = j;
        stdlib::spend_work(Value::kObjectBytes);  // a new string each
        if (parts.size() % 4096 == 0) stdlib::check_fits(Value::slots_bytes(parts.size()), "a list");
    }
    return Value::list(std::move(parts));
}

Value StringMethod::strip(bool left, bool right) {
    keywords({});
    arity(0, 1);
    const std::string& s = self();
    const std::string* chars = optional_str(arg(0, "chars"), "chars");
    auto strip_it = [&](char c) { return chars ? chars->find(c) != std::string::npos : is_space(c); };
    size_t lo = 0, hi = s.size();
    if (left)
        while (lo < hi && strip_it(s[lo])) ++lo;
    if (right)
        while (hi > lo && strip_it(s[hi - 1])) --hi;
    return Value::str(s.substr(lo, hi - lo));
}

// replace(old, new, count=-1); an empty `old` inserts `new` between characters, as Python
Value StringMethod::replace() {
    keywords({});
    arity(2, 3);
    const std::string& s = self();
    const std::string& from = str_arg(args_.positional[0], "old");
    const std::string& to = str_arg(args_.positional[1], "new");
    int64_t count = args_.positional.size() == 3 ? to_int(args_.positional[2], std::string(name_) + ": argument `count`") : -1;
    // the result's size, checked against the memory limit before it is built
    size_t found = 0;
    if (from.empty()) found = s.size() + 1;
    else if (to.size() > from.size())
        for (size_t k = s.find(from); k != std::string::npos && (count < 0 || static_cast<int64_t>(found) < count);
             k = s.find(from, k + from.size()))
            ++found;
    if (count >= 0) found = std::min(found, static_cast<size_t>(count));
    const size_t longest = s.size() + found * to.size();
    stdlib::check_fits(Value::text_bytes(longest), "a string");
    std::string out;
    size_t start = 0;
    int64_t done = 0;
    if (from.empty()) {
        for (size_t i = 0; i <= s.size(); ++i) {
            if (count < 0 || done < count) {
                stdlib::spend_work(static_cast<int64_t>(to.size()) + 1);  // the limits act inside (stdlib/budget.hpp)
                out += to;
                ++done;
            }
            if (i < s.size()) out += s[i];
        }
        return Value::str(std::move(out));
    }
    while (count < 0 || done < count) {
        const size_t k = s.find(from, start);
        if (k == std::string::npos) break;
        stdlib::spend_work(static_cast<int64_t>(k - start + to.size()) + 1);  // the limits act inside
        out.append(s, start, k - start);
        out += to;
        start = k + from.size();
        ++done;
    }
    out.append(s, start);
    return Value::str(std::move(out));
}

// startswith(prefix, start, end) / endswith(suffix, ...): a tuple of str
// matches any of them; in s[start:end], as Python's
Value StringMethod::affix(bool start) {
    keywords({});
    arity(1, 3);
    const std::string& s = self();
    size_t lo = 0, hi = 0;
    const bool inside = bounds(1, lo, hi);
    const std::string_view w = std::string_view(s).substr(lo, hi - lo);
    const Value& a = args_.positional[0];
    auto test = [&](const Value& p) {
        const std::string& t = str_arg(p, start ? "prefix" : "suffix");
        return inside && (start ? w.starts_with(t) : w.ends_with(t));
    };
    if (a.is(Kind::Tuple)) {
        bool any = false;
        for (const Value& p : a.items()) any = test(p) || any;  // every item checked to be a str
        return Value::from_bool(any);
    }
    if (!a.is(Kind::Str))
        fail(std::string("argument must be a str or a tuple of str, not ") + kind_name(a.kind()));
    return Value::from_bool(test(a));
}

// Python's str.format: {} (automatic numbering), {0}, {name}, {{ and }},
// a conversion !r / !s and a format spec after ':'. Field names with
// attributes or indices ({0.shape}, {0[1]}) and nested specs ({:{w}}) are
// not supported (an error says so).
Value StringMethod::format() {
    const std::string& s = self();
    TextBuilder out(rt_);
    int automatic = 0;           // next automatic field number
    bool manual = false, autonum = false;
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '}') {
            if (i + 1 < s.size() && s[i + 1] == '}') {
                out.text("}");
                i += 2;
                continue;
            }
            fail("single '}' encountered in format string");
        }
        if (c != '{') {
            const size_t k = s.find_first_of("{}", i);
            out.text(std::string_view(s).substr(i, (k == std::string::npos ? s.size() : k) - i));
            i = k == std::string::npos ? s.size() : k;
            continue;
        }
        if (i + 1 < s.size() && s[i + 1] == '{') {
            out.text("{");
            i += 2;
            continue;
        }
        const size_t close = s.find('}', i + 1);
        if (close == std::string::npos) fail("expected '}' before end of string");
        std::string field = s.substr(i + 1, close - i - 1);
        if (field.find('{') != std::string::npos) fail("nested replacement fields ({:{width}}) are not supported");
        i = close + 1;
        std::string spec;
        if (const size_t colon = field.find(':'); colon != std::string::npos) {
            spec = field.substr(colon + 1);
            field.resize(colon);
        }
        bool repr = false;
        if (const size_t bang = field.find('!'); bang != std::string::npos) {
            const std::string conv = field.substr(bang + 1);
            if (conv != "r" && conv != "s") fail("unknown conversion specifier '" + conv + "' (use !r or !s)");
            repr = conv == "r";
            field.resize(bang);
        }
        const Value* v = nullptr;
        if (field.empty()) {
            if (manual) fail("cannot switch from manual field numbering to automatic field numbering");
            autonum = true;
            const size_t k = static_cast<size_t>(automatic++);
            if (k >= args_.positional.size())
                fail("replacement field {} number " + std::to_string(k) + " has no argument (" +
                     std::to_string(args_.positional.size()) + " positional given)");
            v = &args_.positional[k];
        } else if (std::all_of(field.begin(), field.end(), [](char d) { return d >= '0' && d <= '9'; })) {
            if (autonum) fail("cannot switch from automatic field numbering to manual field specification");
            manual = true;
            const size_t k = field.size() > 9 ? SIZE_MAX : std::stoul(field);
            if (k >= args_.positional.size())
                fail("replacement field {" + field + "} has no argument (" + std::to_string(args_.positional.size()) +
                     " positional given)");
            v = &args_.positional[k];
        } else {
            if (field.find_first_of(".[") != std::string::npos)
                fail("replacement field {" + field + "}: attributes and indices in field names are not supported");
            for (size_t k = 0; k < args_.keywords.size(); ++k)
                if (args_.keywords[k].name == field) v = &args_.keyword_values[k];
            if (!v) fail("replacement field {" + field + "} has no keyword argument `" + field + "`");
        }
        try {
            out.value(*v, spec, repr);
        } catch (const stdlib::OpError& e) {
            fail(e.what());
        }
    }
    return out.finish();
}

}  // namespace strings

bool is_string_method(std::string_view name) { return find_method(MethodOf::Str, name).has_value(); }

Value call_string_method(Runtime& rt, Method m, const Value& self, const CallArgs& args) {
    return strings::StringMethod(rt, m, self, args).run();
}

Value unbound_string_method(std::string_view name) {
    const Method m = *find_method(MethodOf::Str, name);  // (the caller checked is_string_method)
    const std::string fn = "str." + std::string(name);
    return Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{fn, [fn, m](Runtime& rt, const CallArgs& a) {
        if (a.positional.empty() || !a.positional[0].is(Kind::Str))
            throw Error(fn + ": takes a str as its first argument, not " +
                        (a.positional.empty() ? std::string("nothing") : std::string(kind_name(a.positional[0].kind()))));
        return call_string_method(rt, m, a.positional[0], CallArgs{a.positional.subspan(1), a.keyword_values, a.keywords, a.loc});
    }}));
}

}  // namespace tg::interp
