// Calls of @graph functions (docs/graph.md "Signatures and the cache"): the signature, the lookup in the
// trace cache (tracer::TraceCache, tracer/trace_cache.hpp), tracing on a
// miss, and running the graph (its native code when compiled
// and ready, else the reference graph interpreter). A trace that fails with the program's own error, or that
// the tracer cannot express, runs the call eagerly instead — the same
// results and output, no graph — so @graph never changes what runs.
#include <chrono>
#include <filesystem>
#include <fstream>

#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/dispatch.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/evaluator.hpp"
#include "interp/tracing/graph_cache.hpp"
#include "interp/values/printing.hpp"
#include "interp/scoped.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/tracing/trace_session.hpp"
#include "lang/diagnostics.hpp"
#include "tracer/passes.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/printer.hpp"
#include "tracer/tgx.hpp"

namespace tg::interp {

using namespace lang;
using stdlib::Tensor;
using tracer::ArgDesc;

namespace {

std::string address(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

ArgDesc describe(const Value& v) {
    if (v.is_tensor()) {
        stdlib::TensorType t = v.tensor_type();
        return ArgDesc::tensor(t.dtype, t.shape, t.weak);
    }
    if (v.is_sequence()) {
        std::vector<ArgDesc> items;
        for (const Value& x : v.items()) items.push_back(describe(x));
        return v.is(Kind::List) ? ArgDesc::list(std::move(items)) : ArgDesc::tuple(std::move(items));
    }
    if (v.is(Kind::Dict)) {  // by its keys, in order, and its values
        std::vector<std::string> keys;
        std::vector<ArgDesc> values;
        for (size_t i = 0; i < v.dict().size(); ++i) {
            keys.push_back(key_repr(v.dict().keys()[i]));
            values.push_back(describe(v.dict().values()[i]));
        }
        return ArgDesc::dict(std::move(keys), std::move(values));
    }
    switch (v.kind()) {
    case Kind::None: return ArgDesc::value("none", "None");
    case Kind::Str: return ArgDesc::value("str:" + v.text(), quote(v.text()));
    case Kind::DType: return ArgDesc::value(std::string("dtype:") + stdlib::dtype_name(v.dtype()), stdlib::dtype_name(v.dtype()));
    case Kind::Function: return ArgDesc::value("fn:" + address(v.function_ptr().get()), str_of(v));
    case Kind::Builtin: return ArgDesc::value("builtin:" + address(&v.builtin()), str_of(v));
    case Kind::Module: return ArgDesc::value("module:" + address(v.module()), str_of(v));
    case Kind::BoundMethod: return ArgDesc::value("bound:" + address(&v.bound()), str_of(v));
    case Kind::Graph: return ArgDesc::value("graph:" + address(&v.graph()), repr_of(v));
    case Kind::Spec: return ArgDesc::value("spec:" + repr_of(v), repr_of(v));
    case Kind::Set: return ArgDesc::value("set:" + set_str(v.set()), set_str(v.set()));  // static: its elements are
    default: return ArgDesc::value("?", "?");
    }
}

// A static argument (@graph(static=...), docs/graph.md "Signatures and the cache"): its value is the key —
// tensors by dtype, shape and every byte, sequences item by item.
ArgDesc describe_static(const Value& v) {
    if (v.is_tensor()) {
        const Tensor t = v.tensor().contiguous();
        const stdlib::DType d = t.storage_dtype();
        std::string key = std::string("static:") + stdlib::dtype_name(t.dtype()) + (t.weak() ? "w" : "") +
                          t.shape().to_string() + ":";
        const auto* bytes = static_cast<const unsigned char*>(t.raw_data());
        static const char* hex = "0123456789abcdef";
        for (size_t i = 0, n = static_cast<size_t>(t.numel()) * stdlib::dtype_size(d); i < n; ++i) {
            key += hex[bytes[i] >> 4];
            key += hex[bytes[i] & 15];
        }
        std::string display = str_of(v);
        if (display.size() > 40) display = display.substr(0, 37) + "...";
        return ArgDesc::value(std::move(key), std::move(display));
    }
    if (v.is_sequence()) {
        std::string key = v.is(Kind::List) ? "[" : "(";
        for (const Value& x : v.items()) key += describe_static(x).key + ",";
        std::string display = str_of(v);
        if (display.size() > 40) display = display.substr(0, 37) + "...";
        return ArgDesc::value(key, std::move(display));
    }
    if (v.is(Kind::Dict)) {
        std::string key = "{";
        for (size_t i = 0; i < v.dict().size(); ++i)
            key += key_repr(v.dict().keys()[i]) + ":" + describe_static(v.dict().values()[i]).key + ",";
        std::string display = str_of(v);
        if (display.size() > 40) display = display.substr(0, 37) + "...";
        return ArgDesc::value(key, std::move(display));
    }
    return describe(v);
}

// Replaces every tensor leaf of v by a new input of the graph.
Value make_inputs(TraceState& t, const Value& v, const std::string& name) {
    if (v.is_tensor()) return symbolic(t, t.graph.add_input(v.tensor_type(), name));
    if (const auto xs = v.children()) {
        std::vector<Value> items;
        for (size_t i = 0; i < xs->size(); ++i) items.push_back(make_inputs(t, (*xs)[i], name + child_suffix(v, i)));
        return v.with_children(std::move(items));
    }
    return v;
}

void input_tensors(const Value& v, std::vector<Tensor>& out) {
    if (v.is_tensor()) out.push_back(v.tensor());
    else if (const auto xs = v.children())
        for (const Value& x : *xs) input_tensors(x, out);
}

// The graph's outputs: the symbolic leaves of the result, in order.
void output_ids(const Value& v, std::vector<tracer::ValueId>& out) {
    if (const SymObj* s = v.sym()) out.push_back(s->id);
    else if (const MaybeUndefObj* m = v.maybe_undef(); m && m->none) {
        // None on some paths: its leaves, then the flag that says which
        output_ids(m->inner, out);
        out.push_back(m->flag.sym()->id);
    } else if (v.sym_str() || v.maybe_undef()) unsupported_in_graph("returning a string that shows tensor values");
    else if (const auto xs = v.children())
        for (const Value& x : *xs) output_ids(x, out);
    else if (v.is(Kind::Function) || v.is(Kind::BoundMethod)) {
        // a closure may hold symbolic values of the trace
        unsupported_in_graph("returning a function from a @graph function");
    }
}

Value rebuild_result(const Value& v, std::vector<Tensor>& outs, size_t& k) {
    if (v.is_symbolic()) return Value(std::move(outs[k++]));
    if (const MaybeUndefObj* m = v.maybe_undef()) {
        Value inner = rebuild_result(m->inner, outs, k);
        return outs[k++].item_bool() ? inner : Value::none();
    }
    if (const auto xs = v.children()) {
        std::vector<Value> items;
        for (const Value& x : *xs) items.push_back(rebuild_result(x, outs, k));
        return v.with_children(std::move(items));
    }
    return v;
}

// --verify's comparison of results: equal reprs, except the one difference
// docs/graph.md "Static and dynamic" allows — a weak literal merged with a tensor has the tensor's
// dtype in the graph (same kind, same printed value).
bool same_result(const Value& graph, const Value& eager) {
    if (repr_of(graph) == repr_of(eager)) return true;
    const auto gs = graph.children();
    const auto es = eager.children();
    if (gs && es && graph.kind() == eager.kind() && gs->size() == es->size() &&
        (!graph.is(Kind::Dict) || graph.dict().keys() == eager.dict().keys())) {
        for (size_t i = 0; i < gs->size(); ++i)
            if (!same_result((*gs)[i], (*es)[i])) return false;
        return true;
    }
    if (!graph.is_tensor() || !eager.is_tensor()) return false;
    const stdlib::TensorType g = graph.tensor_type(), e = eager.tensor_type();
    const bool same_kind = (stdlib::is_int(g.dtype) && stdlib::is_int(e.dtype)) ||
                           (stdlib::is_float(g.dtype) && stdlib::is_float(e.dtype));
    return e.weak && same_kind && g.shape == e.shape && str_of(graph) == str_of(eager);
}

// A run-time error of a graph as the eager error: message, location, and the
// traceback through the calls that were inlined into it.
Error graph_error(const tracer::RuntimeError& e) {
    Error err(e.what(), e.where.source, e.where.loc);
    for (auto c = e.where.inlined_in; c; c = c->outer) err.leave_frame(c->function, c->is_graph, c->source, c->loc);
    return err;
}

// The `--trace` line of a compiled graph: where the time went and how much
// of the graph runs as native code.
std::string compile_note(codegen::CompiledGraph& c) {
    const codegen::LoweringStats& s = c.stats();
    auto ms = [](double x) { return std::to_string(x) + " ms"; };
    std::string how;
    if (c.background() && !c.ready())
        how = "compile: in the background (lowering " + ms(c.lower_ms()) +
              "); calls run on the graph interpreter until the native code is ready";
    else if (c.from_cache())
        how = "compile " + ms(c.compile_ms()) + " (object cache hit)";
    else
        how = "compile " + ms(c.compile_ms()) + " (lowering " + ms(c.lower_ms()) + ", LLVM optimization " +
              ms(c.llvm_times().optimize_ms) + ", codegen " + ms(c.llvm_times().codegen_ms) + ", JIT setup " +
              ms(c.session_ms()) + ")";
    return "  " + how + ": " + std::to_string(s.native_nodes) + " nodes native (" + std::to_string(s.fused_nodes) +
           " element-wise in " + std::to_string(s.fused_groups) + " fused loops, " +
           std::to_string(s.fused_reductions) + " reductions fused), " + std::to_string(s.runtime_nodes) +
           " through the runtime\n";
}

bool is_static_param(const FunctionObj& fn, size_t i) { return i < fn.static_params.size() && fn.static_params[i]; }

// The dimensions a call that missed the cache should be traced with as
// dynamic (tracer/generalize.hpp), unless an earlier attempt failed.
std::optional<tracer::DynamicPlan> generalization_plan(const GraphCache& cache, const tracer::Signature& sig,
                                                       tracer::DynamicShapes mode) {
    if (!cache.not_generalized.empty()) return std::nullopt;
    std::vector<const tracer::Signature*> cached;
    for (const auto& e : cache.entries()) cached.push_back(&e->signature);
    return tracer::plan_generalization(cached, sig, mode);
}

// A line of --trace's log.
void trace_note(const Runtime& rt, const std::string& s) {
    if (rt.options.trace && rt.options.write_log) rt.options.write_log(s);
}

// --trace's report of a new trace: `head`, the notes, the times, the
// compilation and the graph.
std::string trace_log(const std::string& head, GraphEntry& entry, const std::vector<std::string>& notes,
                      double trace_ms, double optimize_ms) {
    std::string text = head + "\n";
    for (const std::string& note : notes) text += "  " + note + "\n";
    auto ms = [](double d) { return std::to_string(d) + " ms"; };
    text += "  time: trace " + ms(trace_ms) + ", optimize " + ms(optimize_ms) + "; " +
            std::to_string(entry.graph->live_node_count()) + " nodes\n";
    if (codegen::CompiledGraph* c = entry.compiled.get()) text += compile_note(*c);
    text += tracer::print_graph(*entry.graph);
    if (text.back() != '\n') text += '\n';
    return text;
}

// --dump-graphs: `dir`/`base`.txt (the text form) and .dot.
void dump_graph(const std::string& dir, const std::string& base, const tracer::Graph& g) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::ofstream(dir + "/" + base + ".txt") << tracer::print_graph(g);
    std::ofstream(dir + "/" + base + ".dot") << tracer::to_dot(g);
    try {  // and as a graph value (a trace that calls a host function has none), at its traced sizes
        auto saved = std::make_shared<tracer::Graph>(g);
        saved->drop_dynamic_dims();
        const auto bytes = tracer::write_tgx(tracer::flat_function(std::move(saved)));
        std::ofstream(dir + "/" + base + ".tgx", std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    } catch (const tracer::TgxError&) {
    }
}

}  // namespace

void Evaluator::capture_global(const Name& n) {
    const Value& v = f_->module->globals[static_cast<size_t>(n.slot)];
    if (v.defined()) rt_.trace->capture(n.id, f_->module, nullptr, n.slot, v);
}

void Evaluator::capture_enclosing(const Name& n, const std::shared_ptr<Env>& env) {
    rt_.trace->capture(n.id, nullptr, env, n.slot, env->slots[static_cast<size_t>(n.slot)]);
}

Value Evaluator::function_result(Frame& frame, Flow flow, const FunctionObj& fn) {
    if (flow == Flow::Return) return frame.ret.defined() || frame.ret.maybe_undef() ? frame.ret : Value::none();
    if (frame.ret_flag.is_symbolic()) {
        // Some paths returned, the others fell off the end (None).
        if (frame.ret.is(Kind::None) || !frame.ret.defined()) return Value::none();
        const MaybeUndefObj* m = frame.ret.maybe_undef();
        if (m && !m->none) unsupported_in_graph("`" + fn.name + "` returning a value that may not be defined");
        Value returned = frame.ret_flag;
        if (m) {
            at(fn.body && !fn.body->empty() ? fn.body->back()->loc : lang::Loc{});
            returned = binary(rt_, lang::BinOp::BitAnd, returned, m->flag);
        }
        Value inner = m ? m->inner : frame.ret;
        return Value::maybe_undefined(
            std::make_shared<const MaybeUndefObj>(MaybeUndefObj{std::move(inner), std::move(returned), true}));
    }
    return Value::none();
}

Evaluator::GraphCall Evaluator::call_graph(const FunctionObj& fn, const std::shared_ptr<Env>& env,
                                           const CallArgs& args, const SourcePtr& call_source, Value& result) {
    GraphCache& cache = *fn.graph_cache;
    tracer::Signature sig;
    for (size_t i = 0; i < fn.params->size(); ++i)
        sig.args.push_back({(*fn.params)[i].name, is_static_param(fn, i) ? describe_static(env->slots[i]) : describe(env->slots[i])});
    GraphEntry* entry = cache.find(sig);
    // a debugger that may stop inside the call: it runs eagerly (docs/debugging.md)
    if (rt_.debug && rt_.debug->run_eagerly(fn, entry)) [[unlikely]] return GraphCall::Eager;
    if (entry && !entry->debug_asserted.empty() && !rt_.debug) [[unlikely]] return GraphCall::Eager;
    if (!entry) {
        GraphCall eager = GraphCall::Eager;
        entry = trace_entry(fn, env, args, call_source, std::move(sig), eager);
        if (!entry) return eager;
    }
    // A graph compiling in the background runs on the interpreter until its
    // native code is ready (codegen/background.hpp); either gives the same results.
    if (codegen::CompiledGraph* c = entry->compiled.get(); c && !rt_.options.no_jit) {
        try {
            if (c->ready() && c->take_ready_news())
                trace_note(rt_, "native code ready for " + fn.name + "(" + entry->signature.to_string() +
                             "), compiled in the background:\n" + compile_note(*c));
        } catch (const codegen::CodegenError& e) {
            throw Error(codegen::compile_failure_text(e), call_source, args.loc);
        }
    }
    if (rt_.options.verify) return verify_call(fn, *entry, env, args, call_source, result);
    run_entry(*entry, env, args, result);
    return GraphCall::Ran;
}

GraphEntry* Evaluator::trace_entry(const FunctionObj& fn, const std::shared_ptr<Env>& env, const CallArgs& args,
                                   const SourcePtr& call_source, tracer::Signature sig, GraphCall& eager) {
    GraphCache& cache = *fn.graph_cache;
    const auto& params = *fn.params;
    const std::string reason = cache.retrace_reason(sig);
    const std::string where = format_location(call_source.get(), args.loc);
    auto T = std::make_unique<TraceState>(fn.name);
    T->token = T->graph.add_input_token();
    auto tenv = traced_env(env);
    for (size_t i = 0; i < params.size(); ++i)
        if (!is_static_param(fn, i)) tenv->slots[i] = make_inputs(*T, env->slots[i], params[i].name);
    Value traced;
    TraceTimes times;
    // A call that may generalize is traced unoptimized: the traces are
    // compared as traced, the one kept is optimized after its marks are set.
    auto plan = generalization_plan(cache, sig, rt_.options.dynamic_shapes);
    T->optimize = !plan;
    try {
        if (fn.native_body) {
            T->source = call_source;  // what it adds is located at the call
            T->loc = args.loc;
        }
        traced = trace_body(fn, *T, tenv, nullptr, times);
    } catch (Error& e) {
        if (e.trace_kind == TraceErrorKind::Limit) throw;
        if (e.trace_kind == TraceErrorKind::Conversion) {
            e.append_to_message(kEagerHint);
            throw;
        }
        trace_note(rt_, "trace " + fn.name + " at " + where + ": runs eagerly: " + e.message() + "\n");
        const bool all = e.trace_kind == TraceErrorKind::User || e.trace_kind == TraceErrorKind::TooDeep;
        eager = all ? GraphCall::EagerAll : GraphCall::Eager;
        return nullptr;
    } catch (const std::exception& e) {
        trace_note(rt_, "trace " + fn.name + " at " + where + ": runs eagerly (internal: " + e.what() + ")\n");
        eager = GraphCall::Eager;
        return nullptr;
    }
    std::string generalized;  // for --trace
    if (plan) {
        const std::string why = generalize_trace(fn, env, args, call_source, *T, traced, *plan);
        if (why.empty()) {
            sig = plan->signature;
            generalized = "dynamic dimensions: " + plan->describe() + " (one trace for all their sizes)";
        } else {
            cache.not_generalized = why;
            generalized = "not generalized over " + plan->describe() + ": " + why + "; tracing per shape";
        }
        const auto start = std::chrono::steady_clock::now();
        tracer::optimize(T->graph);
        times.optimize_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    auto fresh = std::make_unique<GraphEntry>();
    fresh->signature = std::move(sig);
    fresh->captures = std::move(T->captures);
    fresh->result = traced;
    fresh->number = cache.traces() + 1;
    fresh->params = fn.params;
    fresh->static_params = fn.static_params;
    fresh->graph = std::make_unique<tracer::Graph>(std::move(T->graph));
    if (rt_.debug) {
        fresh->debug_lines = std::move(T->debug_lines);
        fresh->debug_asserted = std::move(T->debug_asserted);
        fresh->debug_lines_known = true;
    }
    fresh->compiled = compile_traced(*fresh->graph, fn.name, call_source, args.loc);
    if (rt_.options.trace) {
        std::string head = (reason.empty() ? "trace " : "retrace ") + fn.name + "(" + fresh->signature.to_string() +
                           ") at " + where;
        if (!reason.empty()) head += ": " + reason;
        if (!generalized.empty()) head += "\n  " + generalized;
        trace_note(rt_, trace_log(head, *fresh, T->notes, times.trace_ms, times.optimize_ms));
    }
    if (!rt_.options.dump_graphs_dir.empty())
        dump_graph(rt_.options.dump_graphs_dir, fn.name + "." + std::to_string(fresh->number), *fresh->graph);
    return &cache.insert(std::move(fresh));
}

std::shared_ptr<Env> Evaluator::traced_env(const std::shared_ptr<Env>& env) {
    auto tenv = std::make_shared<Env>();
    tenv->slots = env->slots;
    tenv->parent = env->parent;
    tenv->facts = env->facts;
    tenv->traced = true;
    return tenv;
}

Value Evaluator::trace_body(const FunctionObj& fn, TraceState& T, const std::shared_ptr<Env>& tenv,
                            const std::function<Value(const Value&)>& outputs, TraceTimes& times) {
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    Frame frame{tenv.get(), &tenv, fn.module, &facts->source};
    frame.function = &fn.name;
    frame.is_graph = fn.is_graph;  // its call site: the record call_function put below it
    TraceSession session(*this, T, std::move(frame), {});
    Value traced;
    if (fn.native_body) {  // grad(f) of a @graph f: a builtin's body (T's location is the call's)
        traced = fn.native_body(rt_, CallArgs{std::span<const Value>(tenv->slots.data(), fn.params->size()), {}, {}, T.loc});
    } else if (fn.expr_body) {
        traced = eval(*fn.expr_body);
    } else {
        Flow flow = exec_block(*fn.body);
        traced = function_result(session.frame(), flow, fn);
    }
    if (outputs) traced = outputs(traced);
    std::vector<tracer::ValueId> ys;
    output_ids(traced, ys);
    session.finish(std::move(ys));
    times = session.times();
    return traced;
}

std::unique_ptr<codegen::CompiledGraph> Evaluator::compile_traced(const tracer::Graph& g, const std::string& name,
                                                                  const SourcePtr& call_source, Loc loc) {
    if (rt_.options.no_jit) return nullptr;
    try {
        return rt_.compiler().compile(g, name, codegen::Tiering::Background);
    } catch (const stdlib::LimitError& e) {  // the deadline or the interrupt while LLVM compiled
        throw Error(e.what(), call_source, loc).as(TraceErrorKind::Limit);
    } catch (const codegen::CodegenError& e) {
        // a bug in tg or a missing JIT plugin, never the program's fault
        throw Error(codegen::compile_failure_text(e), call_source, loc);
    }
}

std::vector<Tensor> Evaluator::run_traced(const tracer::Graph& g, codegen::CompiledGraph* compiled,
                                          std::span<const Tensor> inputs, Loc loc) {
    tracer::RunContext ctx;
    ctx.rng = &rt_.rng;
    ctx.write = [this](std::string_view s) { rt_.write(s); };
    ctx.on_iteration = [&] { count_step(loc); };
    ctx.on_iterations = [&](int64_t n) {
        rt_.steps += n - 1;
        count_step(loc);
    };
    try {
        if (compiled && !rt_.options.no_jit && compiled->ready()) return compiled->run(inputs, ctx);
        return tracer::run_graph(g, inputs, ctx);
    } catch (const tracer::RuntimeError& e) {
        throw graph_error(e);
    } catch (const stdlib::OpError& e) {  // from a runtime function of compiled code (a limit)
        fail(e.what(), loc);
    } catch (const codegen::CodegenError& e) {  // its background compile failed (a missing JIT plugin, or a bug)
        fail(codegen::compile_failure_text(e), loc);
    }
}

void Evaluator::run_entry(const GraphEntry& entry, const std::shared_ptr<Env>& env, const CallArgs& args, Value& result) {
    const auto& params = *entry.params;
    std::vector<Tensor> inputs;
    for (size_t i = 0; i < params.size(); ++i)
        if (i >= entry.static_params.size() || !entry.static_params[i]) input_tensors(env->slots[i], inputs);
    std::vector<Tensor> outs = run_traced(*entry.graph, entry.compiled.get(), inputs, args.loc);
    size_t k = 0;
    result = rebuild_result(entry.result, outs, k);
}

// --verify: the call runs both ways — the graph, then eagerly from the same
// generator state — and the printed output, the result and any error must
// agree; the first difference is an error at the call.
Evaluator::GraphCall Evaluator::verify_call(const FunctionObj& fn, const GraphEntry& entry,
                                            const std::shared_ptr<Env>& env, const CallArgs& args,
                                            const SourcePtr& call_source, Value& result) {
    struct Run {
        std::string out, error;
        Value value;
        bool failed = false;
    } runs[2];
    const stdlib::Rng rng0 = rt_.rng;
    stdlib::Rng rng_graph = rng0;
    for (int k = 0; k < 2; ++k) {
        Run& r = runs[k];
        Scoped<OutputFn> output(rt_.options.write_output, [&r](std::string_view s) { r.out += s; });
        Scoped<bool> eager(rt_.options.eager, k == 1);
        rt_.rng = rng0;
        try {
            if (k == 0) {
                run_entry(entry, env, args, r.value);
            } else {
                std::vector<Value> pos(env->slots.begin(), env->slots.begin() + static_cast<std::ptrdiff_t>(fn.params->size()));
                r.value = call_function(fn, CallArgs{pos, {}, {}, args.loc}, call_source);
            }
        } catch (Error& e) {
            r.failed = true;
            r.error = e.message() + " at " + format_location(e.source().get(), e.loc());
        }
        if (k == 0) rng_graph = rt_.rng;
    }
    rt_.rng = rng_graph;
    std::string diff;
    if (runs[0].out != runs[1].out)
        diff = "the printed output differs: graph " + quote(runs[0].out) + ", eager " + quote(runs[1].out);
    else if (runs[0].failed != runs[1].failed || runs[0].error != runs[1].error)
        diff = "the graph " + (runs[0].failed ? "raised " + quote(runs[0].error) : std::string("returned")) +
               ", eagerly it " + (runs[1].failed ? "raised " + quote(runs[1].error) : std::string("returned"));
    else if (!runs[0].failed && !same_result(runs[0].value, runs[1].value))
        diff = "the result differs: graph " + repr_of(runs[0].value) + ", eager " + repr_of(runs[1].value);
    if (!diff.empty())
        throw Error("--verify: `" + fn.name + "` (trace " + std::to_string(entry.number) + ") differs from eager: " + diff,
                    call_source, args.loc);
    if (runs[0].failed) {
        // the same error both ways: the caller runs the call eagerly once
        // more, which prints the same output and raises the error as eager does
        rt_.rng = rng0;
        return GraphCall::EagerAll;
    }
    rt_.write(runs[0].out);
    result = runs[0].value;
    return GraphCall::Ran;
}

}  // namespace tg::interp
