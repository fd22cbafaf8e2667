// NumPy's pad (docs/builtins.md): pad(x, widths, value=0, mode="constant",
// constant_values=None). The constant mode with one value is the table op;
// other values per side are concatenated blocks, axis by axis as NumPy pads
// (so a corner takes the value of the later axis); the modes "edge",
// "reflect", "symmetric" and "wrap" are a `take` along each padded axis of
// indices computed here (NumPy's results also for widths larger than the
// axis: the reflections repeat). Made of table ops: traced, differentiated
// (take scatters the gradient back) and exported like them.
#include <string>

#include "interp/autodiff/autodiff.hpp"
#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::rank_of;
using np::shape_of;
using stdlib::OtherKind;

// pad's widths, one (before, after) pair per axis, as the op reads them
std::vector<int64_t> widths_of(const Value& v, int rank) {
    const std::string fn = "pad";
    const stdlib::OpDef& op = stdlib::op_of(OtherKind::Pad);
    std::vector<int64_t> w = std::get<std::vector<int64_t>>(op_attr(v, op.params[1], arg(fn, "widths")));
    if (w.size() == 2) {
        std::vector<int64_t> all;
        for (int d = 0; d < rank; ++d) all.insert(all.end(), w.begin(), w.end());
        w = all;
    } else if (w.size() != static_cast<size_t>(2 * rank)) {
        throw Error(fn + ": argument `widths` has " + std::to_string(w.size() / 2) +
                    " (before, after) pairs for a tensor of rank " + std::to_string(rank));
    }
    for (int64_t x : w)
        if (x < 0) throw Error(fn + ": argument `widths` has a negative width " + std::to_string(x));
    return w;
}

// The source index along an axis of n elements of output position i - before
int64_t source(const std::string& mode, int64_t i, int64_t n) {
    auto mod = [](int64_t a, int64_t m) { return ((a % m) + m) % m; };
    if (mode == "edge") return std::clamp<int64_t>(i, 0, n - 1);
    if (mode == "wrap") return mod(i, n);
    if (mode == "symmetric") {
        const int64_t j = mod(i, 2 * n);
        return j < n ? j : 2 * n - 1 - j;
    }
    if (n == 1) return 0;  // reflect
    const int64_t j = mod(i, 2 * n - 2);
    return j < n ? j : 2 * n - 2 - j;
}

Value pad_gather(Compose& c, Value x, const std::vector<int64_t>& w, const std::string& mode) {
    for (int d = 0; d < rank_of(x); ++d) {
        const int64_t before = w[2 * static_cast<size_t>(d)], after = w[2 * static_cast<size_t>(d) + 1];
        if (before == 0 && after == 0) continue;
        const int64_t n = shape_of(x)[d];
        if (n == 0)
            throw Error("pad: cannot extend the empty axis " + std::to_string(d) + " with mode \"" + mode +
                        "\" (only \"constant\" can)");
        std::vector<int64_t> idx;
        for (int64_t i = -before; i < n + after; ++i) idx.push_back(source(mode, i, n));
        x = c.take(x, np::indices(idx).tensor(), d);
    }
    return x;
}

// The constant values, one (before, after) pair per axis: a number, a pair or one pair per axis
std::vector<Value> values_of(const Value& v, int rank) {
    const std::string what = arg("pad", "constant_values");
    auto number = [&](const Value& x) {
        if (!x.is_tensor() || x.tensor_type().shape.rank() != 0) throw Error(what + " must hold numbers, not " + std::string(kind_name(x.kind())));
        return x;
    };
    if (!v.is_sequence()) return std::vector<Value>(2 * static_cast<size_t>(rank), number(v));
    const auto& items = v.items();
    auto pair = [&](const Value& p) -> std::vector<Value> {
        if (!p.is_sequence()) return {number(p), number(p)};
        if (p.items().size() == 1) return {number(p.items()[0]), number(p.items()[0])};
        if (p.items().size() == 2) return {number(p.items()[0]), number(p.items()[1])};
        throw Error(what + " must be a number, a (before, after) pair or one such pair per axis");
    };
    const bool nested = !items.empty() && items[0].is_sequence();
    if (!nested || items.size() == 1) {
        const std::vector<Value> one = pair(nested ? items[0] : v);
        std::vector<Value> out;
        for (int d = 0; d < rank; ++d) out.insert(out.end(), one.begin(), one.end());
        return out;
    }
    if (items.size() != static_cast<size_t>(rank))
        throw Error(what + " has " + std::to_string(items.size()) + " pairs for a tensor of rank " + std::to_string(rank));
    std::vector<Value> out;
    for (const Value& p : items) {
        const std::vector<Value> two = pair(p);
        out.insert(out.end(), two.begin(), two.end());
    }
    return out;
}

// Blocks of the constant values concatenated along each axis in turn
Value pad_blocks(Compose& c, Value x, const std::vector<int64_t>& w, const std::vector<Value>& values) {
    const stdlib::DType dt = x.tensor_type().dtype;
    for (int d = 0; d < rank_of(x); ++d) {
        std::vector<Value> parts;
        for (int side = 0; side < 2; ++side) {
            const size_t k = 2 * static_cast<size_t>(d) + static_cast<size_t>(side);
            if (w[k] == 0) continue;
            stdlib::Shape s = shape_of(x);
            s[d] = w[k];
            const Value v = np::astype(c, values[k], dt);
            parts.insert(side == 0 ? parts.begin() : parts.end(), np::broadcast(c, v, s));
        }
        if (parts.empty()) continue;
        parts.insert(parts.begin() + (w[2 * static_cast<size_t>(d)] > 0 ? 1 : 0), x);
        x = np::concat(c, parts, d);
    }
    return x;
}

Value pad(Runtime& rt, const CallArgs& a) {
    const std::string fn = "pad";
    const auto args = bind_args(fn, a, {"x", "widths", "value", "mode", "constant_values"}, 2);
    const Value* value = args[2];
    const Value* mode_arg = args[3];
    if (value && value->is(Kind::Str)) {  // NumPy's third positional argument is the mode
        if (mode_arg) throw Error(fn + ": argument `mode` given twice");
        mode_arg = value;
        value = nullptr;
    }
    const std::string mode = is_none(mode_arg) ? "constant" : string_arg(*mode_arg).value_or("");
    if (mode != "constant" && mode != "edge" && mode != "reflect" && mode != "symmetric" && mode != "wrap")
        throw Error(fn + ": argument `mode` must be \"constant\", \"edge\", \"reflect\", \"symmetric\" or \"wrap\"");
    if (value && args[4]) throw Error(fn + ": give `value` or `constant_values`, not both");
    if (!value) value = args[4];
    if (mode != "constant" && !is_none(value))
        throw Error(fn + ": constant values are for mode \"constant\", not \"" + mode + "\"");
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const std::vector<int64_t> w = widths_of(*args[1], rank_of(x));
    if (mode != "constant") return pad_gather(c, x, w, mode);
    const std::vector<Value> values = values_of(is_none(value) ? Value::from_int(0) : *value, rank_of(x));
    // the table op: one static value everywhere (a traced or differentiated one is concatenated blocks)
    bool one = true;
    for (const Value& v : values)
        one = one && !has_symbolic(v) && !has_tracked(v) && v.tensor().item_f64() == values[0].tensor().item_f64();
    if (one)
        return c.op(stdlib::op_of(OtherKind::Pad), {x}, {w, op_attr(values[0], stdlib::op_of(OtherKind::Pad).params[2], arg(fn, "value"))});
    return pad_blocks(c, x, w, values);
}

}  // namespace

void add_np_pad_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add_replacing(out, "pad", pad, stdlib::op_of(OtherKind::Pad));
}

}  // namespace tg::interp
