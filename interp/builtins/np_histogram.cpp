// NumPy's histogram (static shapes: the number of bins is an argument, the
// edges are computed from the data as tensors) and bincount (its length is
// the largest value plus one: eager only), docs/numpy.md. Compositions of
// table ops: the counts are sums of comparisons with the bin positions, so
// a weighted histogram differentiates with respect to its weights.
#include <sstream>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::rank_of;
using np::shape_of;
using stdlib::BinaryKind;
using stdlib::DType;
using stdlib::ReduceKind;
using stdlib::Shape;

Value positions(int64_t n, DType d) {
    stdlib::Tensor t = stdlib::Tensor::empty(DType::I64, Shape{n});
    for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = i;
    return Value(stdlib::cast(t, d));
}

// Over the elements of `bins` (N,) equal to each of 0..n-1 (others, as -1
// or n, count nowhere): their counts (i64), or the sums of their `w` (N,)
Value counts(Compose& c, const Value& bins, int64_t n, const Value* w) {
    const int64_t len = shape_of(bins).numel();
    Value hit = c.bin(BinaryKind::Eq, c.reshape(bins, Shape{len, 1}), c.reshape(positions(n, DType::I64), Shape{1, n}));
    if (!w) return np::astype(c, np::reduce(c, ReduceKind::Sum, hit, 0), DType::I64);
    return np::reduce(c, ReduceKind::Sum, c.where(hit, c.reshape(*w, Shape{len, 1}), Compose::num(0.0)), 0);
}

const Value* weights(Compose& c, const Value* v, const Value& x, const std::string& fn, Value& store) {
    if (is_none(v)) return nullptr;
    store = tensor_operand(*v, arg(fn, "weights"));
    if (!(shape_of(store) == shape_of(x)))
        throw Error(fn + ": weights of shape " + shape_of(store).to_string() + " do not match the shape " +
                    shape_of(x).to_string());
    store = c.reshape(np::astype(c, store, np::float_dtype(store)), Shape{shape_of(x).numel()});
    return &store;
}

// bincount(x, weights=None, minlength=0): eager only
Value bincount(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "bincount";
    const auto args = bind_args(fn, ca, {"x", "weights", "minlength"}, 1);
    np::eager_only(rt, fn);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const DType d = x.tensor_type().dtype;
    if (rank_of(x) != 1 || !(stdlib::is_int(d) || d == DType::Bool))
        throw Error(fn + ": argument `x` must be a 1-d integer tensor, got " + std::string(stdlib::dtype_name(d)) +
                    " of shape " + shape_of(x).to_string());
    const stdlib::Tensor xi = stdlib::cast(x.tensor(), DType::I64).contiguous();
    int64_t n = args[2] ? to_int(*args[2], arg(fn, "minlength")) : 0;
    if (n < 0) throw Error(fn + ": `minlength` must be non-negative, got " + std::to_string(n));
    for (int64_t i = 0; i < xi.numel(); ++i) {
        const int64_t v = xi.data<int64_t>()[i];
        if (v < 0) throw Error(fn + ": argument `x` must be non-negative, got " + std::to_string(v));
        n = std::max(n, v + 1);
    }
    Value store;
    return counts(c, Value(xi), n, weights(c, args[1], x, fn, store));
}

// The edges of `n` equal bins over [lo, hi] (NumPy's linspace: start + i * step, the last exactly hi)
Value uniform_edges(Compose& c, Value lo, Value hi, int64_t n, DType d) {
    const Value same = c.bin(BinaryKind::Eq, lo, hi);
    lo = c.where(same, c.sub(lo, Compose::num(0.5)), lo);
    hi = c.where(same, c.add(hi, Compose::num(0.5)), hi);
    const Value step = c.div(c.sub(hi, lo), Compose::num(static_cast<double>(n)));
    const Value inner = c.add(c.mul(positions(n, d), step), lo);
    return np::concat(c, {inner, c.reshape(hi, Shape{1})}, 0);
}

Value histogram_edges(Compose& c, const Value& x, const Value* bins, const Value* range, const std::string& fn) {
    const DType d = x.tensor_type().dtype;
    if (bins && (bins->is_sequence() || (bins->is_tensor() && rank_of(*bins) > 0))) {
        const Value e = np::astype(c, tensor_operand(*bins, arg(fn, "bins")), d);
        if (rank_of(e) != 1 || shape_of(e)[0] < 2)
            throw Error(fn + ": `bins` as edges must be 1-d with at least 2 of them, got shape " + shape_of(e).to_string());
        return e;
    }
    const int64_t n = bins ? to_int(*bins, arg(fn, "bins")) : 10;
    if (n < 1) throw Error(fn + ": `bins` must be a positive number of bins, got " + std::to_string(n));
    if (!is_none(range)) {
        const std::vector<Value> r = range->is_sequence() ? range->items_copy() : std::vector<Value>{};
        if (r.size() != 2) throw Error(fn + ": argument `range` must be a pair (lo, hi)");
        const double lo = static_number(r[0], arg(fn, "range")), hi = static_number(r[1], arg(fn, "range"));
        if (!(lo <= hi)) throw Error(fn + ": `range` must have lo <= hi, got (" + (std::ostringstream() << lo << ", " << hi).str() + ")");
        return uniform_edges(c, np::astype(c, Compose::num(lo), d), np::astype(c, Compose::num(hi), d), n, d);
    }
    if (shape_of(x).numel() == 0)
        return uniform_edges(c, np::astype(c, Compose::num(0.0), d), np::astype(c, Compose::num(1.0), d), n, d);
    return uniform_edges(c, np::reduce(c, ReduceKind::Min, x, std::nullopt), np::reduce(c, ReduceKind::Max, x, std::nullopt), n, d);
}

// histogram(a, bins=10, range=None, weights=None, density=False) -> (hist, bin_edges)
Value histogram(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "histogram";
    const auto args = bind_args(fn, ca, {"a", "bins", "range", "weights", "density"}, 1);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "a"));
    const Value x = c.reshape(np::astype(c, a, np::float_dtype(a)), Shape{shape_of(a).numel()});
    const Value edges = histogram_edges(c, x, args[1], args[2], fn);
    const int64_t n = shape_of(edges)[0] - 1;
    // bin i holds edges[i] <= x < edges[i + 1]; the last also x == edges[n]
    Value bin = c.sub(np::insertion_points(c, edges, x, true), Value::weak_int(1));
    bin = c.where(c.bin(BinaryKind::Eq, x, np::at(c, edges, 0, n)), Value::weak_int(n - 1), bin);
    Value store;
    const Value* w = weights(c, args[3], a, fn, store);
    Value hist = counts(c, bin, n, w);
    if (args[4] && static_bool(*args[4], arg(fn, "density"))) {
        const Value h = np::astype(c, hist, np::float_dtype(x));
        const Value widths = c.sub(np::slice(c, edges, 0, 1, n + 1), np::slice(c, edges, 0, 0, n));
        hist = c.div(c.div(h, np::reduce(c, ReduceKind::Sum, h, std::nullopt)), widths);
    }
    return Value::tuple({hist, edges});
}

}  // namespace

void add_np_histogram_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add(out, "histogram", histogram);
    np::add(out, "bincount", bincount);
}

}  // namespace tg::interp
