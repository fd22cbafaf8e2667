// NumPy's searching and counting functions with static result shapes
// (docs/numpy.md): diff, searchsorted, count_nonzero, take_along_axis,
// put_along_axis, partition, argpartition, lexsort, isin.
// Compositions of table ops (slices, comparisons, sums, sort, argsort, and
// the advanced indexing of interp/index_advanced.hpp): they run eagerly,
// trace into @graph code and differentiate as those ops. The ones whose
// result shape depends on the data (argwhere, where(c), bincount and the
// set functions) are in np_sets.cpp; histogram and bincount in np_histogram.cpp.
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/index_advanced.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::rank_of;
using np::shape_of;
using stdlib::BinaryKind;
using stdlib::OtherKind;
using stdlib::ReduceKind;
using stdlib::Shape;
using stdlib::UnaryKind;

// x concatenated with a prepended / appended value along axis: a scalar is
// broadcast to x's shape with that axis 1, as NumPy
Value with_edge(Compose& c, const Value& x, const Value* edge, int64_t axis, bool before, const std::string& what) {
    if (is_none(edge)) return x;
    Value e = tensor_operand(*edge, what);
    if (rank_of(e) == 0) {
        Shape s = shape_of(x);
        s[static_cast<int>(axis)] = 1;
        e = np::broadcast(c, e, s);
    }
    return before ? np::concat(c, {e, x}, axis) : np::concat(c, {x, e}, axis);
}

// diff(x, n=1, axis=-1, prepend=None, append=None): n times x[1:] - x[:-1]
// (bool: x[1:] != x[:-1], as NumPy)
Value diff(Runtime& rt, const CallArgs& a) {
    const std::string fn = "diff";
    const auto args = bind_args(fn, a, {"x", "n", "axis", "prepend", "append"}, 1);
    Compose c{rt};
    Value x = tensor_operand(*args[0], arg(fn, "x"));
    if (rank_of(x) == 0) throw Error(fn + ": argument `x` is 0-d; diff needs at least one axis");
    const int64_t n = args[1] ? to_int(*args[1], arg(fn, "n")) : 1;
    if (n < 0) throw Error(fn + ": order `n` must be non-negative, got " + std::to_string(n));
    const int64_t axis = np::norm_axis(fn, args[2] ? to_int(*args[2], arg(fn, "axis")) : -1, rank_of(x));
    x = with_edge(c, x, args[3], axis, true, arg(fn, "prepend"));
    x = with_edge(c, x, args[4], axis, false, arg(fn, "append"));
    const bool boolean = x.tensor_type().dtype == stdlib::DType::Bool;
    for (int64_t k = 0; k < n; ++k) {
        const int64_t len = shape_of(x)[static_cast<int>(axis)];
        if (len == 0) break;
        const Value hi = np::slice(c, x, axis, 1, len), lo = np::slice(c, x, axis, 0, len - 1);
        x = boolean ? c.bin(BinaryKind::Ne, hi, lo) : c.sub(hi, lo);
    }
    return x;
}

// a < b with NaN sorted last (NumPy's sort order)
Value nan_last_lt(Compose& c, const Value& a, const Value& b) {
    const Value lt = c.bin(BinaryKind::Lt, a, b);
    const Value a_num = c.un(UnaryKind::LogicalNot, c.un(UnaryKind::IsNan, a));
    return c.bin(BinaryKind::BitOr, lt, c.bin(BinaryKind::BitAnd, a_num, c.un(UnaryKind::IsNan, b)));
}

// The insertion points of v in the sorted 1-d `a`: the number of elements
// before (left) or not after (right) each value
Value insertion_points(Compose& c, const Value& a, const Value& v, bool right) {
    Shape lead(std::vector<int64_t>(static_cast<size_t>(rank_of(v)), 1));
    lead.push_back(shape_of(a)[0]);
    Shape vs = shape_of(v);
    vs.push_back(1);
    const Value ar = c.reshape(a, lead), vr = c.reshape(v, vs);
    const Value before = right ? c.un(UnaryKind::LogicalNot, nan_last_lt(c, vr, ar)) : nan_last_lt(c, ar, vr);
    return np::astype(c, np::reduce(c, ReduceKind::Sum, before, rank_of(v)), stdlib::DType::I64);
}

// searchsorted(a, v, side="left", sorter=None)
Value searchsorted(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "searchsorted";
    const auto args = bind_args(fn, ca, {"a", "v", "side", "sorter"}, 2);
    Compose c{rt};
    Value a = tensor_operand(*args[0], arg(fn, "a"));
    if (rank_of(a) != 1) throw Error(fn + ": argument `a` must be 1-d, got shape " + shape_of(a).to_string());
    const Value v = tensor_operand(*args[1], arg(fn, "v"));
    bool right = false;
    if (args[2]) {
        const auto side = string_arg(*args[2]);
        if (!side || (*side != "left" && *side != "right"))
            throw Error(fn + ": argument `side` must be \"left\" or \"right\"");
        right = *side == "right";
    }
    if (!is_none(args[3]))
        a = c.op(stdlib::op_of(OtherKind::Take), {a, tensor_operand(*args[3], arg(fn, "sorter"))}, {int64_t{0}});
    return insertion_points(c, a, v, right);
}

// count_nonzero(x, axis=None, keepdims=False): i64
Value count_nonzero(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "count_nonzero";
    const auto args = bind_args(fn, ca, {"x", "axis", "keepdims"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const bool keepdims = args[2] && static_bool(*args[2], arg(fn, "keepdims"));
    const Value nz = c.un(UnaryKind::LogicalNot, c.un(UnaryKind::LogicalNot, x));
    return np::astype(c, np::red(c, ReduceKind::Sum, nz, np::axis_attr(args[1], fn, rank_of(x)), keepdims),
                      stdlib::DType::I64);
}

// The subscript arr[r0, r1, idx, r3, ...]: idx along `axis`, the positions
// 0..n-1 of each other axis laid along it (NumPy's take_along_axis)
Subscript along(const Value& idx, const Shape& arr, int64_t axis) {
    Subscript s;
    for (int d = 0; d < arr.rank(); ++d) {
        stdlib::IndexItem it;
        it.kind = stdlib::IndexItem::Slice;
        s.items.push_back(it);
        if (d == axis) {
            s.special.push_back(idx);
            continue;
        }
        Shape at(std::vector<int64_t>(static_cast<size_t>(arr.rank()), 1));
        at[d] = arr[d];
        stdlib::Tensor pos = stdlib::Tensor::empty(stdlib::DType::I64, at);
        for (int64_t i = 0; i < arr[d]; ++i) pos.data<int64_t>()[i] = i;
        s.special.push_back(Value(std::move(pos)));
    }
    return s;
}

struct AlongArgs {
    Value arr, idx;
    int64_t axis = 0;
};

AlongArgs along_args(Compose& c, const std::string& fn, const Value& arr_v, const Value& idx_v, const Value* axis_v) {
    AlongArgs r{tensor_operand(arr_v, arg(fn, "arr")), tensor_operand(idx_v, arg(fn, "indices")), 0};
    const stdlib::DType d = r.idx.tensor_type().dtype;
    if (d != stdlib::DType::I32 && d != stdlib::DType::I64)
        throw Error(fn + ": argument `indices` must be an integer tensor, not " + std::string(stdlib::dtype_name(d)));
    if (is_none(axis_v)) {
        if (rank_of(r.idx) != 1)
            throw Error(fn + ": with axis=None, `indices` must be 1-d, got shape " + shape_of(r.idx).to_string());
        r.arr = c.reshape(r.arr, Shape{shape_of(r.arr).numel()});
        return r;
    }
    if (rank_of(r.idx) != rank_of(r.arr))
        throw Error(fn + ": `indices` (shape " + shape_of(r.idx).to_string() + ") and `arr` (shape " +
                    shape_of(r.arr).to_string() + ") must have the same number of dimensions");
    r.axis = np::norm_axis(fn, to_int(*axis_v, arg(fn, "axis")), rank_of(r.arr));
    return r;
}

// take_along_axis(arr, indices, axis): arr broadcast against indices on the other axes
Value take_along_axis(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "take_along_axis";
    const auto args = bind_args(fn, ca, {"arr", "indices", "axis"}, 3);
    Compose c{rt};
    const AlongArgs r = along_args(c, fn, *args[0], *args[1], args[2]);
    return np::take_along(c, r.arr, r.idx, r.axis);
}

// put_along_axis(arr, indices, values, axis): a new tensor (tg has no in-place updates)
Value put_along_axis(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "put_along_axis";
    const auto args = bind_args(fn, ca, {"arr", "indices", "values", "axis"}, 4);
    Compose c{rt};
    AlongArgs r = along_args(c, fn, *args[0], *args[1], args[3]);
    const Shape orig = shape_of(tensor_operand(*args[0], arg(fn, "arr")));
    Value out = r.arr;
    assign_advanced(rt, out, along(r.idx, shape_of(r.arr), r.axis), tensor_operand(*args[2], arg(fn, "values")));
    return c.reshape(out, orig);
}

// kth: an int or a list of ints, each in [-n, n) of the axis
void check_kth(const Value& v, const std::string& fn, int64_t n) {
    std::vector<Value> ks = v.is_sequence() ? v.items_copy() : std::vector<Value>{v};
    for (const Value& k : ks) {
        const int64_t i = to_int(k, arg(fn, "kth"));
        if (i < -n || i >= n)
            throw Error(fn + ": kth " + std::to_string(i) + " is out of bounds for an axis of size " + std::to_string(n));
    }
}

// partition / argpartition(x, kth, axis=-1): a full (stable) sort, which is
// one valid partition; NumPy leaves the order inside the parts unspecified
Value partition(Runtime& rt, const CallArgs& ca, const std::string& fn) {
    const auto args = bind_args(fn, ca, {"x", "kth", "axis", "kind"}, 2);
    Compose c{rt};
    Value x = tensor_operand(*args[0], arg(fn, "x"));
    int64_t axis = -1;
    if (args[2] && is_none(args[2])) x = c.reshape(x, Shape{shape_of(x).numel()});
    else if (args[2]) axis = to_int(*args[2], arg(fn, "axis"));
    if (rank_of(x) == 0) throw Error(fn + ": argument `x` is 0-d; it needs an axis");
    axis = np::norm_axis(fn, axis, rank_of(x));
    check_kth(*args[1], fn, shape_of(x)[static_cast<int>(axis)]);
    if (args[3] && string_arg(*args[3]) != "introselect")
        throw Error(fn + ": argument `kind` must be \"introselect\"");
    return c.op(stdlib::op_of(fn == "partition" ? OtherKind::Sort : OtherKind::Argsort), {x}, {axis});
}

// lexsort(keys, axis=-1): indices sorting by the last key, ties broken by
// the one before...: stable argsorts from the first key to the last
Value lexsort(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "lexsort";
    const auto args = bind_args(fn, ca, {"keys", "axis"}, 1);
    Compose c{rt};
    std::vector<Value> keys;
    if (args[0]->is_tensor()) {
        const Value k = *args[0];
        if (rank_of(k) == 0) throw Error(fn + ": argument `keys` must not be 0-d");
        for (int64_t i = 0; i < shape_of(k)[0]; ++i) keys.push_back(np::at(c, k, 0, i));
    } else {
        keys = np::tensor_seq(*args[0], fn, "keys");
    }
    if (keys.empty()) throw Error(fn + ": needs at least one key");
    const Shape s = shape_of(keys[0]);
    for (const Value& k : keys)
        if (!(shape_of(k) == s))
            throw Error(fn + ": all keys must have the same shape, got " + s.to_string() + " and " + shape_of(k).to_string());
    if (s.rank() == 0) throw Error(fn + ": the keys are 0-d; they need an axis");
    const int64_t axis = np::norm_axis(fn, args[1] ? to_int(*args[1], arg(fn, "axis")) : -1, s.rank());
    const auto& argsort = stdlib::op_of(OtherKind::Argsort);
    Value idx = c.op(argsort, {keys[0]}, {axis});
    for (size_t k = 1; k < keys.size(); ++k) {
        const Value sorted = index_advanced(rt, keys[k], along(idx, s, axis));
        idx = index_advanced(rt, idx, along(c.op(argsort, {sorted}, {axis}), s, axis));
    }
    return idx;
}

// isin(element, test_elements, assume_unique=False, invert=False): element-wise membership
Value isin(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "isin";
    const auto args = bind_args(fn, ca, {"element", "test_elements", "assume_unique", "invert"}, 2);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "element"));
    const Value t = tensor_operand(*args[1], arg(fn, "test_elements"));
    if (args[2]) static_bool(*args[2], arg(fn, "assume_unique"));
    const bool invert = args[3] && static_bool(*args[3], arg(fn, "invert"));
    const Value in = np::isin(c, x, t);
    return invert ? c.un(UnaryKind::LogicalNot, in) : in;
}

}  // namespace

namespace np {
Value isin(Compose& c, const Value& x, const Value& t) {
    Shape lead(std::vector<int64_t>(static_cast<size_t>(rank_of(x)), 1));
    lead.push_back(shape_of(t).numel());
    Shape xs = shape_of(x);
    xs.push_back(1);
    const Value eq = c.bin(BinaryKind::Eq, c.reshape(x, xs), c.reshape(t, lead));
    return np::reduce(c, ReduceKind::Any, eq, rank_of(x));
}
Value insertion_points(Compose& c, const Value& a, const Value& v, bool right) {
    return interp::insertion_points(c, a, v, right);
}
}  // namespace np

void add_np_search_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add(out, "diff", diff);
    np::add(out, "searchsorted", searchsorted);
    np::add(out, "count_nonzero", count_nonzero);
    np::add(out, "take_along_axis", take_along_axis);
    np::add(out, "put_along_axis", put_along_axis);
    np::add(out, "partition", [](Runtime& rt, const CallArgs& a) { return partition(rt, a, "partition"); });
    np::add(out, "argpartition", [](Runtime& rt, const CallArgs& a) { return partition(rt, a, "argpartition"); });
    np::add(out, "lexsort", lexsort);
    np::add(out, "isin", isin);
}

namespace np {

Value take_along(Compose& c, Value arr, const Value& idx, int64_t axis) {
    Shape a = shape_of(arr);
    const Shape i = shape_of(idx);
    for (int d = 0; d < a.rank(); ++d)
        if (d != axis && a[d] == 1 && i[d] != 1) a[d] = i[d];
    arr = np::broadcast(c, arr, a);
    return index_advanced(c.rt, arr, along(idx, a, axis));
}

}  // namespace np

}  // namespace tg::interp
