#include "interp/values/value.hpp"

#include <cstring>
#include <tuple>

#include "interp/batching/batching.hpp"
#include "interp/values/tensor_box.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

const char* kind_name(Kind k) {
    switch (k) {
    case Kind::Undefined: return "undefined";
    case Kind::None: return "None";
    case Kind::Tensor: return "tensor";
    case Kind::List: return "list";
    case Kind::Tuple: return "tuple";
    case Kind::Str: return "str";
    case Kind::Function: case Kind::Builtin: case Kind::BoundMethod: return "function";
    case Kind::DType: return "dtype";
    case Kind::Module: return "module";
    case Kind::Dict: return "dict";
    case Kind::Set: return "set";
    case Kind::Graph: return "graph";
    case Kind::Spec: return "spec";
    }
    return "?";
}

Scalar Scalar::from_tensor(const stdlib::Tensor& t) {
    using stdlib::DType;
    if (stdlib::is_float(t.dtype())) return of_float(t.item_f64(), t.dtype(), t.weak());
    if (t.dtype() == DType::Bool) return of_bool(t.item_bool());
    return of_int(t.item_i64(), t.dtype(), t.weak());
}

stdlib::Tensor Scalar::to_tensor() const {
    using stdlib::DType;
    using stdlib::Tensor;
    if (weak) return stdlib::is_float(dtype) ? Tensor::weak_float(f) : Tensor::weak_int(i);
    switch (dtype) {
    case DType::Bool: return Tensor::scalar(i != 0);
    case DType::I32: case DType::I64: return Tensor::scalar(i, dtype);
    default: return Tensor::scalar(f, dtype);
    }
}

std::shared_ptr<stdlib::Tensor> Value::box(stdlib::Tensor t) {
    return std::allocate_shared<stdlib::Tensor>(BoxAllocator<stdlib::Tensor>(), std::move(t));
}

Value::Value(stdlib::Tensor t) {
    if (t.rank() == 0) v_ = Scalar::from_tensor(t);
    else v_ = box(std::move(t));
}

stdlib::Tensor Value::tensor() const {
    if (const Scalar* s = scalar()) return s->to_tensor();
    if (const GradObj* g = tracked()) return g->primal.tensor();
    if (batched()) batched_data_error(*this);
    if (const auto* t = v_.get_if<std::shared_ptr<stdlib::Tensor>>()) return **t;
    if (is_symbolic()) unsupported_in_graph("this operation on a traced tensor");
    throw Error(std::string("internal error: a ") + kind_name(kind()) + " is not a tensor");
}

stdlib::Tensor& Value::tensor_mut() {
    if (const Scalar* s = scalar()) v_ = box(s->to_tensor());
    if (const GradObj* g = tracked()) v_ = box(g->primal.tensor());  // (in-place writes go through autodiff first)
    if (batched()) batched_data_error(*this);
    if (is_symbolic()) unsupported_in_graph("this operation on a traced tensor");
    auto& held = v_.get<std::shared_ptr<stdlib::Tensor>>();
    if (held.use_count() != 1) held = box(stdlib::Tensor(*held));  // another value holds this box
    return *held;
}

const std::string& Value::text() const {
    if (auto* p = v_.get_if<std::shared_ptr<const StrObj>>()) return (*p)->text;
    if (sym_str()) unsupported_in_graph("this operation on a string that shows tensor values");
    throw Error(std::string("internal error: a ") + kind_name(kind()) + " is not a str");
}

Value Value::tracked(std::shared_ptr<const GradObj> g) {
    Value v;
    v.v_ = std::move(g);
    return v;
}
Value Value::batched(std::shared_ptr<const BatchObj> b) {
    Value v;
    v.v_ = std::move(b);
    return v;
}
const SymObj* Value::tracked_sym() const { return tracked()->primal.sym(); }

Value Value::symbolic(uint32_t id, const stdlib::TensorType& t) {
    Value v;
    v.v_ = std::shared_ptr<const SymObj>(std::make_shared<SymObj>(SymObj{id, t}));
    return v;
}
Value Value::maybe_undefined(std::shared_ptr<const MaybeUndefObj> m) {
    Value v;
    v.v_ = std::move(m);
    return v;
}
Value Value::symbolic_str(std::shared_ptr<const SymStrObj> s) {
    Value v;
    v.v_ = std::move(s);
    return v;
}

stdlib::TensorType Value::tensor_type() const {
    if (const Scalar* s = scalar()) return {s->dtype, {}, s->weak};
    if (const GradObj* g = tracked()) return g->primal.tensor_type();
    if (const BatchObj* b = batched()) return example_type(*b);
    if (const SymObj* s = sym()) return s->type;
    const auto& t = *v_.get<std::shared_ptr<stdlib::Tensor>>();
    return {t.dtype(), t.shape(), t.weak()};
}

bool Value::identical(const Value& o) const {
    if (v_.index() != o.v_.index()) return false;
    if (const GradObj* a = tracked()) return a == o.tracked();
    if (const BatchObj* a = batched()) return a == o.batched();
    if (const Scalar* a = scalar()) {
        const Scalar* b = o.scalar();
        return a->dtype == b->dtype && a->weak == b->weak && std::memcmp(&a->i, &b->i, sizeof a->i) == 0;
    }
    if (const SymObj* a = sym()) return a->id == o.sym()->id;
    if (auto* box = v_.get_if<std::shared_ptr<stdlib::Tensor>>()) {
        const stdlib::Tensor* a = box->get();
        const auto& b = *o.v_.get<std::shared_ptr<stdlib::Tensor>>();
        return a->shares_buffer_with(b) && a->raw_data() == b.raw_data() && a->shape() == b.shape() &&
               a->strides() == b.strides() && a->dtype() == b.dtype();
    }
    switch (kind()) {
    case Kind::None: return true;
    case Kind::Undefined:
        if (maybe_undef()) return maybe_undef() == o.maybe_undef();
        return true;
    case Kind::DType: return dtype() == o.dtype();
    case Kind::Module: return module() == o.module();
    case Kind::Function: return function_ptr() == o.function_ptr();
    case Kind::Builtin: return &builtin() == &o.builtin();
    case Kind::BoundMethod: return &bound() == &o.bound();
    case Kind::Graph: return &graph() == &o.graph();
    case Kind::Spec: return &spec() == &o.spec();
    case Kind::Str:
        if (sym_str()) return sym_str() == o.sym_str();
        return text() == o.text();
    case Kind::List: case Kind::Tuple: {
        const std::span<const Value> x = items(), y = o.items();
        if (x.data() == y.data()) return true;
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!x[i].identical(y[i])) return false;
        return true;
    }
    case Kind::Set: return &set() == &o.set() || set().items == o.set().items;
    case Kind::Dict: {
        const DictObj& x = dict();
        const DictObj& y = o.dict();
        if (&x == &y) return true;
        if (x.keys() != y.keys()) return false;
        for (size_t i = 0; i < x.values().size(); ++i)
            if (!x.values()[i].identical(y.values()[i])) return false;
        return true;
    }
    default: return false;
    }
}

// Every variable slot, list item, tuple item and dict value is one: a
// Value that grows costs memory and time everywhere (docs/performance.md).
static_assert(sizeof(Value) <= 24, "a Value is a variant of 16-byte alternatives");
static_assert(sizeof(StrObj) <= 72, "a string object and its control block fit malloc's 96-byte size");
static_assert(sizeof(DictObj) <= 152, "a dict object and its control block fit malloc's 176-byte size");
static_assert(sizeof(TupleObj) <= 96, "a pair (items inside) and its control block fit malloc's 128-byte size");

size_t Value::dict_bytes(size_t n) { return n * (sizeof(DictKey) + sizeof(Value) + 32) + kObjectBytes; }
size_t Value::set_bytes(size_t n) { return n * (sizeof(DictKey) + 32) + kObjectBytes; }

Value Value::list(std::vector<Value> items) {
    auto obj = std::make_shared<ListObj>(ListObj{std::move(items), {}});
    obj->charge.set(slots_bytes(obj->items.capacity()), "a list");
    Value v;
    v.v_ = std::move(obj);
    return v;
}
Value Value::tuple(std::vector<Value> items) {
    return tuple_filled(items.size(), [&](TupleItems& xs) {
        xs.assign(std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
    });
}
Value Value::adopt_tuple(std::shared_ptr<TupleObj> obj) {
    obj->charge.set(slots_bytes(obj->items.size()), "a tuple");
    Value v;
    v.v_ = std::shared_ptr<const TupleObj>(std::move(obj));
    return v;
}
Value Value::str(std::string text) {
    auto obj = std::make_shared<StrObj>();
    obj->text = std::move(text);
    obj->charge.set(text_bytes(obj->text.size()), "a string");
    Value v;
    v.v_ = std::shared_ptr<const StrObj>(std::move(obj));
    return v;
}
Value Value::str(std::shared_ptr<const StrObj> s) {
    Value v;
    v.v_ = std::move(s);
    return v;
}
DictKey DictKey::of_str(std::string text) { return DictKey(*Value::str(std::move(text)).str_obj()); }

bool Value::append_text_unshared(std::string_view more) {
    auto* p = v_.get_if<std::shared_ptr<const StrObj>>();
    if (!p || p->use_count() != 1) return false;
    // Value::str made it as a non-const StrObj, and nothing else holds it.
    StrObj& obj = const_cast<StrObj&>(**p);
    const size_t total = obj.text.size() + more.size();
    stdlib::check_fits(text_bytes(total), "a string");
    stdlib::spend_work(static_cast<int64_t>(more.size()));
    obj.text.append(more);
    obj.charge.set(text_bytes(total), "a string");
    obj.drop_char_starts();
    obj.hash.store(0, std::memory_order_relaxed);
    return true;
}

TextChars Value::text_chars() const {
    const std::string& t = text();
    const StrObj& obj = *v_.get<std::shared_ptr<const StrObj>>();
    if (!obj.char_starts) {
        TextChars::Starts starts = TextChars::starts_of(t);
        obj.char_starts = starts ? starts.release() : StrObj::ascii();
    }
    return TextChars(t, obj.char_starts == StrObj::ascii() ? nullptr : obj.char_starts);
}

Value Value::function(std::shared_ptr<const FunctionObj> f) {
    Value v;
    v.v_ = std::move(f);
    return v;
}
Value Value::builtin(std::shared_ptr<const BuiltinObj> b) {
    Value v;
    v.v_ = std::move(b);
    return v;
}
Value Value::module(ModuleState* m) {
    Value v;
    v.v_ = m;
    return v;
}
Value Value::bound(Value self, Value fn) {
    Value v;
    v.v_ = std::shared_ptr<const BoundMethodObj>(
        std::make_shared<BoundMethodObj>(BoundMethodObj{std::move(self), std::move(fn)}));
    return v;
}

DictObj::DictObj(std::vector<DictKey> keys, std::vector<Value> values)
    : keys_(std::move(keys)), values_(std::move(values)) {
    if (keys_.size() > kSmall) build_index(keys_.size());
}

std::pair<size_t, size_t> DictObj::probe(const DictKey& k, size_t hash) const {
    const size_t mask = table_.size() - 1;
    const uint64_t tag = hash & 0xFFFFFFFFu;
    size_t free = kAbsent;  // the first tombstone passed: where k would go
    for (size_t slot = home(hash);; slot = (slot + 1) & mask) {
        const uint64_t e = table_[slot];
        if (e == 0) return {kAbsent, free != kAbsent ? free : slot};
        if (e == kTombstone) {
            if (free == kAbsent) free = slot;
        } else if ((e >> 32) == tag) {
            const size_t at = static_cast<size_t>(e & 0xFFFFFFFFu) - 1;
            if (keys_[at] == k) return {at, slot};
        }
    }
}

void DictObj::build_index(size_t live) const {
    size_t size = 16;
    int bits = 4;
    while (size < 3 * live) {  // at most 1/3 full after a rebuild, 2/3 before the next one
        size *= 2;
        ++bits;
    }
    table_.assign(size, 0);
    shift_ = static_cast<uint8_t>(64 - bits);
    tombstones_ = 0;
    for (size_t i = 0; i < keys_.size(); ++i) {
        if (holes_ && dead_[i]) continue;
        const size_t h = keys_[i].hash();
        size_t slot = home(h);
        while (table_[slot]) slot = (slot + 1) & (size - 1);
        table_[slot] = entry(h, i);
    }
}

void DictObj::append(DictKey k, Value v, size_t hash, size_t slot) {
    if (keys_.size() >= kTombstone - 1) throw Error("a dict cannot hold more than 2^32 - 2 entries");
    if (!table_.empty()) {
        if (table_[slot] == kTombstone) --tombstones_;
        table_[slot] = entry(hash, keys_.size());
    }
    keys_.push_back(std::move(k));
    values_.push_back(std::move(v));
    if (!dead_.empty()) dead_.push_back(false);
    if (table_.empty() ? keys_.size() > kSmall : (size() + tombstones_) * 3 > table_.size() * 2) build_index(size());
}

void DictObj::set(DictKey k, Value v) {
    size_t at = kAbsent, slot = 0, hash = 0;
    if (table_.empty()) {
        at = position(k);
    } else {
        hash = k.hash();
        std::tie(at, slot) = probe(k, hash);
    }
    if (at != kAbsent) {
        values_[at] = std::move(v);
        return;
    }
    append(std::move(k), std::move(v), hash, slot);
}

bool DictObj::erase(const DictKey& k) {
    size_t at = kAbsent, slot = 0;
    if (table_.empty()) at = position(k);
    else std::tie(at, slot) = probe(k, k.hash());
    if (at == kAbsent) return false;
    if (!table_.empty()) {
        table_[slot] = kTombstone;
        ++tombstones_;
    }
    if (at + 1 == keys_.size()) {  // the last entry (and the holes before it): nothing moves
        keys_.pop_back();
        values_.pop_back();
        if (!dead_.empty()) dead_.pop_back();
        while (holes_ && dead_.back()) {
            keys_.pop_back();
            values_.pop_back();
            dead_.pop_back();
            --holes_;
        }
        if (!holes_) dead_.clear();
        return true;
    }
    if (dead_.empty()) dead_.assign(keys_.size(), false);
    dead_[at] = true;
    ++holes_;
    keys_[at] = DictKey{};
    values_[at] = Value();  // its value is released now, as if the entry had moved out
    if (holes_ * 2 > keys_.size()) squeeze_holes();
    return true;
}

void DictObj::squeeze_holes() const {
    size_t to = 0;
    for (size_t from = 0; from < keys_.size(); ++from) {
        if (dead_[from]) continue;
        if (to != from) {
            keys_[to] = std::move(keys_[from]);
            values_[to] = std::move(values_[from]);
        }
        ++to;
    }
    keys_.resize(to);
    values_.resize(to);
    dead_.clear();
    holes_ = 0;
    if (!table_.empty()) build_index(to);  // the positions moved
}

Value Value::dict(DictObj d) {
    auto obj = std::make_shared<DictObj>(std::move(d));
    obj->charge.set(dict_bytes(obj->slots()), "a dict");
    Value v;
    v.v_ = std::move(obj);
    return v;
}

Value Value::set(SetObj s) {
    auto obj = std::make_shared<SetObj>(std::move(s));
    obj->charge.set(set_bytes(obj->size()), "a set");
    Value v;
    v.v_ = std::move(obj);
    return v;
}

SetObj& Value::set_mut() {
    auto& p = v_.get<std::shared_ptr<SetObj>>();
    if (p.use_count() > 1) p = std::make_shared<SetObj>(*p);  // copy-on-write
    p->charge.set(set_bytes(p->size()), "a set");  // what the last mutation added
    return *p;
}

Value Value::graph(std::shared_ptr<const GraphObj> g) {
    Value v;
    v.v_ = std::move(g);
    return v;
}

Value Value::spec(std::shared_ptr<const SpecObj> s) {
    Value v;
    v.v_ = std::move(s);
    return v;
}

DictObj& Value::dict_mut() {
    auto& p = v_.get<std::shared_ptr<DictObj>>();
    if (p.use_count() > 1) p = std::make_shared<DictObj>(*p);  // copy-on-write
    p->charge.set(dict_bytes(p->slots()), "a dict");  // what the last mutation added
    return *p;
}

std::optional<std::span<const Value>> Value::children() const {
    switch (kind()) {
    case Kind::List: case Kind::Tuple: return items();
    case Kind::Dict: return std::span<const Value>(dict().values());
    default: return std::nullopt;
    }
}

Value Value::with_children(std::vector<Value> items) const {
    switch (kind()) {
    case Kind::List: return list(std::move(items));
    case Kind::Tuple: return tuple(std::move(items));
    case Kind::Dict: {
        return Value::dict(DictObj(dict().keys(), std::move(items)));
    }
    default: throw Error(std::string("internal error: a ") + kind_name(kind()) + " holds no values");
    }
}

[[gnu::noinline]] void Value::replace_with(const Scalar& s) { v_ = s; }

[[gnu::noinline]] void Value::list_unshared() {
    auto& p = v_.get<std::shared_ptr<ListObj>>();
    p = std::make_shared<ListObj>(*p);
}

}  // namespace tg::interp
