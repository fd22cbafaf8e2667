// The methods' signature table (interp/method_signatures.hpp) is what the
// interpreter checks: every method of every kind called with one argument
// too many, with an unknown keyword, and with what it needs, gives the
// binder's messages (the language server words its diagnostics with the
// same binder, docs/editors.md "Diagnostics").
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <string>
#include <string_view>

#include <vector>

#include "interp/check_args.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "interp/values/value.hpp"

namespace {

using tg::interp::ArityWording;
using tg::interp::CallSignature;
using tg::interp::MethodOf;

// A value of the kind, in variable `r` (list and dict methods change their variable).
std::string receiver(MethodOf of) {
    switch (of) {
    case MethodOf::List: return "r = [1, 2]\n";
    case MethodOf::Dict: return "r = {'a': 1}\n";
    case MethodOf::Str: return "r = 'a,b'\n";
    case MethodOf::Set: return "r = {1, 2}\n";
    case MethodOf::Tensor: return "r = tensor([1.0])\n";
    case MethodOf::Graph: return "r = concrete(lambda a: a * 2, spec((2,)))\n";
    }
    return "";
}

// The error message of running `code`, or "" when it runs.
std::string error_of(const std::string& code) {
    tg::Interpreter in;
    try {
        in.run_source(code);
    } catch (const tg::Error& e) {
        return e.message();
    }
    return "";
}

std::string call(const CallSignature& s, size_t positional, std::string_view keyword) {
    std::string out = "r." + s.name + "(";
    for (size_t i = 0; i < positional; ++i) out += (i ? ", " : "") + std::string("1");
    if (!keyword.empty()) out += std::string(positional ? ", " : "") + std::string(keyword) + "=1";
    return out + ")\n";
}

// The arguments every call needs: the leading parameters without a default.
size_t required(const CallSignature& s) {
    size_t n = 0;
    while (n < s.params.size() && !s.params[n].has_default && !s.params[n].variadic && !s.params[n].keyword_only) ++n;
    return n;
}

bool arity_error(const std::string& message) {
    return message.find(": takes ") != std::string::npos || message.find("unknown keyword") != std::string::npos ||
           message.find("missing argument") != std::string::npos;
}

}  // namespace

TEST_CASE("every method of the table is checked by its signature") {
    for (MethodOf of : tg::interp::kMethodKinds) {
        for (std::string_view name : tg::interp::method_names(of)) {
            const CallSignature& s = *tg::interp::method_signature(of, name);
            CAPTURE(tg::interp::method_kind_name(of));
            CAPTURE(s.label());
            const size_t need = required(s);
            // what it needs: no arity error (the values may still be wrong for it)
            CHECK(!arity_error(error_of(receiver(of) + call(s, need, ""))));
            bool variadic = false;
            size_t most = 0;
            for (const auto& p : s.params) {
                variadic = variadic || p.variadic;
                most += !p.variadic && !p.keyword_only && !variadic;
            }
            if (!variadic) {
                const auto expected = tg::interp::bind_arguments(s, most + 1, {}, ArityWording::Method);
                REQUIRE(expected);
                CHECK(error_of(receiver(of) + call(s, most + 1, "")) == expected->message);
            }
            if (s.any_keyword.empty()) {
                const std::string_view zzz[] = {"zzz"};
                const auto expected = tg::interp::bind_arguments(s, need, zzz, ArityWording::Method);
                REQUIRE(expected);
                CHECK(expected->message == s.name + ": unknown keyword argument `zzz`");
                CHECK(error_of(receiver(of) + call(s, need, "zzz")) == expected->message);
            }
        }
    }
}

TEST_CASE("a method's arity error says the range it takes") {
    CHECK(error_of("r = [1]\nr.pop(1, 2)\n") == "pop: takes 0 to 1 arguments but 2 were given");
    CHECK(error_of("r = [1]\nr.append()\n") == "append: takes 1 argument but 0 were given");
    CHECK(error_of("r = {}\nr.keys(1)\n") == "keys: takes no arguments but 1 was given");
    CHECK(error_of("r = 'a'\nr.replace('a')\n") == "replace: takes 2 to 3 arguments but 1 was given");
    CHECK(error_of("r = 'a'\nr.find()\n") == "find: missing argument `sub`");
    CHECK(error_of("r = [1]\nr.sort(kye=None)\n") == "sort: unknown keyword argument `kye`; did you mean `key`?");
    CHECK(error_of("r = {'a': 1}\nr.get('a', 2, default=3)\n") == "get: argument `default` given twice");
    CHECK(error_of("r = 'a'\nr.strip(chars='a')\n") == "strip: unknown keyword argument `chars`");
    CHECK(error_of("r = 'a b'\nprint(r.split(sep=' ', maxsplit=1), r.find(sub='b'), r.zfill(width=4))\n") == "");
}

TEST_CASE("signatures read as Python writes them") {
    const auto s = tg::interp::parse_signature("f(a, /, b=1, *, c, **kw)");
    REQUIRE(s);
    CHECK(s->label() == "f(a, /, b=1, *, c, **kw)");
    CHECK(s->params[0].positional_only);
    CHECK(!s->params[1].positional_only);
    CHECK(s->params[2].keyword_only);
    CHECK(s->any_keyword == "kw");
    const std::string_view a[] = {"a"};
    CHECK(tg::interp::bind_arguments(*s, 1, a, ArityWording::Function)->message == "f: missing argument `c`");
    const std::string_view c[] = {"c"};
    CHECK(!tg::interp::bind_arguments(*s, 2, c, ArityWording::Function));
    // positional-only parameters: counted from the fewest to the most, as a method's
    CHECK(tg::interp::bind_arguments(*s, 3, c, ArityWording::Function)->message == "f: takes 1 to 2 arguments but 3 were given");
    CHECK(tg::interp::bind_arguments(*s, 0, c, ArityWording::Function)->message == "f: takes 1 to 2 arguments but 0 were given");
    CHECK(tg::interp::parse_signature("g(*xs, sep=' ')")->label() == "g(*xs, sep=' ')");
    // a function's count: too many, by the most it takes; too few is a missing argument by name
    const auto h = tg::interp::parse_signature("h(a, b=1)");
    CHECK(tg::interp::bind_arguments(*h, 3, {}, ArityWording::Function)->message == "h: takes 2 arguments but 3 were given");
    CHECK(tg::interp::bind_arguments(*h, 0, {}, ArityWording::Function)->message == "h: missing argument `a`");
    CHECK(tg::interp::bind_arguments(*tg::interp::parse_signature("time()"), 1, {}, ArityWording::Function)->message ==
          "time: takes no arguments but 1 was given");
}

// Every builtin counts and names its arguments in the binder's words
// (interp/check_args.hpp), which the language server uses for the same call.
TEST_CASE("builtins word a call that does not fit as the binder does") {
    CHECK(error_of("len()\n") == "len: takes 1 argument but 0 were given");
    CHECK(error_of("list([1], [2])\n") == "list: takes 0 to 1 arguments but 2 were given");
    CHECK(error_of("time(1)\n") == "time: takes no arguments but 1 was given");
    CHECK(error_of("def f():\n    return 1\nf(1)\n") == "f: takes no arguments but 1 was given");
    CHECK(error_of("svd(ones((2, 2)), True, True, False, 1)\n") == "svd: takes 4 arguments but 5 were given");
    CHECK(error_of("sorted([1], kye=1)\n") == "sorted: unknown keyword argument `kye`; did you mean `key`?");
    CHECK(error_of("grad()\n") == "grad: takes 1 to 4 arguments but 0 were given");
    CHECK(error_of("grad(f=len)\n") == "grad: takes 1 to 4 arguments but 0 were given");
    CHECK(error_of("tree_map(len)\n") == "tree_map: takes at least 2 arguments but 1 was given");
    CHECK(error_of("spec((2,), f32, 'x', 1)\n") == "spec: takes 3 arguments but 4 were given");
    CHECK(error_of("concrete(len, f=1)\n") == "concrete: unknown keyword argument `f`");
    CHECK(error_of("for i in range(1, 2, 3, 4):\n    pass\n") == "range: takes 1 to 3 arguments but 4 were given");
}

// What a check says of n positional arguments: its error message, or "".
std::string answer(const tg::interp::SignatureCheck& check, size_t n) {
    const std::vector<tg::interp::Value> values(n, tg::interp::Value::none());
    try {
        check(tg::interp::CallArgs{values, {}, {}, {}});
    } catch (const tg::interp::Error& e) {
        return e.message();
    }
    return "";
}

TEST_CASE("a signature check learns each count of positional arguments on its first call, with the binder's answer") {
    // (learned per count, not all 64 bound when the check is made: that made
    // a program's first method call 1.3 ms slower)
    for (MethodOf of : tg::interp::kMethodKinds) {
        for (std::string_view text : tg::interp::method_signature_texts(of)) {
            CAPTURE(text);
            const tg::interp::SignatureCheck check(text, ArityWording::Method);
            for (int round = 0; round < 2; ++round) {  // learning, then learned
                for (size_t n = 0; n <= 6; ++n) {
                    CAPTURE(n);
                    const auto expected = tg::interp::bind_arguments(check.signature(), n, {}, ArityWording::Method);
                    CHECK(answer(check, n) == (expected ? expected->message : ""));
                }
            }
            const tg::interp::SignatureCheck copy(check);  // (a table of them is copied as it grows)
            for (size_t n = 0; n <= 7; ++n) CHECK(answer(copy, n) == answer(check, n));
        }
    }
}
