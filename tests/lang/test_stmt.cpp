// Statements and blocks.
#include <doctest/doctest.h>

#include "test_util.hpp"

using namespace tg::lang;
using tg::lang::test::parse_text;
using tg::lang::test::sexpr;

namespace {

std::unique_ptr<Module> ok(const std::string& text) {
    auto r = parse_text(text);
    if (!r.ok()) FAIL_CHECK("unexpected syntax error: " << r.errors[0].message << " at " << r.errors[0].loc.line << ":" << r.errors[0].loc.col);
    return std::move(r.module);
}

}  // namespace

TEST_CASE("assignments: simple, tuple, chained, indexed, augmented") {
    auto m = ok("x = 1\na, b = f(x)\na = b = 0\nx[i, 1:3] = v\nx += 1\nx @= w\ny //= 2\n");
    REQUIRE(m->body.size() == 7);
    const auto& a0 = m->body[0]->as<Assign>();
    CHECK(a0.loc == Loc{1, 1});
    CHECK(a0.eq_loc == Loc{1, 3});
    CHECK(sexpr(*a0.targets[0]) == "x");
    const auto& a1 = m->body[1]->as<Assign>();
    CHECK(sexpr(*a1.targets[0]) == "(tuple a b)");
    CHECK(sexpr(*a1.value) == "(call f x)");
    const auto& a2 = m->body[2]->as<Assign>();
    REQUIRE(a2.targets.size() == 2);
    CHECK(sexpr(*a2.targets[1]) == "b");
    CHECK(sexpr(*m->body[3]->as<Assign>().targets[0]) == "(index, x i (slice 1 3 _))");
    const auto& aug = m->body[4]->as<AugAssign>();
    CHECK(aug.op == BinOp::Add);
    CHECK(aug.op_loc == Loc{5, 3});
    CHECK(m->body[5]->as<AugAssign>().op == BinOp::MatMul);
    CHECK(m->body[6]->as<AugAssign>().op == BinOp::FloorDiv);
}

TEST_CASE("if / elif / else: an elif is an If inside orelse") {
    auto m = ok("if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n");
    REQUIRE(m->body.size() == 1);
    const auto& s = m->body[0]->as<If>();
    CHECK(sexpr(*s.cond) == "a");
    CHECK(s.body.size() == 1);
    REQUIRE(s.orelse.size() == 1);
    const auto& elif = s.orelse[0]->as<If>();
    CHECK(elif.loc == Loc{3, 1});
    CHECK(sexpr(*elif.cond) == "b");
    REQUIRE(elif.orelse.size() == 1);
    CHECK(elif.orelse[0]->kind == StmtKind::Assign);
}

TEST_CASE("a simple statement may follow the colon, ',' separates statements") {
    auto m = ok("if x > 0: y = 1; z = 2\nelse: y = 0\nwhile c: c -= 1\n");
    REQUIRE(m->body.size() == 2);
    const auto& s = m->body[0]->as<If>();
    CHECK(s.body.size() == 2);
    CHECK(s.orelse.size() == 1);
    CHECK(m->body[1]->as<While>().body.size() == 1);
}

TEST_CASE("for loops: targets and iterables") {
    auto m = ok("for i in range(3):\n    pass\nfor i, (a, b) in xs:\n    continue\nfor v in 1, 2:\n    break\n");
    REQUIRE(m->body.size() == 3);
    CHECK(sexpr(*m->body[0]->as<For>().iter) == "(call range 3)");
    CHECK(sexpr(*m->body[1]->as<For>().target) == "(tuple i (tuple a b))");
    CHECK(sexpr(*m->body[2]->as<For>().iter) == "(tuple 1 2)");
    CHECK(m->body[2]->as<For>().body[0]->kind == StmtKind::Break);
}

TEST_CASE("function definitions with defaults and decorators") {
    auto m = ok("@graph\ndef f(a, b=2.0,):\n    return a * b\n\ndef g(): return\n");
    REQUIRE(m->body.size() == 2);
    const auto& f = m->body[0]->as<FunctionDef>();
    CHECK(f.name == "f");
    CHECK(f.loc == Loc{2, 1});
    CHECK(f.name_loc == Loc{2, 5});
    REQUIRE(f.decorators.size() == 1);
    CHECK(sexpr(*f.decorators[0]) == "graph");
    REQUIRE(f.params.size() == 2);
    CHECK(f.params[1].name == "b");
    CHECK(f.params[1].loc == Loc{2, 10});
    CHECK(sexpr(*f.params[1].default_value) == "2f");
    CHECK(sexpr(*f.body[0]->as<Return>().value) == "(* a b)");
    const auto& g = m->body[1]->as<FunctionDef>();
    CHECK(g.params.empty());
    CHECK(g.body[0]->as<Return>().value == nullptr);
}

TEST_CASE("return of several values is a tuple") {
    auto m = ok("def f(x):\n    return x, x * 2\n");
    CHECK(sexpr(*m->body[0]->as<FunctionDef>().body[0]->as<Return>().value) == "(tuple x (* x 2))");
}

TEST_CASE("assert, import, pass, expression statements") {
    auto m = ok("assert x > 0, \"positive\"\nassert y\nimport util\nimport util as u, other\npass\nprint(1)\n");
    REQUIRE(m->body.size() == 7);
    const auto& a = m->body[0]->as<Assert>();
    CHECK(sexpr(*a.msg) == "\"positive\"");
    CHECK(m->body[1]->as<Assert>().msg == nullptr);
    const auto& i = m->body[2]->as<Import>();
    CHECK(i.module == "util");
    CHECK(i.alias == "util");
    CHECK(i.module_loc == Loc{3, 8});
    CHECK(m->body[3]->as<Import>().alias == "u");
    CHECK(m->body[4]->as<Import>().module == "other");
    CHECK(m->body[5]->kind == StmtKind::Pass);
    CHECK(m->body[6]->kind == StmtKind::Expr);
}

TEST_CASE("nested blocks and dedents of several levels") {
    auto m = ok("def f(x):\n    for i in x:\n        if i:\n            while i:\n                i = i - 1\n    return x\ny = 1\n");
    REQUIRE(m->body.size() == 2);
    const auto& f = m->body[0]->as<FunctionDef>();
    REQUIRE(f.body.size() == 2);
    CHECK(f.body[1]->kind == StmtKind::Return);
    const auto& w = f.body[0]->as<For>().body[0]->as<If>().body[0]->as<While>();
    CHECK(w.body.size() == 1);
}

TEST_CASE("implicit line joining inside brackets, comments everywhere") {
    auto m = ok("x = f(1,  # one\n      2)   # two\n# only a comment\n\ny = [\n  1,\n  2,\n]\n");
    REQUIRE(m->body.size() == 2);
    CHECK(sexpr(*m->body[0]->as<Assign>().value) == "(call f 1 2)");
    CHECK(sexpr(*m->body[1]->as<Assign>().value) == "[1 2]");
}

TEST_CASE("empty input, blank lines only, CRLF line endings") {
    CHECK(ok("")->body.empty());
    CHECK(ok("\n\n   \n# c\n")->body.empty());
    auto m = ok("if a:\r\n    b = 1\r\nc = 2\r\n");
    CHECK(m->body.size() == 2);
    auto bom = ok("\xEF\xBB\xBFx = 1\n");  // a byte-order mark is skipped
    REQUIRE(bom->body.size() == 1);
    CHECK(bom->body[0]->loc == Loc{1, 2});  // the mark is a character of the line
}

TEST_CASE("the module keeps its source") {
    auto r = parse_text("x = 1\n", "prog.tg");
    CHECK(r.module->source->name() == "prog.tg");
}
