// Expression structure: precedence, associativity, postfix forms, literals.
#include <doctest/doctest.h>

#include "test_util.hpp"

using tg::lang::test::expr_of;

TEST_CASE("arithmetic precedence and associativity follow Python") {
    CHECK(expr_of("1 + 2 * 3") == "(+ 1 (* 2 3))");
    CHECK(expr_of("1 - 2 - 3") == "(- (- 1 2) 3)");
    CHECK(expr_of("a / b // c % d @ e") == "(@ (% (// (/ a b) c) d) e)");
    CHECK(expr_of("2 ** 3 ** 2") == "(** 2 (** 3 2))");
    CHECK(expr_of("-x ** 2") == "(- (** x 2))");
    CHECK(expr_of("2 ** -1") == "(** 2 (- 1))");
    CHECK(expr_of("-a * b") == "(* (- a) b)");
    CHECK(expr_of("~a + +b") == "(+ (~ a) (+ b))");
    CHECK(expr_of("(1 + 2) * 3") == "(* (+ 1 2) 3)");
}

TEST_CASE("bitwise operators bind looser than arithmetic, in the order & ^ |") {
    CHECK(expr_of("a | b ^ c & d + e") == "(| a (^ b (& c (+ d e))))");
    CHECK(expr_of("a & b | c") == "(| (& a b) c)");
}

TEST_CASE("comparisons, chains, not, and, or") {
    CHECK(expr_of("a < b") == "(< a b)");
    CHECK(expr_of("a < b <= c") == "(cmp a < b <= c)");
    // membership and identity (the lexer joins `not in` and `is not`)
    CHECK(expr_of("a in b") == "(in a b)");
    CHECK(expr_of("a not in b") == "(not in a b)");
    CHECK(expr_of("a is None") == "(is a None)");
    CHECK(expr_of("a is not None") == "(is not a None)");
    CHECK(expr_of("not a in b") == "(not (in a b))");
    CHECK(expr_of("a < b in c") == "(cmp a < b in c)");
    CHECK(expr_of("a + 1 == b * 2") == "(== (+ a 1) (* b 2))");
    CHECK(expr_of("not a == b") == "(not (== a b))");
    CHECK(expr_of("a or b and not c") == "(or a (and b (not c)))");
    CHECK(expr_of("a and b and c") == "(and (and a b) c)");
    CHECK(expr_of("a | b > c") == "(> (| a b) c)");
}

TEST_CASE("conditional expressions and lambdas") {
    CHECK(expr_of("a if c else b") == "(if c a b)");
    CHECK(expr_of("a if c else b if d else e") == "(if c a (if d b e))");
    CHECK(expr_of("lambda: 0") == "(lambda () 0)");
    CHECK(expr_of("lambda a, b=2.0: a * b") == "(lambda (a b=2f) (* a b))");
    CHECK(expr_of("lambda x: x if x else -x") == "(lambda (x) (if x x (- x)))");
    CHECK(expr_of("f(lambda x: x + 1, 2)") == "(call f (lambda (x) (+ x 1)) 2)");
}

TEST_CASE("calls, attributes, method calls") {
    CHECK(expr_of("f()") == "(call f)");
    CHECK(expr_of("f(a, b, k=1, m=x+1,)") == "(call f a b k=1 m=(+ x 1))");
    CHECK(expr_of("x.sum(axis=0)") == "(call (. x sum) axis=0)");
    CHECK(expr_of("grad(f)(x)") == "(call (call grad f) x)");
    CHECK(expr_of("x.T.shape") == "(. (. x T) shape)");
    CHECK(expr_of("f(a == b)") == "(call f (== a b))");
}

TEST_CASE("indexing and slicing") {
    CHECK(expr_of("x[i]") == "(index x i)");
    CHECK(expr_of("x[i, j]") == "(index, x i j)");
    CHECK(expr_of("x[1,]") == "(index, x 1)");
    CHECK(expr_of("x[a:b]") == "(index x (slice a b _))");
    CHECK(expr_of("x[a:b:s]") == "(index x (slice a b s))");
    CHECK(expr_of("x[:, 0]") == "(index, x (slice _ _ _) 0)");
    CHECK(expr_of("x[::2]") == "(index x (slice _ _ 2))");
    CHECK(expr_of("x[1:]") == "(index x (slice 1 _ _))");
    CHECK(expr_of("x[..., -1]") == "(index, x ... (- 1))");
    CHECK(expr_of("x[0][1]") == "(index (index x 0) 1)");
    CHECK(expr_of("-x[0] ** 2") == "(- (** (index x 0) 2))");
}

TEST_CASE("lists, tuples, comprehensions") {
    CHECK(expr_of("[]") == "[]");
    CHECK(expr_of("[1, 2, 3,]") == "[1 2 3]");
    CHECK(expr_of("()") == "(tuple)");
    CHECK(expr_of("(1,)") == "(tuple 1)");
    CHECK(expr_of("(1)") == "1");
    CHECK(expr_of("a, b") == "(tuple a b)");
    CHECK(expr_of("a,") == "(tuple a)");
    CHECK(expr_of("[[1, 2], [3, 4]]") == "[[1 2] [3 4]]");
    CHECK(expr_of("[f(v) for v in xs if p(v)]") == "(listcomp (call f v) v xs (call p v))");
    CHECK(expr_of("[a + b for a, b in pairs]") == "(listcomp (+ a b) (tuple a b) pairs _)");
    CHECK(expr_of("[v for v in xs if a if b]") == "(listcomp v v xs (and a b))");
    CHECK(expr_of("[x if c else y for x in xs]") == "(listcomp (if c x y) x xs _)");
}

TEST_CASE("dicts and dict comprehensions") {
    CHECK(expr_of("{}") == "{}");
    CHECK(expr_of("{'a': 1, 2: b,}") == "{\"a\":1 2:b}");
    CHECK(expr_of("{k: {j: 0}}") == "{k:{j:0}}");
    CHECK(expr_of("{k: v * 2 for k, v in d.items() if v}") ==
          "(dictcomp k:(* v 2) (tuple k v) (call (. d items)) v)");
    CHECK(expr_of("{x: y if c else z for x in xs}") == "(dictcomp x:(if c y z) x xs _)");
    CHECK(tg::lang::test::first_error("{1: 2, 3}") == "expected ':' after the dict key, found '}'");
    CHECK(tg::lang::test::first_error("{1, 2: 3}") == "expected '}' or ',', found ':'");
    CHECK(tg::lang::test::first_error("{'a' 1}") == "expected ':' after the dict key, found integer 1");
    CHECK(tg::lang::test::first_error("{'a': 1 'b': 2}") == "expected '}' or ',', found string 'b'");
    CHECK(tg::lang::test::first_error("{a: b for a in x for b}") == "expected 'in', found '}'");
    CHECK(tg::lang::test::first_error("{a: 1} = 2") == "cannot assign to a dict");
}

TEST_CASE("sets and set comprehensions") {
    CHECK(expr_of("{1}") == "{set 1}");
    CHECK(expr_of("{1, 'a', x,}") == "{set 1 \"a\" x}");
    CHECK(expr_of("{x * 2 for x in xs if x}") == "(setcomp (* x 2) x xs x)");
    CHECK(expr_of("{a for a in x for b in y}").rfind("(setcomp a a x _", 0) == 0);
    CHECK(tg::lang::test::first_error("{1, 2} = 3") == "cannot assign to a set");
    CHECK(tg::lang::test::first_error("{a for a in x} = 3") == "cannot assign to a set comprehension");
}

TEST_CASE("unpacking arguments and star parameters") {
    CHECK(expr_of("f(*xs)") == "(call f *xs)");
    CHECK(expr_of("f(a, *xs, k=1, **d)") == "(call f a *xs k=1 **d)");
    CHECK(expr_of("f(*a + b)") == "(call f *(+ a b))");
    CHECK(expr_of("lambda a, *r, k=1, **o: a") == "(lambda (a *r kw:k=1 **o) a)");
    CHECK(expr_of("lambda *, k: k") == "(lambda (kw:k) k)");
}

TEST_CASE("literals") {
    CHECK(expr_of("True") == "True");
    CHECK(expr_of("None") == "None");
    CHECK(expr_of("1_000") == "1000");
    CHECK(expr_of("2.5") == "2.5f");
    CHECK(expr_of("'a' \"b\"") == "\"ab\"");
}

TEST_CASE("f-strings: fields are parsed expressions, with specs and conversions") {
    CHECK(expr_of("f\"step {i}: loss={loss:.4f}\"") == "(f \"step \" {i} \": loss=\" {loss:.4f})");
    CHECK(expr_of("f'{a + b:>8}'") == "(f {(+ a b):>8})");
    CHECK(expr_of("f'{{x}} {x}'") == "(f \"{x} \" {x})");
    CHECK(expr_of("f'{x[1:2]}'") == "(f {(index x (slice 1 2 _))})");
    CHECK(expr_of("f'{d[\"k\"]}'") == "(f {(index d \"k\")})");
    CHECK(expr_of("f'{x!r}'") == "(f {(call repr x)})");
    CHECK(expr_of("'a' f'{x}' 'b'") == "(f \"a\" {x} \"b\")");
    CHECK(expr_of("f'{x:.3e}'") == "(f {x:.3e})");
    CHECK(expr_of("f''") == "(f)");
}

TEST_CASE("locations of expressions follow docs/language.md, Errors") {
    using namespace tg::lang;
    auto r = tg::lang::test::parse_text("y = relu(x @ w1 + b1)\nz = a.f(1)[2]\n");
    REQUIRE(r.ok());
    const auto& call = r.module->body[0]->as<Assign>().value->as<Call>();
    CHECK(call.loc == Loc{1, 5});  // a call: the callee's name
    const auto& add = call.args[0]->as<Binary>();
    CHECK(add.loc == Loc{1, 17});  // an operation: its operator
    CHECK(add.lhs->loc == Loc{1, 12});
    const auto& index = r.module->body[1]->as<Assign>().value->as<Index>();
    CHECK(index.loc == Loc{2, 11});  // an index: its '['
    const auto& method = index.value->as<Call>();
    CHECK(method.loc == Loc{2, 7});  // x.f(...): at f
    CHECK(method.callee->loc == Loc{2, 7});
}

TEST_CASE("f-string fields keep their real source locations") {
    using namespace tg::lang;
    auto r = tg::lang::test::parse_text("print(f\"a {x / y}\")\n");
    REQUIRE(r.ok());
    const auto& f = r.module->body[0]->as<ExprStmt>().expr->as<Call>().args[0]->as<FString>();
    REQUIRE(f.parts.size() == 2);
    CHECK(f.parts[1].expr->loc == Loc{1, 14});
}
