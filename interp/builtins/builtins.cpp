#include "interp/builtins/builtins.hpp"
#include "interp/check_args.hpp"

#include "interp/call_signature.hpp"
#include "interp/autodiff/autodiff.hpp"
#include "interp/batching/batching.hpp"

#include <chrono>
#include <cstdlib>

#include "stdlib/budget.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/values/printing.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/tracing/graph_cache.hpp"
#include "interp/tracing/graph_value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

namespace {

using stdlib::DType;
using stdlib::Tensor;

void no_keywords(const std::string& name, const CallArgs& a) {
    if (!a.keywords.empty())
        throw Error(name + ": unknown keyword argument `" + std::string(a.keywords[0].name) + "`");
}
// A builtin whose parameters are positional-only (docs/builtins.md writes
// `len(x, /)`): counted as the one binder counts them (interp/call_signature.hpp).
void arity(const std::string& name, const CallArgs& a, size_t lo, size_t hi) {
    const size_t n = a.positional.size();
    if (n < lo || n > hi) throw Error(arity_error(name, lo, hi, n, ArityWording::Method, method_receiver(a)));
    no_keywords(name, a);  // (after the count, as the binder checks)
}

Value cast(Runtime& rt, const Value& x, DType d) {
    Value args[2] = {x, Value(d)};
    return call_op(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), CallArgs{args, {}, {}, {}});
}

// Tracing: one `print` node with the whole line (docs/graph.md "Static and dynamic": it prints every
// time the graph runs, in program order).
Value trace_print(Runtime& rt, const CallArgs& a, const std::string& sep, const std::string& end) {
    TraceState& t = *rt.trace;
    tracer::Template text;
    std::vector<tracer::ValueId> operands;
    for (size_t i = 0; i < a.positional.size(); ++i) {
        if (i) text.push_back(tracer::TextPiece{tracer::TextPiece::Text, sep, 0});
        append_str(t, text, operands, a.positional[i], false);
    }
    text.push_back(tracer::TextPiece{tracer::TextPiece::Text, end, 0});
    t.token = t.graph.print(t.token, std::move(text), operands, t.here());
    return Value::none();
}

Value print(Runtime& rt, const CallArgs& a) {
    std::string sep = " ", end = "\n";
    for (size_t k = 0; k < a.keywords.size(); ++k) {
        const Value& v = a.keyword_values[k];
        std::string_view name = a.keywords[k].name;
        if (name != "sep" && name != "end") throw Error("print: unknown keyword argument `" + std::string(name) + "`");
        std::string text;
        if (v.is(Kind::Str)) text = v.text();
        else if (!v.is(Kind::None)) throw Error("print: argument `" + std::string(name) + "` must be a str, not " + kind_name(v.kind()));
        else text = name == "sep" ? " " : "\n";
        (name == "sep" ? sep : end) = text;
    }
    if (rt.trace) return trace_print(rt, a, sep, end);
    std::string out;
    for (size_t i = 0; i < a.positional.size(); ++i) {
        if (i) out += sep;
        out += str_of(a.positional[i]);
    }
    out += end;
    rt.write(out);
    return Value::none();
}

Value len(Runtime& rt, const CallArgs& a) {
    arity("len", a, 1, 1);
    const Value& x = a.positional[0];
    if (x.is_sequence()) return Value::from_int(static_cast<int64_t>(x.items().size()));
    if (x.is(Kind::Dict)) return Value::from_int(static_cast<int64_t>(x.dict().size()));
    if (x.is(Kind::Set)) return Value::from_int(static_cast<int64_t>(x.set().size()));
    if (x.is(Kind::Str)) return Value::from_int(x.text_chars().size());
    if (x.is_tensor()) {
        stdlib::TensorType t = x.tensor_type();  // static, also of a symbolic tensor
        if (t.shape.rank() == 0) throw Error("len: a 0-d tensor has no length");
        if (rt.trace) rt.trace->read_size(x, 0, a.loc);
        return Value::from_int(t.shape[0]);
    }
    throw Error(std::string("len: a ") + kind_name(x.kind()) + " has no length");
}

Value range(Runtime& rt, const CallArgs& a) {
    arity("range", a, 1, 3);
    int64_t r[3] = {0, 0, 1};
    size_t n = a.positional.size();
    for (size_t i = 0; i < n; ++i) r[n == 1 ? 1 : i] = to_int(a.positional[i], "range: argument");
    if (r[2] == 0) throw Error("range: step must not be zero");
    // A materialized range is work like a loop: each element counts as a
    // step (max_steps), and the interrupt and deadline are polled.
    const __int128 span = r[2] > 0 ? (__int128)r[1] - r[0] : (__int128)r[0] - r[1];
    const __int128 step = r[2] > 0 ? r[2] : -(__int128)r[2];
    const int64_t count = span <= 0 ? 0 : static_cast<int64_t>(std::min<__int128>((span + step - 1) / step, INT64_MAX / 2));
    if (count > 100'000'001) throw Error("range: too many elements");
    if (rt.options.max_steps > 0 && rt.steps + count > rt.options.max_steps)
        throw Error("step limit exceeded: more than " + std::to_string(rt.options.max_steps) + " steps (range of " +
                    std::to_string(count) + " elements)");
    rt.steps += count;
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(count));
    stdlib::WorkCounter work;
    for (int64_t i = r[0]; r[2] > 0 ? i < r[1] : i > r[1]; i += r[2]) {
        work.add();
        out.push_back(Value::from_int(i));
    }
    return Value::list(std::move(out));
}

// int(x): a tensor cast to i64, or a string parsed as Python's int(s, base=10)
Value to_int_builtin(Runtime& rt, const CallArgs& a) {
    static const SignatureCheck check("int(x, /, base=10)");  // parsed once per process
    check(a);  // docs/builtins.md
    const Value& x = a.positional[0];
    const Value* base_arg = a.positional.size() > 1 ? &a.positional[1] : a.keywords.empty() ? nullptr : &a.keyword_values[0];
    if (base_arg) {
        const int64_t base = to_int(*base_arg, "int: argument `base`");
        if (base != 0 && (base < 2 || base > 36)) throw Error("int: base must be >= 2 and <= 36, or 0");
        if (!x.is(Kind::Str)) throw Error("int: can't convert a non-string with an explicit base");
        if (x.sym_str()) unsupported_in_graph("`int` of a string that shows traced tensor values");
        return Value::from_int(parse_int("int", x.text(), static_cast<int>(base)));
    }
    if (x.is(Kind::Str)) return parse_as("int", x, DType::I64);
    if (x.is_tensor()) return cast(rt, x, DType::I64);
    throw Error(std::string("int: argument must be a tensor or a str, not ") + kind_name(x.kind()));
}

// float(x): f32, tg's float (docs/language.md "Calls"); f64(s) parses to f64
Value to_float_builtin(Runtime& rt, const CallArgs& a) {
    arity("float", a, 1, 1);
    const Value& x = a.positional[0];
    if (x.is(Kind::Str)) return parse_as("float", x, DType::F32);
    if (x.is_tensor()) return cast(rt, x, DType::F32);
    throw Error(std::string("float: argument must be a tensor or a str, not ") + kind_name(x.kind()));
}

Value make_graph(const Value& f, const std::vector<std::string>& static_names) {
    if (!f.is(Kind::Function)) throw Error("graph: can only decorate a function defined with `def`");
    auto copy = std::make_shared<FunctionObj>(f.function());
    copy->is_graph = true;  // calls of this function are traced (graph_call.cpp)
    copy->graph_cache = std::make_shared<GraphCache>();
    const auto& params = *copy->params;
    copy->static_params.assign(params.size(), false);
    for (const std::string& name : static_names) {
        size_t i = 0;
        while (i < params.size() && params[i].name != name) ++i;
        if (i == params.size())
            throw Error("graph: argument `static` names `" + name + "`, which is not a parameter of `" + copy->name + "`");
        copy->static_params[i] = true;
    }
    return Value::function(std::move(copy));
}

// `@graph` or `@graph(static=("n", "shape"))` (docs/graph.md "Signatures and the cache"): the second form
// returns the decorator.
Value graph(Runtime&, const CallArgs& a) {
    if (a.positional.empty() && a.keywords.size() == 1 && a.keywords[0].name == "static") {
        const Value& spec = a.keyword_values[0];
        std::vector<std::string> names;
        auto add_name = [&](const Value& v) {
            if (!v.is(Kind::Str))
                throw Error(std::string("graph: argument `static` must be a parameter name or a tuple of them, not ") +
                            kind_name(v.kind()));
            names.push_back(v.text());
        };
        if (spec.is_sequence())
            for (const Value& v : spec.items()) add_name(v);
        else add_name(spec);
        auto deco = std::make_shared<BuiltinObj>(BuiltinObj{
            "graph", [names](Runtime&, const CallArgs& b) {
                arity("graph", b, 1, 1);
                return make_graph(b.positional[0], names);
            }});
        return Value::builtin(std::move(deco));
    }
    arity("graph", a, 1, 1);
    return make_graph(a.positional[0], {});
}

// max(a, b) / min(a, b) with two tensors are element-wise (docs/builtins.md); with
// one tensor (and an axis) they reduce. A second argument that is an int
// literal or a tuple is an axis, unless the first is 0-d (then max(3, 5) is 5).
// sum(s), min(s), max(s) of a set (docs/language.md "Sets"): of its
// elements, as a tuple of them (nullopt when `a` is not one set).
std::optional<Value> fold_set(Runtime& rt, const CallArgs& a, BuiltinFn fn) {
    if (a.positional.size() != 1 || !a.positional[0].is(Kind::Set)) return std::nullopt;
    Value xs[1] = {Value::tuple(set_values(a.positional[0].set()))};
    return fn(rt, CallArgs{xs, a.keyword_values, a.keywords, a.loc});
}

Value max_min(Runtime& rt, const CallArgs& a, bool is_max) {
    if (auto v = fold_set(rt, a, [is_max](Runtime& r, const CallArgs& b) { return max_min(r, b, is_max); })) return *v;
    if (auto v = python_min_max(rt, a, is_max)) return *v;
    if (auto v = python_fold(rt, a, is_max ? PythonFold::Max : PythonFold::Min)) return *v;
    if (a.positional.size() == 2 && a.keywords.empty()) {
        const Value& x = a.positional[0];
        const Value& y = a.positional[1];
        bool axis_like = y.is_sequence() || y.is(Kind::None) ||
                         (y.is_tensor() && y.tensor_type().weak && stdlib::is_int(y.tensor_type().dtype) &&
                          !(x.is_tensor() && x.tensor_type().shape.rank() == 0));
        if (!axis_like) return call_op(rt, stdlib::op_of(is_max ? stdlib::BinaryKind::Maximum : stdlib::BinaryKind::Minimum), a);
    }
    return call_op(rt, stdlib::op_of(is_max ? stdlib::ReduceKind::Max : stdlib::ReduceKind::Min), a);
}

void add(std::vector<std::pair<std::string, Value>>& out, std::string name, BuiltinFn fn, const stdlib::OpDef* opdef = nullptr,
         NumberBuiltin on_numbers = NumberBuiltin::None) {
    auto b = std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), opdef});
    b->on_numbers = on_numbers;  // the evaluator's shortcut on numbers (interp/scalar_builtins.hpp)
    out.emplace_back(std::move(name), Value::builtin(std::move(b)));
}

// What the host knows and tg code may ask in eager code: the time and whether output is a terminal.
void add_host_state_builtins(std::vector<std::pair<std::string, Value>>& out) {
    add(out, "time", [](Runtime& rt, const CallArgs& a) {
        arity("time", a, 0, 0);
        if (rt.trace) dynamic_value_error("time: cannot be called inside a @graph function");
        auto now = std::chrono::system_clock::now().time_since_epoch();
        return Value(Tensor::scalar(std::chrono::duration<double>(now).count(), DType::F64));
    });
    // Whether print() writes to a terminal, as the host says (Options::output_is_terminal); a
    // constant of the run, but host-side like time(): a progress bar asks it in eager code.
    add(out, "isatty", [](Runtime& rt, const CallArgs& a) {
        arity("isatty", a, 0, 0);
        if (rt.trace) dynamic_value_error("isatty: cannot be called inside a @graph function");
        return Value::from_bool(rt.options.output_is_terminal);
    });
}

// sum, max and min also take Python's forms (a list of numbers, strings, a set...)
void add_fold_builtins(std::vector<std::pair<std::string, Value>>& out) {
    const stdlib::OpDef* sum = &stdlib::op_of(stdlib::ReduceKind::Sum);
    add(out, "sum", [sum](Runtime& rt, const CallArgs& a) {
        auto sum_of = [sum](Runtime& r, const CallArgs& b) {
            if (auto v = python_fold(r, b, PythonFold::Sum)) return *v;
            return call_op(r, *sum, b);
        };
        if (auto v = fold_set(rt, a, sum_of)) return *v;
        return sum_of(rt, a);
    }, sum);
    add(out, "max", [](Runtime& rt, const CallArgs& a) { return max_min(rt, a, true); }, nullptr, NumberBuiltin::Max);
    add(out, "min", [](Runtime& rt, const CallArgs& a) { return max_min(rt, a, false); }, nullptr, NumberBuiltin::Min);
}

// The builtins of the other files of interp/builtins (and the debugger's, the dicts')
void add_library_builtins(std::vector<std::pair<std::string, Value>>& out) {
    add_sequence_builtins(out);
    add_iter_builtins(out);
    add_file_builtins(out);
    add_shape_builtins(out);
    add_math_builtins(out);
    add_nn_conv_builtins(out);
    add_nn_norm_builtins(out);
    add_nn_act_builtins(out);
    add_nn_resize_builtins(out);
    add_tree_builtins(out);
    add_display_builtins(out);
    add_python_builtins(out);
    add_numpy_builtins(out);
    add_debug_builtins(out);
    add_dict_builtins(out);
    add_set_builtins(out);
    add_np_dtype_builtins(out);  // last: wraps the builtins of sum, mean, ... defined above
}

}  // namespace

std::vector<std::pair<std::string, Value>> make_builtins() {
    std::vector<std::pair<std::string, Value>> out;
    // every op of the table, by name
    for (const stdlib::OpDef* o : stdlib::all_ops()) {
        if (o->flags & stdlib::kInternal) continue;  // the tracer's own ops
        add(out, std::string(o->name), [o](Runtime& rt, const CallArgs& a) { return call_op(rt, *o, a); }, o);
    }
    // other names of ops: TF's `constant`, NumPy's `concatenate` and `ravel`
    for (auto [alias, kind] : {std::pair{"constant", stdlib::OtherKind::Tensor}, std::pair{"concatenate", stdlib::OtherKind::Concat},
                               std::pair{"ravel", stdlib::OtherKind::Flatten}}) {
        const stdlib::OpDef* op = &stdlib::op_of(kind);
        add(out, alias, [op](Runtime& rt, const CallArgs& a) { return call_op(rt, *op, a); }, op);
    }
    add_fold_builtins(out);

    add(out, "print", print);
    add(out, "len", len, nullptr, NumberBuiltin::Len);
    add(out, "range", range);
    add(out, "str", [](Runtime& rt, const CallArgs& a) {
        arity("str", a, 1, 1);
        if (rt.trace && has_symbolic(a.positional[0])) {
            tracer::Template t;
            std::vector<tracer::ValueId> ops;
            append_str(*rt.trace, t, ops, a.positional[0], false);
            return make_str(std::move(t), std::move(ops));
        }
        return Value::str(str_of(a.positional[0]));
    });
    add(out, "repr", [](Runtime& rt, const CallArgs& a) {
        arity("repr", a, 1, 1);
        if (rt.trace && has_symbolic(a.positional[0])) {
            tracer::Template t;
            std::vector<tracer::ValueId> ops;
            append_str(*rt.trace, t, ops, a.positional[0], true);
            return make_str(std::move(t), std::move(ops));
        }
        return Value::str(repr_of(a.positional[0]));
    });
    add(out, "int", to_int_builtin, nullptr, NumberBuiltin::Int);
    add(out, "float", to_float_builtin, nullptr, NumberBuiltin::Float);
    add_host_state_builtins(out);
    add(out, "type", [](Runtime&, const CallArgs& a) {
        arity("type", a, 1, 1);
        return Value::str(kind_name(a.positional[0].kind()));
    });
    add(out, "seed", [](Runtime& rt, const CallArgs& a) {
        arity("seed", a, 1, 1);
        if (rt.trace) unsupported_in_graph("seed() inside a @graph function");
        rt.rng.reseed(static_cast<uint64_t>(to_int(a.positional[0], "seed: argument `n`")));
        return Value::none();
    });
    add(out, "graph", graph);
    add_autodiff_builtins(out);
    add_transform_builtins(out);
    add_vmap_builtins(out);
    add_graph_builtins(out);
    for (DType d : {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64})
        out.emplace_back(stdlib::dtype_name(d), Value(d));
    out.emplace_back("argv", Value::list({}));
    add_library_builtins(out);
    return out;
}

}  // namespace tg::interp
