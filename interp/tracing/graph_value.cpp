// Graph values (docs/language.md "Graphs as values"): spec(), concrete(), calling a graph with feeds,
// and its attributes. concrete() traces with the same session as a @graph
// call (Evaluator::trace_body) and compiles with the same Compiler and
// object cache (Evaluator::compile_traced).
//
// What concrete bakes in: the values of static parameters (@graph(static=...)),
// of arguments given as non-tensor values (strings, functions, None), of
// parameters left to their defaults, and of every variable the body reads
// from enclosing scopes — all as they are when concrete runs. Rebinding such
// a variable later does not change the graph (unlike a @graph call, which
// retraces: a graph value is one fixed graph, as a saved one is).
#include "interp/tracing/graph_value.hpp"

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/values/printing.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/cast.hpp"
#include "tracer/printer.hpp"

namespace tg::interp {

using stdlib::Tensor;
using tracer::Structure;

namespace {

// "shape (3, 4) and dtype f32"
std::string type_words(const stdlib::TensorType& t) {
    return "shape " + t.shape.to_string() + " and dtype " + stdlib::dtype_name(t.dtype);
}

// Whether an argument of concrete() is fed to the graph (a spec, a tensor, or
// a list/tuple holding one) rather than baked into it.
bool has_input_leaf(const Value& v) {
    if (v.is(Kind::Spec) || v.is_tensor()) return true;
    if (const std::vector<Value>* xs = v.children())
        for (const Value& x : *xs)
            if (has_input_leaf(x)) return true;
    return false;
}

bool has_spec_leaf(const Value& v) {
    if (v.is(Kind::Spec)) return true;
    if (const std::vector<Value>* xs = v.children())
        for (const Value& x : *xs)
            if (has_spec_leaf(x)) return true;
    return false;
}

// Rebuilds v with each leaf (a spec or a tensor) replaced by leaf(v, name)
// and records its structure (tuples, lists, None); any other value is
// other(v, name)'s error. Names are "x", "x[0]", "x[0][1]".
template <class Leaf, class Other>
Value map_structure(const Value& v, const std::string& name, Structure& st, const Leaf& leaf, const Other& other) {
    if (v.is(Kind::Spec) || v.is_tensor()) {
        st.kind = Structure::Tensor;
        return leaf(v, name);
    }
    if (v.is(Kind::None)) {
        st.kind = Structure::None;
        return v;
    }
    if (!v.is_sequence()) throw other(v, name);
    st.kind = v.is(Kind::List) ? Structure::List : Structure::Tuple;
    std::vector<Value> items;
    for (size_t i = 0; i < v.items().size(); ++i) {
        st.items.emplace_back();
        items.push_back(map_structure(v.items()[i], name + "[" + std::to_string(i) + "]", st.items.back(), leaf, other));
    }
    return v.with_children(std::move(items));
}

// Replaces the spec and tensor leaves of an argument of concrete() by new
// inputs of the graph (strong types: a literal example 2.0 is an f32[] input).
Value make_spec_inputs(TraceState& T, const Value& v, const std::string& name, Structure& st) {
    return map_structure(
        v, name, st,
        [&](const Value& x, const std::string& n) {
            stdlib::TensorType t = x.is(Kind::Spec) ? x.spec().spec.type : x.tensor_type();
            t.weak = false;
            return symbolic(T, T.graph.add_input(t, n));
        },
        [](const Value& x, const std::string& n) {
            return Error("concrete: argument `" + n +
                         "`: a graph's inputs are tensors, or lists and tuples of them (and None), not a " +
                         kind_name(x.kind()));
        });
}

// The traced result with every tensor leaf symbolic (a constant one becomes
// a node), and its structure.
Value make_outputs(TraceState& T, const Value& r, Structure& st, const std::string& fname) {
    auto wrong = [&](const Value& x, const std::string&) {
        const std::string what = x.maybe_undef() ? "a value that is None on some paths only"
                                                 : std::string("a ") + kind_name(x.kind());
        return Error("concrete: `" + fname + "` returns " + what +
                     "; a graph returns tensors, or lists and tuples of them (and None)");
    };
    return map_structure(
        r, "result", st,
        [&](const Value& x, const std::string& n) {
            if (x.is(Kind::Spec)) throw wrong(x, n);
            return x.is_symbolic() ? x : symbolic(T, value_id(T, x));
        },
        wrong);
}

Value rebuild(const Structure& st, std::vector<Tensor>& outs, size_t& k) {
    switch (st.kind) {
    case Structure::Tensor: return Value(std::move(outs[k++]));
    case Structure::None: return Value::none();
    case Structure::Tuple: case Structure::List: {
        std::vector<Value> items;
        for (const Structure& s : st.items) items.push_back(rebuild(s, outs, k));
        return st.kind == Structure::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
    }
    }
    return Value::none();
}

stdlib::Shape shape_arg(const Value& v) {
    const std::string what = "spec: argument `shape` must be a tuple of non-negative ints";
    std::vector<int64_t> dims;
    if (v.is_tensor()) {
        dims.push_back(to_int(v, what));
    } else if (v.is_sequence()) {
        for (const Value& d : v.items()) {
            if (d.is(Kind::None))
                throw Error("spec: argument `shape` has None at axis " + std::to_string(dims.size()) +
                            ": dimensions of any size are not in specs yet (a @graph function called at several "
                            "sizes makes them dynamic by itself: docs/graph.md \"Dynamic dimensions\")");
            dims.push_back(to_int(d, "spec: each dimension of argument `shape`"));
        }
    } else {
        throw Error(what + ", not a " + kind_name(v.kind()));
    }
    for (int64_t d : dims)
        if (d < 0) throw Error(what + ", not " + str_of(v));
    return stdlib::Shape(dims);
}

Value spec_builtin(Runtime&, const CallArgs& a) {
    Value shape, dtype = Value(stdlib::DType::F32), name;
    const char* names[] = {"shape", "dtype", "name"};
    Value* slots[] = {&shape, &dtype, &name};
    if (a.positional.size() > 3)
        throw Error("spec: takes 1 to 3 arguments but " + std::to_string(a.positional.size()) + " were given");
    for (size_t i = 0; i < a.positional.size(); ++i) *slots[i] = a.positional[i];
    for (size_t k = 0; k < a.keywords.size(); ++k) {
        size_t i = 0;
        while (i < 3 && a.keywords[k].name != names[i]) ++i;
        if (i == 3) throw Error("spec: unknown keyword argument `" + std::string(a.keywords[k].name) + "`");
        *slots[i] = a.keyword_values[k];
    }
    if (!shape.defined()) throw Error("spec: missing argument `shape`");
    if (!dtype.is(Kind::DType)) throw Error("spec: argument `dtype` must be a dtype (f32, i64, ...), not " + repr_of(dtype));
    if (name.defined() && !name.is(Kind::Str)) throw Error("spec: argument `name` must be a str");
    auto s = std::make_shared<SpecObj>();
    s->spec.type = {dtype.dtype(), shape_arg(shape), false};
    if (name.defined()) s->spec.name = name.text();
    return Value::spec(std::move(s));
}

Value spec_list(const std::vector<tracer::IoSpec>& specs) {
    std::vector<Value> out;
    for (const tracer::IoSpec& s : specs) out.push_back(Value::spec(std::make_shared<SpecObj>(SpecObj{s})));
    return Value::list(std::move(out));
}

}  // namespace

void add_graph_builtins(std::vector<std::pair<std::string, Value>>& out) {
    out.emplace_back("spec", Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"spec", spec_builtin})));
    auto concrete = std::make_shared<BuiltinObj>(BuiltinObj{"concrete", nullptr});
    concrete->caller = [](Evaluator& ev, const CallArgs& a, const lang::SourcePtr& source) { return ev.concrete(a, source); };
    out.emplace_back("concrete", Value::builtin(std::move(concrete)));
}

Value graph_attribute(const Value& x, const std::string& attr) {
    if (x.is(Kind::Spec)) {
        const tracer::IoSpec& s = x.spec().spec;
        if (attr == "shape") {
            std::vector<Value> dims;
            for (int64_t d : s.type.shape) dims.push_back(Value::from_int(d));
            return Value::tuple(std::move(dims));
        }
        if (attr == "dtype") return Value(s.type.dtype);
        if (attr == "name") return Value::str(s.name);
        return {};
    }
    if (!x.is(Kind::Graph)) return {};
    const tracer::GraphFunction& f = x.graph().fn;
    if (attr == "inputs") return spec_list(f.inputs);
    if (attr == "outputs") return spec_list(f.outputs);
    if (attr == "name") return Value::str(f.name);
    if (attr == "dot") {
        auto dot = std::make_shared<BuiltinObj>(BuiltinObj{"dot", [](Runtime&, const CallArgs& a) {
            if (a.positional.size() != 1 || !a.keywords.empty()) throw Error("dot: takes no arguments");
            return Value::str(tracer::to_dot(*a.positional[0].graph().fn.graph));
        }});
        return Value::bound(x, Value::builtin(std::move(dot)));
    }
    return {};
}

std::string graph_str(const GraphObj& g) { return tracer::print_graph(*g.fn.graph); }

std::string graph_repr(const GraphObj& g) {
    const tracer::GraphFunction& f = g.fn;
    auto type = [](const tracer::IoSpec& s) { return tracer::to_string(s.type); };
    std::string out = "<graph " + f.name + "(";
    for (size_t i = 0; i < f.inputs.size(); ++i) out += (i ? ", " : "") + f.inputs[i].name + ": " + type(f.inputs[i]);
    out += ") -> ";
    if (f.outputs.size() == 1 && f.result.kind == Structure::Tensor) return out + type(f.outputs[0]) + ">";
    out += "(";
    for (size_t i = 0; i < f.outputs.size(); ++i) out += (i ? ", " : "") + type(f.outputs[i]);
    return out + ")>";
}

Value make_graph_value(Runtime& rt, tracer::GraphFunction fn) {
    auto obj = std::make_shared<GraphObj>();
    obj->fn = std::move(fn);
    if (!rt.options.no_jit) {
        try {
            obj->compiled = rt.compiler().compile(*obj->fn.graph, obj->fn.name, codegen::Tiering::Background);
        } catch (const codegen::CodegenError& e) {  // a bug in tg, never the file's fault
            throw Error(std::string("internal error: ") + e.what() + "\n(please report this; --no-jit avoids it)");
        }
    }
    return Value::graph(std::move(obj));
}

Value Evaluator::concrete(const CallArgs& a, const lang::SourcePtr& call_source) {
    if (!a.keywords.empty()) throw Error("concrete: unknown keyword argument `" + std::string(a.keywords[0].name) + "`");
    if (a.positional.empty()) throw Error("concrete: missing argument `f`");
    const Value& f = a.positional[0];
    if (!f.is(Kind::Function))
        throw Error(std::string("concrete: argument `f` must be a function defined in tg (def or lambda), not a ") +
                    (f.is(Kind::Builtin) ? "builtin" : kind_name(f.kind())));
    const FunctionObj& fn = f.function();
    const auto& params = *fn.params;
    const size_t given = a.positional.size() - 1;
    if (given > params.size())
        throw Error("concrete: `" + fn.name + "` takes " + std::to_string(params.size()) + " arguments but " +
                    std::to_string(given) + " specs were given");
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    auto env = std::make_shared<Env>();
    env->slots.resize(static_cast<size_t>(facts->num_slots()));
    env->parent = fn.env;
    env->facts = facts;
    env->traced = true;
    auto T = std::make_unique<TraceState>(fn.name);
    T->token = T->graph.add_input_token();
    tracer::GraphFunction out;
    out.name = fn.name;
    for (size_t i = 0; i < params.size(); ++i) {
        const std::string& name = params[i].name;
        const Value v = i < given ? a.positional[i + 1] : fn.defaults[i];
        if (!v.defined()) throw Error("concrete: missing a spec for argument `" + name + "` of `" + fn.name + "`");
        const bool is_static = i < fn.static_params.size() && fn.static_params[i];
        if (is_static && has_input_leaf(v) && (v.is(Kind::Spec) || !v.is_tensor()))
            throw Error("concrete: argument `" + name + "` of `" + fn.name +
                        "` is static (@graph(static=...)): give its value, not a spec");
        if (is_static || i >= given || !has_input_leaf(v)) {
            env->slots[i] = v;  // baked into the graph
            continue;
        }
        if (v.is(Kind::Dict)) {
            // a dict of weights (params) is baked into the graph as constants; a
            // graph's inputs are tensors, lists and tuples (docs/deploying.md)
            if (has_spec_leaf(v))
                throw Error("concrete: argument `" + name + "`: a dict cannot be an input of a graph; give its "
                            "tensors (baked in as constants), or pass the specs as a list or tuple");
            env->slots[i] = v;
            continue;
        }
        Structure st;
        env->slots[i] = make_spec_inputs(*T, v, name, st);
        out.params.push_back(name);
        out.args.push_back(std::move(st));
    }
    TraceTimes times;
    try {
        trace_body(
            fn, *T, env, [&](const Value& r) { return make_outputs(*T, r, out.result, fn.name); }, times);
    } catch (Error& e) {
        if (e.trace_kind == TraceErrorKind::Unsupported || e.trace_kind == TraceErrorKind::TooDeep) {
            Error err("concrete: cannot make a graph of `" + fn.name + "`: " + e.message(), e.source(), e.loc());
            if (e.located()) err.leave_frame(fn.name, fn.is_graph, call_source, a.loc);
            throw err;
        }
        if (e.located()) e.leave_frame(fn.name, fn.is_graph, call_source, a.loc);
        throw;
    }
    out.graph = std::make_shared<const tracer::Graph>(std::move(T->graph));
    out.inputs = tracer::input_specs(*out.graph);
    out.outputs = tracer::output_specs(*out.graph, out.result);
    auto obj = std::make_shared<GraphObj>();
    obj->fn = std::move(out);
    obj->compiled = compile_traced(*obj->fn.graph, fn.name, call_source, a.loc);
    return Value::graph(std::move(obj));
}

namespace {

// One argument of a graph call checked against its structure and specs (TF1's
// feed check); its tensors are appended to `inputs`. A weak literal (2.0, 3)
// takes the spec's dtype when its kind fits (an int literal also feeds a float).
void feed(const tracer::GraphFunction& f, const Structure& st, const Value& v, const std::string& name,
          std::vector<Tensor>& inputs) {
    const std::string head = f.name + ": argument `" + name + "`";
    switch (st.kind) {
    case Structure::None:
        if (!v.is(Kind::None)) throw Error(head + " must be None, not " + repr_of(v));
        return;
    case Structure::Tuple: case Structure::List: {
        const char* want = st.kind == Structure::Tuple ? "tuple" : "list";
        if (!v.is_sequence() || v.items().size() != st.items.size())
            throw Error(head + " must be a " + want + " of " + std::to_string(st.items.size()) + " items, not " +
                        (v.is_sequence() ? "one of " + std::to_string(v.items().size()) : std::string("a ") + kind_name(v.kind())));
        for (size_t i = 0; i < st.items.size(); ++i)
            feed(f, st.items[i], v.items()[i], name + "[" + std::to_string(i) + "]", inputs);
        return;
    }
    case Structure::Tensor: break;
    }
    const tracer::IoSpec& spec = f.inputs.at(inputs.size());
    if (!v.is_tensor()) throw Error(head + " must be a tensor of " + type_words(spec.type) + ", not a " + kind_name(v.kind()));
    const stdlib::TensorType t = v.tensor_type();
    const bool fits = t.weak && t.shape == spec.type.shape && t.dtype != stdlib::DType::Bool &&
                      spec.type.dtype != stdlib::DType::Bool &&
                      (stdlib::is_float(spec.type.dtype) || stdlib::is_int(t.dtype));
    const bool same = t.dtype == spec.type.dtype && t.shape == spec.type.shape;
    if (!same && !fits) throw Error(head + ": expected " + type_words(spec.type) + ", given " + type_words(t));
    inputs.push_back(stdlib::cast(v.tensor(), spec.type.dtype));  // a weak literal becomes strong
}

}  // namespace

Value Evaluator::call_graph_value(const GraphObj& g, const CallArgs& args, const lang::SourcePtr& call_source) {
    const tracer::GraphFunction& f = g.fn;
    if (rt_.trace) unsupported_in_graph("a call of a graph value");
    if (!args.keywords.empty())
        throw Error(f.name + ": a graph takes its arguments by position", call_source, args.keywords[0].loc);
    const size_t n = f.params.size();
    if (args.positional.size() != n)
        throw Error(f.name + ": takes " + std::to_string(n) + (n == 1 ? " argument" : " arguments") + " but " +
                        std::to_string(args.positional.size()) +
                        (args.positional.size() == 1 ? " was given" : " were given"),
                    call_source, args.loc);
    std::vector<Tensor> inputs;
    try {
        for (size_t i = 0; i < n; ++i) feed(f, f.args[i], args.positional[i], f.params[i], inputs);
    } catch (Error& e) {
        e.locate(call_source, args.loc);
        throw;
    } catch (const stdlib::OpError& e) {
        throw Error(e.what(), call_source, args.loc);
    }
    std::vector<Tensor> outs;
    try {
        outs = run_traced(*f.graph, g.compiled.get(), inputs, args.loc);
    } catch (Error& e) {
        e.locate(call_source, args.loc);
        if (e.source() != call_source || e.loc() != args.loc) e.leave_frame(f.name, true, call_source, args.loc);
        throw;
    }
    size_t k = 0;
    return rebuild(f.result, outs, k);
}

}  // namespace tg::interp
