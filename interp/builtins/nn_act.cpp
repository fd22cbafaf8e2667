// The activation functions of docs/builtins.md ("Neural networks") that
// PyTorch's torch.nn.functional has and the op table does not (relu,
// sigmoid, tanh, softplus, gelu are table ops); each is a
// composition of table ops (interp/builtins/compose.hpp) with PyTorch's
// formula and arguments.
#include <cmath>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

namespace {

using stdlib::Shape;
using stdlib::UnaryKind;

// An activation of x with its numeric parameters (name, default).
struct Param {
    const char* name;
    double value;
};
using ActFn = Value (*)(Compose&, const Value& x, const std::vector<Value>& p);

Value activation(Runtime& rt, const CallArgs& a, const std::string& fn, const std::vector<Param>& params, ActFn f) {
    std::vector<std::string_view> names{"x"};
    for (const Param& p : params) names.push_back(p.name);
    std::vector<Value> values;
    const auto args = bind_args(fn, a, names, 1);
    size_t i = 1;
    for (const Param& p : params) {
        const Value* v = args[i++];
        values.push_back(v ? tensor_operand(*v, fn + ": argument `" + p.name + "`") : Compose::num(p.value));
    }
    Compose c{rt};
    return f(c, tensor_operand(*args[0], fn + ": argument `x`"), values);
}

Value expm1(Compose& c, const Value& x) { return c.un(UnaryKind::Expm1, x); }
Value positive_or(Compose& c, const Value& x, const Value& otherwise) {
    return c.where(c.gt(x, Compose::num(0.0)), x, otherwise);
}
// relu6(x + 3) / 6
Value hard_sigmoid(Compose& c, const Value& x) {
    return c.div(c.clip(c.add(x, Compose::num(3.0)), Compose::num(0.0), Compose::num(6.0)), Compose::num(6.0));
}

// PyTorch's SELU constants
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

}  // namespace

void add_nn_act_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const char* name, std::initializer_list<Param> params, ActFn f) {
        std::vector<Param> ps(params);
        BuiltinFn fn = [name, ps, f](Runtime& rt, const CallArgs& a) { return activation(rt, a, name, ps, f); };
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), nullptr})));
    };
    add("leaky_relu", {{"negative_slope", 0.01}},
        [](Compose& c, const Value& x, const std::vector<Value>& p) { return positive_or(c, x, c.mul(x, p[0])); });
    add("elu", {{"alpha", 1.0}},
        [](Compose& c, const Value& x, const std::vector<Value>& p) { return positive_or(c, x, c.mul(p[0], expm1(c, x))); });
    add("celu", {{"alpha", 1.0}}, [](Compose& c, const Value& x, const std::vector<Value>& p) {
        return positive_or(c, x, c.mul(p[0], expm1(c, c.div(x, p[0]))));
    });
    add("selu", {}, [](Compose& c, const Value& x, const std::vector<Value>&) {
        return c.mul(Compose::num(kSeluScale), positive_or(c, x, c.mul(Compose::num(kSeluAlpha), expm1(c, x))));
    });
    add("silu", {}, [](Compose& c, const Value& x, const std::vector<Value>&) { return c.mul(x, c.un(UnaryKind::Sigmoid, x)); });
    add("mish", {}, [](Compose& c, const Value& x, const std::vector<Value>&) {
        return c.mul(x, c.un(UnaryKind::Tanh, c.un(UnaryKind::Softplus, x)));
    });
    add("hardtanh", {{"min_val", -1.0}, {"max_val", 1.0}},
        [](Compose& c, const Value& x, const std::vector<Value>& p) { return c.clip(x, p[0], p[1]); });
    add("relu6", {}, [](Compose& c, const Value& x, const std::vector<Value>&) {
        return c.clip(x, Compose::num(0.0), Compose::num(6.0));
    });
    add("hardsigmoid", {}, [](Compose& c, const Value& x, const std::vector<Value>&) { return hard_sigmoid(c, x); });
    add("hardswish", {}, [](Compose& c, const Value& x, const std::vector<Value>&) { return c.mul(x, hard_sigmoid(c, x)); });
    add("logsigmoid", {}, [](Compose& c, const Value& x, const std::vector<Value>&) {
        return c.un(UnaryKind::Neg, c.un(UnaryKind::Softplus, c.un(UnaryKind::Neg, x)));
    });
    add("softsign", {}, [](Compose& c, const Value& x, const std::vector<Value>&) {
        return c.div(x, c.add(Compose::num(1.0), c.un(UnaryKind::Abs, x)));
    });
    add("tanhshrink", {}, [](Compose& c, const Value& x, const std::vector<Value>&) { return c.sub(x, c.un(UnaryKind::Tanh, x)); });
}

}  // namespace tg::interp
