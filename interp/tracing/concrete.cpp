// concrete(f, *specs, params_as_inputs=False) (docs/language.md "Graphs as
// values", docs/deploying.md): f traced into a graph value with the same
// session as a @graph call (Evaluator::trace_body), compiled with the same
// Compiler and object cache (Evaluator::compile_traced).
//
// What concrete bakes in: the values of static parameters (@graph(static=...)),
// of arguments given as non-tensor values (strings, functions, None), of
// parameters left to their defaults, of dicts of weights (unless
// params_as_inputs: then their tensors are inputs named by path, `l1/w`), and
// of every variable the body reads from enclosing scopes — all as they are
// when concrete runs.
//
// Dynamic dimensions (`spec((None, 64))`, `spec(("batch", 64))`) reuse the
// generalization of @graph calls (tracer/generalize.hpp): the function is
// traced at chosen sizes and again at probe sizes, the two graphs compared
// and the first marked; a third trace at size 1 says whether the graph also
// serves that size (else it runs at sizes >= 2).
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <tuple>

#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/printing.hpp"
#include "interp/tracing/graph_value.hpp"
#include "interp/tracing/trace.hpp"
#include "tracer/generalize.hpp"
#include "tracer/passes.hpp"

namespace tg::interp {

using tracer::Structure;

// What concrete's arguments say, before any trace: per parameter its value
// and whether it is fed (an input of the graph) or baked in; the dynamic
// dimensions of the specs, in the order binding meets them.
struct ConcreteCall {
    const FunctionObj* fn = nullptr;
    std::vector<Value> values;
    std::vector<bool> fed;
    bool params_as_inputs = false;
    std::vector<int> axis_symbols;     // per dynamic axis met, its symbol
    std::vector<std::string> names;    // per symbol: its name (kAnyDim: not named yet)
    std::vector<std::string> where;    // per symbol: where it is first met ("`x` axis 0")
    int64_t largest = 1;               // the largest static size in the specs and the fed tensors
};

struct ConcreteTrace {
    std::unique_ptr<TraceState> T;
    tracer::GraphFunction out;
    std::map<tracer::ValueId, std::vector<int>> dynamic_axes;  // of the inputs that have some
};

namespace {

// Whether an argument of concrete() is fed to the graph (a spec, a tensor, or
// a list/tuple holding one) rather than baked into it.
bool has_input_leaf(const Value& v) {
    if (v.is(Kind::Spec) || v.is_tensor()) return true;
    if (const auto xs = v.children())
        for (const Value& x : *xs)
            if (has_input_leaf(x)) return true;
    return false;
}

bool has_spec_leaf(const Value& v) {
    if (v.is(Kind::Spec)) return true;
    if (const auto xs = v.children())
        for (const Value& x : *xs)
            if (has_spec_leaf(x)) return true;
    return false;
}

std::string key_part(const DictKey& k) { return k.is_int() ? std::to_string(k.i()) : k.s(); }

// Rebuilds v with each leaf (a spec or a tensor) replaced by leaf(v, name)
// and records its structure (tuples, lists, None; dicts when `dicts`);
// any other value is other(v, name)'s error. Names are "x", "x[0]",
// "x[0][1]"; inside a dict the path of the leaf, as a checkpoint names it ("l1/w").
template <class Leaf, class Other>
Value map_structure(const Value& v, const std::string& name, Structure& st, const Leaf& leaf, const Other& other,
                    bool dicts = false, bool in_dict = false) {
    if (v.is(Kind::Spec) || v.is_tensor()) {
        st.kind = Structure::Tensor;
        return leaf(v, name);
    }
    if (v.is(Kind::None)) {
        st.kind = Structure::None;
        return v;
    }
    const bool dict = dicts && v.is(Kind::Dict);
    if (!v.is_sequence() && !dict) throw other(v, name);
    st.kind = dict ? Structure::Dict : v.is(Kind::List) ? Structure::List : Structure::Tuple;
    const std::span<const Value> xs = v.child_values();
    std::vector<Value> items;
    for (size_t i = 0; i < xs.size(); ++i) {
        const std::string part = dict ? key_part(v.dict().keys()[i]) : std::to_string(i);
        if (dict) st.keys.push_back(part);
        const bool path = dict || in_dict;
        const std::string child = path ? (in_dict ? name + "/" + part : part) : name + "[" + part + "]";
        st.items.emplace_back();
        items.push_back(map_structure(xs[i], child, st.items.back(), leaf, other, dicts, path));
    }
    return v.with_children(std::move(items));
}

Error not_an_input(const Value& x, const std::string& n) {
    return Error("concrete: argument `" + n +
                 "`: a graph's inputs are tensors, or lists and tuples of them (and None), not a " + kind_name(x.kind()));
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

// Numbers the dynamic dims of the fed arguments' specs: a named one shares
// its symbol with every dim of that name, each unnamed one has its own.
void plan_dims(ConcreteCall& c) {
    const auto& params = *c.fn->params;
    for (size_t i = 0; i < c.values.size(); ++i) {
        if (!c.fed[i]) continue;
        Structure st;
        map_structure(
            c.values[i], params[i].name, st,
            [&](const Value& x, const std::string& n) {
                if (x.is_tensor()) {
                    for (int64_t d : x.tensor_type().shape) c.largest = std::max(c.largest, d);
                    return x;
                }
                const tracer::IoSpec& s = x.spec().spec;
                for (int a = 0; a < s.type.shape.rank(); ++a) {
                    if (!s.dynamic(a)) {
                        c.largest = std::max(c.largest, s.type.shape[a]);
                        continue;
                    }
                    const std::string& name = s.dims[static_cast<size_t>(a)];
                    size_t k = 0;
                    while (k < c.names.size() && (name == tracer::kAnyDim || c.names[k] != name)) ++k;
                    if (k == c.names.size()) {
                        c.names.push_back(name);
                        c.where.push_back("`" + n + "` axis " + std::to_string(a));
                    }
                    c.axis_symbols.push_back(static_cast<int>(k));
                }
                return x;
            },
            not_an_input, c.params_as_inputs);
    }
}

// A name for each unnamed symbol, from where it is first met (`x_dim0`), unlike every other.
void name_dims(ConcreteCall& c, const tracer::Graph& g) {
    const std::vector<tracer::ValueId> inputs = g.inputs();
    for (size_t k = 0; k < c.names.size(); ++k) {
        if (c.names[k] != tracer::kAnyDim) continue;
        const tracer::SymbolSource& s = g.symbol_sources().at(k);
        std::string base;
        for (char ch : g.value(inputs.at(s.input)).name)
            base += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
        base += "_dim" + std::to_string(s.axis);
        std::string name = base;
        for (int n = 2; std::find(c.names.begin(), c.names.end(), name) != c.names.end(); ++n)
            name = base + "_" + std::to_string(n);
        c.names[k] = name;
    }
}

bool same_marks(const tracer::Graph& a, const tracer::Graph& b) {
    for (tracer::ValueId v = 0; v < a.num_values(); ++v) {
        if (a.type(v).token) continue;
        for (int axis = 0; axis < a.tensor_type(v).shape.rank(); ++axis)
            if (a.dim_symbol(v, axis) != b.dim_symbol(v, axis)) return false;
    }
    auto constants = [](const tracer::Graph& g) {
        std::vector<std::tuple<tracer::NodeId, int, int64_t>> out;
        for (const auto& c : g.size_constants()) out.emplace_back(c.node, c.symbol, c.factor);
        return out;
    };
    auto attrs = [](const tracer::Graph& g) {
        std::vector<std::pair<tracer::NodeId, size_t>> out;
        for (const auto& s : g.shape_attrs()) out.emplace_back(s.node, s.attr);
        return out;
    };
    return constants(a) == constants(b) && attrs(a) == attrs(b);
}

}  // namespace

ConcreteTrace Evaluator::trace_concrete(const ConcreteCall& c, std::span<const int64_t> sizes,
                                        const lang::SourcePtr& call_source, lang::Loc loc) {
    const FunctionObj& fn = *c.fn;
    const auto& params = *fn.params;
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    auto env = std::make_shared<Env>();
    env->slots.resize(static_cast<size_t>(facts->num_slots()));
    env->parent = fn.env;
    env->facts = facts;
    env->traced = true;
    ConcreteTrace r{std::make_unique<TraceState>(fn.name), {}, {}};
    TraceState& T = *r.T;
    T.optimize = sizes.empty();  // dynamic dims: the traces are compared as traced
    T.token = T.graph.add_input_token();
    r.out.name = fn.name;
    size_t next_axis = 0;
    for (size_t i = 0; i < params.size(); ++i) {
        if (!c.fed[i]) {
            env->slots[i] = c.values[i];  // baked into the graph
            continue;
        }
        Structure st;
        env->slots[i] = map_structure(
            c.values[i], params[i].name, st,
            [&](const Value& x, const std::string& n) {
                tracer::IoSpec s = x.is(Kind::Spec) ? x.spec().spec : tracer::IoSpec{n, x.tensor_type(), {}};
                s.type.weak = false;  // a literal example 2.0 is an f32[] input
                std::vector<int> axes;
                for (int a = 0; a < s.type.shape.rank(); ++a)
                    if (s.dynamic(a)) {
                        s.type.shape[a] = sizes[static_cast<size_t>(c.axis_symbols.at(next_axis++))];
                        axes.push_back(a);
                    }
                const tracer::ValueId id = T.graph.add_input(s.type, n);
                if (!axes.empty()) r.dynamic_axes[id] = std::move(axes);
                return symbolic(T, id);
            },
            not_an_input, c.params_as_inputs);
        r.out.params.push_back(params[i].name);
        r.out.args.push_back(std::move(st));
    }
    TraceTimes times;
    try {
        trace_body(fn, T, env, [&](const Value& v) { return make_outputs(T, v, r.out.result, fn.name); }, times);
    } catch (Error& e) {
        if (e.trace_kind == TraceErrorKind::Unsupported || e.trace_kind == TraceErrorKind::TooDeep) {
            Error err("concrete: cannot make a graph of `" + fn.name + "`: " + e.message(), e.source(), e.loc());
            if (e.located()) err.leave_frame(fn.name, fn.is_graph, call_source, loc);
            throw err;
        }
        if (e.located()) e.leave_frame(fn.name, fn.is_graph, call_source, loc);
        throw;
    }
    return r;
}

// The trace `kept` (at the plan's sizes) marked dynamic, or an error saying
// which dimension the function needs static and why.
void Evaluator::mark_concrete(ConcreteCall& c, ConcreteTrace& kept, const tracer::DynamicPlan& plan,
                              const lang::SourcePtr& call_source, lang::Loc loc) {
    const std::string head = "concrete: `" + c.fn->name + "` cannot take ";
    auto dims_words = [&] {
        std::string out;
        for (size_t k = 0; k < c.names.size(); ++k)
            out += (k ? ", " : "") + c.where[k] + (c.names[k] == tracer::kAnyDim ? "" : " (`" + c.names[k] + "`)");
        return out + (c.names.size() == 1 ? " as a dynamic dimension: " : " as dynamic dimensions: ");
    };
    std::string why;
    tracer::Graph marked = kept.T->graph;
    try {
        ConcreteTrace probe = trace_concrete(c, plan.probe, call_source, loc);
        if (!(probe.out.result == kept.out.result)) why = "the function's result depends on the sizes";
        else why = tracer::mark_dynamic(marked, probe.T->graph, plan);
    } catch (const Error& e) {
        why = "at other sizes the trace fails: " + e.message();
    }
    // a size the program read: the most direct reason (a decision taken at trace time)
    for (const TraceState::SizeRead& r : kept.T->size_reads) {
        bool read = r.axis < 0 ? marked.has_dynamic_dims(r.value) : marked.dim_symbol(r.value, r.axis) >= 0;
        if (!why.empty()) {  // not marked: the inputs' dynamic axes
            const auto it = kept.dynamic_axes.find(r.value);
            read = it != kept.dynamic_axes.end() &&
                   (r.axis < 0 || std::find(it->second.begin(), it->second.end(), r.axis) != it->second.end());
        }
        if (!read) continue;
        Error err(head + dims_words() +
                      "it reads the size (`.shape`, `.size` or `len`) of a dimension the graph would leave open; "
                      "a size read at trace time is static (give that dimension a size in the spec)",
                  r.source, r.loc);
        err.leave_frame(c.fn->name, c.fn->is_graph, call_source, loc);
        throw err;
    }
    if (!why.empty()) throw Error(head + dims_words() + why, call_source, loc);
    // size 1: the same graph there too (no squeeze or broadcast depends on it)?
    int64_t min_size = 2;
    try {
        tracer::DynamicPlan ones = plan;
        ones.probe.assign(plan.probe.size(), 1);
        ConcreteTrace one = trace_concrete(c, ones.probe, call_source, loc);
        tracer::Graph at_one = kept.T->graph;
        if (one.out.result == kept.out.result && tracer::mark_dynamic(at_one, one.T->graph, ones).empty() &&
            same_marks(at_one, marked))
            min_size = 1;
    } catch (const Error&) {
    }
    kept.T->graph = std::move(marked);
    name_dims(c, kept.T->graph);
    std::vector<tracer::SymbolSource> sources = kept.T->graph.symbol_sources();
    for (size_t k = 0; k < sources.size(); ++k) {
        sources[k].name = c.names[k];
        sources[k].min_size = min_size;
    }
    kept.T->graph.set_symbol_sources(std::move(sources));
    tracer::optimize(kept.T->graph);
}

Value Evaluator::concrete(const CallArgs& a, const lang::SourcePtr& call_source) {
    check_arguments("concrete(f, /, *specs, params_as_inputs=False)", a);  // docs/builtins.md
    ConcreteCall c;
    for (size_t k = 0; k < a.keywords.size(); ++k) {
        const Value& b = a.keyword_values[k];
        if (!b.is_tensor() || b.tensor_type().shape.rank() != 0 || b.tensor_type().dtype != stdlib::DType::Bool)
            throw Error("concrete: argument `params_as_inputs` must be True or False, not " + repr_of(b));
        c.params_as_inputs = b.tensor().item_bool();
    }
    const Value& f = a.positional[0];
    if (!f.is(Kind::Function))
        throw Error(std::string("concrete: argument `f` must be a function defined in tg (def or lambda), not a ") +
                    (f.is(Kind::Builtin) ? "builtin" : kind_name(f.kind())));
    const FunctionObj& fn = f.function();
    c.fn = &fn;
    const auto& params = *fn.params;
    const size_t given = a.positional.size() - 1;
    if (given > params.size())
        throw Error("concrete: `" + fn.name + "` takes " + std::to_string(params.size()) + " arguments but " +
                    std::to_string(given) + " specs were given");
    for (size_t i = 0; i < params.size(); ++i) {
        const std::string& name = params[i].name;
        Value v = i < given ? a.positional[i + 1] : fn.defaults[i];
        // *args / **kwargs given no spec: none passed (a tuple or dict of specs passes some)
        if (!v.defined() && params[i].form == lang::ParamForm::VarArgs) v = Value::tuple({});
        if (!v.defined() && params[i].form == lang::ParamForm::VarKeywords) v = Value::dict(DictObj{});
        if (!v.defined()) throw Error("concrete: missing a spec for argument `" + name + "` of `" + fn.name + "`");
        const bool is_static = i < fn.static_params.size() && fn.static_params[i];
        if (is_static && has_input_leaf(v) && (v.is(Kind::Spec) || !v.is_tensor()))
            throw Error("concrete: argument `" + name + "` of `" + fn.name +
                        "` is static (@graph(static=...)): give its value, not a spec");
        bool fed = !is_static && i < given && has_input_leaf(v);
        // a dict of weights (params) is baked into the graph as constants, or
        // kept as inputs named by path with params_as_inputs (docs/deploying.md)
        if (fed && v.is(Kind::Dict) && !c.params_as_inputs) {
            if (has_spec_leaf(v))
                throw Error("concrete: argument `" + name + "`: a dict of specs is an input of the graph only with "
                            "params_as_inputs=True; give its tensors (baked in as constants), or pass "
                            "params_as_inputs=True");
            fed = false;
        }
        c.values.push_back(v);
        c.fed.push_back(fed);
    }
    plan_dims(c);
    tracer::DynamicPlan plan;
    for (size_t k = 0; k < c.names.size(); ++k) {
        plan.sizes.push_back(c.largest + 2 + static_cast<int64_t>(k));  // unlike any static size of the specs
        plan.probe.push_back(c.largest + 2 + static_cast<int64_t>(c.names.size() + k));
    }
    std::optional<ConcreteTrace> kept;
    try {
        kept.emplace(trace_concrete(c, plan.sizes, call_source, a.loc));
    } catch (Error& e) {
        if (!plan.sizes.empty()) {  // the sizes in the message are ours, not the caller's
            std::string at;
            for (size_t k = 0; k < plan.sizes.size(); ++k)
                at += (k ? ", " : "") + c.where[k] + " at " + std::to_string(plan.sizes[k]);
            e.append_to_message("\n(traced with its dynamic dimensions at sizes of tg's choice: " + at + ")");
        }
        throw;
    }
    if (!plan.sizes.empty()) mark_concrete(c, *kept, plan, call_source, a.loc);
    tracer::GraphFunction out = std::move(kept->out);
    out.graph = std::make_shared<const tracer::Graph>(std::move(kept->T->graph));
    out.inputs = tracer::input_specs(*out.graph);
    out.outputs = tracer::output_specs(*out.graph, out.result);
    for (size_t i = 0; i < out.inputs.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (out.inputs[i].name == out.inputs[j].name)
                throw Error("concrete: two inputs of `" + fn.name + "` are named `" + out.inputs[i].name +
                            "` (a weights path and a parameter?); rename one", call_source, a.loc);
    auto obj = std::make_shared<GraphObj>();
    obj->fn = std::move(out);
    obj->compiled = compile_traced(*obj->fn.graph, fn.name, call_source, a.loc);
    return Value::graph(std::move(obj));
}

}  // namespace tg::interp
