#include "interp/values/set.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "interp/control.hpp"
#include "interp/check_args.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "interp/suggest.hpp"
#include "interp/values/dict.hpp"

namespace tg::interp {

DictKey set_element(const Runtime& rt, const Value& v) { return dict_key(rt, v, KeyUse::SetElement); }

std::string set_str(const SetObj& s) {
    if (s.items.empty()) return "set()";  // `{}` is a dict
    std::string out = "{";
    for (const DictKey& k : s.items) {
        if (out.size() > 1) out += ", ";
        stdlib::poll_limits();
        out += key_repr(k);
    }
    return out + "}";
}

std::vector<Value> set_values(const SetObj& s) {
    std::vector<Value> out;
    out.reserve(s.size());
    for (const DictKey& k : s.items) out.push_back(key_value(k));
    return out;
}

SetObj set_from(Runtime& rt, const Value& iterable, const std::string& what) {
    if (iterable.is(Kind::Set)) return iterable.set();
    std::optional<Iterable> it;
    try {
        it.emplace(iterable, rt);
    } catch (Error& e) {
        throw Error(what + ": " + e.message());
    }
    stdlib::check_fits(Value::set_bytes(static_cast<size_t>(it->size())), "a set");
    SetObj out;
    for (int64_t i = 0; i < it->size(); ++i) {
        stdlib::spend_work(1);
        out.items.insert(set_element(rt, it->item(i)));
    }
    return out;
}

namespace {

enum class SetOp { Union, Intersection, Difference, Symmetric };

// One pass over both (sorted) sets.
SetObj combine(SetOp op, const SetObj& a, const SetObj& b) {
    stdlib::spend_work(static_cast<int64_t>(a.size() + b.size()));
    stdlib::check_fits(Value::set_bytes(op == SetOp::Intersection ? std::min(a.size(), b.size()) : a.size() + b.size()),
                       "a set");
    SetObj out;
    auto into = std::inserter(out.items, out.items.end());
    const auto &x = a.items, &y = b.items;
    switch (op) {
    case SetOp::Union: std::set_union(x.begin(), x.end(), y.begin(), y.end(), into, SetOrder{}); break;
    case SetOp::Intersection: std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), into, SetOrder{}); break;
    case SetOp::Difference: std::set_difference(x.begin(), x.end(), y.begin(), y.end(), into, SetOrder{}); break;
    case SetOp::Symmetric:
        std::set_symmetric_difference(x.begin(), x.end(), y.begin(), y.end(), into, SetOrder{});
        break;
    }
    return out;
}

bool subset(const SetObj& a, const SetObj& b) {
    stdlib::spend_work(static_cast<int64_t>(a.size() + b.size()));
    return a.size() <= b.size() && std::includes(b.items.begin(), b.items.end(), a.items.begin(), a.items.end(), SetOrder{});
}

void takes(const std::string& fn, const CallArgs& a, size_t lo, size_t hi) {
    if (!a.keywords.empty()) throw Error(fn + ": unknown keyword argument `" + std::string(a.keywords[0].name) + "`");
    const size_t n = a.positional.size();
    if (n >= lo && n <= hi) return;
    const std::string want = lo == hi ? std::to_string(lo) : hi == SIZE_MAX ? "any number of" : std::to_string(lo) + " to " + std::to_string(hi);
    throw Error(fn + ": takes " + want + (lo == hi && hi == 1 ? " argument" : " arguments") + " but " + std::to_string(n) +
                (n == 1 ? " was given" : " were given"));
}

// add, discard, remove, pop: one element in or out.
Value element_method(Runtime& rt, const std::string& fn, Value& set, const CallArgs& a) {
    if (fn == "pop") {
        takes(fn, a, 0, 0);
        if (set.set().items.empty()) throw Error("pop from an empty set");
        SetObj& s = set.set_mut();
        Value out = key_value(*s.items.begin());
        s.items.erase(s.items.begin());
        return out;
    }
    takes(fn, a, 1, 1);
    DictKey k = set_element(rt, a.positional[0]);
    const bool present = set.set().items.count(k) != 0;
    if (fn == "add") {
        if (!present) set.set_mut().items.insert(std::move(k));
    } else if (present) {
        set.set_mut().items.erase(k);
    } else if (fn == "remove") {
        throw Error("element " + key_repr(k) + " is not in the set");
    }
    return Value::none();
}

// union, intersection, difference (of any number of iterables), symmetric_difference (of one), their
// `_update` forms (`update` is union's), and the tests issubset, issuperset, isdisjoint.
Value combining_method(Runtime& rt, const std::string& fn, Value& set, const CallArgs& a) {
    const bool test = fn.starts_with("is"), update = fn.ends_with("update");
    const std::string op = fn == "update" ? "union" : update ? fn.substr(0, fn.size() - 7) : fn;
    const bool one = test || op == "symmetric_difference";
    takes(fn, a, one ? 1 : 0, one ? 1 : SIZE_MAX);
    auto argument = [&](size_t i) { return fn + ": argument " + std::to_string(i + 1); };
    if (test) {
        const SetObj other = set_from(rt, a.positional[0], argument(0));
        if (fn == "issubset") return Value::from_bool(subset(set.set(), other));
        if (fn == "issuperset") return Value::from_bool(subset(other, set.set()));
        return Value::from_bool(combine(SetOp::Intersection, set.set(), other).items.empty());
    }
    if (fn == "update") {  // in place: a loop of small updates stays linear
        for (size_t i = 0; i < a.positional.size(); ++i) {
            const SetObj other = set_from(rt, a.positional[i], argument(i));
            set.set_mut().items.insert(other.items.begin(), other.items.end());
        }
        return Value::none();
    }
    const SetOp kind = op == "union" ? SetOp::Union
                     : op == "intersection" ? SetOp::Intersection
                     : op == "difference" ? SetOp::Difference
                                          : SetOp::Symmetric;
    SetObj out = set.set();
    for (size_t i = 0; i < a.positional.size(); ++i) out = combine(kind, out, set_from(rt, a.positional[i], argument(i)));
    if (!update) return Value::set(std::move(out));
    set = Value::set(std::move(out));
    return Value::none();
}

}  // namespace

Value call_set_method(Runtime& rt, Method m, Value& set, const CallArgs& a) {
    const std::string_view name = m.name();
    check_method_arguments(m, a);  // what each takes: interp/method_signatures.cpp
    const std::string fn(name);
    if (name == "add" || name == "discard" || name == "remove" || name == "pop") return element_method(rt, fn, set, a);
    if (name == "clear" || name == "copy") {
        takes(fn, a, 0, 0);
        if (name == "copy") return set;  // value semantics: the value is its own copy
        set = Value::set(SetObj{});
        return Value::none();
    }
    return combining_method(rt, fn, set, a);
}

std::optional<Value> set_binary(lang::BinOp op, const SetObj& a, const SetObj& b) {
    switch (op) {
    case lang::BinOp::BitOr: return Value::set(combine(SetOp::Union, a, b));
    case lang::BinOp::BitAnd: return Value::set(combine(SetOp::Intersection, a, b));
    case lang::BinOp::Sub: return Value::set(combine(SetOp::Difference, a, b));
    case lang::BinOp::BitXor: return Value::set(combine(SetOp::Symmetric, a, b));
    default: return std::nullopt;
    }
}

bool set_compare(lang::CmpOp op, const SetObj& a, const SetObj& b) {
    switch (op) {
    case lang::CmpOp::Lt: return a.size() < b.size() && subset(a, b);
    case lang::CmpOp::Le: return subset(a, b);
    case lang::CmpOp::Gt: return b.size() < a.size() && subset(b, a);
    default: return subset(b, a);  // >=
    }
}

void add_set_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto set = [](Runtime& rt, const CallArgs& a) {
        static const SignatureCheck check("set(iterable=(), /)");  // parsed once per process
        check(a);  // docs/builtins.md
        if (a.positional.empty()) return Value::set(SetObj{});
        return Value::set(set_from(rt, a.positional[0], "set: argument `iterable`"));
    };
    out.emplace_back("set", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"set", set})));
}

}  // namespace tg::interp
