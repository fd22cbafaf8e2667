// NumPy's quantile and percentile (the default "linear" method, with
// NumPy's two-sided interpolation), average (weights, returned), cov and
// corrcoef (docs/numpy.md). Compositions of table ops (sort, take, the
// reductions, matmul): they trace and differentiate as those ops; `q` and
// the shapes are static. Integers give f32 where NumPy gives f64.
#include <cmath>
#include <sstream>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using stdlib::BinaryKind;
using stdlib::ReduceKind;
using stdlib::Shape;
using stdlib::UnaryKind;

// q: a number, a list or tuple of numbers, or a concrete 0-d / 1-d tensor; scaled to [0, 1]
std::vector<double> q_values(const Value& v, const std::string& fn, double scale, bool& many) {
    const std::string what = arg(fn, "q");
    std::vector<double> out;
    many = v.is_sequence() || (v.is_tensor() && v.tensor_type().shape.rank() == 1);
    if (v.is_tensor() && v.tensor_type().shape.rank() == 1) {
        if (has_symbolic(v)) static_number(v, what);  // the static-argument error
        const stdlib::Tensor t = to_tensor(v, what, stdlib::DType::F64).contiguous();
        for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.data<double>()[i]);
    } else if (v.is_sequence()) {
        for (const Value& item : v.items()) out.push_back(static_number(item, what));
    } else {
        out.push_back(static_number(v, what));
    }
    for (double& q : out) {
        if (!(q >= 0 && q <= scale))
            throw Error(fn + ": `q` must be within [0, " + (scale == 1 ? std::string("1") : std::string("100")) + "], got " +
                        (std::ostringstream() << q).str());
        q /= scale;
    }
    return out;
}

// One quantile of the sorted xs along axis (kept, size 1): NumPy's _lerp
Value one_quantile(Compose& c, const Value& xs, int64_t axis, int64_t n, double q) {
    const double pos = q * static_cast<double>(n - 1);
    const int64_t lo = static_cast<int64_t>(std::floor(pos));
    const int64_t hi = std::min(lo + 1, n - 1);
    const double t = pos - static_cast<double>(lo);
    const Value a = c.take(xs, np::indices({lo}).tensor(), axis);
    const Value b = c.take(xs, np::indices({hi}).tensor(), axis);
    const Value diff = c.sub(b, a);
    return t >= 0.5 ? c.sub(b, c.mul(diff, Compose::num(1.0 - t))) : c.add(a, c.mul(diff, Compose::num(t)));
}

// quantile(x, q, axis=None, keepdims=False) and percentile (q in percent)
Value quantile(Runtime& rt, const CallArgs& ca, const std::string& fn, double scale) {
    const auto args = bind_args(fn, ca, {"x", "q", "axis", "keepdims"}, 2);
    Compose c{rt};
    Value x = tensor_operand(*args[0], arg(fn, "x"));
    x = np::astype(c, x, np::float_dtype(x));
    bool many = false;
    const std::vector<double> qs = q_values(*args[1], fn, scale, many);
    const bool keepdims = args[3] && static_bool(*args[3], arg(fn, "keepdims"));
    const Shape in = np::shape_of(x);
    int64_t axis = 0;
    if (is_none(args[2])) x = c.reshape(x, Shape{in.numel()});
    else axis = np::norm_axis(fn, to_int(*args[2], arg(fn, "axis")), in.rank());
    const int64_t n = np::shape_of(x)[static_cast<int>(axis)];
    if (n == 0) throw Error(fn + ": cannot take a quantile of an empty axis");
    const Value xs = c.op(stdlib::op_of(stdlib::OtherKind::Sort), {x}, {axis});
    const Value has_nan = np::reduce(c, ReduceKind::Any, c.un(UnaryKind::IsNan, x), axis, true);
    Shape kept = np::shape_of(has_nan), out;
    if (keepdims && is_none(args[2])) kept = Shape(std::vector<int64_t>(static_cast<size_t>(in.rank()), 1));
    for (int d = 0; d < kept.rank(); ++d)
        if (keepdims || d != axis) out.push_back(kept[d]);
    std::vector<Value> parts;
    for (double q : qs) {
        const Value r = c.where(has_nan, Compose::num(NAN), one_quantile(c, xs, axis, n, q));
        parts.push_back(c.reshape(r, out));
    }
    return many ? np::stack(c, parts, 0) : parts[0];
}

// average(x, axis=None, weights=None, returned=False, keepdims=False)
Value average(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "average";
    const auto args = bind_args(fn, ca, {"x", "axis", "weights", "returned", "keepdims"}, 1);
    Compose c{rt};
    Value x = tensor_operand(*args[0], arg(fn, "x"));
    x = np::astype(c, x, np::float_dtype(x));
    const stdlib::Attr axis = np::axis_attr(args[1], fn, np::rank_of(x));
    const bool returned = args[3] && static_bool(*args[3], arg(fn, "returned"));
    const bool keepdims = args[4] && static_bool(*args[4], arg(fn, "keepdims"));
    Value w = Value::weak_float(1.0);
    if (!is_none(args[2])) {
        w = tensor_operand(*args[2], arg(fn, "weights"));
        const Shape ws = np::shape_of(w), xs = np::shape_of(x);
        if (!(ws == xs)) {
            const auto* one = std::get_if<std::vector<int64_t>>(&axis);
            if (!one || one->size() != 1 || ws.rank() != 1 || ws[0] != xs[static_cast<int>((*one)[0])])
                throw Error(fn + ": weights of shape " + ws.to_string() + " do not match x of shape " + xs.to_string() +
                            "; 1-d weights need `axis` and the length of that axis");
            Shape s(std::vector<int64_t>(static_cast<size_t>(xs.rank()), 1));
            s[static_cast<int>((*one)[0])] = ws[0];
            w = c.reshape(w, s);
        }
    }
    const Value wb = np::broadcast(c, np::astype(c, c.mul(w, c.op(stdlib::op_of(stdlib::OtherKind::OnesLike), {x})),
                                                 np::float_dtype(x)), np::shape_of(x));
    const Value total = np::red(c, ReduceKind::Sum, wb, axis, keepdims);
    const Value avg = c.div(np::red(c, ReduceKind::Sum, c.mul(x, wb), axis, keepdims), total);
    if (!returned) return avg;
    return Value::tuple({avg, total});
}

// NumPy's cov: variables in rows (rowvar) or columns, y's appended; the
// deviations from each variable's mean, X @ X.T / (N - ddof); squeezed
Value cov_matrix(Compose& c, const std::vector<const Value*>& args, const std::string& fn, bool corr) {
    Value x = tensor_operand(*args[0], arg(fn, "m"));
    const bool rowvar = !args[2] || static_bool(*args[2], arg(fn, "rowvar"));
    auto rows = [&](Value v) {
        if (np::rank_of(v) > 2) throw Error(fn + ": needs 1-d or 2-d tensors, got shape " + np::shape_of(v).to_string());
        v = np::astype(c, v, np::float_dtype(v));
        if (np::rank_of(v) < 2) v = c.reshape(v, Shape{1, np::shape_of(v).numel()});
        return !rowvar && np::shape_of(v)[0] != 1 ? np::transpose(c, v, {1, 0}) : v;
    };
    x = rows(x);
    if (!is_none(args[1])) x = np::concat(c, {x, rows(tensor_operand(*args[1], arg(fn, "y")))}, 0);
    double ddof = 1;
    if (!corr) {
        if (args[3] && static_bool(*args[3], arg(fn, "bias"))) ddof = 0;
        if (!is_none(args[4])) ddof = static_number(*args[4], arg(fn, "ddof"));
    }
    const int64_t n = np::shape_of(x)[1];
    const Value dev = c.sub(x, c.mean(x, {1}, true));
    const Value m = c.div(np::matmul(c, dev, np::transpose(c, dev, {1, 0})), Compose::num(std::max(0.0, n - ddof)));
    if (!corr) return m;
    const Value sd = c.un(UnaryKind::Sqrt, c.op(stdlib::op_of(stdlib::OtherKind::Diag), {m}));
    const int64_t k = np::shape_of(sd)[0];
    const Value r = c.div(c.div(m, c.reshape(sd, Shape{k, 1})), c.reshape(sd, Shape{1, k}));
    return c.clip(r, Compose::num(-1.0), Compose::num(1.0));
}

Value cov(Runtime& rt, const CallArgs& ca, bool corr) {
    const std::string fn = corr ? "corrcoef" : "cov";
    const auto args = corr ? bind_args(fn, ca, {"m", "y", "rowvar"}, 1)
                           : bind_args(fn, ca, {"m", "y", "rowvar", "bias", "ddof"}, 1);
    std::vector<const Value*> all(args.begin(), args.end());
    all.resize(5, nullptr);
    Compose c{rt};
    const Value m = cov_matrix(c, all, fn, corr);
    return np::shape_of(m) == Shape{1, 1} ? c.reshape(m, Shape{}) : m;
}

}  // namespace

void add_np_quantile_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add(out, "quantile", [](Runtime& rt, const CallArgs& a) { return quantile(rt, a, "quantile", 1.0); });
    np::add(out, "percentile", [](Runtime& rt, const CallArgs& a) { return quantile(rt, a, "percentile", 100.0); });
    np::add(out, "average", average);
    np::add(out, "cov", [](Runtime& rt, const CallArgs& a) { return cov(rt, a, false); });
    np::add(out, "corrcoef", [](Runtime& rt, const CallArgs& a) { return cov(rt, a, true); });
}

}  // namespace tg::interp
