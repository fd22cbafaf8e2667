// The str methods of docs/language.md "Tensor, list and string methods":
// one object per call, its methods in string_methods.cpp (search, split,
// strip, replace, format, ...) and string_pad_case.cpp (padding,
// partition, case).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

namespace strings {

// Python's str.isspace for ASCII (what split() and strip() remove by default)
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

class StringMethod {
public:
    StringMethod(Runtime& rt, Method m, const Value& self, const CallArgs& args)
        : rt_(rt), method_(m), name_(m.name()), self_(self), args_(args) {}

    Value run();

private:
    // What runs the method of `name` (looked up once per method, by run).
    using Handler = Value (*)(StringMethod&);
    static Handler handler_for(std::string_view name);

private:
    Runtime& rt_;
    Method method_;
    std::string_view name_;  // (the method table's: a copy per call was a tenth of `s.upper()`)
    const Value& self_;
    const CallArgs& args_;

    [[noreturn]] void fail(const std::string& msg) const { throw Error(std::string(name_) + ": " + msg); }
    const std::string& self() const {
        if (self_.sym_str()) unsupported_in_graph("`" + std::string(name_) + "` of a string that shows traced tensor values");
        return self_.text();
    }
    void arity(size_t lo, size_t hi) const {
        const size_t n = args_.positional.size();
        if (n < lo || n > hi) {
            std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
            fail("takes " + want + (hi == 1 ? " argument" : " arguments") + " but " + std::to_string(n) +
                 (n == 1 ? " was given" : " were given"));
        }
    }
    // Positional argument i, or keyword `kw`, or null.
    const Value* arg(size_t i, std::string_view kw) const {
        if (i < args_.positional.size()) return &args_.positional[i];
        for (size_t k = 0; k < args_.keywords.size(); ++k)
            if (args_.keywords[k].name == kw) return &args_.keyword_values[k];
        return nullptr;
    }
    void keywords(std::initializer_list<std::string_view> allowed) const {
        for (const KwArg& k : args_.keywords)
            if (std::find(allowed.begin(), allowed.end(), k.name) == allowed.end())
                fail("unknown keyword argument `" + std::string(k.name) + "`");
    }
    const std::string& str_arg(const Value& v, std::string_view what) const {
        if (v.sym_str()) unsupported_in_graph("`" + std::string(name_) + "` of a string that shows traced tensor values");
        if (!v.is(Kind::Str))
            fail("argument `" + std::string(what) + "` must be a str, not " + std::string(kind_name(v.kind())));
        return v.text();
    }
    // None or a str: the characters to strip / the separator
    const std::string* optional_str(const Value* v, std::string_view what) const {
        if (!v || v->is(Kind::None)) return nullptr;
        return &str_arg(*v, what);
    }

    Value join();
    Value split();
    // split's and rsplit's (sep=None, maxsplit=-1): the separator or null
    const std::string* split_args(int64_t& maxsplit) const;
    Value strip(bool left, bool right);
    Value replace();
    Value affix(bool start);
    Value format();
    Value search();
    Value predicate();
    Value zfill();
    // string_pad_case.cpp
    Value pad();
    Value partition(bool last);
    Value recase();
    Value case_test();
    Value remove_affix(bool prefix);
    Value splitlines();
    Value rsplit();
    // Python's s[start:end] of the optional arguments `start` and `end` at
    // positions i and i + 1, as byte offsets into s; false when start is
    // past the end (where Python's find and startswith find nothing).
    bool bounds(size_t i, size_t& lo, size_t& hi) const;
};

}  // namespace strings

}  // namespace tg::interp
