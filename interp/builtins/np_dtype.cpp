// NumPy's dtype= of sum, prod, mean, cumsum, cumprod, var and std (docs/numpy.md): the
// dtype the elements are accumulated in and the result has
// (`sum(x_i32, dtype=f64)`, `x.cumsum(dtype=i32)`). Made of table ops — x
// cast to dtype, the op, its result cast to dtype — so it traces,
// differentiates and exports as they do:
//  * tg's sums and products of integers and bools give i64; the cast back
//    to i32 wraps as NumPy's accumulation in i32 does, and to bool gives
//    NumPy's logical or (sum, cumsum) and and (prod, cumprod);
//  * mean with an integer or bool dtype is NumPy's: the sum in dtype,
//    divided in f64, cast (truncated) to dtype;
//  * var and std take a float dtype only: NumPy's integer variance
//    truncates its mean and its result, rarely what anyone wants.
// dtype is a keyword (NumPy's third positional argument of sum is tg's
// keepdims); without it, or with dtype=None, the call is the builtin's own,
// with every argument form of the op (x.sum(0, 1), keepdims=...).
#include <algorithm>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

// The call's arguments without its `dtype` keyword.
struct WithoutDtype {
    std::vector<Value> positional, keyword_values;
    std::vector<KwArg> keywords;
    const Value* dtype = nullptr;

    explicit WithoutDtype(const CallArgs& a) : positional(a.positional.begin(), a.positional.end()) {
        for (size_t k = 0; k < a.keywords.size(); ++k) {
            if (a.keywords[k].name == "dtype") {
                dtype = &a.keyword_values[k];
                continue;
            }
            keywords.push_back(a.keywords[k]);
            keyword_values.push_back(a.keyword_values[k]);
        }
    }
    CallArgs args(const CallArgs& a) const { return CallArgs{positional, keyword_values, keywords, a.loc, a.method}; }
    // the tensor operand: the first positional argument, or x=
    Value* operand() {
        if (!positional.empty()) return &positional[0];
        for (size_t k = 0; k < keywords.size(); ++k)
            if (keywords[k].name == "x") return &keyword_values[k];
        return nullptr;
    }
};

// mean in an integer or bool dtype d of x (already cast to d): the sum in d, over the count, truncated to d
Value integer_mean(Runtime& rt, Compose& c, const CallArgs& rest, const Value& x, stdlib::DType d) {
    const Value s = np::astype(c, call_op(rt, stdlib::op_of(stdlib::ReduceKind::Sum), rest), d);
    const int64_t out = np::shape_of(s).numel();
    if (out == 0) return s;
    const Value quotient = c.div(np::astype(c, s, stdlib::DType::F64), Value::weak_int(np::shape_of(x).numel() / out));
    return np::astype(c, quotient, d);
}

Value with_dtype(Runtime& rt, const CallArgs& a, const std::string& fn, const BuiltinFn& plain) {
    WithoutDtype w(a);
    if (!w.dtype) {
        // sum(x, 0, f64): NumPy's positional dtype would land on another parameter (keepdims)
        for (size_t i = 1; i < a.positional.size(); ++i)
            if (a.positional[i].is(Kind::DType))
                throw Error(fn + ": takes the dtype by keyword only: write dtype=" +
                            stdlib::dtype_name(a.positional[i].dtype()));
        return plain(rt, a);
    }
    if (w.dtype->is(Kind::None)) return plain(rt, w.args(a));
    const stdlib::DType d = dtype_value(*w.dtype, np::arg(fn, "dtype"));
    if ((fn == "var" || fn == "std") && !stdlib::is_float(d))
        throw Error(fn + ": dtype= takes a float dtype (f32 or f64), not " + stdlib::dtype_name(d) +
                    " (an integer variance would truncate)");
    Value* x = w.operand();
    if (!x) return plain(rt, w.args(a));  // the builtin's error for its missing operand
    Compose c{rt};
    *x = np::astype(c, tensor_operand(*x, np::arg(fn, "x")), d);
    if (fn == "mean" && !stdlib::is_float(d)) return integer_mean(rt, c, w.args(a), *x, d);
    return np::astype(c, plain(rt, w.args(a)), d);
}

}  // namespace

void add_np_dtype_builtins(std::vector<std::pair<std::string, Value>>& out) {
    for (const std::string name : {"sum", "prod", "mean", "cumsum", "cumprod", "var", "std"}) {
        auto it = std::find_if(out.rbegin(), out.rend(), [&](const auto& e) { return e.first == name; });
        if (it == out.rend() || !it->second.is(Kind::Builtin)) throw Error("internal error: no builtin " + name);
        // the same builtin (its op, its method forms) with dtype= in front of its own function
        auto b = std::make_shared<BuiltinObj>(it->second.builtin());
        b->fn = [plain = b->fn, name](Runtime& rt, const CallArgs& a) { return with_dtype(rt, a, name, plain); };
        it->second = Value::builtin(std::move(b));
    }
}

}  // namespace tg::interp
