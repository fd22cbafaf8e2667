#include "interp/builtins/np_util.hpp"

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp::np {

using stdlib::Attr;
using stdlib::IndexItem;
using stdlib::OtherKind;

std::string arg(const std::string& fn, const char* name) { return fn + ": argument `" + name + "`"; }
stdlib::Shape shape_of(const Value& x) { return x.tensor_type().shape; }
int rank_of(const Value& x) { return x.tensor_type().shape.rank(); }

int64_t norm_axis(const std::string& fn, int64_t axis, int rank) {
    if (axis < -rank || axis >= rank)
        throw Error(fn + ": axis " + std::to_string(axis) + " is out of bounds for a tensor of rank " +
                    std::to_string(rank));
    return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> axes_arg(const Value& v, const std::string& what, const std::string& fn, int rank) {
    std::vector<int64_t> out;
    if (v.is_sequence())
        for (const Value& item : v.items()) out.push_back(norm_axis(fn, to_int(item, what), rank));
    else
        out.push_back(norm_axis(fn, to_int(v, what), rank));
    for (size_t i = 0; i < out.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (out[i] == out[j]) throw Error(what + " repeats the axis " + std::to_string(out[i]));
    return out;
}

Attr axis_attr(const Value* v, const std::string& fn, int rank) {
    if (is_none(v)) return std::monostate{};
    return axes_arg(*v, arg(fn, "axis"), fn, rank);
}

Value red(Compose& c, stdlib::ReduceKind k, const Value& x, const Attr& axis, bool keepdims) {
    return c.op(stdlib::op_of(k), {x}, {axis, keepdims});
}

std::optional<int64_t> opt_axis(const Value* v, const std::string& what) {
    if (is_none(v)) return std::nullopt;
    return to_int(*v, what);
}

std::vector<Value> tensor_seq(const Value& v, const std::string& fn, const char* name) {
    if (!v.is_sequence())
        throw Error(arg(fn, name) + " must be a list or tuple of tensors, not " + std::string(kind_name(v.kind())));
    if (v.items().empty()) throw Error(arg(fn, name) + " needs at least one tensor");
    std::vector<Value> out;
    for (const Value& item : v.items()) out.push_back(tensor_operand(item, arg(fn, name)));
    return out;
}

Value transpose(Compose& c, const Value& x, const std::vector<int64_t>& perm) {
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
    if (identity) return x;
    return c.op(stdlib::op_of(OtherKind::Transpose), {x}, {perm});
}

namespace {
Value join(Compose& c, OtherKind k, const std::vector<Value>& xs, int64_t axis) {
    return run_op(c.rt, stdlib::op_of(k), xs, {std::monostate{}, axis});
}
}  // namespace

Value concat(Compose& c, const std::vector<Value>& xs, int64_t axis) { return join(c, OtherKind::Concat, xs, axis); }
Value stack(Compose& c, const std::vector<Value>& xs, int64_t axis) { return join(c, OtherKind::Stack, xs, axis); }
Value matmul(Compose& c, const Value& a, const Value& b) { return c.op(stdlib::op_of(OtherKind::Matmul), {a, b}); }

Value reduce(Compose& c, stdlib::ReduceKind k, const Value& x, std::optional<int64_t> axis, bool keepdims) {
    Attr ax = std::monostate{};
    if (axis) ax = std::vector<int64_t>{*axis};
    return c.op(stdlib::op_of(k), {x}, {ax, keepdims});
}

Value astype(Compose& c, const Value& x, stdlib::DType d) {
    const stdlib::TensorType t = x.tensor_type();
    if (t.dtype == d && !t.weak) return x;
    return c.op(stdlib::op_of(stdlib::ElementwiseKind::AsType), {x}, {d});
}

Value broadcast(Compose& c, const Value& x, const stdlib::Shape& s) {
    if (shape_of(x) == s) return x;
    return c.op(stdlib::op_of(OtherKind::BroadcastTo), {x}, {std::vector<int64_t>(s.begin(), s.end())});
}

Value slice(Compose& c, const Value& x, int64_t axis, int64_t lo, int64_t hi) {
    std::vector<IndexItem> items(static_cast<size_t>(axis) + 1);
    for (IndexItem& it : items) it.kind = IndexItem::Slice;
    items.back().lo = lo;
    items.back().hi = hi;
    return index_tensor(c.rt, x, items);
}

Value at(Compose& c, const Value& x, int64_t axis, int64_t i) {
    std::vector<IndexItem> items(static_cast<size_t>(axis) + 1);
    for (IndexItem& it : items) it.kind = IndexItem::Slice;
    items.back().kind = IndexItem::Int;
    items.back().index = i;
    return index_tensor(c.rt, x, items);
}

Value indices(const std::vector<int64_t>& v) {
    stdlib::Tensor t = stdlib::Tensor::empty(stdlib::DType::I64, stdlib::Shape{static_cast<int64_t>(v.size())});
    for (size_t i = 0; i < v.size(); ++i) t.data<int64_t>()[i] = v[i];
    return Value(t);
}

Value move_axis(Compose& c, const Value& x, int64_t from, int64_t to) {
    std::vector<int64_t> order;
    for (int64_t d = 0; d < rank_of(x); ++d)
        if (d != from) order.push_back(d);
    order.insert(order.begin() + to, from);
    return transpose(c, x, order);
}

stdlib::DType float_dtype(const Value& x) {
    const stdlib::DType d = x.tensor_type().dtype;
    return stdlib::is_float(d) ? d : stdlib::DType::F32;
}

void eager_only(Runtime& rt, const std::string& fn) {
    if (rt.trace)
        dynamic_value_error(fn + ": the shape of its result depends on the data, so it cannot be used inside a "
                                 "@graph function");
}

void add(Builtins& out, const std::string& name, BuiltinFn fn) {
    out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)})));
}

void add_replacing(Builtins& out, const std::string& name, BuiltinFn fn, const stdlib::OpDef& op) {
    auto b = std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), &op});
    b->adds_params = true;  // replaces the table op's builtin, with more parameters
    out.emplace_back(name, Value::builtin(std::move(b)));
}

}  // namespace tg::interp::np

namespace tg::interp {

void add_numpy_builtins(std::vector<std::pair<std::string, Value>>& out) {
    add_np_stack_builtins(out);
    add_np_product_builtins(out);
    add_np_elementwise_builtins(out);
    add_np_stats_builtins(out);
    add_np_quantile_builtins(out);
    add_np_search_builtins(out);
    add_np_histogram_builtins(out);
    add_np_sets_builtins(out);
    add_np_create_builtins(out);
    add_np_form_builtins(out);
    add_np_pad_builtins(out);
    add_np_unique_builtins(out);
    add_np_linalg_builtins(out);
}

}  // namespace tg::interp
