// Host builtins over sequences (docs/builtins.md): enumerate, zip, sorted, reversed,
// and the float constants pi, e, inf, nan.
//
// Decisions: enumerate/zip/reversed return lists (tg has no lazy iterators;
// `for i, v in enumerate(xs)` unpacks the tuples as Python does). They walk
// anything a `for` loop walks (lists, tuples, strings, tensors along axis 0).
// sorted() is stable and compares with `<`, as Python; inside @graph an order
// that depends on tensor contents is a trace error (use sort() on a tensor).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/sort_order.hpp"
#include "interp/call_signature.hpp"
#include "interp/check_args.hpp"
#include "interp/autodiff/autodiff.hpp"
#include "interp/control.hpp"
#include "interp/dispatch.hpp"
#include "interp/evaluator.hpp"
#include "interp/suggest.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

const Value* keyword(const CallArgs& a, std::string_view name) {
    for (size_t k = 0; k < a.keywords.size(); ++k)
        if (a.keywords[k].name == name) return &a.keyword_values[k];
    return nullptr;
}

void only_keywords(const std::string& fn, const CallArgs& a, std::initializer_list<std::string_view> allowed) {
    for (const KwArg& k : a.keywords)
        if (std::find(allowed.begin(), allowed.end(), k.name) == allowed.end())
            throw Error(fn + ": unknown keyword argument `" + std::string(k.name) + "`" +
                        did_you_mean(k.name, std::span<const std::string_view>(allowed.begin(), allowed.size())));
}

std::vector<Value> items_of(Runtime& rt, const Value& v, const std::string& what) {
    std::vector<Value> out;
    try {
        Iterable it(v, rt);
        // checked before anything is built, counted as it goes (stdlib/budget.hpp)
        stdlib::check_fits(Value::slots_bytes(static_cast<size_t>(it.size())), "a list");
        out.reserve(static_cast<size_t>(it.size()));
        for (int64_t i = 0; i < it.size(); ++i) {
            stdlib::spend_work(1);
            out.push_back(it.item(i));
        }
    } catch (Error& e) {
        throw Error(what + ": " + e.message());
    }
    return out;
}

namespace {

// Counted as the one binder counts positional-only parameters (`reversed(xs, /)`, interp/call_signature.hpp).
void positional_only(const std::string& name, const CallArgs& a, size_t lo, size_t hi) {
    if (a.positional.size() < lo || a.positional.size() > hi)
        throw Error(arity_error(name, lo, hi, a.positional.size(), ArityWording::Method, method_receiver(a)));
}

Value enumerate(Runtime& rt, const CallArgs& a) {
    positional_only("enumerate", a, 1, 2);
    only_keywords("enumerate", a, {"start"});
    int64_t start = 0;
    if (a.positional.size() == 2) start = to_int(a.positional[1], "enumerate: argument `start`");
    if (const Value* s = keyword(a, "start")) start = to_int(*s, "enumerate: argument `start`");
    std::vector<Value> out;
    int64_t i = start;
    for (Value& v : items_of(rt, a.positional[0], "enumerate")) {
        stdlib::spend_work(Value::kObjectBytes);  // a new tuple each (stdlib/budget.hpp)
        out.push_back(Value::tuple_filled(2, [&](TupleItems& pair) {  // one allocation (no vector)
            pair.push_back(Value::from_int(i++));
            pair.push_back(std::move(v));
        }));
    }
    return Value::list(std::move(out));
}

// zip stops at the shortest, as Python's; strict=True requires equal lengths (Python 3.10).
Value zip(Runtime& rt, const CallArgs& a) {
    only_keywords("zip", a, {"strict"});
    bool strict = false;
    if (const Value* s = keyword(a, "strict")) {
        if (has_symbolic(*s)) dynamic_value_error("zip: argument `strict` must be static inside a @graph function");
        try {
            strict = truth(*s);
        } catch (const stdlib::OpError& e) {
            throw Error(std::string("zip: argument `strict`: ") + e.what());
        }
    }
    // a list's or a tuple's items read in place; anything else's walked into `walked`
    std::vector<std::vector<Value>> walked;
    walked.reserve(a.positional.size());  // (seqs points into it)
    std::vector<std::span<const Value>> seqs;
    size_t n = a.positional.empty() ? 0 : SIZE_MAX;
    for (size_t k = 0; k < a.positional.size(); ++k) {
        const Value& arg = a.positional[k];
        if (arg.is_sequence()) {
            stdlib::spend_work(static_cast<int64_t>(arg.items().size()));
            seqs.push_back(arg.items());
        } else {
            seqs.push_back(walked.emplace_back(items_of(rt, arg, "zip: argument " + std::to_string(k + 1))));
        }
        if (strict && k > 0 && seqs.back().size() != seqs[0].size())
            throw Error("zip: argument " + std::to_string(k + 1) + " has " + std::to_string(seqs.back().size()) +
                        " items and argument 1 has " + std::to_string(seqs[0].size()) + " (strict=True)");
        n = std::min(n, seqs.back().size());
    }
    std::vector<Value> out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        stdlib::spend_work(Value::kObjectBytes);  // a new tuple each (stdlib/budget.hpp)
        out.push_back(Value::tuple_filled(seqs.size(), [&](TupleItems& t) {
            for (const std::span<const Value> s : seqs) t.push_back(s[i]);
        }));
    }
    return Value::list(std::move(out));
}

Value reversed(Runtime& rt, const CallArgs& a) {
    positional_only("reversed", a, 1, 1);
    only_keywords("reversed", a, {});
    std::vector<Value> xs = items_of(rt, a.positional[0], "reversed");
    std::reverse(xs.begin(), xs.end());
    return Value::list(std::move(xs));
}

// less() of any pair (every kind's own order, and its errors).
bool general_less(Runtime& rt, const Value& a, const Value& b, const std::string& fn) {
    if (a.is_sequence() && b.is_sequence()) {
        // lexicographic, as Python orders tuples and lists
        const auto& x = a.items();
        const auto& y = b.items();
        for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
            if (less(rt, x[i], y[i], fn)) return true;
            if (less(rt, y[i], x[i], fn)) return false;
        }
        return x.size() < y.size();
    }
    Value r;
    try {
        r = compare(rt, lang::CmpOp::Lt, a, b);
    } catch (const Error& e) {
        if (e.trace_kind != TraceErrorKind::User) throw;
        throw Error(fn + ": " + e.message());
    }
    if (r.is_symbolic())
        dynamic_value_error(fn + ": the order depends on the contents of a tensor inside a @graph function; sort a "
                            "tensor with sort() instead");
    try {
        return truth(r);
    } catch (const stdlib::OpError& e) {
        throw Error(fn + ": " + e.what());
    }
}

}  // namespace

// a < b as a Python bool; a dynamic answer while tracing is a trace error.
// `fn` names the builtin in errors (sorted, sort).
bool less(Runtime& rt, const Value& a, const Value& b, const std::string& fn) {
    // numbers and strings (a sort's keys) without a Value built per comparison
    if (const Order o = quick_order(a, b); o != Order::Unknown) return o == Order::Less;
    return general_less(rt, a, b, fn);
}

namespace {

Value sorted(Runtime& rt, const CallArgs& a) {
    positional_only("sorted", a, 1, 1);  // (the count, then the keywords, before the value is read: as the binder checks)
    only_keywords("sorted", a, {"key", "reverse"});
    return Value::list(sort_values(rt, items_of(rt, a.positional[0], "sorted"), a, "sorted"));
}

}  // namespace

std::vector<Value> sort_values(Runtime& rt, std::vector<Value> xs, const CallArgs& a, const std::string& fn) {
    only_keywords(fn, a, {"key", "reverse"});
    bool reverse = false;
    if (const Value* r = keyword(a, "reverse")) {
        if (has_symbolic(*r)) dynamic_value_error(fn + ": argument `reverse` must be static inside a @graph function");
        try {
            reverse = truth(*r);
        } catch (const stdlib::OpError& e) {
            throw Error(fn + ": argument `reverse`: " + e.what());
        }
    }
    std::vector<Value> keys = xs;
    if (const Value* key = keyword(a, "key"); key && !key->is(Kind::None)) {
        for (size_t i = 0; i < xs.size(); ++i) {
            Value arg[1] = {xs[i]};
            keys[i] = Evaluator(rt).call(*key, CallArgs{arg, {}, {}, a.loc},
                                         rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
        }
    }
    std::vector<size_t> order(xs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    // Python's reverse=True keeps equal items in their original order too
    if (const std::optional<FlatKeys> flat = FlatKeys::of(keys))  // numbers, strings, tuples of them
        std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) {
            return reverse ? flat->order(j, i) == Order::Less : flat->order(i, j) == Order::Less;
        });
    else
        std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) {
            return reverse ? less(rt, keys[j], keys[i], fn) : less(rt, keys[i], keys[j], fn);
        });
    std::vector<Value> out;
    out.reserve(xs.size());
    for (size_t i : order) out.push_back(std::move(xs[i]));
    return out;
}

namespace {

// A literal number (or bool), or a nested list of them: what NumPy would turn into an array.
bool numpy_item(const Value& v) {
    if (v.is_sequence()) return std::all_of(v.items().begin(), v.items().end(), numpy_item);
    if (!v.is_tensor() || has_symbolic(v) || has_tracked(v)) return false;
    const stdlib::TensorType t = v.tensor_type();
    return t.shape.rank() == 0 && (t.weak || t.dtype == stdlib::DType::Bool);
}

// Nested lists of one shape (a ragged one is no NumPy array: Python's order
// compares its items)
bool rectangular(const Value& v) {
    if (!v.is_sequence() || v.items().empty()) return true;
    const Value& first = v.items()[0];
    for (const Value& x : v.items()) {
        if (x.is_sequence() != first.is_sequence()) return false;
        if (x.is_sequence() && (x.items().size() != first.items().size() || !rectangular(x))) return false;
    }
    return true;
}

}  // namespace

// docs/builtins.md "sum, min and max of a list": with one list or tuple of
// tensors or strings, Python's meaning; with numbers, nested lists or any
// other argument, the tensor reduction (NumPy's).
std::optional<Value> python_fold(Runtime& rt, const CallArgs& a, PythonFold which) {
    if (a.positional.size() != 1 || !a.keywords.empty() || !a.positional[0].is_sequence()) return std::nullopt;
    const std::span<const Value> xs = a.positional[0].items();
    if (xs.empty() || (std::all_of(xs.begin(), xs.end(), numpy_item) && rectangular(a.positional[0])))
        return std::nullopt;
    if (which == PythonFold::Sum) {
        // Python's sum: 0 + x0 + x1 + ..., left to right (`sum(losses)`)
        Value acc = Value::from_int(0);
        for (const Value& x : xs) acc = binary(rt, lang::BinOp::Add, acc, x);
        return acc;
    }
    // min/max of tensors are the reduction of their stack (a list of 1-d
    // tensors has no Python order), stacked by the op so that it traces and
    // differentiates; strings, tuples and None compare with `<`
    const std::string fn = which == PythonFold::Max ? "max" : "min";
    const stdlib::OpDef& fold = stdlib::op_of(which == PythonFold::Max ? stdlib::ReduceKind::Max : stdlib::ReduceKind::Min);
    if (std::any_of(xs.begin(), xs.end(), [](const Value& x) { return x.is_tensor(); })) {
        Value list[1] = {a.positional[0]};
        Value stacked[1] = {call_op(rt, stdlib::op_of(stdlib::OtherKind::Stack), CallArgs{list, {}, {}, a.loc})};
        return call_op(rt, fold, CallArgs{stacked, {}, {}, a.loc});
    }
    size_t best = 0;
    for (size_t i = 1; i < xs.size(); ++i)
        if (which == PythonFold::Max ? less(rt, xs[best], xs[i], fn) : less(rt, xs[i], xs[best], fn)) best = i;
    return xs[best];
}

void add_sequence_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const char* name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)})));
    };
    add("enumerate", enumerate);
    add("zip", zip);
    add("sorted", sorted);
    add("reversed", reversed);
    // list(xs) / tuple(xs): a new sequence of xs's items (a list, tuple, str or a tensor's rows)
    for (bool as_list : {true, false}) {
        const char* name = as_list ? "list" : "tuple";
        add(name, [name, as_list](Runtime& rt, const CallArgs& a) {
            positional_only(name, a, 0, 1);
            only_keywords(name, a, {});
            std::vector<Value> xs;
            if (!a.positional.empty()) xs = items_of(rt, a.positional[0], name);
            return as_list ? Value::list(std::move(xs)) : Value::tuple(std::move(xs));
        });
    }
    // Python floats: weak, so `f64_tensor * pi` computes in f64 with pi's exact value
    out.emplace_back("pi", Value::weak_float(std::numbers::pi));
    out.emplace_back("e", Value::weak_float(std::numbers::e));
    out.emplace_back("inf", Value::weak_float(INFINITY));
    out.emplace_back("nan", Value::weak_float(NAN));
}

}  // namespace tg::interp
