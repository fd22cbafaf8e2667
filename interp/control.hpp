// Control-flow seams: every truth test of a condition (if, elif, while, and,
// or, not, assert, x if c else y, comprehension filters) goes through
// truth(); every `for` loop and comprehension iterates through Iterable.
//
// Tracing: a symbolic condition or iterable never reaches these; the
// evaluator's statements hand it to the AutoGraph converter
// (interp/autograph*.cpp), which builds `cond` / `while` nodes (docs/graph.md "Static and dynamic").
#pragma once

#include <cstdint>

#include "interp/values/value.hpp"
#include "lang/ast.hpp"

namespace tg::interp {

class Runtime;

// The truth rules of docs/language.md "Values": a tensor with one element is true when
// nonzero (any other tensor is an error); lists, tuples and strings when
// non-empty; None is false; functions, dtypes and modules are true.
// Throws without a location; the caller locates the error at the condition.
bool truth(const Value& v);

// What a `for` loop walks: a list or a tuple (its items), a tensor (axis 0),
// a string (its characters). `range(...)` is iterated lazily by the
// evaluator and never materialized. The iterable is captured by value when
// the loop starts (value semantics: changing the variable inside the loop
// does not change what is iterated).
class Iterable {
public:
    // Throws (unlocated) if v is not iterable. `rt` records the items of a
    // tensor being differentiated on the tape, and iterates a symbolic
    // tensor while tracing (unrolled over its static axis 0).
    Iterable(Value v, Runtime& rt);
    int64_t size() const { return size_; }
    Value item(int64_t i) const;

private:
    Value v_;
    int64_t size_ = 0;
    Runtime* rt_;
};

// `for ... in range(...)`: the builtin range (not a variable of that name)
// as a loop's iterable, which the loop counts through without making a list.
bool is_range_call(const lang::Expr& e);

}  // namespace tg::interp
