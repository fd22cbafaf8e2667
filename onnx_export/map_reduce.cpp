// Reductions. Every one reduces with keepdims and is reshaped to tg's result
// shape at the end (which also covers 0-d operands and keepdims=False).
// NaN propagates through max / min, argmax / argmin give the first NaN or
// the first of equal values (NumPy's), logsumexp is computed stably.
#include "onnx_export/mapping.hpp"

#include <algorithm>
#include <cmath>

namespace tg::onnx_export {

using stdlib::DType;
using stdlib::ReduceKind;

namespace {

// op(x) over axes, keeping them. Opset 17's ReduceSum takes the axes as an
// input, the others as an attribute.
std::string reduce(Emitter& e, const char* op, const std::string& x, const std::vector<int64_t>& axes) {
    if (axes.empty()) return x;
    if (std::string_view(op) == "ReduceSum")
        return e.op(op, {x, e.const_i64(axes)}).attr("keepdims", int64_t{1}).out;
    return e.op(op, {x}).attr("axes", axes).attr("keepdims", int64_t{1}).out;
}

// Max or min with NaN propagating, in dtype d.
std::string extreme(Emitter& e, const std::string& x, DType d, const std::vector<int64_t>& axes, bool is_max) {
    const char* op = is_max ? "ReduceMax" : "ReduceMin";
    if (d == DType::Bool) return e.cast(reduce(e, op, e.cast(x, d, DType::I32), axes), DType::I32, d);
    const std::string m = reduce(e, op, x, axes);
    if (!stdlib::is_float(d)) return m;
    const std::string nans = reduce(e, "ReduceMax", e.cast(e.op("IsNaN", {x}).out, DType::Bool, DType::I32), axes);
    const std::string any_nan = e.op("Greater", {nans, e.scalar(0, DType::I32)}).out;
    return e.where(any_nan, e.scalar(std::nan(""), d), m);
}

std::string arg_extreme(ApplyCtx& c, bool is_max) {
    Emitter& e = c.e;
    std::string x = c.in[0].name;
    DType d = c.in[0].storage;
    const int rank = c.in[0].type.shape.rank();
    int64_t axis = 0;
    if (std::holds_alternative<std::monostate>(c.attr(1))) {
        x = e.reshape(x, stdlib::Shape{c.in[0].type.shape.numel()});
    } else if (rank == 0) {
        x = e.reshape(x, stdlib::Shape{1});
    } else {
        axis = c.axes(1, rank)[0];
    }
    if (d == DType::Bool) {
        x = e.cast(x, d, DType::I32);
        d = DType::I32;
    }
    const char* op = is_max ? "ArgMax" : "ArgMin";
    auto arg = [&](const std::string& v, const char* which) {
        return e.op(which, {v}).attr("axis", axis).attr("keepdims", int64_t{1}).attr("select_last_index", int64_t{0}).out;
    };
    std::string r = arg(x, op);
    if (stdlib::is_float(d)) {  // the first NaN wins
        const std::string nan = e.cast(e.op("IsNaN", {x}).out, DType::Bool, DType::I32);
        const std::string any = e.op("Greater", {reduce(e, "ReduceMax", nan, {axis}), e.scalar(0, DType::I32)}).out;
        r = e.where(any, arg(nan, "ArgMax"), r);
    }
    return r;
}

// The reduced axes moved last and flattened, sorted (NaN last), and the
// middle element (or the mean of the middle two) taken; NaN if any is NaN.
std::string median(ApplyCtx& c, const std::vector<int64_t>& axes) {
    Emitter& e = c.e;
    const DType d = c.out_storage;
    const stdlib::Shape& xs = c.in[0].type.shape;
    std::vector<int64_t> perm;
    stdlib::Shape flat;
    int64_t m = 1;
    for (int a = 0; a < xs.rank(); ++a)
        if (std::find(axes.begin(), axes.end(), a) == axes.end()) {
            perm.push_back(a);
            flat.push_back(xs[a]);
        }
    for (int64_t a : axes) {
        perm.push_back(a);
        m *= xs[static_cast<int>(a)];
    }
    flat.push_back(m);
    std::string x = c.arg(0, d);
    if (xs.rank() > 0) x = e.op("Transpose", {x}).attr("perm", perm).out;
    x = e.reshape(x, flat);
    const int64_t last = flat.rank() - 1;
    const std::string sorted = e.op("GatherElements", {x, sorted_indices(e, x, d, last, m)}).attr("axis", last).out;
    auto at = [&](int64_t i) { return e.op("Gather", {sorted, e.const_i64({i})}).attr("axis", last).out; };
    std::string mid = at(m / 2);
    if (m % 2 == 0) mid = e.op("Div", {e.op("Add", {at(m / 2 - 1), mid}).out, e.scalar(2, d)}).out;
    const std::string nans = reduce(e, "ReduceMax", e.cast(e.op("IsNaN", {x}).out, DType::Bool, DType::I32), {last});
    return e.where(e.op("Greater", {nans, e.scalar(0, DType::I32)}).out, e.scalar(std::nan(""), d), mid);
}

}  // namespace

std::string map_reduce(ApplyCtx& c, ReduceKind k) {
    Emitter& e = c.e;
    const DType d = c.out_storage;
    const int rank = c.in[0].type.shape.rank();
    std::string result;
    if (k == ReduceKind::Argmax || k == ReduceKind::Argmin) {
        result = arg_extreme(c, k == ReduceKind::Argmax);
        return c.reshape_out(result);
    }
    std::vector<int64_t> axes = c.axes(1, rank);
    std::string x = c.in[0].name;
    DType xd = c.in[0].storage;
    switch (k) {
        case ReduceKind::Sum: result = reduce(e, "ReduceSum", c.arg(0, d), axes); break;
        case ReduceKind::Mean: result = reduce(e, "ReduceMean", c.arg(0, d), axes); break;
        case ReduceKind::Prod: result = reduce(e, "ReduceProd", c.arg(0, d), axes); break;
        case ReduceKind::Max: result = extreme(e, c.arg(0, d), d, axes, true); break;
        case ReduceKind::Min: result = extreme(e, c.arg(0, d), d, axes, false); break;
        case ReduceKind::Any:
        case ReduceKind::All: {
            const std::string nz = e.cast(e.nonzero(x, xd), DType::Bool, DType::I32);
            result = e.cast(reduce(e, k == ReduceKind::Any ? "ReduceMax" : "ReduceMin", nz, axes), DType::I32, DType::Bool);
            if (axes.empty()) result = e.nonzero(x, xd);
            break;
        }
        case ReduceKind::Logsumexp: {  // m + log(sum(exp(x - m))), m the max (0 where it is infinite)
            const std::string v = c.arg(0, d);
            const std::string m = reduce(e, "ReduceMax", v, axes);
            const std::string safe = e.where(e.op("IsInf", {m}).out, e.scalar(0, d), m);
            const std::string s = reduce(e, "ReduceSum", e.op("Exp", {e.op("Sub", {v, safe}).out}).out, axes);
            result = e.op("Add", {e.op("Log", {s}).out, safe}).out;
            break;
        }
        case ReduceKind::Var:
        case ReduceKind::Std: {
            const std::string v = c.arg(0, d);
            int64_t n = 1;
            for (int64_t a : axes) n *= c.in[0].type.shape[static_cast<int>(a)];
            const double ddof = c.attr_number(3, 0);
            const std::string dev = e.op("Sub", {v, reduce(e, "ReduceMean", v, axes)}).out;
            const std::string ss = reduce(e, "ReduceSum", e.op("Mul", {dev, dev}).out, axes);
            result = e.op("Div", {ss, e.scalar(static_cast<double>(n) - ddof, d)}).out;
            if (k == ReduceKind::Std) result = e.op("Sqrt", {result}).out;
            break;
        }
        case ReduceKind::Median: result = median(c, axes); break;
        case ReduceKind::Argmax:
        case ReduceKind::Argmin: break;
    }
    return c.reshape_out(result);
}

std::string map_norm(ApplyCtx& c) {
    Emitter& e = c.e;
    const DType d = c.out_storage;
    const std::vector<int64_t> axes = c.axes(2, c.in[0].type.shape.rank());
    const std::string x = c.arg(0, d);
    const double ord = c.attr_number(1, 2);
    std::string result;
    if (ord == 1) result = reduce(e, "ReduceSum", e.op("Abs", {x}).out, axes);
    else if (std::isinf(ord)) result = extreme(e, e.op("Abs", {x}).out, d, axes, true);
    else result = e.op("Sqrt", {reduce(e, "ReduceSum", e.op("Mul", {x, x}).out, axes)}).out;  // the checks of the op's shape rule passed
    return e.reshape(result, c.out.shape);
}

}  // namespace tg::onnx_export
