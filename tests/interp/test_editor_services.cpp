// Completion and help (docs/repl.md "Completion and help"): the engine the
// REPL, the Jupyter kernel and the language server share, through the
// public Interpreter::complete / help, and the compiled-in builtin reference.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "interp/complete.hpp"
#include "interp/reference.hpp"

namespace {

std::vector<std::string> texts(const tg::Completions& c) {
    std::vector<std::string> out;
    for (const tg::Completion& i : c.items) out.push_back(i.text);
    return out;
}

bool has(const std::vector<std::string>& xs, const std::string& x) { return std::find(xs.begin(), xs.end(), x) != xs.end(); }

const tg::Completion* item(const tg::Completions& c, const std::string& text) {
    for (const tg::Completion& i : c.items)
        if (i.text == text) return &i;
    return nullptr;
}

}  // namespace

TEST_CASE("completion of names: variables, functions, keywords, builtins") {
    tg::Interpreter in;
    in.run_source("weights = zeros((2,))\ndef warm(x):\n    return x\nwhile_count = 1\n");
    std::string code = "y = w";
    tg::Completions c = in.complete(code, code.size());
    CHECK(c.start == 4);
    CHECK(c.end == 5);
    std::vector<std::string> t = texts(c);
    CHECK(has(t, "weights"));
    CHECK(has(t, "warm"));
    CHECK(has(t, "while"));
    CHECK(has(t, "where"));
    CHECK(!has(t, "zeros"));
    CHECK(item(c, "warm")->kind == "function");
    CHECK(item(c, "weights")->kind == "variable");
    CHECK(item(c, "while")->kind == "keyword");
    CHECK(item(c, "where")->kind == "builtin");
    CHECK(item(c, "where")->detail.starts_with("where("));
    CHECK(std::is_sorted(t.begin(), t.end()));
}

TEST_CASE("completion after a dot: by the receiver's value") {
    tg::Interpreter in;
    in.run_source("import optim\nx = ones((2, 2))\nxs = [1]\nd = {'a': 1}\ns = 'text'\n");
    auto members = [&](const std::string& code) { return texts(in.complete(code, code.size())); };
    std::vector<std::string> t = members("x.res");
    CHECK(has(t, "reshape"));
    CHECK(!has(t, "append"));
    t = members("x.");
    CHECK(has(t, "shape"));
    CHECK(has(t, "sum"));
    t = members("xs.ap");
    CHECK(t == std::vector<std::string>{"append"});
    t = members("d.it");
    CHECK(t == std::vector<std::string>{"items"});
    t = members("s.st");
    CHECK(has(t, "startswith"));
    CHECK(has(t, "strip"));
    t = members("'abc'.up");
    CHECK(t == std::vector<std::string>{"upper"});
    t = members("optim.ad");
    CHECK(has(t, "adam"));
    CHECK(has(t, "adamw"));
    // the completed word's bytes: after the dot
    tg::Completions c = in.complete("print(xs.ap)", 11);
    CHECK(c.start == 9);
    CHECK(c.end == 11);
    // an unknown receiver offers nothing rather than guessing wrong; a call's result offers every kind's methods
    CHECK(members("nothing.ap").empty());
    CHECK(has(members("f(x).ap"), "append"));
    // a float literal's dot is not a receiver
    CHECK(has(members("y = 1."), "while"));
}

TEST_CASE("completion request: words and receivers") {
    tg::interp::CompletionRequest r = tg::interp::completion_request("a = nn.init.nor", 15);
    CHECK(r.after_dot);
    CHECK(r.receiver == "nn.init");
    CHECK(r.prefix == "nor");
    r = tg::interp::completion_request("zeros_l", 7);
    CHECK(!r.after_dot);
    CHECK(r.prefix == "zeros_l");
    r = tg::interp::completion_request("", 0);
    CHECK(r.prefix.empty());
    r = tg::interp::completion_request("abc", 99);  // a cursor past the end is the end
    CHECK(r.prefix == "abc");
}

TEST_CASE("help: the builtin reference's line, a function's signature and comment") {
    tg::Interpreter in;
    in.run_source("# Scales x.\n# Twice.\ndef scale(x, k=2.0):\n    return x * k\n"
                  "def plain(a):\n    # Returns a.\n    return a\n");
    std::string h = in.help("zeros");
    CHECK(h.starts_with("zeros("));
    CHECK(h.find("\n    ") != std::string::npos);
    CHECK(in.help("x.reshape").starts_with("reshape("));
    CHECK(in.help("range").find("range(start, stop") != std::string::npos);
    CHECK(in.help("scale") == "scale(x, k=2.0)\n    Scales x.\n    Twice.\n");
    CHECK(in.help("plain") == "plain(a)\n    Returns a.\n");
    CHECK(in.help("no_such_name").empty());
}

TEST_CASE("the compiled-in reference documents every builtin an interpreter has") {
    tg::Interpreter in;
    const std::vector<tg::interp::BuiltinDoc>& docs = tg::interp::builtin_docs();
    for (const std::string& name : in.builtin_names()) {
        if (name.find('.') != std::string::npos) continue;
        INFO(name);
        CHECK(tg::interp::find_builtin_doc(docs, name) != nullptr);
    }
}

TEST_CASE("a reference line keeps its escaped pipes (norm's |x|, svd's |eigenvalues|)") {
    std::vector<tg::interp::BuiltinDoc> docs = tg::interp::builtin_docs();
    const tg::interp::BuiltinDoc* svd = tg::interp::find_builtin_doc(docs, "svd");
    REQUIRE(svd != nullptr);
    CHECK(svd->summary.find("S = |eigenvalues|") != std::string::npos);
    CHECK(svd->summary.find("differentiable") != std::string::npos);  // the rest of the cell
}

TEST_CASE("a builtin's signatures: the widest of each form, one line each") {
    using tg::interp::widens;
    CHECK(widens("pad(x, widths, value=0, mode=\"constant\", constant_values=None)", "pad(x, widths, value=0)"));
    CHECK(widens("clip(x, lo=None, hi=None)", "clip(x, lo, hi)"));
    CHECK(widens("sum(x, axis=None, keepdims=False, *, dtype=None)", "sum(x, axis=None, keepdims=False)"));
    CHECK_FALSE(widens("pad(x, widths, value=0)", "pad(x, widths, value=0, mode=\"constant\")"));
    CHECK_FALSE(widens("clip(x, lo, hi)", "clip(x, lo=None, hi=None)"));  // takes fewer calls
    CHECK_FALSE(widens("range(start, stop, step=1)", "range(stop)"));       // another form: both stay
    CHECK_FALSE(widens("sum(x, axis=None, keepdims=False)", "sum(xs)"));
    CHECK_FALSE(widens("min(a, b, c, ..., key=None)", "min(xs, key=None, default=...)"));
    CHECK_FALSE(widens("mean(x, axis=None)", "sum(x)"));
    CHECK_FALSE(widens("pi", "pi"));
    std::vector<tg::interp::BuiltinDoc> docs = tg::interp::builtin_docs();
    auto sigs = [&](const char* name) {
        const tg::interp::BuiltinDoc* d = tg::interp::find_builtin_doc(docs, name);
        REQUIRE(d != nullptr);
        return d->signatures;
    };
    // the op table's row and the wider form of the same call: the wider one
    CHECK(sigs("pad") == std::vector<std::string>{"pad(x, widths, value=0, mode=\"constant\", constant_values=None)"});
    CHECK(sigs("clip") == std::vector<std::string>{"clip(x, lo=None, hi=None, *, a_min=None, a_max=None, min=None, max=None)"});
    CHECK(sigs("cumsum") == std::vector<std::string>{"cumsum(x, axis=None, *, dtype=None)"});
    // different forms stay
    CHECK(sigs("range").size() == 2);
    CHECK(sigs("sum") == std::vector<std::string>{"sum(x, axis=None, keepdims=False, *, dtype=None)", "sum(xs)"});
    // `argsort(...)` in a row is the signature before it with its own name
    CHECK(sigs("argsort") ==
          std::vector<std::string>{"argsort(x, axis=-1, kind=None, order=None, descending=False, stable=None)"});
    CHECK(sigs("nanmin") == std::vector<std::string>{"nanmin(x, axis=None, keepdims=False)"});
    tg::Interpreter in;
    CHECK(in.help("clip").starts_with("clip(x, lo=None, hi=None, *, a_min=None, a_max=None, min=None, max=None)\n    "));
}
