// The one dispatch point for every tensor operation (ARCHITECTURE.md, "one
// evaluator, two kinds of tensor").
//
// Operators (`a + b`, `-x`, `a < b`, `x[i]`), calls of builtins from the op
// table (`sum(x, axis=0)`, `x.reshape((2, 3))`) and dtype casts (`f64(x)`)
// all end here: the arguments are bound to the op's parameters (positional,
// keyword, defaults), converted (numbers and nested lists become tensors,
// static attributes are checked), and the eager kernel runs.
//
// Tracing: when any tensor operand is symbolic, this is where the op
// appends a graph node (using the op's shape rule) and returns a symbolic
// tensor instead of running the kernel. Nothing above this layer needs to
// know which kind of tensor it holds.
//
// Errors are thrown without a location (stdlib::OpError or an unlocated
// interp::Error); the evaluator attaches the location of the operation.
#pragma once

#include <span>
#include <string_view>

#include "interp/scalar_ops.hpp"
#include "interp/values/value.hpp"
#include "lang/ast.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

class Runtime;

enum class Level : uint8_t;  // interp/bind.hpp

// Calls a table op with call arguments (binding, conversion, then bind).
Value call_op(Runtime& rt, const stdlib::OpDef& op, const CallArgs& args);
// Applies a table op to operand values (in the op's input order: Tensor
// params, then TensorList items) with bound attributes, at the level its
// operands call for (interp/bind.hpp). The rules of autodiff apply ops through this.
Value run_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands, std::vector<stdlib::Attr> attrs);
// The op at a level chosen by choose_level (interp/bind.hpp): recorded on the
// tape, appended to the graph, or run now (operands converted with to_tensor).
Value bind_op(Runtime& rt, Level level, const stdlib::OpDef& op, std::span<const Value> operands,
           std::vector<stdlib::Attr> attrs);
// The level of an op on these operands: a tracked one, else (tracing) a
// symbolic one or an op with an effect, else eager.
Level operands_level(const Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands);
// An argument converted to a static attribute of the op's parameter p, as
// calls of the op convert it (pad's widths, an axis); errors begin with `what`.
stdlib::Attr op_attr(const Value& v, const stdlib::ParamDef& p, std::string_view what);
// Calls a table op on already-converted tensors and attributes.
Value apply_op(Runtime& rt, const stdlib::OpDef& op, std::span<const stdlib::Tensor> inputs,
               std::span<const stdlib::Attr> attrs);

// The scalar fast path of binary() and compare(): interp/scalar_ops.hpp.
// lang's operators onto stdlib's (MatMul is not a BinaryKind: it is the `matmul` op).
inline stdlib::BinaryKind binary_kind(lang::BinOp op) {
    using B = stdlib::BinaryKind;
    // (static: not built on the stack at every call)
    static constexpr B table[] = {B::Add, B::Sub, B::Mul, B::Div, B::FloorDiv, B::Mod, B::Pow,
                                  B::Add /* MatMul: unused */, B::BitAnd, B::BitOr, B::BitXor, B::LeftShift,
                                  B::RightShift};
    return table[static_cast<int>(op)];
}
// (inline, a table: a call per comparison was 1 % of a recursive call's instructions)
inline stdlib::BinaryKind compare_kind(lang::CmpOp op) {
    using B = stdlib::BinaryKind;
    // `in` / `is` are not element-wise (Evaluator::compare_values): Eq, never read for them
    static constexpr B table[] = {B::Eq, B::Ne, B::Lt, B::Le, B::Gt, B::Ge, B::Eq, B::Eq, B::Eq, B::Eq};
    static_assert(static_cast<int>(lang::CmpOp::IsNot) == 9);
    return table[static_cast<int>(op)];
}

// Operators of docs/language.md "Values" on any values (tensors, and + * == on lists, tuples, strings).
Value binary(Runtime& rt, lang::BinOp op, const Value& a, const Value& b);
Value compare(Runtime& rt, lang::CmpOp op, const Value& a, const Value& b);
Value unary(Runtime& rt, lang::UnaryOp op, const Value& a);  // not `not`: see control.hpp

// x[items] for tensors (views); x[items] = v (copy-on-write, v broadcast and cast).
// While tracing, `dynamic` (empty, or one per item) holds the symbolic value of
// each Int item whose index depends on tensor contents (others: Undefined).
Value index_tensor(Runtime& rt, const Value& x, std::span<const stdlib::IndexItem> items,
                   std::span<const Value> dynamic = {});
void assign_index_tensor(Runtime& rt, Value& x, std::span<const stdlib::IndexItem> items, const Value& v,
                         std::span<const Value> dynamic = {});
// While tracing: appends a node for `op` on the operands (symbolic or concrete tensors).
Value trace_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands, std::vector<stdlib::Attr> attrs);

// A value as a tensor operand: tensors as they are, numbers and nested
// lists/tuples through stdlib::tensor_from_nested. `what` names the function
// and argument in errors ("add: argument `b`").
stdlib::Tensor to_tensor(const Value& v, std::string_view what, std::optional<stdlib::DType> dtype = std::nullopt);
// A value as a static integer (0-d integer or bool tensor); error otherwise.
int64_t to_int(const Value& v, std::string_view what);
// A dtype argument: a dtype, or its name as tg or NumPy write it ("f8",
// "float64", "int32"); `what` names the function and argument in errors.
stdlib::DType dtype_value(const Value& v, std::string_view what);

// Structural equality (lists, tuples, strings, None, dtypes; tensors: same shape and values).
bool values_equal(Runtime& rt, const Value& a, const Value& b);

}  // namespace tg::interp
