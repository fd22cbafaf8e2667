// The resolver compiles pure scalar expressions to flat programs
// (interp/scalar_code.hpp); they compute what the tree walker computes and
// give up where it gives up.
#include <doctest/doctest.h>

#include "interp/scalar_code.hpp"
#include "tests/interp/resolved_chunk.hpp"

using namespace tg;
using interp::Scalar;
using interp::ScalarCode;
using interp::Value;
using stdlib::DType;

namespace {
// Resolves `text` (top-level assignments) and returns the program of the
// value of statement `i`, or null.
struct Chunk : testing::ResolvedChunk {
    using ResolvedChunk::ResolvedChunk;
    const lang::Expr& value(size_t i) const { return *parsed.module->body[i]->as<lang::Assign>().value; }
    const ScalarCode* code(size_t i) const { return interp::scalar_code_of(value(i)); }
    Value& global(const char* name) {
        int slot = m.find(name);
        REQUIRE(slot >= 0);
        return m.globals[static_cast<size_t>(slot)];
    }
    bool run(size_t i, Scalar& out) { return interp::run_scalar(*code(i), nullptr, m.globals.data(), out); }
};
}  // namespace

TEST_CASE("pure scalar arithmetic and single comparisons are compiled, anything else is not") {
    Chunk c("s = 0\ni = 0\n"
            "s = s + (i * i) % 7\n"    // 2
            "t = i < 3\n"              // 3
            "t = i @ 2 + 1\n"          // 4: matmul is the general path's
            "t = len([1]) + i\n"       // 5: a call
            "t = print + 1\n"          // 6: a builtin name
            "t = 0 < i < 3\n"          // 7: a chain
            "t = i & 1\n"              // 8: bitwise, on ints (a float's is the general path's error)
            "t = i ** 2 >> 1\n");      // 9: a power, a shift
    const ScalarCode* loop = c.code(2);
    REQUIRE(loop != nullptr);
    // s; i * i (an operator reads two variables itself); % 7 (a literal
    // right operand is folded into its operator); +; the end
    REQUIRE(loop->ops.size() == 5);
    CHECK(loop->ops[0].kind == ScalarCode::Op::Global);
    CHECK(loop->ops[1].kind == ScalarCode::Op::VarVar);
    CHECK(loop->ops[2].kind == ScalarCode::Op::BinaryConst);
    CHECK(loop->ops[3].kind == ScalarCode::Op::Binary);
    CHECK(loop->ops[4].kind == ScalarCode::Op::End);
    for (size_t i : {3, 8, 9}) CHECK(c.code(i) != nullptr);
    for (size_t i : {4, 5, 6, 7}) CHECK(c.code(i) == nullptr);
}

TEST_CASE("a program computes what the general path computes, or gives up") {
    Chunk c("s = 0\ni = 0\ns = s + (i * i) % 7\nt = i < s\n");
    Scalar out;
    c.global("s") = Value::from_int(10);
    c.global("i") = Value::weak_int(-4);
    REQUIRE(c.run(2, out));
    CHECK(out.dtype == DType::I64);
    CHECK_FALSE(out.weak);       // s is a strong i64
    CHECK(out.i == 10 + 16 % 7);
    c.global("s") = Value(Scalar::of_int(INT64_MAX, DType::I64));
    REQUIRE(c.run(2, out));
    CHECK(out.i == INT64_MIN + 1);  // wraps
    REQUIRE(c.run(3, out));
    CHECK(out.dtype == DType::Bool);
    CHECK(out.i == 1);

    // an int with a float: stdlib::promote's result, as the general path
    c.global("s") = Value::from_int(10);
    c.global("i") = Value::weak_float(0.5);
    REQUIRE(c.run(2, out));
    CHECK(out.dtype == DType::F32);
    CHECK_FALSE(out.weak);
    CHECK(out.f == 10.25);
    // operands it does not cover: a bool, a tensor, an unassigned variable
    c.global("i") = Value::from_bool(true);
    CHECK_FALSE(c.run(2, out));
    c.global("i") = Value(stdlib::Tensor::zeros(DType::I64, {2}));
    CHECK_FALSE(c.run(2, out));
    c.global("i") = Value();
    CHECK_FALSE(c.run(2, out));
    // integer modulo by zero is the general path's error
    c.global("i") = Value::from_int(0);
    Chunk z("d = 0\nr = 5 % d\n");
    z.global("d") = Value::from_int(0);
    CHECK_FALSE(z.run(1, out));
}

TEST_CASE("an expression deeper than a program's stack stays with the tree walker") {
    std::string deep = "n = 1\nt = ";
    for (int i = 0; i < ScalarCode::kMaxStack + 2; ++i) deep += "1 + (";
    deep += "n";
    for (int i = 0; i < ScalarCode::kMaxStack + 2; ++i) deep += ")";
    deep += "\n";
    Chunk c(deep.c_str());
    CHECK(c.code(1) == nullptr);
}

TEST_CASE("operators that read their variables themselves compute what the general path computes, or give up") {
    Chunk c("xs = 0\ni = 0\ns = 0\n"
            "t = xs[i] - xs[i + 1]\n"  // 3: VarItem, then LocalItem of a computed index
            "t = (s + 1) * s\n"        // 4: BinaryVar
            "t = s * i\n");            // 5: VarVar
    using Op = ScalarCode::Op;
    REQUIRE(c.code(3) != nullptr);
    CHECK(c.code(3)->ops[0].kind == Op::VarItem);
    REQUIRE(c.code(4) != nullptr);
    CHECK(c.code(4)->ops[2].kind == Op::BinaryVar);
    REQUIRE(c.code(5) != nullptr);
    CHECK(c.code(5)->ops[0].kind == Op::VarVar);

    Scalar out;
    c.global("xs") = Value::list({Value(Scalar::of_float(2.5, DType::F64)), Value::from_int(1), Value::none()});
    c.global("i") = Value::from_int(-3);  // from the end, as the general path counts
    c.global("s") = Value::from_int(7);
    REQUIRE(c.run(3, out));
    CHECK(out.dtype == DType::F64);
    CHECK(out.f == 1.5);
    REQUIRE(c.run(4, out));
    CHECK(out.i == 56);
    REQUIRE(c.run(5, out));
    CHECK(out.i == -21);
    // an item that is not a number, an index out of range or not an int, an unassigned variable
    c.global("i") = Value::from_int(1);  // xs[2] is None
    CHECK_FALSE(c.run(3, out));
    c.global("i") = Value::from_int(3);
    CHECK_FALSE(c.run(3, out));
    c.global("i") = Value::weak_float(0.0);
    CHECK_FALSE(c.run(3, out));
    c.global("s") = Value();
    CHECK_FALSE(c.run(4, out));
    CHECK_FALSE(c.run(5, out));
    c.global("s") = Value::from_int(7);
    c.global("i") = Value::none();
    CHECK_FALSE(c.run(5, out));
}
