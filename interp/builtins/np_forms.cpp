// NumPy's (and PyTorch's) argument forms of table ops (docs/numpy.md):
// sort / argsort take `kind=` and `stable=` (accepted: tg's sort is always
// stable) and `descending=` (PyTorch's: NaN first, equal elements in their
// order); clip takes a None bound and NumPy's keyword names (a_min / a_max,
// min / max). Each is made of table ops, so it traces, differentiates and
// exports as they do.
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::rank_of;
using np::shape_of;
using stdlib::Attr;
using stdlib::OtherKind;

void check_kind(const std::string& fn, const Value* kind) {
    if (is_none(kind)) return;
    const auto k = string_arg(*kind);
    if (!k || (*k != "quicksort" && *k != "mergesort" && *k != "heapsort" && *k != "stable"))
        throw Error(fn + ": argument `kind` must be \"quicksort\", \"mergesort\", \"heapsort\" or \"stable\" (tg's sort is "
                    "always stable)");
}

// sort / argsort(x, axis=-1, kind=None, order=None, descending=False, stable=None)
Value sort_form(Runtime& rt, const CallArgs& a, bool indices) {
    const std::string fn = indices ? "argsort" : "sort";
    const auto args = bind_args(fn, a, {"x", "axis", "kind", "order", "descending", "stable"}, 1);
    check_kind(fn, args[2]);
    if (!is_none(args[3])) throw Error(fn + ": argument `order` sorts structured arrays, which tg does not have");
    if (!is_none(args[5])) static_bool(*args[5], arg(fn, "stable"));
    const bool descending = args[4] && static_bool(*args[4], arg(fn, "descending"));
    Compose c{rt};
    Value x = tensor_operand(*args[0], arg(fn, "x"));
    Attr axis = int64_t{-1};
    if (args[1] && is_none(args[1])) axis = std::monostate{};
    else if (args[1]) axis = to_int(*args[1], arg(fn, "axis"));
    const stdlib::OpDef& op = stdlib::op_of(indices ? OtherKind::Argsort : OtherKind::Sort);
    if (!descending) return c.op(op, {x}, {axis});
    if (std::holds_alternative<std::monostate>(axis)) {
        x = c.reshape(x, stdlib::Shape{shape_of(x).numel()});
        axis = int64_t{0};
    }
    if (rank_of(x) == 0) return c.op(op, {x}, {axis});  // the op's error for a 0-d x
    const int64_t ax = np::norm_axis(fn, std::get<int64_t>(axis), rank_of(x));
    const stdlib::OpDef& flip = stdlib::op_of(OtherKind::Flip);
    // the values: the ascending sort reversed (NaN first)
    if (!indices) return c.op(flip, {c.op(op, {x}, {ax})}, {ax});
    // the indices, stable among equal elements: argsort the reversed x
    // ascending, reverse that, and count its positions from the other end
    const Value rev = c.op(flip, {c.op(op, {c.op(flip, {x}, {ax})}, {ax})}, {ax});
    return c.sub(Value::weak_int(shape_of(x)[static_cast<int>(ax)] - 1), rev);
}

// clip(x, lo, hi) where one bound may be None (NumPy's a_min / a_max, or
// min / max as ndarray.clip names them): maximum or minimum alone
Value clip_form(Runtime& rt, const CallArgs& a) {
    const std::string fn = "clip";
    std::vector<Value> kw_values;
    std::vector<KwArg> kws;
    for (size_t k = 0; k < a.keywords.size(); ++k) {
        std::string_view name = a.keywords[k].name;
        if (name == "a_min" || name == "min") name = "lo";
        if (name == "a_max" || name == "max") name = "hi";
        kws.push_back({name, a.keywords[k].loc});
        kw_values.push_back(a.keyword_values[k]);
    }
    const auto args = bind_args(fn, CallArgs{a.positional, kw_values, kws, a.loc, a.method}, {"x", "lo", "hi"}, 1);
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    if (is_none(args[1]) && is_none(args[2])) throw Error(fn + ": one of `lo` and `hi` must be given (not None)");
    Compose c{rt};
    if (is_none(args[1])) return c.bin(stdlib::BinaryKind::Minimum, x, tensor_operand(*args[2], arg(fn, "hi")));
    if (is_none(args[2])) return c.bin(stdlib::BinaryKind::Maximum, x, tensor_operand(*args[1], arg(fn, "lo")));
    return c.clip(x, tensor_operand(*args[1], arg(fn, "lo")), tensor_operand(*args[2], arg(fn, "hi")));
}

}  // namespace

void add_np_form_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add_replacing(out, "sort", [](Runtime& rt, const CallArgs& a) { return sort_form(rt, a, false); },
                      stdlib::op_of(OtherKind::Sort));
    np::add_replacing(out, "argsort", [](Runtime& rt, const CallArgs& a) { return sort_form(rt, a, true); },
                      stdlib::op_of(OtherKind::Argsort));
    np::add_replacing(out, "clip", clip_form, stdlib::op_of(stdlib::ElementwiseKind::Clip));
}

}  // namespace tg::interp
