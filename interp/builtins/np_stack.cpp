// NumPy's stacking, splitting and axis functions (docs/numpy.md): vstack,
// hstack, column_stack, dstack, array_split, atleast_1d/2d/3d, swapaxes,
// moveaxis (tensordot, kron, trace, diagonal, cross: np_products.cpp). Each is a composition of
// table ops (reshape, transpose, concat, take, matmul, index views), so it
// runs eagerly, traces into a graph and differentiates as those ops.
#include <algorithm>
#include <numeric>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::shape_of;
using np::rank_of;
using stdlib::Shape;

// NumPy's atleast_Nd of one tensor: 0-d -> (1,)..., 1-d (n) -> (1, n) or
// (1, n, 1), 2-d (m, n) -> (m, n, 1) for 3.
Value at_least(Compose& c, const Value& x, int n) {
    const Shape s = shape_of(x);
    if (s.rank() >= n) return x;
    Shape out;
    if (s.rank() == 0) {
        for (int i = 0; i < n; ++i) out.push_back(1);
    } else if (s.rank() == 1) {
        out = n == 2 ? Shape{1, s[0]} : Shape{1, s[0], 1};
    } else {
        out = Shape{s[0], s[1], 1};
    }
    return c.reshape(x, out);
}

Value atleast(Runtime& rt, const CallArgs& a, int n) {
    const std::string fn = "atleast_" + std::to_string(n) + "d";
    if (!a.keywords.empty()) throw Error(fn + ": unknown keyword argument `" + std::string(a.keywords[0].name) + "`");
    if (a.positional.empty()) throw Error(fn + ": needs at least one tensor");
    Compose c{rt};
    std::vector<Value> out;
    for (size_t i = 0; i < a.positional.size(); ++i)
        out.push_back(at_least(c, tensor_operand(a.positional[i], fn + ": argument " + std::to_string(i + 1)), n));
    if (out.size() == 1) return out[0];
    return Value::list(std::move(out));  // NumPy 1.x: a list
}

// vstack / hstack / dstack / column_stack: the tensors made at least n-d, then concatenated
Value stacker(Runtime& rt, const CallArgs& a, const std::string& fn) {
    const auto args = bind_args(fn, a, {"tup"}, 1);
    Compose c{rt};
    std::vector<Value> xs = np::tensor_seq(*args[0], fn, "tup");
    int64_t axis = 0;
    for (Value& x : xs) {
        if (fn == "vstack") x = at_least(c, x, 2);
        if (fn == "dstack") x = at_least(c, x, 3), axis = 2;
        if (fn == "column_stack") x = rank_of(x) < 2 ? c.reshape(x, Shape{shape_of(x).numel(), 1}) : x, axis = 1;
        if (fn == "hstack") x = at_least(c, x, 1);
    }
    if (fn == "hstack") axis = rank_of(xs[0]) == 1 ? 0 : 1;
    return np::concat(c, xs, axis);
}

// array_split(x, indices_or_sections, axis=0): n parts, the first len % n
// one longer; or the parts between the given indices (clamped, as NumPy)
Value array_split(Runtime& rt, const CallArgs& a) {
    const std::string fn = "array_split";
    const auto args = bind_args(fn, a, {"x", "indices_or_sections", "axis"}, 2);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    if (rank_of(x) == 0) throw Error(fn + ": argument `x` is 0-d; it needs an axis to split");
    const int64_t axis = np::norm_axis(fn, args[2] ? to_int(*args[2], arg(fn, "axis")) : 0, rank_of(x));
    const int64_t len = shape_of(x)[static_cast<int>(axis)];
    std::vector<int64_t> bounds{0};
    if (args[1]->is_sequence()) {
        for (const Value& v : args[1]->items()) {
            int64_t i = to_int(v, arg(fn, "indices_or_sections"));
            if (i < 0) i = std::max<int64_t>(0, i + len);
            bounds.push_back(std::min(i, len));
        }
    } else {
        const int64_t n = to_int(*args[1], arg(fn, "indices_or_sections"));
        if (n <= 0) throw Error(fn + ": the number of sections must be larger than 0, got " + std::to_string(n));
        for (int64_t k = 0, at = 0; k < n; ++k) bounds.push_back(at += len / n + (k < len % n ? 1 : 0));
        bounds.pop_back();
    }
    bounds.push_back(len);
    std::vector<Value> out;
    for (size_t k = 0; k + 1 < bounds.size(); ++k)
        out.push_back(np::slice(c, x, axis, bounds[k], std::max(bounds[k], bounds[k + 1])));
    return Value::list(std::move(out));
}

Value swapaxes(Runtime& rt, const CallArgs& a) {
    const std::string fn = "swapaxes";
    const auto args = bind_args(fn, a, {"x", "axis1", "axis2"}, 3);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const int r = rank_of(x);
    const int64_t a1 = np::norm_axis(fn, to_int(*args[1], arg(fn, "axis1")), r);
    const int64_t a2 = np::norm_axis(fn, to_int(*args[2], arg(fn, "axis2")), r);
    std::vector<int64_t> perm(static_cast<size_t>(r));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[static_cast<size_t>(a1)], perm[static_cast<size_t>(a2)]);
    return np::transpose(c, x, perm);
}

Value moveaxis(Runtime& rt, const CallArgs& a) {
    const std::string fn = "moveaxis";
    const auto args = bind_args(fn, a, {"x", "source", "destination"}, 3);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const int r = rank_of(x);
    const auto src = np::axes_arg(*args[1], arg(fn, "source"), fn, r);
    const auto dst = np::axes_arg(*args[2], arg(fn, "destination"), fn, r);
    if (src.size() != dst.size())
        throw Error(fn + ": `source` and `destination` must have the same number of axes, got " +
                    std::to_string(src.size()) + " and " + std::to_string(dst.size()));
    // NumPy's: the other axes in order, then each source inserted at its destination
    std::vector<int64_t> order;
    for (int64_t d = 0; d < r; ++d)
        if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
    std::vector<std::pair<int64_t, int64_t>> moves;
    for (size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
    std::sort(moves.begin(), moves.end());
    for (auto [to, from] : moves) order.insert(order.begin() + to, from);
    return np::transpose(c, x, order);
}

}  // namespace

void add_np_stack_builtins(std::vector<std::pair<std::string, Value>>& out) {
    for (int n : {1, 2, 3})
        np::add(out, "atleast_" + std::to_string(n) + "d", [n](Runtime& rt, const CallArgs& a) { return atleast(rt, a, n); });
    for (const char* name : {"vstack", "hstack", "dstack", "column_stack"})
        np::add(out, name, [fn = std::string(name)](Runtime& rt, const CallArgs& a) { return stacker(rt, a, fn); });
    np::add(out, "array_split", array_split);
    np::add(out, "swapaxes", swapaxes);
    np::add(out, "moveaxis", moveaxis);
}

}  // namespace tg::interp
