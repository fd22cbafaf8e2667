// Syntax errors: messages, locations, recovery, and the REPL's "needs more input".
#include <doctest/doctest.h>

#include "test_util.hpp"

using namespace tg::lang;
using tg::lang::test::first_error;
using tg::lang::test::parse_text;

namespace {

SyntaxError only_error(const std::string& text) {
    auto r = parse_text(text);
    REQUIRE_MESSAGE(r.errors.size() == 1, "errors: " << r.errors.size() << (r.errors.empty() ? "" : " first: " + r.errors[0].message));
    return r.errors[0];
}

}  // namespace

TEST_CASE("a missing ':' is reported right after the header (conformance 17)") {
    auto e = only_error("def f(x)\n    return x\n");
    CHECK(e.loc == Loc{1, 9});
    CHECK(e.message == "expected ':', found end of line");
    CHECK_FALSE(e.unexpected_eof);
    auto src = std::make_shared<const Source>("17_syntax_error.tg", "def f(x)\n    return x\n");
    CHECK(render(to_diagnostic(e, src)) ==
          "17_syntax_error.tg:1:9: error: expected ':', found end of line\n"
          "    1 | def f(x)\n"
          "      |         ^\n");
}

TEST_CASE("errors point at the offending token") {
    auto e = only_error("x = 1 2\n");
    CHECK(e.loc == Loc{1, 7});
    CHECK(e.message == "expected end of line, found integer 2");
    e = only_error("y = (1 + )\n");
    CHECK(e.loc == Loc{1, 10});
    CHECK(e.message == "expected an expression, found ')'");
    e = only_error("if x\n    y = 1\n");
    CHECK(e.message == "expected ':' after the condition, found end of line");
    e = only_error("f(a=1, 2)\n");
    CHECK(e.message == "a positional argument follows a keyword argument");
    CHECK(e.loc == Loc{1, 8});
}

TEST_CASE("one pass reports every broken statement, without cascades") {
    auto r = parse_text("x = = 1\ny = 2\nif a b:\n    z = 3\n    w = (\nq = 4 +\nok = 5\n");
    REQUIRE(r.errors.size() == 3);
    CHECK(r.errors[0].loc == Loc{1, 5});
    CHECK(r.errors[1].loc == Loc{3, 6});
    CHECK(r.errors[2].message == "'(' was never closed");
    CHECK(r.errors[2].loc == Loc{5, 9});
    // The statements that were fine are kept.
    REQUIRE(r.module->body.size() >= 1);
    CHECK(r.module->body[0]->kind == StmtKind::Assign);
}

TEST_CASE("recovery inside a block keeps the enclosing statement") {
    auto r = parse_text("def f(x):\n    y = )\n    return x\nz = 1\n");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].loc == Loc{2, 9});
    REQUIRE(r.module->body.size() == 2);
    CHECK(r.module->body[0]->as<FunctionDef>().body.size() == 1);  // the return survived
}

TEST_CASE("indentation errors") {
    auto e = only_error("x = 1\n    y = 2\n");
    CHECK(e.message == "unexpected indent");
    CHECK(e.loc == Loc{2, 5});
    e = only_error("if x:\ny = 1\n");
    CHECK(e.message == "expected an indented block after 'if' on line 1");
    CHECK(e.loc == Loc{2, 1});
    e = only_error("if x:\n    y = 1\n  z = 2\n");
    CHECK(e.message == "unindent does not match any outer indentation level");
    CHECK(e.loc == Loc{3, 3});
    e = only_error("if x:\n\ty = 1\n");
    CHECK(e.message.find("tab") != std::string::npos);
    e = only_error("else:\n    pass\n");
    CHECK(e.message.find("without a matching 'if'") != std::string::npos);
}

TEST_CASE("statements in the wrong place") {
    CHECK(first_error("break\n") == "'break' outside a loop");
    CHECK(first_error("while x:\n    def f():\n        continue\n") == "'continue' outside a loop");
    CHECK(first_error("return 1\n") == "'return' outside a function");
    CHECK(first_error("for i in x:\n    break\n").empty());
    CHECK(first_error("def f():\n    for i in x:\n        return i\n").empty());
}

TEST_CASE("invalid assignment targets") {
    CHECK(first_error("f(x) = 1\n") == "cannot assign to a function call");
    CHECK(first_error("1 = x\n") == "cannot assign to a literal");
    CHECK(first_error("a + b = 1\n") == "cannot assign to an expression");
    CHECK(first_error("x.y = 1\n") == "cannot assign to an attribute");
    CHECK(first_error("a, b += 1\n") == "an augmented assignment needs a single target (a name or an index)");
    CHECK(first_error("[a, b] = xs\n").empty());
    CHECK(first_error("[x for x[0] in y]\n") == "cannot assign to an index here");
    auto e = only_error("x, f() = 1, 2\n");
    CHECK(e.loc == Loc{1, 4});
}

TEST_CASE("Python features tg does not have get a plain message") {
    // dicts and sets exist (docs/language.md "Dicts", "Sets")
    CHECK(first_error("x = {}\n").empty());
    CHECK(first_error("x = {1, 2}\n").empty());
    // `in`, `not in`, `is`, `is not` are comparisons (docs/language.md)
    CHECK(first_error("if x is None:\n    pass\n").empty());
    CHECK(first_error("y = a in b\nz = a not in b\nw = a is not None\n").empty());
    CHECK(first_error("y = a is\n") != "");
    CHECK(first_error("s = sum(x for x in xs)\n").find("generator expressions") != std::string::npos);
    CHECK(first_error("from util import f\n").find("'from ... import'") != std::string::npos);
    CHECK(first_error("global x\n").empty());  // docs/language.md "Scopes"
    CHECK(first_error("nonlocal x\n").find("'nonlocal' outside a function") != std::string::npos);
    CHECK(first_error("def f():\n    yield 1\n").find("generators ('yield') are not supported") != std::string::npos);
    CHECK(first_error("del f()\n").find("cannot delete this expression") != std::string::npos);
    CHECK(first_error("del = 1\nglobal = 2\n").empty());  // soft keywords: names elsewhere
    CHECK(first_error("class A:\n    pass\n") == "'class' statements are not supported in tg");
    CHECK(first_error("def f(*args, **kw):\n    pass\n").empty());
    CHECK(first_error("x = a << 2 >> b\nx <<= 1\nx >>= 2\n").empty());
    CHECK(first_error("for i in x:\n    pass\nelse:\n    pass\n") == "'else' after a 'for' loop is not supported");
    CHECK(first_error("[a for a in x for b in]\n") == "expected an expression, found ']'");
    CHECK(first_error("x = ...\n").find("only in an index") != std::string::npos);
    CHECK(first_error("if a: if b: c\n").find("must start on its own line") != std::string::npos);
}

TEST_CASE("hints for common slips") {
    CHECK(first_error("if x = 1:\n    pass\n") == "expected ':' after the condition, found '=' (use '==' to compare)");
    CHECK(first_error("while x = 1:\n    pass\n").find("use '=='") != std::string::npos);
    CHECK(first_error("if a:\n    pass\nelse if b:\n    pass\n") == "expected ':' after 'else', found 'if' (write 'elif')");
}

TEST_CASE("parameters and keywords") {
    CHECK(first_error("def f(a, a):\n    pass\n") == "duplicate parameter 'a'");
    CHECK(first_error("def f(a=1, b):\n    pass\n") == "parameter 'b' without a default follows a parameter with a default");
    CHECK(first_error("f(k=1, k=2)\n") == "keyword argument 'k' repeated");
    CHECK(first_error("@graph\nx = 1\n").find("'def' after a decorator") != std::string::npos);
}

TEST_CASE("f-string field errors are located inside the string") {
    auto e = only_error("print(f\"a {x +} b\")\n");
    CHECK(e.message == "expected an expression, found the end of the f-string field");
    CHECK_FALSE(e.unexpected_eof);
    CHECK(e.loc == Loc{1, 15});
    e = only_error("s = f\"{x y}\"\n");
    CHECK(e.loc == Loc{1, 10});
    CHECK(e.message.find("'}'") != std::string::npos);
}

TEST_CASE("unexpected end of input is flagged for the REPL") {
    for (const char* more : {"if x:\n", "def f(x):", "x = f(1,\n", "y = [1, 2\n", "while a:\n    if b:\n", "x = 1 + \\"}) {
        CAPTURE(more);
        auto r = parse_text(more);
        REQUIRE_FALSE(r.ok());
        CHECK(r.errors[0].unexpected_eof);
    }
    for (const char* broken : {"x = 1 +\n", "x = )\n", "def f(x)\n", "print(\"abc\n"}) {
        CAPTURE(broken);
        auto r = parse_text(broken);
        REQUIRE_FALSE(r.ok());
        CHECK_FALSE(r.errors[0].unexpected_eof);
    }
    CHECK(parse_text("if x:\n    y = 1\n").ok());
}

TEST_CASE("star parameters and unpacking arguments: Python's rules") {
    CHECK(first_error("def f(a, *args, b, c=1, **kw):\n    pass\n").empty());
    CHECK(first_error("def f(a=1, *, b, c=2):\n    pass\n").empty());  // keyword-only: no default needed
    CHECK(first_error("f = lambda *a, **k: a\n").empty());
    CHECK(first_error("def f(*):\n    pass\n") == "a bare '*' must be followed by a keyword-only parameter");
    CHECK(first_error("def f(*, **k):\n    pass\n") == "a bare '*' must be followed by a keyword-only parameter");
    CHECK(first_error("def f(*a, *b):\n    pass\n") == "only one '*' parameter is allowed");
    CHECK(first_error("def f(**k, a):\n    pass\n") == "a parameter follows the '**' parameter (it must be last)");
    CHECK(first_error("def f(**k, *a):\n    pass\n") == "a parameter follows the '**' parameter (it must be last)");
    CHECK(first_error("def f(*a=1):\n    pass\n") == "a '*' or '**' parameter takes no default");
    CHECK(first_error("def f(**k=1):\n    pass\n") == "a '*' or '**' parameter takes no default");
    CHECK(first_error("def f(a, *a):\n    pass\n") == "duplicate parameter 'a'");
    CHECK(first_error("def f(**):\n    pass\n") == "expected a parameter name after '**', found ')'");
    CHECK(first_error("def f(a=1, b):\n    pass\n") ==
          "parameter 'b' without a default follows a parameter with a default");
    CHECK(first_error("f(*xs, a, k=1, *ys, **d, j=2)\n").empty());
    CHECK(first_error("f(**d, a)\n") == "a positional argument follows keyword argument unpacking ('**')");
    CHECK(first_error("f(**d, *xs)\n") == "iterable argument unpacking ('*') follows keyword argument unpacking ('**')");
    CHECK(first_error("f(k=1, a)\n") == "a positional argument follows a keyword argument");
    auto e = only_error("f(**d, *xs)\n");
    CHECK(e.loc == Loc{1, 8});
}
