// The vmap builtin (docs/training.md "vmap"): JAX's
// `vmap(f, in_axes=0, out_axes=0, axis_size=None)`. The call wraps the
// mapped tensor leaves of the arguments as batched tensors of a new vmap
// level (interp/batching/batching.hpp), calls f, and moves the batch axis
// of each result leaf to its out_axes entry.
#include <memory>
#include <optional>
#include <string>

#include "interp/batching/batching.hpp"
#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/graph_cache.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/printing.hpp"

namespace tg::interp {

namespace {

struct VmapSpec {
    Value f;
    Value in_axes;   // None, an int, or a tuple/list per positional argument (each a pytree prefix)
    Value out_axes;  // None, an int, or a pytree prefix of the result
    std::optional<int64_t> axis_size;
    std::string name;  // "vmap(f)"
};

// The vmap level of one call: pushed for the call of f, popped on every exit.
struct VmapScope {
    Runtime& rt;
    uint64_t serial = 0;
    uint32_t level = 0;
    explicit VmapScope(Runtime& r) : rt(r) {
        serial = ++rt.tape_serial;
        rt.vmaps.push_back(serial);
        level = static_cast<uint32_t>(rt.vmaps.size());
    }
    ~VmapScope() { rt.vmaps.pop_back(); }
    VmapScope(const VmapScope&) = delete;
    VmapScope& operator=(const VmapScope&) = delete;
};

std::string shape_desc(const Value& v) {
    const stdlib::TensorType t = v.tensor_type();
    return std::string("a ") + stdlib::dtype_name(t.dtype) + " tensor of shape " + t.shape.to_string();
}

// The batch size every mapped axis must have, and where it was first seen.
struct BatchSize {
    std::optional<int64_t> size;
    std::string from;
    void see(int64_t n, const std::string& where) {
        if (!size) {
            size = n;
            from = where;
        } else if (*size != n) {
            throw Error("vmap: the mapped axes have different sizes: " + from + " has " + std::to_string(*size) +
                        ", " + where + " has " + std::to_string(n));
        }
    }
};

// What an axes entry and the value it applies to must agree on.
[[noreturn]] void structure_error(const std::string& which, const std::string& what, const Value& axes,
                                  const Value& v) {
    throw Error("vmap: " + which + " for " + what + " is " + repr_of(axes) + ", which does not match its structure (" +
                (v.is_tensor() ? shape_desc(v) : std::string("a ") + kind_name(v.kind())) +
                "); an entry is None, an int, or a list, tuple or dict shaped like the value");
}

// Pairs a container of axes with a container value, child by child.
template <class F>
Value zip_children(const Value& v, const Value& axes, const std::string& which, const std::string& what, F&& each) {
    const auto xs = v.children();
    const auto as = axes.children();
    if (!xs || !as || v.kind() != axes.kind() || xs->size() != as->size()) structure_error(which, what, axes, v);
    std::vector<Value> items;
    for (size_t i = 0; i < xs->size(); ++i) {
        const Value* a = &(*as)[i];
        if (v.is(Kind::Dict)) {
            a = axes.dict().find(v.dict().keys()[i]);
            if (!a) structure_error(which, what, axes, v);
        }
        items.push_back(each((*xs)[i], *a, what + child_suffix(v, i)));
    }
    return v.with_children(std::move(items));
}

int64_t axis_of(const Value& axes, int64_t rank, const std::string& which, const std::string& what,
                const Value& v) {
    const int64_t a = to_int(axes, "vmap: " + which);
    if (a < -rank || a >= rank)
        throw Error("vmap: " + which + " asks for axis " + std::to_string(a) + " of " + what + ", " + shape_desc(v) +
                    (rank == 0 ? " (a 0-d tensor has no axis to map; give None)" : ""));
    return a < 0 ? a + rank : a;
}

Value map_arg(const VmapScope& s, const Value& v, const Value& axes, const std::string& what, BatchSize& size) {
    if (axes.is(Kind::None) || v.is(Kind::None)) return v;
    if (!axes.is_tensor())
        return zip_children(v, axes, "in_axes", what,
                            [&](const Value& x, const Value& a, const std::string& w) { return map_arg(s, x, a, w, size); });
    if (v.is_tensor()) {
        const stdlib::TensorType t = v.tensor_type();
        const int64_t a = axis_of(axes, t.shape.rank(), "in_axes", what, v);
        size.see(t.shape[static_cast<int>(a)], what + " (axis " + std::to_string(a) + ")");
        auto b = std::make_shared<BatchObj>();
        b->value = v;
        b->dim = a;
        b->size = t.shape[static_cast<int>(a)];
        b->level = s.level;
        b->serial = s.serial;
        return Value::batched(std::move(b));
    }
    if (v.children())
        return zip_children(v, v, "in_axes", what, [&](const Value& x, const Value&, const std::string& w) {
            return map_arg(s, x, axes, w, size);
        });
    throw Error("vmap: " + what + " is a " + kind_name(v.kind()) +
                "; vmap maps tensors, and lists, tuples and dicts of them (give None in in_axes to pass it unmapped)");
}

// A result leaf with the batch axis at `axes` (broadcast when it is the
// same for every example).
Value unmap_leaf(Runtime& rt, const VmapScope& s, const Value& v, const Value& axes, const std::string& what,
                 int64_t size) {
    const BatchObj* b = v.batched();
    if (b && b->serial != s.serial) b = nullptr;
    if (axes.is(Kind::None)) {
        if (b)
            throw Error("vmap: out_axes is None for " + what +
                        ", but it differs per example (None is for results that are the same for every example)");
        return v;
    }
    const int64_t rank = v.tensor_type().shape.rank() + 1;
    const int64_t a = to_int(axes, "vmap: out_axes");
    if (a < -rank || a >= rank)
        throw Error("vmap: out_axes asks for axis " + std::to_string(a) + " of " + what + ", which has " +
                    std::to_string(rank) + " axes with the batch axis");
    const int64_t at = a < 0 ? a + rank : a;
    if (!b) {
        Value in[1] = {v};
        Value x = run_op(rt, stdlib::op_of(stdlib::OtherKind::ExpandDims), in, {std::monostate{}, at});
        const stdlib::Shape xshape = x.tensor_type().shape;
        std::vector<int64_t> shape(xshape.begin(), xshape.end());
        shape[static_cast<size_t>(at)] = size;
        Value xs[1] = {x};
        return run_op(rt, stdlib::op_of(stdlib::OtherKind::BroadcastTo), xs, {std::monostate{}, shape});
    }
    if (b->dim == at) return b->value;
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < rank; ++i)
        if (i != b->dim) perm.push_back(i);
    perm.insert(perm.begin() + at, b->dim);
    Value in[1] = {b->value};
    return run_op(rt, stdlib::op_of(stdlib::OtherKind::Transpose), in, {std::monostate{}, perm});
}

Value unmap_result(Runtime& rt, const VmapScope& s, const Value& v, const Value& axes, const std::string& what,
                   int64_t size) {
    if (v.is_tensor() && (axes.is_tensor() || axes.is(Kind::None))) return unmap_leaf(rt, s, v, axes, what, size);
    if (v.is(Kind::None)) return v;
    if (v.children()) {
        if (axes.is_tensor() || axes.is(Kind::None))
            return zip_children(v, v, "out_axes", what, [&](const Value& x, const Value&, const std::string& w) {
                return unmap_result(rt, s, x, axes, w, size);
            });
        return zip_children(v, axes, "out_axes", what, [&](const Value& x, const Value& a, const std::string& w) {
            return unmap_result(rt, s, x, a, w, size);
        });
    }
    if (!axes.is_tensor() && !axes.is(Kind::None)) structure_error("out_axes", what, axes, v);
    return v;  // a string, a number of the host: the same for every example
}

std::string arg_name(const VmapSpec& s, size_t i) {
    if (s.f.is(Kind::Function)) {
        const auto& params = *s.f.function().params;
        if (i < params.size()) return "argument `" + params[i].name + "`";
    }
    return "argument " + std::to_string(i);
}

Value call_vmap(Runtime& rt, const VmapSpec& s, const CallArgs& a);

// vmap of a @graph function, called from eager code: an implicit @graph
// function whose body is the vmap of f's undecorated body, with its own
// trace cache (as grad of a @graph function, docs/training.md), so the
// batched computation is traced and compiled once per signature.
Value graph_vmap(const VmapSpec& s) {
    const FunctionObj& f = s.f.function();
    std::string key = "vmap " + repr_of(s.in_axes) + " " + repr_of(s.out_axes) +
                      (s.axis_size ? " " + std::to_string(*s.axis_size) : "");
    std::shared_ptr<GraphCache>& cache = f.graph_cache->derived[key];
    if (!cache) cache = std::make_shared<GraphCache>();
    auto plain = std::make_shared<FunctionObj>(f);
    plain->is_graph = false;
    plain->graph_cache = nullptr;
    auto spec = std::make_shared<VmapSpec>(s);
    spec->f = Value::function(std::move(plain));
    auto fn = std::make_shared<FunctionObj>(f);
    fn->name = "vmap(" + f.name + ")";
    fn->graph_cache = cache;
    fn->native_body = [spec](Runtime& rt, const CallArgs& args) { return call_vmap(rt, *spec, args); };
    return Value::function(std::move(fn));
}

std::vector<Value> map_args(const VmapScope& scope, const VmapSpec& s, const CallArgs& a, BatchSize& size,
                            std::vector<Value>& kw) {
    std::vector<Value> args;
    const bool per_arg = s.in_axes.is_sequence();
    if (per_arg && s.in_axes.items().size() != a.positional.size())
        throw Error("vmap: in_axes has " + std::to_string(s.in_axes.items().size()) + " entries, but " +
                    std::to_string(a.positional.size()) + " positional arguments were given (one entry per argument)");
    for (size_t i = 0; i < a.positional.size(); ++i)
        args.push_back(map_arg(scope, a.positional[i], per_arg ? s.in_axes.items()[i] : s.in_axes, arg_name(s, i), size));
    // keyword arguments are mapped over their first axis (as JAX does)
    for (size_t k = 0; k < a.keywords.size(); ++k)
        kw.push_back(map_arg(scope, a.keyword_values[k], Value::from_int(0),
                             "keyword argument `" + std::string(a.keywords[k].name) + "`", size));
    return args;
}

Value call_vmap(Runtime& rt, const VmapSpec& s, const CallArgs& a) {
    if (!rt.trace && s.f.is(Kind::Function) && s.f.function().is_graph && s.f.function().graph_cache)
        return Evaluator(rt).call(graph_vmap(s), a, rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
    VmapScope scope(rt);
    BatchSize size;
    if (s.axis_size) size.see(*s.axis_size, "axis_size");
    std::vector<Value> kw;
    std::vector<Value> args = map_args(scope, s, a, size, kw);
    if (!size.size)
        throw Error("vmap: in_axes maps no argument (every entry is None), so the batch size is unknown; give axis_size");
    Value result = Evaluator(rt).call(s.f, CallArgs{args, kw, a.keywords, a.loc},
                                      rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
    return unmap_result(rt, scope, result, s.out_axes, "the result", *size.size);
}

const Value* keyword(const CallArgs& a, std::string_view name) {
    for (size_t k = 0; k < a.keywords.size(); ++k)
        if (a.keywords[k].name == name) return &a.keyword_values[k];
    return nullptr;
}

Value make_vmap(const CallArgs& a) {
    check_arguments("vmap(f, /, in_axes=0, out_axes=0, axis_size=None)", a);  // docs/builtins.md
    auto spec = std::make_shared<VmapSpec>();
    spec->f = a.positional[0];
    if (!spec->f.is(Kind::Function) && !spec->f.is(Kind::Builtin) && !spec->f.is(Kind::BoundMethod))
        throw Error("vmap: the first argument must be a function, not a " + std::string(kind_name(spec->f.kind())));
    const Value* in = a.positional.size() > 1 ? &a.positional[1] : keyword(a, "in_axes");
    const Value* out = a.positional.size() > 2 ? &a.positional[2] : keyword(a, "out_axes");
    const Value* n = a.positional.size() > 3 ? &a.positional[3] : keyword(a, "axis_size");
    spec->in_axes = in ? *in : Value::from_int(0);
    spec->out_axes = out ? *out : Value::from_int(0);
    for (const Value* v : {&spec->in_axes, &spec->out_axes})
        if (v->is_tensor()) (void)to_int(*v, "vmap: in_axes and out_axes entries");
    if (n && !n->is(Kind::None)) {
        spec->axis_size = to_int(*n, "vmap: axis_size");
        if (*spec->axis_size < 0) throw Error("vmap: axis_size must be non-negative");
    }
    spec->name = "vmap(" + (spec->f.is(Kind::Function) ? spec->f.function().name : std::string("function")) + ")";
    return Value::builtin(std::make_shared<BuiltinObj>(
        BuiltinObj{spec->name, [spec](Runtime& rt, const CallArgs& args) { return call_vmap(rt, *spec, args); }}));
}

}  // namespace

void add_vmap_builtins(std::vector<std::pair<std::string, Value>>& out) {
    out.emplace_back("vmap", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{
                                 "vmap", [](Runtime&, const CallArgs& a) { return make_vmap(a); }})));
}

}  // namespace tg::interp
