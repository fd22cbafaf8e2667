// Values of docs/language.md "Values", with value semantics.
//
// A Value is a tagged variant of 24 bytes. A 0-d tensor is held inline as a
// Scalar (scalar arithmetic allocates nothing); a tensor of rank >= 1 is a
// pointer to its stdlib::Tensor (which shares its buffer), and every other
// kind a pointer to an immutable, reference-counted object. "Mutation"
// (xs.append(v), x[i] = v) goes through the *_mut accessors, which copy the
// object first when it is shared: copy-on-write, so `ys = xs; xs.append(3)`
// leaves ys alone.
//
// Seam for the tracer: a tensor held by a Value may later be *symbolic* (a
// graph value id + dtype + shape). That will be one more alternative of the
// variant (Kind::Symbolic); every tensor operation already goes through
// interp/dispatch.hpp, which is where "any symbolic operand -> append a graph
// node" goes.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "lang/ast.hpp"
#include "interp/values/text_chars.hpp"
#include "interp/values/value_storage.hpp"
#include "stdlib/budget.hpp"
#include "stdlib/op_table.hpp"
#include "stdlib/tensor.hpp"

namespace tg::interp {

class Value;
struct ModuleState;
struct FunctionFacts;
struct Env;
struct GraphCache;
class Runtime;

enum class Kind : uint8_t {
    Undefined,  // an unassigned variable slot; never visible to tg code
    None, Tensor, List, Tuple, Str, Function, Builtin, DType, Module, BoundMethod,
    Dict, Set,
    Graph, Spec,  // docs/language.md "Graphs as values": a graph value (concrete, load) and an input/output spec (interp/tracing/graph_value.hpp)
};
const char* kind_name(Kind k);  // what type(x) returns: "tensor", "list", ...

struct NoneT {};
struct UndefinedT {};

// ---- values that exist only while a @graph function is traced (interp/tracing/trace.hpp)
// A symbolic tensor: graph value `id` of the graph being built, with its static type.
struct SymObj {
    uint32_t id;
    stdlib::TensorType type;
};
// A variable assigned on only some paths of converted control flow (docs/graph.md "Static and dynamic"):
// `inner` is its value where assigned, `flag` a symbolic bool[] telling whether
// it was. Its kind is Undefined, so every read takes the slow path, which
// emits the run-time "is not defined" check.
struct MaybeUndefObj;
// A string whose text depends on tensor contents (an f-string or str() of a
// symbolic tensor): a print template and its operands.
struct SymStrObj;
struct GradObj;  // a tensor being differentiated (below)
struct BatchObj;  // a tensor batched by vmap (below)

// A 0-d tensor kept unboxed (16 bytes): literals, loop counters and scalar
// arithmetic never build a stdlib::Tensor. It converts to and from one at the
// dispatch point. f32 values are stored exactly as doubles; a weak scalar
// (a literal, docs/language.md "Values") keeps the literal's exact i64 / f64 value.
struct Scalar {
    stdlib::DType dtype = stdlib::DType::F32;
    bool weak = false;
    union {
        int64_t i;  // bool, i32, i64
        double f;   // f32, f64
    };
    Scalar() : i(0) {}
    // Copies field by field. A Scalar is mostly built field by field just
    // before it is copied (arithmetic, loop counters), and a 16-byte load of
    // narrower stores cannot take their values from the store buffer: it
    // waits for them (~15 cycles; a third of the scalar loop's time).
    Scalar(const Scalar& o) noexcept : dtype(o.dtype), weak(o.weak), i(o.i) {}
    Scalar& operator=(const Scalar& o) noexcept {
        dtype = o.dtype;
        weak = o.weak;
        i = o.i;  // the union's bits (an f64 is copied exactly)
        return *this;
    }
    static Scalar of_int(int64_t v, stdlib::DType d = stdlib::DType::I64, bool weak = false) {
        Scalar s; s.set_head(d, weak); s.i = v; return s;
    }
    static Scalar of_float(double v, stdlib::DType d, bool weak = false) {
        Scalar s; s.set_head(d, weak); s.f = v; return s;
    }
    // dtype and weak in one 16-bit store: a copy reads them with one
    // 16-bit load (GCC merges the two fields' loads), which two byte stores
    // cannot forward to (it waits for them, ~12 cycles).
    void set_head(stdlib::DType d, bool w) {
        static_assert(sizeof(stdlib::DType) == 1 && std::endian::native == std::endian::little);
        static_assert(offsetof(Scalar, weak) == offsetof(Scalar, dtype) + 1);
        const uint16_t head = static_cast<uint16_t>(static_cast<uint8_t>(d) | (uint16_t{w} << 8));
        std::memcpy(reinterpret_cast<unsigned char*>(&dtype), &head, sizeof head);  // dtype, then weak
    }
    static Scalar of_bool(bool v) { return of_int(v ? 1 : 0, stdlib::DType::Bool); }
    static Scalar from_tensor(const stdlib::Tensor& t);  // t.rank() == 0
    stdlib::Tensor to_tensor() const;
    bool nonzero() const { return stdlib::is_float(dtype) ? f != 0 : i != 0; }
};

// Each charges the memory limit for what it holds (stdlib::Charge,
// stdlib/budget.hpp): a container kSlotBytes per slot of capacity, a string
// its characters, each kObjectBytes more; a list's charge follows its
// growth at its next mutation (Value::list_mut).
struct ListObj {
    std::vector<Value> items;
    stdlib::Charge charge;
};
struct TupleObj;  // (below Value: its items are held inline)
// 72 bytes (a string object and its control block fit malloc's 96-byte
// size; every dict key, field and line is one).
struct StrObj {
    std::string text;
    stdlib::Charge charge;
    // Where each character starts (text_chars.hpp), made by the first
    // index, slice or len of the string and dropped when it is appended to:
    // null until then, ascii() once known to be ASCII, else owned here.
    mutable const std::vector<size_t>* char_starts = nullptr;
    static const std::vector<size_t>* ascii() {  // (a mark, never read)
        return reinterpret_cast<const std::vector<size_t>*>(alignof(std::vector<size_t>));
    }
    void drop_char_starts() const {
        if (char_starts != ascii()) delete char_starts;
        char_starts = nullptr;
    }
    StrObj() = default;
    StrObj(const StrObj&) = delete;
    StrObj& operator=(const StrObj&) = delete;
    ~StrObj() { drop_char_starts(); }
    // The hash of `text` as a dict key (DictKey), computed by the first
    // lookup and kept: 0 until then. Reset when the text is appended to.
    // (Atomic, relaxed: a string constant two interpreters share may be
    // hashed by both at once; both store the same value.)
    mutable std::atomic<size_t> hash{0};
    size_t text_hash() const {
        size_t h = hash.load(std::memory_order_relaxed);
        if (!h) [[unlikely]] {
            h = std::hash<std::string>{}(text) | 1;
            hash.store(h, std::memory_order_relaxed);
        }
        return h;
    }
};

// A user function (def or lambda): code from the AST plus what it closed over.
struct FunctionObj {
    std::string name;                           // "<lambda>" for lambdas
    const std::vector<lang::Param>* params = nullptr;
    const lang::Block* body = nullptr;          // def
    const lang::Expr* expr_body = nullptr;      // lambda
    const lang::FunctionInfo* info = nullptr;   // the resolver's facts (slots)
    std::vector<Value> defaults;                // one per param; Undefined = required
    std::shared_ptr<Env> env;                   // the enclosing function's frame (lexical)
    ModuleState* module = nullptr;              // globals; owned by the Runtime
    bool is_graph = false;                      // decorated with @graph: calls are traced (interp/tracing/graph_call.cpp)
    std::shared_ptr<GraphCache> graph_cache;    // @graph: its traces, by signature
    std::vector<bool> static_params;            // @graph(static=...): per param, its value is part of the signature
    // Instead of `body`: C++ run with the bound arguments (positional, one per
    // param), traced like a body. `grad` of a @graph function is such a
    // function (interp/autodiff/autodiff.cpp): an implicit @graph of the gradient.
    // (CallArgs: the bound arguments, and the call site.)
    std::function<Value(Runtime&, const struct CallArgs&)> native_body;
};

// Arguments of a call as the callee sees them.
struct KwArg {
    std::string_view name;
    lang::Loc loc;
};
struct CallArgs {
    std::span<const Value> positional;
    std::span<const Value> keyword_values;
    std::span<const KwArg> keywords;  // same length as keyword_values
    lang::Loc loc;                    // the call site (start of the callee's name)
    // A method call of a builtin (`x.clip(0, 1)`): positional[0] is the value
    // it is called on, which arity errors leave out of their count, as the
    // call was written (interp/check_args.hpp: method_receiver)
    bool method = false;
};

// A builtin: a host builtin (print, len...), a stdlib op, or a host function
// defined through the embedding API.
using BuiltinFn = std::function<Value(Runtime&, const CallArgs&)>;
class Evaluator;
// A builtin that runs tg code itself (concrete traces a function) gets the
// evaluator and the call's source, so its errors carry the tg traceback.
using CallerFn = std::function<Value(Evaluator&, const CallArgs&, const lang::SourcePtr& call_source)>;
// A Python builtin the evaluator computes itself on numbers and containers
// (interp/scalar_builtins.hpp).
enum class NumberBuiltin : uint8_t { None, Len, Int, Float, Max, Min };
struct BuiltinObj {
    std::string name;
    BuiltinFn fn;
    const stdlib::OpDef* op = nullptr;  // when this builtin is a tensor op of the table
    bool host = false;         // defined by the embedding host: not traceable (runs eagerly)
    CallerFn caller = nullptr; // set instead of fn by such builtins
    bool adds_params = false;  // takes more than its op (gelu's approximate, round's decimals)
    // custom_vjp(f): its forward and backward, set by defvjp (interp/autodiff/custom_rules.cpp)
    std::shared_ptr<struct CustomVjpRule> custom_vjp = nullptr;
    NumberBuiltin on_numbers = NumberBuiltin::None;
};

// `x.f` for a builtin f, not yet called: calling it passes x first.
struct BoundMethodObj;

// A dict (docs/language.md "Values"): string or integer keys, in insertion order (interp/values/dict.hpp).
struct DictObj;

// A set (docs/language.md "Sets"): string or integer elements, in sorted order (interp/values/set.hpp).
struct SetObj;

// A graph value and a spec (interp/tracing/graph_value.hpp).
struct GraphObj;
struct SpecObj;

class Value {
public:
    Value() : v_(UndefinedT{}) {}
    Value(stdlib::Tensor t);                        // NOLINT: implicit on purpose; 0-d ones become Scalars
    Value(Scalar s) : v_(s) {}                      // NOLINT
    Value(const Value&) = default;
    Value(Value&&) noexcept = default;
    // Assigning a scalar over a scalar (the loop counter, `s = s + 1`) skips
    // the variant's generic visit: it is the interpreter's hottest store.
    Value& operator=(const Value& o) {
        if (Scalar* mine = v_.get_if<Scalar>())
            if (const Scalar* theirs = o.v_.get_if<Scalar>()) {
                *mine = *theirs;
                return *this;
            }
        v_ = o.v_;
        return *this;
    }
    Value& operator=(Value&& o) noexcept {
        if (Scalar* mine = v_.get_if<Scalar>())
            if (const Scalar* theirs = o.v_.get_if<Scalar>()) {
                *mine = *theirs;
                return *this;
            }
        v_ = std::move(o.v_);
        return *this;
    }
    // Stores a 0-d value: over a Scalar, only its fields (no Value built and
    // destroyed: the scalar loop's stores).
    // (always inline, the other kinds out of line: a call of the whole
    // assignment was 19 instructions for every number a loop stored)
    [[gnu::always_inline]] void set_scalar(const Scalar& s) {
        if (Scalar* mine = v_.get_if<Scalar>()) *mine = s;
        else replace_with(s);
    }
    Value(stdlib::DType d) : v_(d) {}               // NOLINT
    static Value none() { Value v; v.v_ = NoneT{}; return v; }
    static Value list(std::vector<Value> items);
    static Value tuple(std::vector<Value> items);
    // A tuple of n items made in place, none moved in after: fill(items)
    // appends them to the object's TupleItems (below).
    template <class Fill>
    static Value tuple_filled(size_t n, Fill&& fill);
    static Value str(std::string text);
    static Value str(std::shared_ptr<const StrObj> s);  // (a dict key's string: interp/values/dict.cpp)
    // The string object of a str (not one that shows traced tensors), or null.
    const std::shared_ptr<const StrObj>* str_obj() const { return v_.get_if<std::shared_ptr<const StrObj>>(); }
    // What a list or tuple of n slots, a string of n characters, a dict of n
    // entries is charged (the memory limit, stdlib/budget.hpp): builtins
    // check these sizes before they build one (stdlib::check_fits).
    static constexpr size_t kObjectBytes = 64;
    static size_t slots_bytes(size_t n) { return n * sizeof(Value) + kObjectBytes; }
    static size_t text_bytes(size_t n) { return n + kObjectBytes; }
    static size_t dict_bytes(size_t n);
    static size_t set_bytes(size_t n);
    static Value function(std::shared_ptr<const FunctionObj> f);
    static Value builtin(std::shared_ptr<const BuiltinObj> b);
    static Value module(ModuleState* m);
    static Value bound(Value self, Value fn);
    static Value dict(DictObj d);
    static Value set(SetObj s);
    static Value graph(std::shared_ptr<const GraphObj> g);
    static Value spec(std::shared_ptr<const SpecObj> s);
    static Value from_bool(bool b) { return Value(Scalar::of_bool(b)); }
    static Value from_int(int64_t i) { return Value(Scalar::of_int(i)); }
    static Value weak_int(int64_t i) { return Value(Scalar::of_int(i, stdlib::DType::I64, true)); }
    static Value weak_float(double f) { return Value(Scalar::of_float(f, stdlib::DType::F32, true)); }

    Kind kind() const { return kKinds[v_.index()]; }
    bool is(Kind k) const { return kind() == k; }
    bool defined() const { return kind() != Kind::Undefined; }
    bool is_tensor() const { return kind() == Kind::Tensor; }
    // The unboxed 0-d tensor, or null (then tensor() is a stdlib::Tensor of rank >= 1).
    const Scalar* scalar() const { return v_.get_if<Scalar>(); }
    bool is_sequence() const { return kind() == Kind::List || kind() == Kind::Tuple; }

    // The tensor (a 0-d one is built from the Scalar). Shares the buffer.
    stdlib::Tensor tensor() const;
    // The same without a copy when the tensor is stored (boxed) here; else
    // tensor() made into `scratch`. Valid while this value is unchanged.
    const stdlib::Tensor& tensor_ref(std::optional<stdlib::Tensor>& scratch) const {
        if (const auto* box = v_.get_if<std::shared_ptr<stdlib::Tensor>>()) return **box;
        return scratch.emplace(tensor());
    }
    // For in-place updates (copy-on-write happens in stdlib): the stored
    // tensor, boxing a Scalar first.
    stdlib::Tensor& tensor_mut();
    // The items of a list or a tuple. (inline, below TupleObj, as
    // list_mut: a call of either was 7 % of nbody's instructions)
    std::span<const Value> items() const;
    std::vector<Value> items_copy() const {
        const std::span<const Value> xs = items();
        return {xs.begin(), xs.end()};
    }
    // The items of a list, made unique first (copy-on-write).
    std::vector<Value>& list_mut();
    const DictObj& dict() const { return *v_.get<std::shared_ptr<DictObj>>(); }
    // The dict, made unique first (copy-on-write).
    DictObj& dict_mut();
    const SetObj& set() const { return *v_.get<std::shared_ptr<SetObj>>(); }
    SetObj& set_mut();  // made unique first (copy-on-write)
    // The values a container holds — a list's or a tuple's items, a dict's
    // values in key order — or null for any other kind. with_children makes
    // a container of the same kind (a dict with the same keys) holding `items`.
    std::optional<std::span<const Value>> children() const;
    // The same, empty for any other kind (to iterate: a span held in a
    // temporary optional would not outlive a range-for's initializer).
    std::span<const Value> child_values() const { return children().value_or(std::span<const Value>()); }
    Value with_children(std::vector<Value> items) const;
    const std::string& text() const;
    // `s += t` in place: appends when this is a string no other value
    // shares (CPython's trick, so a loop building a string is linear);
    // false otherwise, and the caller builds a new string.
    bool append_text_unshared(std::string_view more);
    // The string's characters, for indexing and slicing in O(1) per
    // character (the character index is made once per string).
    TextChars text_chars() const;
    const FunctionObj& function() const { return *v_.get<std::shared_ptr<const FunctionObj>>(); }
    const std::shared_ptr<const FunctionObj>& function_ptr() const {
        return v_.get<std::shared_ptr<const FunctionObj>>();
    }
    const BuiltinObj& builtin() const { return *v_.get<std::shared_ptr<const BuiltinObj>>(); }
    stdlib::DType dtype() const { return v_.get<stdlib::DType>(); }
    const GraphObj& graph() const { return *v_.get<std::shared_ptr<const GraphObj>>(); }
    const SpecObj& spec() const { return *v_.get<std::shared_ptr<const SpecObj>>(); }

    // ---- tracing
    static Value symbolic(uint32_t id, const stdlib::TensorType& t);
    static Value maybe_undefined(std::shared_ptr<const MaybeUndefObj> m);
    static Value symbolic_str(std::shared_ptr<const SymStrObj> s);
    const SymObj* sym() const {
        if (auto* p = v_.get_if<std::shared_ptr<const SymObj>>()) return p->get();
        return tracked() ? tracked_sym() : nullptr;  // a traced tensor being differentiated
    }
    // A tensor being differentiated (interp/autodiff/autodiff.hpp): its value (the
    // primal, a concrete or symbolic tensor) and its place on a tape.
    static Value tracked(std::shared_ptr<const GradObj> g);
    const GradObj* tracked() const {
        auto* p = v_.get_if<std::shared_ptr<const GradObj>>();
        return p ? p->get() : nullptr;
    }
    // A tensor batched by vmap (interp/batching/batching.hpp): the value with
    // the batch axis, and which vmap it belongs to. Its tensor_type() is one
    // example's; its data cannot be read (tensor() raises).
    static Value batched(std::shared_ptr<const BatchObj> b);
    const BatchObj* batched() const {
        auto* p = v_.get_if<std::shared_ptr<const BatchObj>>();
        return p ? p->get() : nullptr;
    }
    // Tracked or batched: the op is transformed (interp/bind.hpp).
    bool transformed() const { return tracked() || batched(); }
    bool is_symbolic() const { return sym() != nullptr; }
    const MaybeUndefObj* maybe_undef() const {
        auto* p = v_.get_if<std::shared_ptr<const MaybeUndefObj>>();
        return p ? p->get() : nullptr;
    }
    const SymStrObj* sym_str() const {
        auto* p = v_.get_if<std::shared_ptr<const SymStrObj>>();
        return p ? p->get() : nullptr;
    }
    // The static type of a tensor value, concrete or symbolic.
    stdlib::TensorType tensor_type() const;
    // Same object (or same scalar bits / same tensor view): what "unchanged"
    // means for converted control flow and captured-variable guards.
    bool identical(const Value& o) const;
    ModuleState* module() const { return v_.get<ModuleState*>(); }
    const BoundMethodObj& bound() const { return *v_.get<std::shared_ptr<const BoundMethodObj>>(); }

    // For the cycle collector (interp/values/cycles.hpp): the shared object this
    // value holds a reference to, if it is one that can hold references to
    // other values (list, tuple, function, bound method, maybe-undefined),
    // and how many references it has in all.
    struct Ref {
        const void* object = nullptr;
        long uses = 0;
    };
    Ref ref() const {
        return v_.visit(
            [](const auto& x) -> Ref {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, std::shared_ptr<ListObj>> ||
                              std::is_same_v<T, std::shared_ptr<const TupleObj>> ||
                              std::is_same_v<T, std::shared_ptr<const FunctionObj>> ||
                              std::is_same_v<T, std::shared_ptr<const BoundMethodObj>> ||
                              std::is_same_v<T, std::shared_ptr<const MaybeUndefObj>> ||
                              std::is_same_v<T, std::shared_ptr<DictObj>>)
                    return {x.get(), x.use_count()};
                else
                    return {};
            });
    }

private:
    static constexpr Kind kKinds[] = {Kind::Undefined, Kind::None,     Kind::Tensor, Kind::Tensor,
                                      Kind::List,      Kind::Tuple,    Kind::Str,    Kind::Function,
                                      Kind::Builtin,   Kind::DType,    Kind::Module, Kind::BoundMethod,
                                      Kind::Tensor,    Kind::Undefined, Kind::Str,   Kind::Tensor,
                                      Kind::Dict,      Kind::Graph,    Kind::Spec,   Kind::Tensor,
                                      Kind::Set};
    // A tensor of rank >= 1 (or one tensor_mut made of a Scalar) is boxed,
    // the box shared by copies of the value and copied by tensor_mut when
    // shared: held inline, its 176 bytes made every Value — every variable
    // slot, list item and dict value — 184 bytes instead of 24.
    ValueStorage<Scalar, UndefinedT, NoneT, Scalar, std::shared_ptr<stdlib::Tensor>, std::shared_ptr<ListObj>, std::shared_ptr<const TupleObj>,
                 std::shared_ptr<const StrObj>, std::shared_ptr<const FunctionObj>,
                 std::shared_ptr<const BuiltinObj>, stdlib::DType, ModuleState*,
                 std::shared_ptr<const BoundMethodObj>, std::shared_ptr<const SymObj>,
                 std::shared_ptr<const MaybeUndefObj>, std::shared_ptr<const SymStrObj>,
                 std::shared_ptr<const GradObj>, std::shared_ptr<DictObj>, std::shared_ptr<const GraphObj>,
                 std::shared_ptr<const SpecObj>, std::shared_ptr<const BatchObj>, std::shared_ptr<SetObj>>
        v_;
    static_assert(std::size(kKinds) == decltype(v_)::kCount, "kKinds: one Kind per alternative of v_");
    void replace_with(const Scalar& s);  // set_scalar over another kind (out of line)
    void list_unshared();                // list_mut's copy of a list held elsewhere too
    const SymObj* tracked_sym() const;
    static Value adopt_tuple(std::shared_ptr<TupleObj> obj);  // charged for its items
    static std::shared_ptr<stdlib::Tensor> box(stdlib::Tensor t);  // from a cache of boxes (tensor_box.hpp)
};

struct BoundMethodObj {
    Value self;
    Value fn;
};

// A tuple's items. Up to two are held inside the object, so a pair (a tree
// node, a dict item, a zip of two) is one allocation with its shared_ptr
// block instead of two (docs/performance.md "Ordinary programs"); a longer
// tuple keeps its items on the heap as a vector does.
using TupleItems = boost::container::small_vector<Value, 2>;
struct TupleObj {
    // (user-provided: make_shared of an aggregate zero-fills the object
    // first, a `rep stos` per tuple made)
    TupleObj() {}
    TupleItems items;
    stdlib::Charge charge;
};
inline std::span<const Value> Value::items() const {
    if (kind() == Kind::List) return v_.get<std::shared_ptr<ListObj>>()->items;
    const TupleItems& xs = v_.get<std::shared_ptr<const TupleObj>>()->items;
    return {xs.data(), xs.size()};
}
inline std::vector<Value>& Value::list_mut() {
    auto& p = v_.get<std::shared_ptr<ListObj>>();
    if (p.use_count() > 1) [[unlikely]] list_unshared();  // copy-on-write
    p->charge.set(slots_bytes(p->items.capacity()), "a list");  // what the last mutation added
    return p->items;
}
template <class Fill>
Value Value::tuple_filled(size_t n, Fill&& fill) {
    auto obj = std::make_shared<TupleObj>();
    obj->items.reserve(n);
    fill(obj->items);
    return adopt_tuple(std::move(obj));
}

// A tensor being differentiated at tape `level` (interp/autodiff/autodiff.hpp): its
// primal may itself be tracked at a lower level (grad of grad).
struct GradObj {
    Value primal;
    uint32_t level = 0;  // 1 for the outermost grad running
    uint32_t node = 0;   // the tape's number for this value
    uint64_t tape = 0;   // which tape (a value kept after its grad returned is not tracked)
};

// A tensor batched by the vmap at `level` (interp/batching/batching.hpp):
// `value` holds every example, stacked along axis `dim`; it may itself be
// batched or tracked at a lower level (nested vmap, vmap of grad).
struct BatchObj {
    Value value;
    int64_t dim = 0;
    int64_t size = 0;     // the batch size
    uint32_t level = 0;   // 1 for the outermost vmap running
    uint64_t serial = 0;  // which vmap call (from Runtime::tape_serial, shared with the tapes: the order of nesting)
};

// A dict key: a string, or an integer (docs/language.md "Values"). tg values become keys in
// interp/values/dict.hpp (dict_key), which also rejects every other kind.
// A string key shares the string's object with the value it was made from
// (no copy of the text; its hash is computed once per string object), so
// keys(), items() and iteration give back the same string.
class DictKey {
public:
    DictKey() = default;  // the int 0
    static DictKey of_int(int64_t i) {
        DictKey k;
        k.i_ = i;
        return k;
    }
    static DictKey of_str(std::string text);  // a new string (interp/values/value.cpp)
    explicit DictKey(std::shared_ptr<const StrObj> s) : str_(std::move(s)) {}

    bool is_int() const { return !str_; }
    int64_t i() const { return i_; }
    const std::string& s() const { return str_->text; }
    const std::shared_ptr<const StrObj>& str_obj() const { return str_; }
    size_t hash() const { return str_ ? str_->text_hash() : static_cast<size_t>(i_); }
    friend bool operator==(const DictKey& a, const DictKey& b) {
        if (a.str_ == b.str_) return a.str_ || a.i_ == b.i_;  // one string object, or two ints
        return a.str_ && b.str_ && a.str_->text == b.str_->text;
    }

private:
    int64_t i_ = 0;
    std::shared_ptr<const StrObj> str_;  // null for an int
};

// keys()[i] maps to values()[i], in insertion order. A dict of up to
// kSmall keys finds one by comparing its keys in turn (no hashing: most
// dicts are records of a few fields); a larger one keeps `table_`, an
// open-addressing hash table (linear probing) of positions into keys_,
// each beside 32 bits of its key's hash, so most probes that miss read no
// key (at most 2/3 full, as CPython's dicts; 12-24 bytes a key). Removing a key leaves a hole (its slot is marked dead, its table
// entry a tombstone) instead of moving every later entry up, so
// `d.pop(k)` and `del d[k]` cost O(1) amortized however many entries
// follow; the holes are squeezed out when they outnumber the live
// entries, or when keys() or values() is read (a walk over all entries,
// O(n) anyway). Lookups, stores, removals and size() never squeeze. So a
// pointer find() gave stays valid until the next store, removal, keys() or
// values() (even through another Value sharing this dict); squeezing in a
// const read also means one dict must not be read by two threads at once
// (docs/embedding.md "Threads").
struct DictObj {
    static constexpr size_t kSmall = 8;

    DictObj() = default;
    DictObj(std::vector<DictKey> keys, std::vector<Value> values);  // distinct keys, in order

    const std::vector<DictKey>& keys() const {
        squeeze();
        return keys_;
    }
    const std::vector<Value>& values() const {
        squeeze();
        return values_;
    }
    const Value* find(const DictKey& k) const {
        const size_t at = position(k);
        return at == kAbsent ? nullptr : &values_[at];
    }
    Value* find(const DictKey& k) {
        const size_t at = position(k);
        return at == kAbsent ? nullptr : &values_[at];
    }
    // d[k] = v: a new key goes last, an existing one keeps its place.
    void set(DictKey k, Value v);
    // Room for n entries in all (a dict display, dict(pairs)): no regrowth while they are set.
    void reserve(size_t n) {
        keys_.reserve(n);
        values_.reserve(n);
    }
    // Removes k (false if absent); the keys after it keep their order.
    bool erase(const DictKey& k);
    size_t size() const { return keys_.size() - holes_; }
    // The slots the entries take, holes included (what the memory charge counts).
    size_t slots() const { return keys_.size(); }

    stdlib::Charge charge;  // per slot (holes too): a key, a value and its part of the table (Value::dict_mut)

private:
    static constexpr size_t kAbsent = static_cast<size_t>(-1);
    // A table entry: 0 empty, kTombstone removed, else (hash bits << 32) | (position + 1).
    static constexpr uint64_t kTombstone = 0xFFFFFFFFu;
    static uint64_t entry(size_t hash, size_t at) { return (static_cast<uint64_t>(hash) << 32) | (at + 1); }
    size_t home(size_t hash) const {  // the first slot probed (the hash mixed: an int key is its own hash)
        return static_cast<size_t>((static_cast<uint64_t>(hash) * 0x9E3779B97F4A7C15ULL) >> shift_);
    }
    size_t position(const DictKey& k) const {
        if (table_.empty()) {
            for (size_t i = 0; i < keys_.size(); ++i)
                if (keys_[i] == k && !(holes_ && dead_[i])) return i;
            return kAbsent;
        }
        return probe(k, k.hash()).first;
    }
    // Where k is in keys_ (or kAbsent) and the table slot it takes or would take.
    std::pair<size_t, size_t> probe(const DictKey& k, size_t hash) const;
    void append(DictKey k, Value v, size_t hash, size_t slot);
    void build_index(size_t live) const;  // a table for `live` entries, of the entries not dead
    void squeeze() const {
        if (holes_) [[unlikely]] squeeze_holes();
    }
    void squeeze_holes() const;  // interp/values/value.cpp

    // mutable: squeezing the holes out changes how the entries are stored, not what they are
    mutable std::vector<DictKey> keys_;
    mutable std::vector<Value> values_;
    mutable std::vector<uint64_t> table_;  // (only once more than kSmall keys; a power of 2 long)
    mutable std::vector<bool> dead_;  // per slot: removed (empty while there are no holes)
    // (32 bits: a dict holds fewer than 2^32 entries, DictObj::append)
    mutable uint32_t holes_ = 0;
    mutable uint32_t tombstones_ = 0;  // table entries marked removed
    mutable uint8_t shift_ = 64;       // 64 - log2(table_.size())
};

// Set elements in the order sets are iterated and printed (docs/language.md
// "Sets"): integers ascending, then strings by their bytes (code points).
struct SetOrder {
    bool operator()(const DictKey& a, const DictKey& b) const {
        if (a.is_int() != b.is_int()) return a.is_int();
        return a.is_int() ? a.i() < b.i() : a.s() < b.s();
    }
};
struct SetObj {
    std::set<DictKey, SetOrder> items;
    stdlib::Charge charge;  // per element: a key and a tree node (Value::set_mut)
    size_t size() const { return items.size(); }
};

struct MaybeUndefObj {
    Value inner;
    Value flag;         // symbolic bool[]
    bool none = false;  // where `flag` is false the variable is None, not undefined (docs/graph.md "Static and dynamic")
};

// A function's frame: its local slots, and the frame of the function it is
// lexically nested in (for reading enclosing variables). Heap-allocated and
// shared so closures can keep it alive after the call returns.
struct Env {
    std::vector<Value> slots;
    std::shared_ptr<Env> parent;
    const FunctionFacts* facts = nullptr;  // names of the slots, for error messages
    bool traced = false;                   // a frame of code being traced (its reads are not captures)
};

}  // namespace tg::interp
