// Builtins of docs/builtins.md made of table ops rather than being one: gelu's
// `approximate` keyword (it picks the table's gelu or gelu_tanh op),
// isclose and allclose (NumPy's formula in element-wise ops). Being ops of
// the table underneath, they trace, fuse, and differentiate like any code.
#include <cmath>
#include <optional>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

namespace {

using stdlib::Attr;
using stdlib::DType;

Value apply(Runtime& rt, const stdlib::OpDef& op, std::initializer_list<Value> operands) {
    const std::vector<Value> in(operands);
    return run_op(rt, op, in, std::vector<Attr>(op.params.size()));
}


Value gelu(Runtime& rt, const CallArgs& a) {
    const auto args = bind_args("gelu", a, {"x", "approximate"}, 1);
    bool approximate = false;
    if (const Value* v = args[1]) {
        if (has_symbolic(*v))
            throw Error("gelu: argument `approximate` must be static inside a @graph function, but it depends on the "
                        "contents of a tensor");
        if (!v->is_tensor() || v->tensor_type().shape.rank() != 0 || v->tensor_type().dtype != DType::Bool)
            throw Error("gelu: argument `approximate` must be True or False, not " + std::string(kind_name(v->kind())));
        approximate = v->tensor().item_bool();
    }
    const Value x = tensor_operand(*args[0], "gelu: argument `x`");
    return apply(rt, stdlib::op_of(approximate ? stdlib::UnaryKind::GeluTanh : stdlib::UnaryKind::Gelu), {x});
}

// round(x, decimals=0), NumPy's: floats are rint(x * 10^d) / 10^d in x's
// dtype (so round(2.675, 2) is 2.67, as NumPy); integers stay as they are
// for d >= 0 and round to a multiple of 10^-d (half to even) for d < 0.
Value round_decimals(Runtime& rt, const CallArgs& a) {
    const auto args = bind_args("round", a, {"x", "decimals"}, 1);
    const Value x = tensor_operand(*args[0], "round: argument `x`");
    const int64_t d = args[1] ? to_int(*args[1], "round: argument `decimals`") : 0;
    const stdlib::OpDef& round = stdlib::op_of(stdlib::UnaryKind::Round);
    if (d == 0) return apply(rt, round, {x});
    const stdlib::TensorType t = x.tensor_type();
    if (d > 308 || d < -308) throw Error("round: argument `decimals` must be within [-308, 308]");
    const bool integer = stdlib::is_int(t.dtype) || t.dtype == DType::Bool;
    if (integer && d > 0) return x;
    const Value scale = Value::weak_float(std::pow(10.0, static_cast<double>(std::abs(d))));
    const auto& mul = stdlib::op_of(stdlib::BinaryKind::Mul);
    const auto& div = stdlib::op_of(stdlib::BinaryKind::Div);
    if (!integer)
        return d > 0 ? apply(rt, div, {apply(rt, round, {apply(rt, mul, {x, scale})}), scale})
                     : apply(rt, mul, {apply(rt, round, {apply(rt, div, {x, scale})}), scale});
    // an integer to a multiple of 10^-d: in f64, then back to its dtype
    const Value xf = run_op(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), std::vector<Value>{x}, {std::monostate{}, DType::F64});
    const Value r = apply(rt, mul, {apply(rt, round, {apply(rt, div, {xf, scale})}), scale});
    return run_op(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), std::vector<Value>{r}, {std::monostate{}, t.dtype});
}

// NumPy's isclose: |a - b| <= atol + rtol * |b| where both are finite, a == b
// where not (equal infinities are close; NaN is never close). Computed in
// the promoted float dtype (bool and integers: f64, as NumPy); with
// equal_nan, NaN is close to NaN.
Value isclose(Runtime& rt, const std::string& fn, const CallArgs& a) {
    const auto args = bind_args(fn, a, {"a", "b", "rtol", "atol", "equal_nan"}, 2);
    const bool equal_nan = args[4] && static_bool(*args[4], fn + ": argument `equal_nan`");
    Value x = tensor_operand(*args[0], fn + ": argument `a`");
    Value y = tensor_operand(*args[1], fn + ": argument `b`");
    const Value rtol = args[2] ? tensor_operand(*args[2], fn + ": argument `rtol`") : Value::weak_float(1e-5);
    const Value atol = args[3] ? tensor_operand(*args[3], fn + ": argument `atol`") : Value::weak_float(1e-8);
    const stdlib::TensorType xt = x.tensor_type(), yt = y.tensor_type();
    DType d = stdlib::promote(xt.dtype, xt.weak, yt.dtype, yt.weak).dtype;
    if (!stdlib::is_float(d)) d = DType::F64;
    std::vector<Attr> cast_attrs = {std::monostate{}, d};
    auto to_d = [&](const Value& v, const stdlib::TensorType& t) {
        if (t.dtype == d && !t.weak) return v;
        const Value in[1] = {v};
        return run_op(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), in, cast_attrs);
    };
    x = to_d(x, xt);
    y = to_d(y, yt);
    const Value within = apply(rt, stdlib::op_of(stdlib::BinaryKind::Le), {apply(rt, stdlib::op_of(stdlib::UnaryKind::Abs), {apply(rt, stdlib::op_of(stdlib::BinaryKind::Sub), {x, y})}),
                                          apply(rt, stdlib::op_of(stdlib::BinaryKind::Add), {atol, apply(rt, stdlib::op_of(stdlib::BinaryKind::Mul), {rtol, apply(rt, stdlib::op_of(stdlib::UnaryKind::Abs), {y})})})});
    const Value finite = apply(rt, stdlib::op_of(stdlib::BinaryKind::BitAnd), {apply(rt, stdlib::op_of(stdlib::UnaryKind::IsFinite), {x}), apply(rt, stdlib::op_of(stdlib::UnaryKind::IsFinite), {y})});
    const Value close = apply(rt, stdlib::op_of(stdlib::ElementwiseKind::Where), {finite, within, apply(rt, stdlib::op_of(stdlib::BinaryKind::Eq), {x, y})});
    if (!equal_nan) return close;
    // with equal_nan, NaN is close to NaN
    const auto& isnan = stdlib::op_of(stdlib::UnaryKind::IsNan);
    const Value both = apply(rt, stdlib::op_of(stdlib::BinaryKind::BitAnd), {apply(rt, isnan, {x}), apply(rt, isnan, {y})});
    return apply(rt, stdlib::op_of(stdlib::BinaryKind::BitOr), {close, both});
}

}  // namespace

void add_math_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const std::string& name, BuiltinFn fn, const stdlib::OpDef* opdef = nullptr) {
        auto b = std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), opdef});
        b->adds_params = opdef != nullptr;  // the ops' builtins replaced here take more than their op
        out.emplace_back(name, Value::builtin(std::move(b)));
    };
    add("gelu", gelu, &stdlib::op_of(stdlib::UnaryKind::Gelu));  // replaces the table op's builtin: adds `approximate`
    add("round", round_decimals, &stdlib::op_of(stdlib::UnaryKind::Round));  // adds `decimals`
    add("isclose", [](Runtime& rt, const CallArgs& a) { return isclose(rt, "isclose", a); });
    add("allclose", [](Runtime& rt, const CallArgs& a) {
        const Value close = isclose(rt, "allclose", a);
        return run_op(rt, stdlib::op_of(stdlib::ReduceKind::All), std::span<const Value>(&close, 1), {std::monostate{}, std::monostate{}, false});
    });
}

}  // namespace tg::interp
