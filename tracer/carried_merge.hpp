// The merge rules of converted control flow (docs/graph.md "Static and dynamic"), for the values a
// carried variable has on the two paths of a `cond` or before and after an
// iteration of a `while`: how two tensor types join, and the one wording of
// every mismatch that stops the conversion. The conversion itself runs in
// interp/autograph*.cpp (it evaluates the bodies); what it may merge, and
// what it says when it may not, is decided here, once for both constructs.
#pragma once

#include <optional>
#include <string>

#include "stdlib/op_table.hpp"

namespace tg::tracer {

// The type of a variable that two paths (or two iterations) give the types
// a and b: equal dtypes join (weak only if both are); a weak literal and a
// strong tensor of the same kind (int literal and i32/i64, float literal
// and f32/f64) take the strong dtype, as eager's arithmetic would give the
// literal (docs/language.md "Values"). Anything else — two strong dtypes, a literal of another
// kind (an int literal that eager prints as `1` against an f32 tensor),
// different shapes — has no type: nullopt.
std::optional<stdlib::TensorType> join(const stdlib::TensorType& a, const stdlib::TensorType& b);

// Where two values of a variable come from.
enum class MergeSite {
    Branches,    // the two paths of a cond: "in one branch and ... in the other"
    Iterations,  // before and after a loop's body: "changes from ... to ..."
};

// How the two values of a variable differ: `a` describes the first (the
// then-branch, or the value before the iteration), `b` the second.
struct Mismatch {
    enum What {
        Kind,      // a, b: "a list", "a tuple"
        Length,    // of a list or tuple: "2", "3"
        Key,       // a dict key only one side has: a = the key's repr; b = "first" or "second" (who has it)
        KeyOrder,  // a, b: the keys in their orders
        Value,     // a static value: its text on each side
        DType,     // a, b: the dtypes (see dtype_desc)
        Shape,     // a, b: the shapes
    };
    What what;
    std::string a, b;
    std::string hint;  // appended after the location (DType: the literal hint)
};

// The mismatch of two tensor types that do not join (join() gave nullopt).
Mismatch type_mismatch(const stdlib::TensorType& a, const stdlib::TensorType& b);

// The conversion error's text for variable `var`: what differs, then
// `where` (" of the `if` at f.tg:3:5", " in the loop at ..."), then the hint.
std::string mismatch_message(const std::string& var, const Mismatch& m, MergeSite site, const std::string& where);

}  // namespace tg::tracer
