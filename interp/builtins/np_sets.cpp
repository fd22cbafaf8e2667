// NumPy's functions whose result shape depends on the data (docs/numpy.md):
// argwhere, one-argument where(c), intersect1d, union1d, setdiff1d. Like
// nonzero and unique they run eagerly only: inside @graph they are a trace
// error naming the function (run with --eager, or keep the shape static
// with where(c, a, b) and isin).
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/select_ops.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::rank_of;
using np::shape_of;
using stdlib::Shape;

std::vector<Value> nonzero_of(Runtime& rt, const Value& x, const std::string& fn) {
    np::eager_only(rt, fn);
    std::vector<Value> out;
    for (stdlib::Tensor& t : stdlib::nonzero(to_tensor(x, arg(fn, "x")))) out.push_back(Value(t));
    return out;
}

// argwhere(x): the indices of the nonzero elements, one row each, (N, x.ndim)
Value argwhere(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "argwhere";
    const auto args = bind_args(fn, ca, {"x"}, 1);
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    std::vector<Value> idx = nonzero_of(rt, x, fn);
    if (rank_of(x) == 0)  // NumPy: (1, 0) or (0, 0)
        return Value(stdlib::Tensor::zeros(stdlib::DType::I64, Shape{stdlib::truth(x.tensor()) ? 1 : 0, 0}));
    Compose c{rt};
    return np::stack(c, idx, 1);
}

// where(c) is nonzero(c); where(c, a, b) the table op
Value where(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "where";
    const auto args = bind_args(fn, ca, {"c", "a", "b"}, 1);
    if (!args[1] && !args[2]) return Value::tuple(nonzero_of(rt, *args[0], fn));
    if (!args[1] || !args[2]) throw Error(fn + ": give both `a` and `b`, or neither (where(c) is nonzero(c))");
    Compose c{rt};
    return c.where(*args[0], *args[1], *args[2]);
}

Value flat(Compose& c, const Value& x) { return c.reshape(x, Shape{shape_of(x).numel()}); }

Value unique_of(const Value& x) { return Value(stdlib::unique(x.tensor())); }

// x[mask] of a 1-d x and a concrete mask
Value select(Compose& c, const Value& x, const Value& mask) {
    return c.take(x, stdlib::nonzero(mask.tensor())[0], 0);
}

// intersect1d / union1d / setdiff1d(ar1, ar2, assume_unique=False): sorted, distinct, 1-d
Value set_op(Runtime& rt, const CallArgs& ca, const std::string& fn) {
    const auto args = fn == "union1d" ? bind_args(fn, ca, {"ar1", "ar2"}, 2)
                                      : bind_args(fn, ca, {"ar1", "ar2", "assume_unique"}, 2);
    np::eager_only(rt, fn);
    Compose c{rt};
    const Value a = flat(c, tensor_operand(*args[0], arg(fn, "ar1")));
    const Value b = flat(c, tensor_operand(*args[1], arg(fn, "ar2")));
    if (args.size() > 2 && args[2]) static_bool(*args[2], arg(fn, "assume_unique"));
    if (fn == "setdiff1d") {
        const Value u = unique_of(a);
        return select(c, u, c.un(stdlib::UnaryKind::LogicalNot, np::isin(c, u, b)));
    }
    const Value all = unique_of(np::concat(c, {a, b}, 0));
    if (fn == "union1d") return all;
    return select(c, all, c.bin(stdlib::BinaryKind::BitAnd, np::isin(c, all, a), np::isin(c, all, b)));
}

}  // namespace

void add_np_sets_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add(out, "argwhere", argwhere);
    auto w = std::make_shared<BuiltinObj>(BuiltinObj{"where", where, &stdlib::op_of(stdlib::ElementwiseKind::Where)});
    w->adds_params = true;  // replaces the table op's builtin: adds the one-argument form
    out.emplace_back("where", Value::builtin(std::move(w)));
    for (const char* name : {"intersect1d", "union1d", "setdiff1d"})
        np::add(out, name, [fn = std::string(name)](Runtime& rt, const CallArgs& a) { return set_op(rt, a, fn); });
}

}  // namespace tg::interp
