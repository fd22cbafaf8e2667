// Writing a builtin as a composition of table ops (the neural-network
// functions of docs/builtins.md: batch_norm, dropout, interpolate, ...):
// each step is run_op, so the composition runs eagerly, traces into a graph
// and differentiates like the same lines written in tg; and the readers of
// static arguments, whose errors name the function and the argument.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

class Runtime;

struct Compose {
    Runtime& rt;

    // `def` on tensor operands `in` (its first parameters) with `attrs` for
    // the parameters after them; the rest take their defaults.
    Value op(const stdlib::OpDef& def, std::vector<Value> in, std::vector<stdlib::Attr> attrs = {});
    Value un(stdlib::UnaryKind k, const Value& x);
    Value bin(stdlib::BinaryKind k, const Value& a, const Value& b);
    Value add(const Value& a, const Value& b) { return bin(stdlib::BinaryKind::Add, a, b); }
    Value sub(const Value& a, const Value& b) { return bin(stdlib::BinaryKind::Sub, a, b); }
    Value mul(const Value& a, const Value& b) { return bin(stdlib::BinaryKind::Mul, a, b); }
    Value div(const Value& a, const Value& b) { return bin(stdlib::BinaryKind::Div, a, b); }
    Value gt(const Value& a, const Value& b) { return bin(stdlib::BinaryKind::Gt, a, b); }
    Value where(const Value& c, const Value& a, const Value& b);
    Value clip(const Value& x, const Value& lo, const Value& hi);
    Value reshape(const Value& x, const stdlib::Shape& s);
    Value mean(const Value& x, std::vector<int64_t> axes, bool keepdims);
    Value var(const Value& x, std::vector<int64_t> axes, bool keepdims);
    Value take(const Value& x, const stdlib::Tensor& idx, int64_t axis);
    static Value num(double v) { return Value::weak_float(v); }
};

// A tensor operand: numbers and nested lists are converted (as for table ops).
Value tensor_operand(const Value& v, const std::string& what);
// Static arguments (an error inside @graph when they depend on tensor
// contents). `what` is "fn: argument `name`".
bool static_bool(const Value& v, const std::string& what);
double static_number(const Value& v, const std::string& what);
// An int, or a tuple / list of `n` ints; an int is repeated n times.
std::vector<int64_t> static_ints(const Value& v, const std::string& what, size_t n);
// The text when v is a string, else nullopt.
std::optional<std::string> string_arg(const Value& v);
bool is_none(const Value* v);

}  // namespace tg::interp
