// NumPy's statistics and NaN-ignoring reductions (docs/numpy.md): nansum,
// nanmean, nanvar, nanstd, nanmax, nanmin, nanargmax, nanargmin, percentile,
// quantile (NumPy's default "linear" method), average (weights), ptp, cov,
// corrcoef. Compositions of table ops (where, the reductions): they trace and differentiate as those ops. Integers give f32
// where NumPy gives f64 (tg's rule for mean, docs/language.md).
#include <cmath>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using stdlib::Attr;
using stdlib::BinaryKind;
using stdlib::ReduceKind;
using stdlib::Shape;
using stdlib::UnaryKind;

using np::axis_attr;
using np::red;

bool floating(const Value& x) { return stdlib::is_float(x.tensor_type().dtype); }

struct NanArgs {
    Value x;
    Attr axis;
    bool keepdims = false;
    const Value* extra = nullptr;  // ddof
};

NanArgs nan_args(const std::string& fn, const CallArgs& a, bool ddof) {
    const auto args = ddof ? bind_args(fn, a, {"x", "axis", "keepdims", "ddof"}, 1)
                           : bind_args(fn, a, {"x", "axis", "keepdims"}, 1);
    NanArgs r;
    r.x = tensor_operand(*args[0], arg(fn, "x"));
    r.axis = axis_attr(args[1], fn, np::rank_of(r.x));
    r.keepdims = args[2] && static_bool(*args[2], arg(fn, "keepdims"));
    if (ddof) r.extra = args[3];
    return r;
}

Value not_nan_count(Compose& c, const Value& x, const Attr& axis, bool keepdims) {
    return np::astype(c, red(c, ReduceKind::Sum, c.un(UnaryKind::LogicalNot, c.un(UnaryKind::IsNan, x)), axis, keepdims),
                      np::float_dtype(x));
}

Value zero_nans(Compose& c, const Value& x, double with) {
    return floating(x) ? c.where(c.un(UnaryKind::IsNan, x), Compose::num(with), x) : x;
}

Value nansum(Compose& c, const NanArgs& n) { return red(c, ReduceKind::Sum, zero_nans(c, n.x, 0.0), n.axis, n.keepdims); }

Value nanmean(Compose& c, const NanArgs& n) {
    const Value x = np::astype(c, n.x, np::float_dtype(n.x));
    return c.div(red(c, ReduceKind::Sum, zero_nans(c, x, 0.0), n.axis, n.keepdims), not_nan_count(c, x, n.axis, n.keepdims));
}

// the squared deviations from the NaN-ignoring mean, over count - ddof
Value nanvar(Compose& c, const NanArgs& n, const std::string& fn) {
    const double ddof = n.extra && !is_none(n.extra) ? static_number(*n.extra, arg(fn, "ddof")) : 0.0;
    const Value x = np::astype(c, n.x, np::float_dtype(n.x));
    NanArgs kept = n;
    kept.x = x;
    kept.keepdims = true;
    const Value dev = c.sub(x, nanmean(c, kept));
    const Value ss = red(c, ReduceKind::Sum, zero_nans(c, c.mul(dev, dev), 0.0), n.axis, n.keepdims);
    const Value count = c.sub(not_nan_count(c, x, n.axis, n.keepdims), Compose::num(ddof));
    return c.div(ss, c.bin(BinaryKind::Maximum, count, Compose::num(0.0)));
}

// nanmax / nanmin: NaN counted as -inf / inf; a slice of only NaN gives NaN
Value nanextreme(Compose& c, const NanArgs& n, bool is_max) {
    if (!floating(n.x)) return red(c, is_max ? ReduceKind::Max : ReduceKind::Min, n.x, n.axis, n.keepdims);
    const Value r = red(c, is_max ? ReduceKind::Max : ReduceKind::Min, zero_nans(c, n.x, is_max ? -INFINITY : INFINITY),
                        n.axis, n.keepdims);
    const Value all_nan = red(c, ReduceKind::All, c.un(UnaryKind::IsNan, n.x), n.axis, n.keepdims);
    return c.where(all_nan, Compose::num(NAN), r);
}

// nanargmax / nanargmin: one axis or None; a slice of only NaN gives 0 (NumPy raises)
Value nanarg(Runtime& rt, const CallArgs& a, const std::string& fn, bool is_max) {
    const auto args = bind_args(fn, a, {"x", "axis", "keepdims"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    Attr axis = std::monostate{};
    if (!is_none(args[1])) axis = np::norm_axis(fn, to_int(*args[1], arg(fn, "axis")), np::rank_of(x));
    const bool keepdims = args[2] && static_bool(*args[2], arg(fn, "keepdims"));
    return red(c, is_max ? ReduceKind::Argmax : ReduceKind::Argmin, zero_nans(c, x, is_max ? -INFINITY : INFINITY), axis,
               keepdims);
}

Value ptp(Compose& c, const NanArgs& n) {
    return c.sub(red(c, ReduceKind::Max, n.x, n.axis, n.keepdims), red(c, ReduceKind::Min, n.x, n.axis, n.keepdims));
}

using NanFn = Value (*)(Compose&, const NanArgs&);

}  // namespace

void add_np_stats_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto nan = [&](const char* name, NanFn f) {
        np::add(out, name, [fn = std::string(name), f](Runtime& rt, const CallArgs& a) {
            Compose c{rt};
            return f(c, nan_args(fn, a, false));
        });
    };
    nan("nansum", nansum);
    nan("nanmean", nanmean);
    nan("nanmax", [](Compose& c, const NanArgs& n) { return nanextreme(c, n, true); });
    nan("nanmin", [](Compose& c, const NanArgs& n) { return nanextreme(c, n, false); });
    nan("ptp", ptp);
    np::add(out, "nanvar", [](Runtime& rt, const CallArgs& a) {
        Compose c{rt};
        return nanvar(c, nan_args("nanvar", a, true), "nanvar");
    });
    np::add(out, "nanstd", [](Runtime& rt, const CallArgs& a) {
        Compose c{rt};
        return c.un(UnaryKind::Sqrt, nanvar(c, nan_args("nanstd", a, true), "nanstd"));
    });
    np::add(out, "nanargmax", [](Runtime& rt, const CallArgs& a) { return nanarg(rt, a, "nanargmax", true); });
    np::add(out, "nanargmin", [](Runtime& rt, const CallArgs& a) { return nanarg(rt, a, "nanargmin", false); });
}

}  // namespace tg::interp
