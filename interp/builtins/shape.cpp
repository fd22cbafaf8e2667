// Tensor builtins of docs/builtins.md whose results are lists or tuples, which an op
// of the table (one tensor result) cannot give: split and meshgrid are
// composed of table ops (index slices, reshape, broadcast_to), so they
// trace, compile and differentiate through those; nonzero has a result
// shape that depends on the data, so it runs eagerly only (stdlib's kernel)
// and is a trace error inside @graph. einsum is in einsum.cpp, unique in
// np_unique.cpp.
#include <algorithm>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/builtins/np_util.hpp"
#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "interp/suggest.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/select_ops.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::IndexItem;
using stdlib::Shape;

namespace {

// What is wrong with a call bind_args refuses, worded by the one binder the
// language server checks calls with (interp/check_args.hpp): "takes 3
// arguments but 4 were given", "unknown keyword argument `axes`; did you
// mean `axis`?". Made only for the error: a call that fits costs nothing.
[[noreturn]] void refuse(const std::string& fn, const CallArgs& a, std::span<const std::string_view> names,
                         size_t required) {
    CallSignature s{fn, {}, false, ""};
    for (size_t i = 0; i < names.size(); ++i) s.params.push_back({std::string(names[i]), "", i >= required, false});
    check_arguments(s, a, ArityWording::Function);
    throw Error("internal error: " + fn + ": the arguments were refused and then accepted");
}

}  // namespace

std::vector<const Value*> bind_args(const std::string& fn, const CallArgs& a, std::span<const std::string_view> names,
                                    size_t required) {
    std::vector<const Value*> out(names.size(), nullptr);
    if (a.positional.size() > names.size()) refuse(fn, a, names, required);
    for (size_t i = 0; i < a.positional.size(); ++i) out[i] = &a.positional[i];
    for (size_t k = 0; k < a.keywords.size(); ++k) {
        auto it = std::find(names.begin(), names.end(), a.keywords[k].name);
        if (it == names.end() || out[static_cast<size_t>(it - names.begin())]) refuse(fn, a, names, required);
        out[static_cast<size_t>(it - names.begin())] = &a.keyword_values[k];
    }
    for (size_t i = 0; i < required; ++i)
        if (!out[i]) refuse(fn, a, names, required);
    return out;
}

namespace {


Value split(Runtime& rt, const CallArgs& a) {
    auto args = bind_args("split", a, {"x", "n_or_sizes", "axis"}, 2);
    const Value x = tensor_operand(*args[0], "split: argument `x`");
    const Shape s = x.tensor_type().shape;
    if (s.rank() == 0) throw Error("split: argument `x` is 0-d; it needs an axis to split");
    int64_t axis = args[2] ? to_int(*args[2], "split: argument `axis`") : 0;
    if (axis < -s.rank() || axis >= s.rank())
        throw Error("split: axis " + std::to_string(axis) + " is out of bounds for a tensor of rank " +
                    std::to_string(s.rank()));
    if (axis < 0) axis += s.rank();
    const int64_t len = s[static_cast<int>(axis)];
    std::vector<int64_t> sizes;
    const Value& n = *args[1];
    if (n.is_sequence()) {
        int64_t total = 0;
        for (const Value& v : n.items()) {
            const int64_t k = to_int(v, "split: argument `n_or_sizes`");
            if (k < 0) throw Error("split: argument `n_or_sizes` has a negative size " + std::to_string(k));
            sizes.push_back(k);
            total += k;
        }
        if (total != len)
            throw Error("split: argument `n_or_sizes`: the sizes add up to " + std::to_string(total) +
                        ", not to the axis size " + std::to_string(len));
    } else {
        const int64_t parts = to_int(n, "split: argument `n_or_sizes`");
        if (parts <= 0) throw Error("split: argument `n_or_sizes` must be a positive number of parts, got " + std::to_string(parts));
        if (len % parts != 0)
            throw Error("split: argument `n_or_sizes`: an axis of size " + std::to_string(len) +
                        " cannot be split into " + std::to_string(parts) + " equal parts");
        sizes.assign(static_cast<size_t>(parts), len / parts);
    }
    std::vector<Value> out;
    int64_t at = 0;
    for (int64_t k : sizes) {
        std::vector<IndexItem> items(static_cast<size_t>(axis) + 1);
        for (IndexItem& it : items) it.kind = IndexItem::Slice;
        items.back().lo = at;
        items.back().hi = at + k;
        out.push_back(index_tensor(rt, x, items));
        at += k;
    }
    return Value::list(std::move(out));
}

Value meshgrid(Runtime& rt, const CallArgs& a) {
    std::string indexing = "xy";
    for (size_t k = 0; k < a.keywords.size(); ++k) {
        if (a.keywords[k].name != "indexing")
            throw Error("meshgrid: unknown keyword argument `" + std::string(a.keywords[k].name) + "`");
        const Value& v = a.keyword_values[k];
        if (!v.is(Kind::Str) || (v.text() != "xy" && v.text() != "ij"))
            throw Error("meshgrid: argument `indexing` must be \"xy\" or \"ij\"");
        indexing = v.text();
    }
    std::vector<Value> xs;
    Shape full;
    for (size_t i = 0; i < a.positional.size(); ++i) {
        const std::string what = "meshgrid: argument " + std::to_string(i + 1);
        Value x = tensor_operand(a.positional[i], what);
        const int64_t n = x.tensor_type().shape.numel();
        xs.push_back(run_op(rt, stdlib::op_of(stdlib::OtherKind::Reshape), std::span<const Value>(&x, 1), {std::monostate{}, std::vector<int64_t>{n}}));
        full.push_back(n);
    }
    // "xy": the first two axes swapped (Cartesian indexing), as NumPy
    const bool swap = indexing == "xy" && xs.size() >= 2;
    if (swap) std::swap(full[0], full[1]);
    std::vector<Value> out;
    for (size_t i = 0; i < xs.size(); ++i) {
        const size_t at = swap && i < 2 ? 1 - i : i;
        std::vector<int64_t> shape(xs.size(), 1);
        shape[at] = full[static_cast<int>(at)];
        Value r = run_op(rt, stdlib::op_of(stdlib::OtherKind::Reshape), std::span<const Value>(&xs[i], 1), {std::monostate{}, shape});
        out.push_back(run_op(rt, stdlib::op_of(stdlib::OtherKind::BroadcastTo), std::span<const Value>(&r, 1),
                             {std::monostate{}, std::vector<int64_t>(full.begin(), full.end())}));
    }
    return Value::list(std::move(out));
}

// nonzero: eager only (its result shape depends on the data; unique: np_unique.cpp)
using np::eager_only;

Value nonzero(Runtime& rt, const CallArgs& a) {
    auto args = bind_args("nonzero", a, {"x"}, 1);
    eager_only(rt, "nonzero");
    std::vector<Value> out;
    for (stdlib::Tensor& t : stdlib::nonzero(to_tensor(*args[0], "nonzero: argument `x`"))) out.push_back(Value(t));
    return Value::tuple(std::move(out));
}

}  // namespace

void add_shape_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const char* name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)})));
    };
    add("split", split);
    add("meshgrid", meshgrid);
    add("nonzero", nonzero);
    add("einsum", einsum);
}

}  // namespace tg::interp
