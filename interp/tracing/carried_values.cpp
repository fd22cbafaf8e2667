// interp's values for the conversion's policy (carried_values.hpp).
#include "interp/tracing/carried_values.hpp"

#include "interp/values/dict.hpp"
#include "interp/values/printing.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

using tracer::Mismatch;

namespace {

// A batched value (vmap, docs/training.md "vmap") is carried as its value
// with the batch axis: the skeleton keeps the wrapper.
void collect_leaves(const Value& v, std::vector<Value>& out, bool batched_leaves) {
    if (const BatchObj* b = v.batched(); b && !batched_leaves) return collect_leaves(b->value, out, false);
    if (v.is_tensor()) {
        out.push_back(v);
        return;
    }
    if (v.sym_str()) unsupported_in_graph("a string showing tensor values carried through converted control flow");
    if (const auto xs = v.children())
        for (const Value& x : *xs) collect_leaves(x, out, batched_leaves);
}

Value rebuild(const Value& skeleton, std::span<const Value> leaves, size_t& k, bool batched_leaves) {
    if (const BatchObj* b = skeleton.batched(); b && !batched_leaves) {
        auto r = std::make_shared<BatchObj>(*b);
        r->value = rebuild(b->value, leaves, k, false);
        return Value::batched(std::move(r));
    }
    if (skeleton.is_tensor()) return leaves[k++];
    if (const auto xs = skeleton.children()) {
        std::vector<Value> items;
        for (const Value& x : *xs) items.push_back(rebuild(x, leaves, k, batched_leaves));
        return skeleton.with_children(std::move(items));
    }
    return skeleton;
}

std::string describe_static(const Value& v) {
    if (v.is(Kind::Str) && !v.sym_str()) return quote(v.text());
    if (has_symbolic(v)) return "a string showing tensor values";
    return str_of(v);
}

// Two dicts with different keys: the first key only one has, or their orders.
std::optional<Mismatch> keys_diff(const DictObj& a, const DictObj& b) {
    if (a.keys() == b.keys()) return std::nullopt;
    for (const DictKey& k : a.keys())
        if (!b.find(k)) return Mismatch{Mismatch::Key, key_repr(k), "first", ""};
    for (const DictKey& k : b.keys())
        if (!a.find(k)) return Mismatch{Mismatch::Key, key_repr(k), "second", ""};
    return Mismatch{Mismatch::KeyOrder, keys_repr(a), keys_repr(b), ""};
}

}  // namespace

tracer::CarriedParts<Value> CarriedValues::parts(const Value& v) const {
    if (const MaybeUndefObj* m = v.maybe_undef()) return {&m->inner, m->flag, m->none, !m->none};
    if (!v.defined()) return {nullptr, Value::from_bool(false), false, true};
    return {&v, Value::from_bool(true)};
}

bool CarriedValues::has_value(const Value& v) const {
    if (const MaybeUndefObj* m = v.maybe_undef()) return m->inner.defined();
    return v.defined() && !v.is(Kind::None);
}

bool CarriedValues::is_static(const Value& v) const { return !has_symbolic(v) && !v.maybe_undef() && v.defined(); }

std::vector<Value> CarriedValues::leaves(const Value& v) const {
    std::vector<Value> out;
    collect_leaves(v, out, batched_leaves);
    return out;
}

std::optional<Mismatch> CarriedValues::structure_diff(const Value& a, const Value& b) const {
    const BatchObj *ba = batched_leaves ? nullptr : a.batched(), *bb = batched_leaves ? nullptr : b.batched();
    if (ba && bb && ba->serial == bb->serial && ba->dim == bb->dim) return structure_diff(ba->value, bb->value);
    if (ba || bb)
        return Mismatch{Mismatch::Kind, ba ? "a batched tensor" : "a tensor", bb ? "a batched tensor" : "a tensor", ""};
    if (a.is_tensor() && b.is_tensor()) return std::nullopt;
    if (a.kind() != b.kind())
        return Mismatch{Mismatch::Kind, std::string("a ") + kind_name(a.kind()), std::string("a ") + kind_name(b.kind()), ""};
    if (a.is_sequence()) {
        if (a.items().size() != b.items().size())
            return Mismatch{Mismatch::Length, std::to_string(a.items().size()), std::to_string(b.items().size()), ""};
        for (size_t i = 0; i < a.items().size(); ++i)
            if (auto d = structure_diff(a.items()[i], b.items()[i])) return d;
        return std::nullopt;
    }
    if (a.is(Kind::Dict)) {
        if (auto d = keys_diff(a.dict(), b.dict())) return d;
        for (size_t i = 0; i < a.dict().size(); ++i)
            if (auto d = structure_diff(a.dict().values()[i], b.dict().values()[i])) return d;
        return std::nullopt;
    }
    if (!a.identical(b)) return Mismatch{Mismatch::Value, describe_static(a), describe_static(b), ""};
    return std::nullopt;
}

void CarriedValues::unsupported(const std::string& what) const { unsupported_in_graph(what); }

Value rebuild_from_leaves(const Value& skeleton, std::span<const Value> leaves, bool batched_leaves) {
    size_t k = 0;
    return rebuild(skeleton, leaves, k, batched_leaves);
}

Value make_maybe(Value inner, Value flag, bool none) {
    return Value::maybe_undefined(std::make_shared<const MaybeUndefObj>(MaybeUndefObj{std::move(inner), std::move(flag), none}));
}

}  // namespace tg::interp
