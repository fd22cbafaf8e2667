// Function bodies compiled to body code (interp/body_code.hpp): what is
// compiled, what is handed to the tree walker, and that calls run it (and
// tracing does not). What it computes is checked by the script tests
// (tests/scripts/pylang2/body_code.tg against CPython, and
// tests/scripts/body_errors/ against the tree walker's errors).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "interp/body_code.hpp"
#include "interp/runtime.hpp"
#include "tests/interp/resolved_chunk.hpp"

using namespace tg;
using interp::BodyCode;
using Op = interp::BodyCode::Instr::Op;

namespace {
struct Chunk : testing::ResolvedChunk {
    using ResolvedChunk::ResolvedChunk;
    const interp::FunctionFacts& facts(size_t i) const {
        return static_cast<const interp::FunctionFacts&>(*def(i).info);
    }
    const BodyCode* code(size_t i) const { return interp::body_code_of(facts(i), def(i).body); }
};

std::vector<Op> ops(const BodyCode& code) {
    std::vector<Op> out;
    for (const auto& in : code.code) out.push_back(in.op);
    return out;
}

int count_of(const BodyCode& code, Op op) {
    int n = 0;
    for (const auto& in : code.code) n += in.op == op;
    return n;
}
}  // namespace

TEST_CASE("a recursive function is jumps, arithmetic on its variables and calls into temporaries") {
    Chunk c("def fib(n):\n"
            "    if n < 2:\n"
            "        return n\n"
            "    return fib(n - 1) + fib(n - 2)\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    const std::vector<Op> want = {Op::Line, Op::JumpOnCompare, Op::Line, Op::Return,  // if n < 2: return n
                                  Op::Line, Op::Copy,   Op::Binary, Op::Call,  // fib(n - 1): callee, argument, call
                                  Op::Copy, Op::Binary, Op::Call,              // fib(n - 2)
                                  Op::Binary, Op::Return, Op::End};
    CHECK(ops(*code) == want);
    CHECK(code->code[1].target == 4);  // the `if`'s jump lands on the next statement
    CHECK(code->code[1].x.kind == BodyCode::Operand::Local);  // `n < 2` reads n in place
    CHECK(code->code[1].y.kind == BodyCode::Operand::Const);
    CHECK(code->code[3].x.kind == BodyCode::Operand::Local);  // `return n` too
    CHECK(code->loops == 0);
    CHECK(code->temps == 4);  // the sum, each call's callee and its argument
    CHECK(c.code(0) == code);  // compiled once
}

TEST_CASE("a tuple display of literals is one constant made when the body is compiled") {
    Chunk c("def leaf(d):\n"
            "    if d == 0:\n"
            "        return (None, None)\n"
            "    return (d, None)\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(ops(*code) == std::vector<Op>{Op::Line, Op::JumpOnCompare, Op::Line, Op::Return, Op::Line, Op::Copy,
                                        Op::Copy, Op::Sequence, Op::Return, Op::End});
    const auto& leaf = code->code[3].x;  // `return (None, None)`: the constant, read in place
    REQUIRE(leaf.kind == BodyCode::Operand::Const);
    const interp::Value& v = code->consts[leaf.index];
    REQUIRE(v.is(interp::Kind::Tuple));
    CHECK(v.items().size() == 2);
    REQUIRE(code->code[7].op == Op::Sequence);  // `(d, None)` holds a variable: made at each return
    CHECK(code->code[7].expr->kind == lang::ExprKind::Tuple);
}

TEST_CASE("items of variables, negations and small displays of them are body code") {
    Chunk c("def key(r, xs, k):\n"
            "    return (-r['salary'], r['name'], xs[k], -k)\n"   // Item, Negate (of an Item, of a variable), Sequence
            "    return [a, b, c, d, e]\n"                         // five items: the walker's display
            "    return (-(k + 1), xs[k + 1])\n"                   // a negation of arithmetic, an item by it: Evals
            "    return f(r['id'])\n");                            // an item as an argument
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(ops(*code) == std::vector<Op>{Op::Line, Op::Item, Op::Negate, Op::Item, Op::Item, Op::Negate, Op::Sequence,
                                        Op::Return,                                // the first return
                                        Op::Line, Op::Eval, Op::Return,            // [a, b, c, d, e]
                                        Op::Line, Op::Eval, Op::Return,            // (-(k + 1), xs[k + 1])
                                        Op::Line, Op::Copy, Op::Item, Op::Call, Op::Return, Op::End});
    CHECK(code->code[1].x.kind == BodyCode::Operand::Local);  // r read in place
    CHECK(code->code[1].y.kind == BodyCode::Operand::Const);  // 'salary'
    CHECK(code->code[2].x.kind == BodyCode::Operand::Temp);   // -(the item)
    CHECK(code->code[5].x.kind == BodyCode::Operand::Local);  // -k reads k in place
}

TEST_CASE("statements body code does not compile are handed to the tree walker whole") {
    Chunk c("def f(xs, d):\n"
            "    xs[0] = -len(d)\n"       // a negation (no scalar program) stored in a list's item
            "    d['k'] += len(d)\n"      // an augmented assignment of an item by a call
            "    assert xs\n"
            "    del d['k']\n"
            "    xs\n"                    // an expression statement that is not a call
            "    a, b = 1, 2\n"           // unpacking into locals: its value body code's, stored by Unpack
            "    xs[0], b = 1, 2\n"       // unpacking into an item: its stores assign()'s
            "    return xs\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(count_of(*code, Op::Stmt) == 5);
    CHECK(count_of(*code, Op::Unpack) == 1);
    CHECK(count_of(*code, Op::Assign) == 1);
}

TEST_CASE("x = v is stored by body code, arithmetic computed into the variable in place") {
    Chunk c("def f(xs, d, k):\n"
            "    a = xs[1:]\n"       // a slice: body code's value, stored
            "    b = d['key']\n"     // an item of a variable: LoadItem (a dict's at once)
            "    e = [a, b]\n"       // a display
            "    g = a\n"            // a variable
            "    t = xs[k]\n"        // LoadItem too: a list's item at once, at run time
            "    z = t * 2 + k\n"    // arithmetic: StoreScalar (the walker's statement when it gives up)
            "    z = len(xs) + k\n"  // arithmetic on a call: no scalar program, body code's Binary, stored
            "    return z\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(count_of(*code, Op::Store) == 4);
    CHECK(count_of(*code, Op::LoadItem) == 2);
    CHECK(count_of(*code, Op::StoreScalar) == 1);
    CHECK(count_of(*code, Op::Stmt) == 0);
    for (const auto& in : code->code) {
        if (in.op == Op::LoadItem) CHECK(in.stmt != nullptr);  // (what runs when there is no such item)
        if (in.op == Op::StoreScalar) {
            CHECK(in.stmt != nullptr);  // (what runs when the program gives up)
            CHECK(in.name->id == "z");
        }
    }
}

TEST_CASE("d[k] = v and k in d are body code, a number computed into an item in place") {
    Chunk c("def f(xs, d, k, s):\n"
            "    d[k] = 1\n"                 // StoreItem, the value read in place
            "    d['n'] = s.upper()\n"       // StoreItem of a method call's value
            "    d[k] = d.get(k, 0) + 1\n"   // arithmetic on a call: no number computed in place
            "    xs[0] = xs[1] * 2\n"        // StoreNumber: arithmetic's number into the item
            "    xs[k + 1] = xs[-1]\n"       // StoreNumber: an item's number, by computed keys
            "    xs[k + 1] = 0\n"            // StoreNumber: a literal's number
            "    xs[len(xs) - 1] = k * 2\n"  // a key that calls: the walker's
            "    b = k in d\n"               // Member, stored
            "    if k not in d:\n"           // JumpOnMember
            "        return b\n"
            "    return s in xs\n");         // Member (a list: the walker's eval at run time)
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(count_of(*code, Op::StoreItem) == 3);
    CHECK(count_of(*code, Op::StoreNumber) == 3);
    CHECK(count_of(*code, Op::Stmt) == 1);
    CHECK(count_of(*code, Op::Member) == 2);
    CHECK(count_of(*code, Op::JumpOnMember) == 1);
    const auto& first = code->code[1];  // `d[k] = 1`
    REQUIRE(first.op == Op::StoreItem);
    CHECK(first.x.kind == BodyCode::Operand::Const);
    CHECK(first.y.kind == BodyCode::Operand::Local);
    CHECK(first.expr->kind == lang::ExprKind::Index);  // (what assign() stores into otherwise)
    CHECK(first.name->id == "d");
}

TEST_CASE("a condition that is an item of a variable jumps on the item's truth") {
    Chunk c("def f(flags, t, i):\n"
            "    if flags[i] or not t[0]:\n"  // two JumpOnItem, the second's truth inverted
            "        return 1\n"
            "    while flags[i + 1]:\n"       // a key that is not a variable or a literal: JumpOnTruth
            "        i += 1\n"
            "    return 0\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(count_of(*code, Op::JumpOnItem) == 2);
    CHECK(count_of(*code, Op::JumpOnTruth) == 1);
    const auto& first = code->code[1];
    REQUIRE(first.op == Op::JumpOnItem);
    CHECK(first.when);  // `or`: its left operand jumps into the body when it holds
    CHECK(first.x.kind == BodyCode::Operand::Local);
    CHECK(first.y.kind == BodyCode::Operand::Local);
    REQUIRE(code->code[2].op == Op::JumpOnItem);
    CHECK(code->code[2].when);  // `not t[0]` fails when t[0] holds: then past the body
}

TEST_CASE("xs[k] op= v computes a number into the item when v runs no code") {
    Chunk c("def f(xs, k, a, b):\n"
            "    xs[k] += 1\n"          // AugItem, a literal
            "    xs[0] *= a\n"          // AugItem, a variable
            "    xs[k] -= a * b + 1\n"  // AugItem, the resolver's scalar program
            "    xs[k] += f(a)\n"       // a call: the walker's statement
            "    xs[k + 1] += 1\n"      // a key that is not a variable or a literal: the walker's
            "    return xs\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(count_of(*code, Op::AugItem) == 3);
    CHECK(count_of(*code, Op::Stmt) == 2);
    for (const auto& in : code->code)
        if (in.op == Op::AugItem) CHECK(in.stmt != nullptr);  // (what runs when it is not a number in a list)
    CHECK(code->code[1].x.kind == BodyCode::Operand::Const);
    CHECK(code->code[3].x.kind == BodyCode::Operand::Local);
    CHECK(code->code[5].x.kind == BodyCode::Operand::Temp);  // (none: the scalar program of `expr`)
}

TEST_CASE("a call as a statement is evaluated and its value dropped") {
    Chunk c("def f(xs):\n"
            "    xs.append(3)\n"
            "    print(xs)\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(ops(*code) == std::vector<Op>{Op::Line, Op::MethodReceiver, Op::Copy, Op::MethodCall, Op::Jump,  // a method
                                        Op::Eval, Op::Discard,  // (its receiver without the method: the walker's eval)
                                        Op::Line, Op::CallBuiltin, Op::Discard,  // a builtin on a variable
                                        Op::End});
}

TEST_CASE("a builtin on variables or literals is one instruction reading them in place") {
    Chunk c("def f(xs, a):\n"
            "    n = len(xs)\n"
            "    m = max(a, 3)\n"
            "    return abs(n - m)\n");
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(ops(*code) == std::vector<Op>{Op::Line, Op::CallBuiltin, Op::Store,  // len(xs)
                                        Op::Line, Op::CallBuiltin, Op::Store,  // max(a, 3): two operands
                                        Op::Line, Op::Copy, Op::Binary, Op::Call, Op::Return,  // (an argument computed)
                                        Op::End});
    CHECK_FALSE(code->code[1].when);  // one argument
    CHECK(code->code[1].x.kind == BodyCode::Operand::Local);
    CHECK(code->code[4].when);  // two
    CHECK(code->code[4].y.kind == BodyCode::Operand::Const);
}

TEST_CASE("a slice of a variable by bounds that run no code is one instruction") {
    Chunk c("def f(s, i, k):\n"
            "    a = s[i:i + k]\n"
            "    b = s[1:]\n"
            "    return s[:f(s, 0, 1)]\n");  // (a bound that calls: the walker's subscript)
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(ops(*code) == std::vector<Op>{Op::Line, Op::SliceOf, Op::Store, Op::Line, Op::SliceOf, Op::Store,
                                        Op::Line, Op::Eval, Op::Return, Op::End});
    CHECK(code->code[1].x.kind == BodyCode::Operand::Local);  // s read in place
}

TEST_CASE("a closure reads its enclosing function's variables in place, a lambda's body is body code") {
    Chunk c("def outer(k, g):\n"
            "    def inner(x):\n"
            "        return g(x, k)\n"
            "    return inner\n"
            "h = lambda x: x * 2\n");
    const auto& inner = c.def(0).body[0]->as<lang::FunctionDef>();
    const BodyCode* code = interp::body_code_of(static_cast<const interp::FunctionFacts&>(*inner.info), inner.body);
    REQUIRE(code != nullptr);
    CHECK(ops(*code) == std::vector<Op>{Op::Line, Op::Copy, Op::Copy, Op::Copy, Op::Call, Op::Return, Op::End});
    CHECK(code->code[1].x.kind == BodyCode::Operand::Enclosing);  // the callee g
    CHECK(code->code[2].x.kind == BodyCode::Operand::Local);      // x
    CHECK(code->code[3].x.kind == BodyCode::Operand::Enclosing);  // k
    CHECK_FALSE(code->lambda);
    const auto& lambda = c.parsed.module->body[1]->as<lang::Assign>().value->as<lang::Lambda>();
    const BodyCode* body = interp::body_code_of(static_cast<const interp::FunctionFacts&>(*lambda.info), *lambda.body);
    REQUIRE(body != nullptr);
    CHECK(ops(*body) == std::vector<Op>{Op::Binary, Op::Return, Op::End});  // no Line: a lambda has no statement
    CHECK(body->lambda);
    CHECK(body->entry == lambda.body->loc);
}

TEST_CASE("a method call on a variable is body code, other attribute calls are the walker's") {
    Chunk c("def f(xs, s, m):\n"
            "    xs.append(s.upper())\n"  // append on a local: MethodCall appends itself
            "    n = xs.count(1)\n"
            "    t = m.floor(2.5)\n"         // not a method of any kind: the walker's
            "    u = xs[0].upper()\n"        // a receiver that is not a variable: the walker's
            "    return s.split(',', maxsplit=1)\n");  // a keyword: the walker's
    const BodyCode* code = c.code(0);
    REQUIRE(code != nullptr);
    CHECK(count_of(*code, Op::MethodReceiver) == 3);
    CHECK(count_of(*code, Op::MethodCall) == 3);
    int appends = 0;
    for (const auto& in : code->code) {
        if (in.op == Op::MethodReceiver) CHECK(code->code[in.target].op == Op::Eval);  // its fallback
        if (in.op == Op::MethodCall && in.name) ++appends;
    }
    CHECK(appends == 1);
    CHECK(count_of(*code, Op::Eval) == 3 + 3);  // the fallbacks, and m.floor, xs[0].upper, s.split
}

TEST_CASE("loops and temporaries beyond what body code holds") {
    Chunk c("def deep():\n"
            "    for a in range(1):\n"
            "        for b in range(1):\n"
            "            for c in range(1):\n"
            "                for d in range(1):\n"
            "                    for e in range(1):\n"
            "                        pass\n"
            "def wide(f):\n"
            "    return f(1, f(2, f(3, f(4, 5))))\n"
            "def args(f):\n"
            "    return f(1, 2, 3, 4, 5, 6, 7)\n");
    const BodyCode* deep = c.code(0);
    REQUIRE(deep != nullptr);
    CHECK(deep->loops == BodyCode::kMaxLoops);
    CHECK(count_of(*deep, Op::Stmt) == 1);  // the fifth loop, run by the walker
    const BodyCode* wide = c.code(1);
    REQUIRE(wide != nullptr);  // the statement that needs more temporaries is the walker's, alone
    CHECK(ops(*wide) == std::vector<Op>{Op::Line, Op::Stmt, Op::End});
    CHECK(wide->temps <= BodyCode::kMaxTemps);
    const BodyCode* args = c.code(2);
    REQUIRE(args != nullptr);  // a call with too many arguments is evaluated by the walker
    CHECK(ops(*args) == std::vector<Op>{Op::Line, Op::Eval, Op::Return, Op::End});
}

TEST_CASE("calls run body code, a traced call does not compile it") {
    interp::Runtime rt{interp::Options{}};
    interp::StackGuard guard(rt);
    rt.run_chunk(rt.main_module(), std::make_shared<lang::Source>("t.tg",
                                                                  "def sq(x):\n"
                                                                  "    return x * x\n"
                                                                  "@graph\n"
                                                                  "def g(x):\n"
                                                                  "    return x + 1\n"
                                                                  "y = sq(3) + g(zeros(2)).sum()\n"));
    const interp::ModuleState& m = rt.main_module();
    auto facts = [&](const char* name) {
        const interp::Value& v = m.globals[static_cast<size_t>(m.find(name))];
        return static_cast<const interp::FunctionFacts*>(v.function().info);
    };
    CHECK(facts("sq")->body_code.tried());
    CHECK(facts("sq")->body_code.code() != nullptr);
    CHECK_FALSE(facts("g")->body_code.tried());
}

namespace {
// Runs `text` as a script and returns its global `name` (an int).
int64_t run_for_int(const std::string& text, const char* name) {
    interp::Runtime rt{interp::Options{}};
    interp::StackGuard guard(rt);
    rt.run_chunk(rt.main_module(), std::make_shared<lang::Source>("t.tg", text));
    const interp::ModuleState& m = rt.main_module();
    const interp::Value& v = m.globals[static_cast<size_t>(m.find(name))];
    REQUIRE(v.scalar() != nullptr);
    return v.scalar()->i;
}
}  // namespace

TEST_CASE("variables and constants past an operand's 16-bit index are not read from a wrapped slot") {
    // 70,000 globals: g69999's slot is past an operand's index (it would wrap to g4463's)
    std::string text;
    for (int i = 0; i < 70000; ++i) text += "g" + std::to_string(i) + " = " + std::to_string(i) + "\n";
    text += "def f():\n"
            "    if g69999 > g1:\n"
            "        return g69999 - g1\n"
            "    return -1\n"
            "r = f()\n";
    CHECK(run_for_int(text, "r") == 69998);
    // 70,000 different literals in one body: more constants than an operand can index
    std::string many = "def h():\n    x = 0\n";
    for (int i = 1; i <= 70000; ++i) many += "    x += " + std::to_string(i) + "\n";
    many += "    return x\nr = h()\n";
    CHECK(run_for_int(many, "r") == int64_t{70000} * 70001 / 2);
}
