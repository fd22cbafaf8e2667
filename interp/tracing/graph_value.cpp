// Graph values (docs/language.md "Graphs as values"): spec(), calling a graph with feeds,
// and its attributes. concrete() is interp/tracing/concrete.cpp. A graph
// value is one fixed graph, as a saved one is: rebinding a variable it
// captured does not change it (unlike a @graph call, which retraces).
#include "interp/tracing/graph_value.hpp"

#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/values/dict.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/method_signatures.hpp"
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

Value rebuild(const Structure& st, std::vector<Tensor>& outs, size_t& k) {
    switch (st.kind) {
    case Structure::Tensor: return Value(std::move(outs[k++]));
    case Structure::None: return Value::none();
    case Structure::Dict: {
        DictObj d;
        for (size_t i = 0; i < st.items.size(); ++i) d.set(DictKey::of_str(st.keys[i]), rebuild(st.items[i], outs, k));
        return Value::dict(std::move(d));
    }
    case Structure::Tuple: case Structure::List: {
        std::vector<Value> items;
        for (const Structure& s : st.items) items.push_back(rebuild(s, outs, k));
        return st.kind == Structure::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
    }
    }
    return Value::none();
}

// The shape of a spec; a None or a name (`"batch"`) is a dynamic dimension,
// recorded in `names` (docs/deploying.md "Dynamic dimensions").
stdlib::Shape shape_arg(const Value& v, std::vector<std::string>& names) {
    const std::string what = "spec: argument `shape` must be a tuple of non-negative ints (None or a name for a "
                             "dimension of any size)";
    std::vector<int64_t> dims;
    if (v.is_tensor()) {
        dims.push_back(to_int(v, what));
    } else if (v.is_sequence()) {
        for (const Value& d : v.items()) {
            const std::string axis = "spec: dimension " + std::to_string(dims.size()) + " of argument `shape`";
            if (d.is(Kind::None) || d.is(Kind::Str)) {
                const std::string name = d.is(Kind::None) ? tracer::kAnyDim : d.text();
                if (!tracer::valid_dim_name(name))
                    throw Error(axis + ": a dimension's name is a letter or `_` then letters, digits or `_`, not " + repr_of(d));
                names.resize(dims.size() + 1);
                names.back() = name;
                dims.push_back(0);
                continue;
            }
            dims.push_back(to_int(d, axis + " must be an int, None or a name"));
        }
    } else {
        throw Error(what + ", not a " + kind_name(v.kind()));
    }
    for (int64_t d : dims)
        if (d < 0) throw Error(what + ", not " + str_of(v));
    if (!names.empty()) names.resize(dims.size());
    return stdlib::Shape(dims);
}

Value spec_builtin(Runtime&, const CallArgs& a) {
    check_arguments("spec(shape, dtype=f32, name=None)", a);  // docs/builtins.md
    Value shape, dtype = Value(stdlib::DType::F32), name;
    const char* names[] = {"shape", "dtype", "name"};
    Value* slots[] = {&shape, &dtype, &name};
    for (size_t i = 0; i < a.positional.size(); ++i) *slots[i] = a.positional[i];
    for (size_t k = 0; k < a.keywords.size(); ++k) {
        size_t i = 0;
        while (a.keywords[k].name != names[i]) ++i;  // (one of them: checked above)
        *slots[i] = a.keyword_values[k];
    }
    if (!dtype.is(Kind::DType) && !dtype.is(Kind::Str))
        throw Error("spec: argument `dtype` must be a dtype (f32, i64, ...), not " + repr_of(dtype));
    const stdlib::DType dt = dtype_value(dtype, "spec: argument `dtype`");
    const bool named = name.defined() && !name.is(Kind::None);
    if (named && !name.is(Kind::Str)) throw Error("spec: argument `name` must be a str");
    auto s = std::make_shared<SpecObj>();
    s->spec.type = {dt, shape_arg(shape, s->spec.dims), false};
    if (named) s->spec.name = name.text();
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
        if (attr == "shape") {  // a dynamic dimension as its name (None: unnamed)
            std::vector<Value> dims;
            for (int a = 0; a < s.type.shape.rank(); ++a) {
                const std::string& name = s.dynamic(a) ? s.dims[static_cast<size_t>(a)] : std::string();
                dims.push_back(name.empty() ? Value::from_int(s.type.shape[a])
                                            : name == tracer::kAnyDim ? Value::none() : Value::str(name));
            }
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
            // a bound method: the graph is the first argument
            check_method_arguments(*find_method(MethodOf::Graph, "dot"), CallArgs{a.positional.subspan(1), a.keyword_values, a.keywords, a.loc});
            return Value::str(tracer::to_dot(*a.positional[0].graph().fn.graph));
        }});
        return Value::bound(x, Value::builtin(std::move(dot)));
    }
    return {};
}

std::string graph_str(const GraphObj& g) { return tracer::print_graph(*g.fn.graph); }

std::string graph_repr(const GraphObj& g) {
    const tracer::GraphFunction& f = g.fn;
    auto type = [](const tracer::IoSpec& s) { return tracer::spec_type(s); };
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
        } catch (const codegen::CodegenError& e) {  // a bug in tg or a missing plugin, never the file's fault
            throw Error(codegen::compile_failure_text(e));
        }
    }
    return Value::graph(std::move(obj));
}

namespace {

// One argument of a graph call checked against its structure and specs (TF1's
// feed check); its tensors are appended to `inputs`. A weak literal (2.0, 3)
// takes the spec's dtype when its kind fits (an int literal also feeds a float).
void feed(const tracer::GraphFunction& f, const Structure& st, const Value& v, const std::string& name,
          std::vector<Tensor>& inputs, tracer::FeedCheck& sizes) {
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
            feed(f, st.items[i], v.items()[i], name + "[" + std::to_string(i) + "]", inputs, sizes);
        return;
    }
    case Structure::Dict: {  // weights kept as inputs: by key, as the function was given them
        if (!v.is(Kind::Dict)) throw Error(head + " must be a dict of weights, not a " + std::string(kind_name(v.kind())));
        if (v.dict().keys().size() != st.keys.size())
            throw Error(head + " must be a dict of " + std::to_string(st.keys.size()) + " entries, not one of " +
                        std::to_string(v.dict().keys().size()));
        for (size_t i = 0; i < st.items.size(); ++i) {
            const Value* x = v.dict().find(DictKey::of_str(st.keys[i]));
            if (!x) throw Error(head + " has no key '" + st.keys[i] + "'");
            feed(f, st.items[i], *x, name + "['" + st.keys[i] + "']", inputs, sizes);
        }
        return;
    }
    case Structure::Tensor: break;
    }
    const tracer::IoSpec& spec = f.inputs.at(inputs.size());
    if (!v.is_tensor()) throw Error(head + " must be a tensor of " + tracer::spec_words(spec) + ", not a " + kind_name(v.kind()));
    const stdlib::TensorType t = v.tensor_type();
    if (spec.has_dynamic_dims()) {  // docs/deploying.md "Dynamic dimensions"
        if (t.dtype != spec.type.dtype) throw Error(head + ": expected " + tracer::spec_words(spec) + ", given " + type_words(t));
        if (std::string why = sizes.check(inputs.size(), t.shape); !why.empty()) throw Error(head + ": " + why);
        inputs.push_back(v.tensor());
        return;
    }
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
    tracer::FeedCheck sizes(f);
    try {
        for (size_t i = 0; i < n; ++i) feed(f, f.args[i], args.positional[i], f.params[i], inputs, sizes);
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
