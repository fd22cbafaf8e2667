// Pure scalar expressions compiled once to a flat program.
//
// The loop `s = s + (i * i) % 7` spends most of its time walking the
// expression tree: a recursive call per node, each loading a variable
// through its scope, checking the native stack and promoting dtypes. When
// the resolver has seen an expression made only of local or global
// variables, int / float / bool literals, items of a list or tuple held in
// such a variable (`xs[i]`, `xs[i + 1]`), arithmetic (`+ - * / // % **`,
// and `& | ^ << >>` on ints) and
// single comparisons, it stores this program on the Binary / Compare node
// (lang::ExprCode): a postfix list of loads, constants and operators that
// runs in one loop over a small stack of unboxed Scalars.
//
// It computes exactly what Evaluator::eval_scalar computes (the same
// operands in the same order, the same scalar_binary), and it gives up in
// the same cases: an operand that is not a 0-d value, or a case
// scalar_binary does not cover. It also gives up on an unassigned variable,
// an item that is not a 0-d value, an index that is not an int or out of
// range: the general path then raises the error ("not defined", "out of
// range"), evaluating the expression again (it has no effects).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "interp/values/value.hpp"
#include "lang/ast.hpp"
#include "stdlib/op_kinds.hpp"

namespace tg::interp {

struct ScalarCode : lang::ExprCode {
    // The deepest operand stack a program may need; deeper expressions stay
    // with the tree walker.
    static constexpr int kMaxStack = 16;
    // A variable an operator reads itself, `var` (below): a local or a
    // global. Reading operands inside the operator, not pushing them first,
    // halves the ops of ordinary arithmetic (`zr * zr - zi * zi + cr`: 4,
    // not 9) — each op's dispatch and push cost as much as its arithmetic.
    struct Op {
        enum Kind : uint8_t {
            Local,      // push locals[slot]
            Global,     // push globals[slot]
            Enclosing,  // push slot `slot` of the frame `depth` levels out (a closure's variable)
            Const,      // push value
            Binary,     // pop y, pop x, push x <bin> y
            BinaryConst, // pop x, push x <bin> value (a literal right operand)
            BinaryVar,  // pop x, push x <bin> var(slot2)
            VarVar,     // push var(slot) <bin> var(slot2)
            LocalItem,  // pop k, push item k of the list or tuple in locals[slot]
            GlobalItem, // pop k, push item k of the list or tuple in globals[slot]
            VarItem,    // push item var(slot2) of the list or tuple in var(slot)
            End         // the program's end (the last op)
        } kind;
        stdlib::BinaryKind bin = stdlib::BinaryKind::Add;
        bool global = false, global2 = false;  // var(slot), var(slot2): a global, else a local
        int32_t slot = -1;
        int32_t slot2 = -1;
        uint16_t depth = 0;  // Enclosing
        Scalar value;
    };
    std::vector<Op> ops;
};

// The program for a resolved Binary or Compare expression, or null when it
// is not a pure scalar expression.
std::unique_ptr<lang::ExprCode> compile_scalar(const lang::Expr& e);

// The program the resolver stored on `e`, or null.
inline const ScalarCode* scalar_code_of(const lang::Expr& e) {
    const lang::ExprCode* c = e.kind == lang::ExprKind::Binary    ? e.as<lang::Binary>().code.get()
                              : e.kind == lang::ExprKind::Compare ? e.as<lang::Compare>().code.get()
                                                                  : nullptr;
    return static_cast<const ScalarCode*>(c);
}

// items[k] (k < 0 from the end), or null (out of range); the number it
// holds, or null (out of range, not a number): a scalar program's item,
// body code's item conditions, loads and `op=`.
inline const Value* item_in_range(std::span<const Value> items, int64_t k) {
    const int64_t n = static_cast<int64_t>(items.size());
    if (k < 0) k += n;
    return k >= 0 && k < n ? &items[static_cast<size_t>(k)] : nullptr;
}
inline const Scalar* scalar_at(std::span<const Value> items, int64_t k) {
    const Value* v = item_in_range(items, k);
    return v ? v->scalar() : nullptr;
}

// Runs `code` over the frame's locals (env; null at module level), the
// frames it is nested in and the module's globals. Returns false where
// eval_scalar would (the caller then evaluates the expression the general way).
bool run_scalar(const ScalarCode& code, const Env* env, const Value* globals, Scalar& out);

}  // namespace tg::interp
