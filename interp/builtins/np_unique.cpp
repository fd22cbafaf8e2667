// NumPy's unique (docs/builtins.md): unique(x, return_index=False,
// return_inverse=False, return_counts=False, axis=None, equal_nan=True),
// with NumPy 1.x's results: the sorted distinct elements of the flattened x
// (NaNs one element, last, with equal_nan), or the distinct sub-tensors
// along `axis` in lexicographic order; then, as asked, the index of each
// one's first occurrence, the inverse (x's elements as positions in the
// result: 1-d, also for a tensor x) and the counts. The result's shape
// depends on the data: eager only. The distinct values are a `take` of x
// at their first occurrences, so grad goes through them.
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
using stdlib::BinaryKind;
using stdlib::OtherKind;
using stdlib::Shape;

struct Groups {
    Value perm;   // the stable order that sorts the elements / rows (i64)
    Value first;  // each distinct one's first position in that order: a True per group (bool)
};

Value argsort0(Compose& c, const Value& x) { return c.op(stdlib::op_of(OtherKind::Argsort), {x}, {int64_t{0}}); }

// Elements: sorted stably (NaN last); a group starts where a value differs
// from the one before (two NaNs are equal with equal_nan)
Groups element_groups(Compose& c, const Value& flat, bool equal_nan) {
    const int64_t n = shape_of(flat)[0];
    const Value perm = argsort0(c, flat);
    const Value sorted = c.take(flat, perm.tensor(), 0);
    const Value a = np::slice(c, sorted, 0, 1, n), b = np::slice(c, sorted, 0, 0, n - 1);
    Value differ = c.bin(BinaryKind::Ne, a, b);
    if (equal_nan) {
        const Value both = c.bin(BinaryKind::BitAnd, c.un(stdlib::UnaryKind::IsNan, a), c.un(stdlib::UnaryKind::IsNan, b));
        differ = c.bin(BinaryKind::BitAnd, differ, c.un(stdlib::UnaryKind::LogicalNot, both));
    }
    return {perm, np::concat(c, {c.reshape(Value::from_bool(true), Shape{1}), differ}, 0)};
}

// Rows of (n, m): sorted lexicographically (stable argsorts from the last
// column to the first); a group starts where any column differs
Groups row_groups(Compose& c, const Value& rows) {
    const int64_t n = shape_of(rows)[0], m = shape_of(rows)[1];
    Value perm = np::indices([n] {
        std::vector<int64_t> v(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
        return v;
    }());
    for (int64_t j = m - 1; j >= 0; --j) {
        const Value col = c.take(np::at(c, rows, 1, j), perm.tensor(), 0);
        perm = c.take(perm, argsort0(c, col).tensor(), 0);
    }
    const Value sorted = c.take(rows, perm.tensor(), 0);
    const Value differ = np::reduce(c, stdlib::ReduceKind::Any,
                                    c.bin(BinaryKind::Ne, np::slice(c, sorted, 0, 1, n), np::slice(c, sorted, 0, 0, n - 1)), 1);
    return {perm, np::concat(c, {c.reshape(Value::from_bool(true), Shape{1}), differ}, 0)};
}

Value unique(Runtime& rt, const CallArgs& a) {
    const std::string fn = "unique";
    const auto args = bind_args(fn, a, {"x", "return_index", "return_inverse", "return_counts", "axis", "equal_nan"}, 1);
    np::eager_only(rt, fn);
    bool want[3] = {};
    for (size_t k = 0; k < 3; ++k)
        want[k] = args[k + 1] && static_bool(*args[k + 1], arg(fn, k == 0 ? "return_index" : k == 1 ? "return_inverse" : "return_counts"));
    const bool equal_nan = !args[5] || static_bool(*args[5], arg(fn, "equal_nan"));
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const Value data(to_tensor(x, arg(fn, "x")));  // the positions are computed on the values, off the tape
    const std::optional<int64_t> axis = np::opt_axis(args[4], arg(fn, "axis"));
    std::optional<int64_t> ax;
    if (axis) ax = np::norm_axis(fn, *axis, rank_of(x));
    const Value flat = ax ? data : c.reshape(data, Shape{shape_of(data).numel()});
    const int64_t n = ax ? shape_of(data)[static_cast<int>(*ax)] : shape_of(flat)[0];
    const stdlib::Tensor none = stdlib::Tensor::empty(stdlib::DType::I64, Shape{0});
    Groups g{Value(none), Value(stdlib::Tensor::empty(stdlib::DType::Bool, Shape{0}))};
    if (n > 0) {
        if (!ax) g = element_groups(c, flat, equal_nan);
        else g = row_groups(c, c.reshape(np::move_axis(c, data, *ax, 0), Shape{n, n ? shape_of(data).numel() / n : 0}));
    }
    const stdlib::Tensor starts = stdlib::nonzero(g.first.tensor())[0];  // positions in the sorted order
    const Value index = n > 0 ? c.take(g.perm, starts, 0) : Value(none);
    std::vector<Value> out{ax ? c.take(x, index.tensor(), *ax) : c.take(c.reshape(x, Shape{shape_of(x).numel()}), index.tensor(), 0)};
    if (want[0]) out.push_back(index);
    if (want[1]) {
        // the group of each sorted position, put back in x's order
        const Value group = c.sub(c.op(stdlib::op_of(OtherKind::Cumsum), {g.first}, {int64_t{0}}), Value::weak_int(1));
        out.push_back(n > 0 ? c.take(group, argsort0(c, g.perm).tensor(), 0) : Value(none));
    }
    if (want[2] && n == 0) out.push_back(Value(none));
    else if (want[2]) {
        const Value ends = np::concat(c, {np::slice(c, Value(starts), 0, 1, shape_of(Value(starts))[0]),
                                          c.reshape(Value::from_int(n), Shape{1})}, 0);
        out.push_back(c.sub(ends, Value(starts)));
    }
    if (out.size() == 1) return out[0];
    return Value::tuple(std::move(out));
}

}  // namespace

void add_np_unique_builtins(std::vector<std::pair<std::string, Value>>& out) { np::add(out, "unique", unique); }

}  // namespace tg::interp
