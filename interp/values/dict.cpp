#include "interp/values/dict.hpp"

#include <algorithm>

#include "interp/control.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "interp/values/printing.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

std::string kind_desc(const Value& v) {
    if (v.is_tensor()) {
        const stdlib::TensorType t = v.tensor_type();
        if (t.shape.rank() > 0) return "a tensor of shape " + t.shape.to_string();
        if (t.dtype == stdlib::DType::Bool) return "a bool";
        return std::string(stdlib::is_float(t.dtype) ? "a float (" : "an int (") + stdlib::dtype_name(t.dtype) + ")";
    }
    if (v.is(Kind::None)) return "None";
    return std::string("a ") + kind_name(v.kind());
}

DictKey dict_key(const Runtime& rt, const Value& k, KeyUse use) {
    // a string or an int first (almost every key): neither shows traced values
    if (const auto* obj = k.str_obj()) return DictKey(*obj);
    if (const Scalar* s = k.scalar(); s && stdlib::is_int(s->dtype) && s->dtype != stdlib::DType::Bool)
        return DictKey::of_int(s->i);
    if (k.sym_str() || (k.is_symbolic() && k.tensor_type().shape.rank() == 0)) {
        const std::string msg = std::string(use == KeyUse::DictKey ? "a dict key" : "a set element") +
                                " must be static inside a @graph function, but this one depends on the contents of a tensor";
        if (rt.trace && k.is_symbolic()) dynamic_value_error(*rt.trace, msg, k);
        dynamic_value_error(msg);
    }
    return dict_key(k, use);
}

DictKey dict_key(const Value& k, KeyUse use) {
    if (k.is(Kind::Str)) {
        if (const auto* obj = k.str_obj()) return DictKey(*obj);  // the string shared, not copied
        return DictKey::of_str(k.text());  // (text() says why a string showing traced values cannot be one)
    }
    if (const Scalar* s = k.scalar(); s && stdlib::is_int(s->dtype) && s->dtype != stdlib::DType::Bool)
        return DictKey::of_int(s->i);
    if (k.is_tensor()) {
        const stdlib::TensorType t = k.tensor_type();
        if (t.shape.rank() == 0 && stdlib::is_int(t.dtype) && t.dtype != stdlib::DType::Bool)
            return DictKey::of_int(k.tensor().item_i64());
    }
    throw Error(std::string(use == KeyUse::DictKey ? "dict keys" : "set elements") +
                " must be strings or integers, not " + kind_desc(k));
}

Value key_value(const DictKey& k) { return k.is_int() ? Value::from_int(k.i()) : Value::str(k.str_obj()); }

std::string key_repr(const DictKey& k) { return k.is_int() ? std::to_string(k.i()) : quote(k.s()); }

std::string keys_repr(const DictObj& d) {
    std::string out = "[";
    for (size_t i = 0; i < d.keys().size(); ++i) out += (i ? ", " : "") + key_repr(d.keys()[i]);
    return out + "]";
}

std::string child_suffix(const Value& container, size_t i) {
    if (container.is(Kind::Dict)) return "[" + key_repr(container.dict().keys()[i]) + "]";
    return "[" + std::to_string(i) + "]";
}

void missing_key(const DictKey& k) { throw Error("key " + key_repr(k) + " is not in the dict"); }

const Value& dict_item(const Runtime& rt, const Value& d, const Value& k) {
    DictKey key = dict_key(rt, k);
    const Value* v = d.dict().find(key);
    if (!v) missing_key(key);
    return *v;
}

namespace {

void arity(std::string_view name, const CallArgs& a, size_t lo, size_t hi) {
    const size_t n = a.positional.size();
    if (n < lo || n > hi)
        throw Error(arity_error(name, lo, hi, n, ArityWording::Method));
}

// The optional second argument `default` (positional or keyword; the
// method's signature is checked), or null.
const Value* default_arg(const CallArgs& a) {
    if (a.positional.size() > 1) return &a.positional[1];
    return a.keywords.empty() ? nullptr : &a.keyword_values[0];
}

// Adds to `d` the entries of a dict, or of a list/tuple of (key, value)
// pairs (what `update` and `dict` take); `what` names the argument.
void merge(const Runtime& rt, DictObj& d, const Value& from, const std::string& what) {
    if (from.is(Kind::Dict)) {
        const DictObj& src = from.dict();
        if (&src == &d) return;  // (d merged into itself: nothing changes)
        for (size_t i = 0; i < src.size(); ++i) d.set(src.keys()[i], src.values()[i]);
        return;
    }
    if (!from.is_sequence())
        throw Error(what + " must be a dict or a list of (key, value) pairs, not " + kind_desc(from));
    const std::span<const Value> items = from.items();  // (read in place: making keys runs no tg code)
    if (d.slots() == 0) d.reserve(items.size());  // (only a new dict: update in a loop keeps the growth geometric)
    for (size_t i = 0; i < items.size(); ++i) {
        const Value& p = items[i];
        if (!p.is_sequence() || p.items().size() != 2)
            throw Error(what + ": item " + std::to_string(i) + " must be a (key, value) pair, not " +
                        (p.is_sequence() ? std::string("a ") + kind_name(p.kind()) + " of length " +
                                               std::to_string(p.items().size())
                                         : kind_desc(p)));
        d.set(dict_key(rt, p.items()[0]), p.items()[1]);
    }
}

void merge_keywords(DictObj& d, const CallArgs& a) {
    for (size_t k = 0; k < a.keywords.size(); ++k)
        d.set(DictKey::of_str(std::string(a.keywords[k].name)), a.keyword_values[k]);
}

}  // namespace

Value call_dict_method(Runtime& rt, Method m, Value& dict, const CallArgs& a) {
    const std::string_view name = m.name();
    check_method_arguments(m, a);  // what each takes: interp/method_signatures.cpp
    if (name == "keys" || name == "values" || name == "items" || name == "copy" || name == "clear") {
        const DictObj& d = dict.dict();
        if (name == "copy") return dict;  // value semantics: the value is its own copy
        if (name == "clear") {
            dict = Value::dict(DictObj{});
            return Value::none();
        }
        std::vector<Value> out;
        out.reserve(d.size());
        for (size_t i = 0; i < d.size(); ++i) {
            if (name == "keys") out.push_back(key_value(d.keys()[i]));
            else if (name == "values") out.push_back(d.values()[i]);
            else
                out.push_back(Value::tuple_filled(2, [&](TupleItems& kv) {  // one allocation (no vector)
                    kv.push_back(key_value(d.keys()[i]));
                    kv.push_back(d.values()[i]);
                }));
        }
        return Value::list(std::move(out));
    }
    if (name == "update") {
        DictObj& d = dict.dict_mut();
        if (!a.positional.empty()) merge(rt, d, a.positional[0], "update: argument `other`");
        merge_keywords(d, a);
        return Value::none();
    }
    // get, pop, setdefault: a key and an optional default
    const Value* dflt = default_arg(a);
    const DictKey key = dict_key(rt, a.positional[0]);
    if (name == "get") {
        const Value* v = dict.dict().find(key);
        return v ? *v : dflt ? *dflt : Value::none();
    }
    if (name == "setdefault") {
        if (const Value* v = dict.dict().find(key)) return *v;
        Value v = dflt ? *dflt : Value::none();
        dict.dict_mut().set(key, v);
        return v;
    }
    // pop
    const Value* v = dict.dict().find(key);
    if (!v) {
        if (dflt) return *dflt;
        missing_key(key);
    }
    Value out = *v;
    dict.dict_mut().erase(key);
    return out;
}

void add_dict_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto dict = [](Runtime& rt, const CallArgs& a) {
        arity("dict", a, 0, 1);
        DictObj d;
        if (!a.positional.empty()) merge(rt, d, a.positional[0], "dict: argument `pairs`");
        merge_keywords(d, a);
        return Value::dict(std::move(d));
    };
    out.emplace_back("dict", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"dict", dict})));
}

}  // namespace tg::interp
