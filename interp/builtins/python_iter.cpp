// Python's map and filter, and Python's forms of min and max (docs/builtins.md,
// "Host-side builtins"; docs/language.md "Sequence builtins and constants").
//
// Decisions: map and filter return lists, as enumerate and zip do (tg has
// no lazy iterators; `list(map(f, xs))` is the same list). They walk what a
// `for` loop walks. min and max keep NumPy's reductions (`min(x, axis)`)
// and take Python's forms where NumPy has none: a `key` or `default`
// keyword, three or more values, strings and dicts. Inside @graph a choice
// that depends on tensor contents (a filter's predicate, the order of min's
// keys) is a trace error, as for sorted.
#include <algorithm>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/check_args.hpp"
#include "interp/control.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

namespace {

Value call_value(Runtime& rt, const Value& f, std::span<const Value> args, lang::Loc loc) {
    return Evaluator(rt).call(f, CallArgs{args, {}, {}, loc}, rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
}

bool is_function(const Value& v) {
    return v.is(Kind::Function) || v.is(Kind::Builtin) || v.is(Kind::BoundMethod) || v.is(Kind::Graph) ||
           v.is(Kind::DType);
}

// map(f, *iterables): f of the items at each position, up to the shortest
Value map(Runtime& rt, const CallArgs& a) {
    static const SignatureCheck check("map(f, xs, /, *more)");  // parsed once per process
    check(a);  // docs/builtins.md
    const Value& f = a.positional[0];
    if (!is_function(f)) throw Error(std::string("map: argument `function` must be a function, not ") + kind_name(f.kind()));
    std::vector<std::vector<Value>> seqs;
    size_t n = SIZE_MAX;
    for (size_t k = 1; k < a.positional.size(); ++k) {
        seqs.push_back(items_of(rt, a.positional[k], "map: argument " + std::to_string(k + 1)));
        n = std::min(n, seqs.back().size());
    }
    std::vector<Value> out;
    out.reserve(n);
    std::vector<Value> args(seqs.size());
    for (size_t i = 0; i < n; ++i) {
        for (size_t k = 0; k < seqs.size(); ++k) args[k] = seqs[k][i];
        out.push_back(call_value(rt, f, args, a.loc));
    }
    return Value::list(std::move(out));
}

// filter(f, iterable): the items for which f(item) is true; f None: the true items
Value filter(Runtime& rt, const CallArgs& a) {
    static const SignatureCheck check("filter(f, xs, /)");  // parsed once per process
    check(a);  // docs/builtins.md
    const Value& f = a.positional[0];
    if (!f.is(Kind::None) && !is_function(f))
        throw Error(std::string("filter: argument `function` must be a function or None, not ") + kind_name(f.kind()));
    std::vector<Value> out;
    for (Value& v : items_of(rt, a.positional[1], "filter: argument 2")) {
        Value arg[1] = {v};
        const Value keep = f.is(Kind::None) ? v : call_value(rt, f, arg, a.loc);
        if (has_symbolic(keep))
            dynamic_value_error("filter: which items are kept depends on the contents of a tensor inside a @graph "
                                "function; select with a mask or where() instead");
        bool t = false;
        try {
            t = truth(keep);
        } catch (const stdlib::OpError& e) {
            throw Error(std::string("filter: ") + e.what());
        }
        if (t) out.push_back(std::move(v));
    }
    return Value::list(std::move(out));
}

bool python_form(const CallArgs& a) {
    if (keyword(a, "key") || keyword(a, "default")) return true;
    const size_t n = a.positional.size();
    if (n == 0) return false;
    const Value& x = a.positional[0];
    if (x.is(Kind::Str) || x.is(Kind::Dict)) return true;  // NumPy has no order of strings or dicts
    if (n == 3) return !(a.positional[2].is_tensor() && a.positional[2].tensor_type().dtype == stdlib::DType::Bool);
    return n > 3;  // NumPy's third argument is keepdims, a bool
}

}  // namespace

std::optional<Value> python_min_max(Runtime& rt, const CallArgs& a, bool is_max) {
    if (!python_form(a)) return std::nullopt;
    const std::string fn = is_max ? "max" : "min";
    only_keywords(fn, a, {"key", "default"});
    const Value* key = keyword(a, "key");
    if (key && key->is(Kind::None)) key = nullptr;
    if (key && !is_function(*key))
        throw Error(fn + ": argument `key` must be a function, not " + std::string(kind_name(key->kind())));
    const Value* deflt = keyword(a, "default");
    if (a.positional.empty()) throw Error(fn + ": expected at least 1 argument, got 0");
    std::vector<Value> xs;
    if (a.positional.size() == 1) xs = items_of(rt, a.positional[0], fn);
    else {
        if (deflt) throw Error(fn + ": cannot give `default` with two or more positional arguments (Python's rule)");
        xs.assign(a.positional.begin(), a.positional.end());
    }
    if (xs.empty()) {
        if (deflt) return *deflt;
        throw Error(fn + ": the iterable is empty (give `default=` for that case)");
    }
    std::vector<Value> keys = xs;
    if (key)
        for (size_t i = 0; i < xs.size(); ++i) keys[i] = call_value(rt, *key, std::span<const Value>(&xs[i], 1), a.loc);
    size_t best = 0;  // the first smallest / largest, as Python
    for (size_t i = 1; i < xs.size(); ++i)
        if (is_max ? less(rt, keys[best], keys[i], fn) : less(rt, keys[i], keys[best], fn)) best = i;
    return xs[best];
}

void add_iter_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const char* name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)})));
    };
    add("map", map);
    add("filter", filter);
}

}  // namespace tg::interp
