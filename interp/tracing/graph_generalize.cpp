// A @graph call's trace made general over the dimensions that varied
// (tracer/generalize.hpp has the policy and the comparison; this file gives
// it the second trace). The call was traced at its own sizes; here the body
// is traced once more at the probe sizes, and the two traces, their result
// skeletons and the sizes the program read decide whether the first one
// serves every size.
#include "interp/values/dict.hpp"
#include "interp/evaluator.hpp"
#include "interp/values/printing.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/tracing/trace_session.hpp"

namespace tg::interp {

using tracer::ArgDesc;

namespace {

// Every tensor leaf of v becomes a new input of the graph, typed as `desc`
// describes it with its dynamic dimensions at the probe sizes.
Value probe_inputs(TraceState& t, const Value& v, const ArgDesc& desc, const tracer::DynamicPlan& plan,
                   const std::string& name) {
    if (v.is_tensor()) {
        const stdlib::TensorType type{desc.dtype, tracer::probe_shape(desc, plan), desc.weak};
        return symbolic(t, t.graph.add_input(type, name));
    }
    if (const auto xs = v.children()) {
        std::vector<Value> items;
        for (size_t i = 0; i < xs->size(); ++i)
            items.push_back(probe_inputs(t, (*xs)[i], desc.items.at(i), plan, name + child_suffix(v, i)));
        return v.with_children(std::move(items));
    }
    return v;
}

// The results of the two traces agree: symbolic leaves are the same graph
// values, everything known at trace time is equal.
bool same_skeleton(const Value& a, const Value& b) {
    if (const SymObj* s = a.sym()) return b.sym() && b.sym()->id == s->id;
    if (a.sym_str() || b.sym_str() || b.sym()) return false;  // a string showing traced values: not compared
    if (const MaybeUndefObj* m = a.maybe_undef()) {
        const MaybeUndefObj* n = b.maybe_undef();
        return n && m->none == n->none && same_skeleton(m->inner, n->inner) && same_skeleton(m->flag, n->flag);
    }
    const auto xs = a.children();
    const auto ys = b.children();
    if (xs || ys) {
        if (!xs || !ys || a.kind() != b.kind() || xs->size() != ys->size()) return false;
        if (a.is(Kind::Dict)) {
            if (a.dict().size() != b.dict().size()) return false;
            for (size_t i = 0; i < a.dict().size(); ++i)
                if (key_repr(a.dict().keys()[i]) != key_repr(b.dict().keys()[i])) return false;
        }
        for (size_t i = 0; i < xs->size(); ++i)
            if (!same_skeleton((*xs)[i], (*ys)[i])) return false;
        return true;
    }
    return a.kind() == b.kind() && repr_of(a) == repr_of(b);
}

// A size the program read (x.shape, x.size, len(x)) that is dynamic in the marked graph.
const TraceState::SizeRead* dynamic_read(const TraceState& T, const tracer::Graph& marked) {
    for (const TraceState::SizeRead& r : T.size_reads) {
        if (r.axis < 0 ? marked.has_dynamic_dims(r.value) : marked.dim_symbol(r.value, r.axis) >= 0) return &r;
    }
    return nullptr;
}

}  // namespace

std::string Evaluator::generalize_trace(const FunctionObj& fn, const std::shared_ptr<Env>& env, const CallArgs& args,
                                        const lang::SourcePtr& call_source, TraceState& T, const Value& traced,
                                        const tracer::DynamicPlan& plan) {
    const auto& params = *fn.params;
    TraceState probe(fn.name);
    probe.token = probe.graph.add_input_token();
    probe.optimize = false;  // compared as traced, as T is
    auto tenv = traced_env(env);
    for (size_t i = 0; i < params.size(); ++i)
        if (!(i < fn.static_params.size() && fn.static_params[i]))
            tenv->slots[i] = probe_inputs(probe, env->slots[i], plan.signature.args[i].desc, plan, params[i].name);
    Value probe_result;
    try {
        if (fn.native_body) {
            probe.source = call_source;
            probe.loc = args.loc;
        }
        TraceTimes times;
        probe_result = trace_body(fn, probe, tenv, nullptr, times);
    } catch (const Error& e) {
        return "at other sizes the trace fails: " + e.message();
    } catch (const std::exception& e) {
        return std::string("at other sizes the trace fails: ") + e.what();
    }
    try {
        if (!same_skeleton(traced, probe_result)) return "the function's result depends on the sizes";
    } catch (const std::exception&) {  // a part of the result that cannot be shown at trace time
        return "the function's result cannot be compared at two sizes";
    }
    tracer::Graph marked = T.graph;
    if (std::string why = tracer::mark_dynamic(marked, probe.graph, plan); !why.empty()) return why;
    if (const TraceState::SizeRead* r = dynamic_read(T, marked))
        return "the program reads a dynamic size (`.shape`, `.size` or `len`, at " + std::to_string(r->loc.line) +
               ":" + std::to_string(r->loc.col) + ")";
    T.graph = std::move(marked);
    return "";
}

}  // namespace tg::interp
