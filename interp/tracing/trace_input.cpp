// docs/repl.md's tracing toggle for REPL inputs (`:trace on`): every input is
// traced into one graph whose free variables are its inputs; the graph is
// shown (write_log), run, and released; the variables the input assigns are
// written back from the graph's results. Output, results and errors are
// exactly eager's; whatever the graph cannot reproduce runs eagerly instead,
// with a one-line note. The rules are in docs/repl.md.
//
// How (one evaluator, as for @graph): the input is resolved as the body of a
// function (resolve_as_function) whose parameters are the module variables it
// refers to. Those it reads become the graph's inputs — tensors (and the
// tensors inside lists and tuples) symbolic, other values static — and those
// it only assigns keep their value (static), so an `if` that may not assign
// them merges with it. The body runs in trace mode like a @graph function's
// (dynamic control flow converted, @graph functions it calls inlined), and
// an expression statement's echo becomes a `print` node of its repr, so it
// comes out in order with print's output. The parameters and locals whose
// value changed are the graph's results; after the run they are stored into
// the module's variables. The graph lives in a GraphEntry run by
// Evaluator::run_entry (so it runs however @graph calls run: the reference
// interpreter, or compiled code attached to the entry) and destroyed as soon
// as the input has run: a long session keeps nothing per input but what
// eager keeps.
//
// Decisions (results are the same either way):
// - A trace that fails — the program's own error on the straight-line path,
//   something the tracer cannot express (a host function, `seed`, a lambda
//   kept in a variable, a variable assigned on only some paths), or an error
//   docs/graph.md "Static and dynamic" would report in a @graph function (a shape that depends on a
//   tensor's contents) — runs the input eagerly: it was not written as
//   @graph code, so no error of tracing is reported. The one exception to
//   "first failure means eager": when a 0-d input had to be static (a shape,
//   a list index), the input is traced again with its 0-d tensors static
//   (their values become constants: the graph runs once anyway).
// - A graph that raises an error at run time (an index out of range, a
//   division by zero) has printed what eager prints up to the error, but has
//   not assigned what eager assigned before it. The input then runs again
//   eagerly from the same random-generator state, with the output the graph
//   already printed held back: the session sees eager's output, eager's error
//   and eager's variables. Interrupts and the step limit stop it as they do
//   eager code.
// - `def`, `import` and a top-level `return` run eagerly (a function defined
//   by a traced input would close over the trace). `:eager on` wins: inputs
//   run eagerly then.
#include "interp/tracing/trace_input.hpp"

#include <algorithm>
#include <atomic>

#include "interp/values/dict.hpp"
#include "interp/evaluator.hpp"
#include "interp/tracing/graph_cache.hpp"
#include "interp/values/printing.hpp"
#include "interp/resolver.hpp"
#include "interp/replayed_output.hpp"
#include "interp/scoped.hpp"
#include "interp/tracing/trace.hpp"
#include "interp/tracing/trace_session.hpp"
#include "lang/parser.hpp"
#include "tracer/printer.hpp"

namespace tg::interp {

using namespace lang;

namespace {

std::atomic<int> g_live_inputs{0};

// Tracing an input may take this many steps (statements and loop iterations:
// loops on static conditions run while tracing); past that it runs eagerly,
// so `while True:` does not grow a graph until Ctrl-C.
constexpr int64_t kTraceSteps = 100000;

// ---------------------------------------------------------------- the names an input refers to

struct NameUse {
    std::string id;
    bool read = false;  // false: only assigned (then it is not an input of the graph)
};

// The sub-expressions of `e` that are evaluated in its own scope.
std::vector<const Expr*> children(const Expr& e) {
    std::vector<const Expr*> out;
    auto add = [&out](const ExprPtr& p) {
        if (p) out.push_back(p.get());
    };
    auto add_all = [&](const std::vector<ExprPtr>& ps) {
        for (const auto& p : ps) add(p);
    };
    switch (e.kind) {
    case ExprKind::FString:
        for (const auto& p : e.as<FString>().parts) add(p.expr);
        break;
    case ExprKind::Unary: add(e.as<Unary>().operand); break;
    case ExprKind::Binary: add(e.as<Binary>().lhs), add(e.as<Binary>().rhs); break;
    case ExprKind::BoolOp: add(e.as<BoolOp>().lhs), add(e.as<BoolOp>().rhs); break;
    case ExprKind::Compare: add(e.as<Compare>().first), add_all(e.as<Compare>().rest); break;
    case ExprKind::IfExp: add(e.as<IfExp>().cond), add(e.as<IfExp>().then_), add(e.as<IfExp>().else_); break;
    case ExprKind::Call:
        add(e.as<Call>().callee), add_all(e.as<Call>().args);
        for (const auto& k : e.as<Call>().keywords) add(k.value);
        break;
    case ExprKind::Attribute: add(e.as<Attribute>().value); break;
    case ExprKind::Index: add(e.as<Index>().value), add_all(e.as<Index>().indices); break;
    case ExprKind::Slice: add(e.as<Slice>().lo), add(e.as<Slice>().hi), add(e.as<Slice>().step); break;
    case ExprKind::List: add_all(e.as<ListExpr>().elts); break;
    case ExprKind::Tuple: add_all(e.as<TupleExpr>().elts); break;
    case ExprKind::Set: add_all(e.as<SetExpr>().elts); break;
    case ExprKind::Starred: add(e.as<Starred>().value); break;
    case ExprKind::Dict:
        for (size_t i = 0; i < e.as<DictExpr>().keys.size(); ++i) add(e.as<DictExpr>().keys[i]), add(e.as<DictExpr>().values[i]);
        break;
    default: break;  // names, literals; lambdas and comprehensions are scopes (Scan::expr)
    }
    return out;
}

// Walks an input: the names it refers to (in order of first use), or why it
// cannot be traced.
class Scan {
public:
    std::vector<NameUse> uses;
    std::string untraceable;

    void block(const Block& b) {
        for (const auto& s : b) stmt(*s);
    }

private:
    std::vector<std::string> shadowed;  // parameters of enclosing lambdas, comprehension targets

    void note(const std::string& id, bool read) {
        if (std::find(shadowed.begin(), shadowed.end(), id) != shadowed.end()) return;
        for (NameUse& u : uses)
            if (u.id == id) {
                u.read = u.read || read;
                return;
            }
        uses.push_back({id, read});
    }
    void cannot(const char* why) {
        if (untraceable.empty()) untraceable = why;
    }
    static void target_names(const Expr& t, std::vector<std::string>& out) {
        if (t.kind == ExprKind::Name) out.push_back(t.as<Name>().id);
        for (const Expr* c : children(t)) target_names(*c, out);
    }
    void target(const Expr& t) {
        if (t.kind == ExprKind::Name) note(t.as<Name>().id, false);
        else if (t.kind == ExprKind::Tuple || t.kind == ExprKind::List)
            for (const Expr* c : children(t)) target(*c);
        else expr(t);  // x[i] = v reads x and i
    }
    void stmt(const Stmt& s) {
        switch (s.kind) {
        case StmtKind::Expr: expr(*s.as<ExprStmt>().expr); break;
        case StmtKind::Assign:
            expr(*s.as<Assign>().value);
            for (const auto& t : s.as<Assign>().targets) target(*t);
            break;
        case StmtKind::AugAssign:  // reads its target
            expr(*s.as<AugAssign>().value);
            expr(*s.as<AugAssign>().target);
            break;
        case StmtKind::If:
            expr(*s.as<If>().cond);
            block(s.as<If>().body);
            block(s.as<If>().orelse);
            break;
        case StmtKind::While:
            expr(*s.as<While>().cond);
            block(s.as<While>().body);
            break;
        case StmtKind::For:
            expr(*s.as<For>().iter);
            target(*s.as<For>().target);
            block(s.as<For>().body);
            break;
        case StmtKind::Assert:
            expr(*s.as<Assert>().cond);
            if (s.as<Assert>().msg) expr(*s.as<Assert>().msg);
            break;
        case StmtKind::Return: cannot("`return` outside a function"); break;
        case StmtKind::FunctionDef: cannot("it defines a function"); break;
        case StmtKind::Import: cannot("it imports a module"); break;
        case StmtKind::Delete: cannot("it deletes"); break;
        case StmtKind::Global: cannot("it declares a global or nonlocal name"); break;
        default: break;  // break, continue, pass
        }
    }
    void expr(const Expr& e) {
        const size_t depth = shadowed.size();
        switch (e.kind) {
        case ExprKind::Name: note(e.as<Name>().id, true); return;
        case ExprKind::Lambda: {
            const Lambda& l = e.as<Lambda>();
            for (const auto& p : l.params)
                if (p.default_value) expr(*p.default_value);
            for (const auto& p : l.params) shadowed.push_back(p.name);
            expr(*l.body);
            break;
        }
        case ExprKind::ListComp: {
            const ListComp& c = e.as<ListComp>();
            expr(*c.iter);  // evaluated outside the comprehension's scope
            target_names(*c.target, shadowed);
            for (const CompClause& m : c.more) target_names(*m.target, shadowed);
            if (c.key) expr(*c.key);
            expr(*c.elt);
            if (c.cond) expr(*c.cond);
            for (const CompClause& m : c.more) {
                expr(*m.iter);
                if (m.cond) expr(*m.cond);
            }
            break;
        }
        default:
            for (const Expr* c : children(e)) expr(*c);
        }
        shadowed.resize(depth);
    }
};

// ---------------------------------------------------------------- values in and out of the graph

// A read parameter as the trace sees it: its tensors (also inside lists and
// tuples) become inputs of the graph, collected in `leaves` in order; with
// `static_scalars`, 0-d tensors stay concrete.
Value input_value(TraceState& t, const Value& v, const std::string& name, bool static_scalars,
                  std::vector<Value>& leaves, std::vector<std::string>& static_names) {
    if (v.is_tensor()) {
        if (static_scalars && v.tensor_type().shape.rank() == 0) {
            static_names.push_back(name);
            return v;
        }
        leaves.push_back(v);
        return symbolic(t, t.graph.add_input(v.tensor_type(), name));
    }
    if (const auto xs = v.children()) {
        std::vector<Value> items;
        for (size_t i = 0; i < xs->size(); ++i)
            items.push_back(input_value(t, (*xs)[i], name + child_suffix(v, i), static_scalars, leaves, static_names));
        return v.with_children(std::move(items));
    }
    return v;
}

bool made_by_trace(const FunctionObj& f) {
    for (const Env* e = f.env.get(); e; e = e->parent.get())
        if (e->traced) return true;
    return false;
}

// A changed variable as the graph hands it back: its symbolic leaves are the
// graph's results (in order). What the module cannot receive — a function
// made by the input (a lambda closing over the trace), a string showing
// tensor values — is unsupported.
void result_leaves(const Value& v, const std::string& name, std::vector<tracer::ValueId>& out) {
    if (const SymObj* s = v.sym()) {
        out.push_back(s->id);
    } else if (v.maybe_undef()) {
        unsupported_in_graph("`" + name + "`, assigned on only some paths of dynamic control flow");
    } else if (v.sym_str()) {
        unsupported_in_graph("`" + name + "`, a string that shows tensor values");
    } else if (const auto xs = v.children()) {
        for (const Value& x : *xs) result_leaves(x, name, out);
    } else if ((v.is(Kind::Function) && made_by_trace(v.function())) ||
               (v.is(Kind::BoundMethod) && has_symbolic(v.bound().self))) {
        unsupported_in_graph("`" + name + "`, a function made by this input");
    }
}

// Ctrl-C or the step limit: the input stops as eager code would, no fallback.
bool limit_reached(const Runtime& rt) {
    return (rt.options.interrupt && rt.options.interrupt->load()) ||
           (rt.options.max_steps > 0 && rt.steps > rt.options.max_steps);
}

}  // namespace

int live_input_graphs() { return g_live_inputs.load(); }

// The graph of one input: alive only while the input runs.
struct InputGraph {
    std::vector<Param> params;  // one: the tuple of the input tensors (GraphEntry::params points here)
    GraphEntry entry;
    std::vector<std::string> written;  // the variables the results go to
    std::vector<bool> maybe;           // per result: (assigned?, value), for a variable assigned on some paths only
    InputGraph() { ++g_live_inputs; }
    ~InputGraph() { --g_live_inputs; }
    InputGraph(const InputGraph&) = delete;
    InputGraph& operator=(const InputGraph&) = delete;
};

struct Evaluator::TracedInput {
    ModuleState* module = nullptr;
    const lang::Module* chunk = nullptr;
    const FunctionFacts* facts = nullptr;
    std::vector<std::string> names;  // the parameters: the `num_read` read ones first, then the assigned-only ones
    size_t num_read = 0;
    std::vector<Value> values;       // their values before the input
    std::unique_ptr<InputGraph> graph;
    std::vector<Value> input_leaves;  // the graph's input tensors, in order
    // When it runs eagerly instead: why, or (graph_failed) the graph raised
    // an error after printing `printed`, from generator state `rng_before`.
    std::string eager_reason;
    bool graph_failed = false;
    std::string printed;
    stdlib::Rng rng_before;
};

namespace {

// The graph's results: the variables the input changed, in slot order
// (their symbolic leaves, after a defined-flag for one assigned on some
// paths only); `graph` learns where each goes.
std::vector<tracer::ValueId> input_results(const Env& env, const std::vector<Value>& entry_values,
                                           const FunctionFacts& facts, InputGraph& graph, std::vector<Value>& results) {
    std::vector<tracer::ValueId> ys;
    for (size_t i = 0; i < env.slots.size(); ++i) {
        const Value& v = env.slots[i];
        if (!v.defined() && !v.maybe_undef()) continue;                          // not assigned
        if (i < entry_values.size() && v.identical(entry_values[i])) continue;  // unchanged
        const std::string& var = facts.slots[i].name;
        graph.written.push_back(var);
        if (const MaybeUndefObj* mu = v.maybe_undef()) {
            if (mu->none) unsupported_in_graph("`" + var + "`, which is None on some paths");
            // assigned on some paths only: the graph also says whether it was
            ys.push_back(mu->flag.sym()->id);
            result_leaves(mu->inner, var, ys);
            results.push_back(Value::tuple({mu->flag, mu->inner}));
            graph.maybe.push_back(true);
        } else {
            result_leaves(v, var, ys);
            results.push_back(v);
            graph.maybe.push_back(false);
        }
    }
    return ys;
}

std::string ms(double d) { return std::to_string(d) + " ms"; }

// The write_log text of a traced input: its inputs, notes, times and graph.
std::string input_log(const std::string& name, const tracer::Graph& g, const std::vector<std::string>& static_names,
                      const std::vector<std::string>& notes, double trace_ms, double optimize_ms,
                      const std::string& compile_note) {
    std::string text = "trace input " + name + "(";
    bool first = true;
    for (tracer::ValueId id : g.inputs()) {
        text += (first ? "" : ", ") + g.value(id).name + ": " + tracer::to_string(g.tensor_type(id));
        first = false;
    }
    text += ")\n";
    if (!static_names.empty()) {
        text += "  static:";
        for (const auto& s : static_names) text += " " + s;
        text += " (their values are needed while tracing)\n";
    }
    for (const std::string& note : notes) text += "  " + note + "\n";
    text += "  time: trace " + ms(trace_ms) + ", optimize " + ms(optimize_ms) + "; " +
            std::to_string(g.live_node_count()) + " nodes\n" + compile_note;
    text += tracer::print_graph(g);
    if (text.back() != '\n') text += '\n';
    return text;
}

// Native code for the input's graph, or none: the note for the log.
std::string compile_input(Runtime& rt, GraphEntry& entry) {
    if (rt.options.no_jit) return "";
    try {
        entry.compiled = rt.compiler().compile(*entry.graph, "repl_input");
        return "  compile " + std::to_string(entry.compiled->compile_ms()) + " ms" +
               (entry.compiled->from_cache() ? " (object cache hit)" : "") + "\n";
    } catch (const codegen::CodegenError& e) {
        // a bug in tg or a missing JIT plugin: the reference interpreter runs the graph instead
        const bool missing = dynamic_cast<const codegen::JitUnavailable*>(&e) != nullptr;
        return std::string(missing ? "  " : "  internal error (please report this): ") + e.what() +
               "\n  the graph runs on the reference interpreter\n";
    }
}

}  // namespace

bool Evaluator::trace_input_graph(TracedInput& in, bool static_scalars) {
    const FunctionFacts& facts = *in.facts;
    const std::string& name = in.chunk->source->name();
    auto T = std::make_unique<TraceState>(name);
    T->token = T->graph.add_input_token();
    auto env = std::make_shared<Env>();
    env->slots.resize(static_cast<size_t>(facts.num_slots()));
    env->facts = &facts;
    env->traced = true;
    in.input_leaves.clear();
    std::vector<std::string> static_names;
    for (size_t i = 0; i < in.names.size(); ++i)
        env->slots[i] = i < in.num_read
                            ? input_value(*T, in.values[i], in.names[i], static_scalars, in.input_leaves, static_names)
                            : in.values[i];
    const std::vector<Value> entry_values(env->slots.begin(),
                                          env->slots.begin() + static_cast<std::ptrdiff_t>(in.names.size()));

    // An echo inside the trace: a print node of the value's repr.
    std::function<void(const Value&)> echo = [this](const Value& v) {
        if (v.is(Kind::None)) return;
        TraceState& t = *rt_.trace;
        tracer::Template text;
        std::vector<tracer::ValueId> operands;
        append_str(t, text, operands, v, true);
        text.push_back(tracer::TextPiece{tracer::TextPiece::Text, "\n", 0});
        t.token = t.graph.print(t.token, std::move(text), operands, t.here());
    };
    const int64_t budget = rt_.steps + kTraceSteps;
    auto graph = std::make_unique<InputGraph>();
    std::vector<Value> results;
    TraceTimes times;
    try {
        TraceSession session(*this, *T, Frame{env.get(), &env, in.module, &in.chunk->source},
                             {.nested_call = false, .echo = &echo, .max_steps = budget});
        if (exec_block(in.chunk->body) != Flow::Normal) unsupported_in_graph("`break` or `continue` outside a loop");
        session.finish(input_results(*env, entry_values, facts, *graph, results));
        times = session.times();
    } catch (Error& e) {
        if (limit_reached(rt_)) throw;
        if (rt_.steps > budget) {
            in.eager_reason = "tracing it takes more than " + std::to_string(kTraceSteps) +
                              " steps (a loop that runs while tracing)";
            return false;
        }
        if (e.trace_kind == TraceErrorKind::Conversion && !static_scalars) {
            // a 0-d input had to be static (a shape, a list index): its value will do, the graph runs once
            for (const Value& v : in.input_leaves)
                if (v.tensor_type().shape.rank() == 0) return trace_input_graph(in, true);
        }
        in.eager_reason = e.message();
        return false;
    } catch (const std::exception& e) {
        in.eager_reason = std::string("internal error: ") + e.what();
        return false;
    }

    GraphEntry& entry = graph->entry;
    graph->params.push_back(Param{"inputs", nullptr, {}});
    entry.params = &graph->params;
    entry.signature.args.push_back({"inputs", tracer::ArgDesc::value("input", name)});
    entry.captures = std::move(T->captures);
    entry.result = Value::tuple(std::move(results));
    entry.number = 1;
    entry.graph = std::make_unique<tracer::Graph>(std::move(T->graph));
    const std::string compile_note = compile_input(rt_, entry);
    in.graph = std::move(graph);
    if (rt_.options.write_log)
        rt_.options.write_log(
            input_log(name, *entry.graph, static_names, T->notes, times.trace_ms, times.optimize_ms, compile_note));
    return true;
}

bool Evaluator::run_traced_input(TracedInput& in) {
    set_step_limit();
    if (!trace_input_graph(in, false)) return false;
    // run it: the printed output is kept, for a rerun after an error
    auto env = std::make_shared<Env>();
    env->slots.push_back(Value::tuple(std::move(in.input_leaves)));
    const Loc loc = in.chunk->body.empty() ? Loc{} : in.chunk->body.front()->loc;
    Value result;
    in.rng_before = rt_.rng;
    // the module's frame: an interrupt or the step limit is located in the input
    Frame frame{nullptr, nullptr, in.module, &in.chunk->source};
    try {
        RecordedOutput output(rt_.options.write_output);
        struct Keep {  // what was shown, also when the graph fails
            Evaluator::TracedInput& in;
            RecordedOutput& out;
            ~Keep() { in.printed = out.printed; }
        } keep{in, output};
        Scoped<Frame*> in_frame(f_, &frame);
        run_entry(in.graph->entry, env, CallArgs{{}, {}, {}, loc}, result);
    } catch (Error&) {
        if (limit_reached(rt_)) throw;
        in.graph_failed = true;
        in.graph.reset();
        return false;
    }
    ModuleState& m = *in.module;
    const auto& items = result.items();
    for (size_t k = 0; k < items.size(); ++k) {
        if (in.graph->maybe[k] && !items[k].items()[0].scalar()->nonzero()) continue;  // not assigned on the path taken
        m.globals[static_cast<size_t>(m.slot_of(in.graph->written[k]))] = in.graph->maybe[k] ? items[k].items()[1] : items[k];
    }
    // what the resolver records of a module-level assignment (for "`y` is not defined: it is assigned only at ...")
    for (const SlotInfo& s : in.facts->slots)
        if (!s.assigned_at.empty()) {
            auto& at = m.global_info[static_cast<size_t>(m.slot_of(s.name))].assigned_at;
            at.insert(at.end(), s.assigned_at.begin(), s.assigned_at.end());
        }
    in.graph.reset();  // nothing of the input is kept
    return true;
}

void run_input_traced(Runtime& rt, ModuleState& m, SourcePtr source) {
    StackGuard guard(rt);
    std::function<void(const Value&)> echo = [&rt](const Value& v) {
        if (!v.is(Kind::None)) rt.write(repr_of(v) + "\n");
    };
    auto note = [&](const std::string& s) {
        if (rt.options.write_log) rt.options.write_log("trace input " + source->name() + ": " + s + "\n");
    };
    auto eager = [&](const std::string& why) {
        if (!why.empty()) note("runs eagerly: " + why);
        rt.run_chunk(m, source, &echo, nullptr, {});
    };
    if (rt.options.eager) return eager("eager mode is on");
    ParseResult parsed = parse(source);
    // a syntax error is reported as eager reports it; an input of comments only does nothing
    if (!parsed.ok() || parsed.module->body.empty()) return eager("");
    if (!parsed.module->source) parsed.module->source = source;
    Scan scan;
    scan.block(parsed.module->body);
    if (!scan.untraceable.empty()) return eager(scan.untraceable);

    Evaluator::TracedInput in;
    in.module = &m;
    in.chunk = parsed.module.get();
    for (int pass = 0; pass < 2; ++pass)  // read ones first: they are the graph's inputs
        for (const NameUse& u : scan.uses) {
            int slot = m.find(u.id);
            if (slot < 0 || !m.globals[static_cast<size_t>(slot)].defined() || u.read != (pass == 0)) continue;
            in.names.push_back(u.id);
            in.values.push_back(m.globals[static_cast<size_t>(slot)]);
            if (pass == 0) ++in.num_read;
        }
    auto facts = std::make_unique<FunctionFacts>();
    facts->name = "<module>";
    resolve_as_function(*parsed.module, in.names, *facts, m, rt);
    in.facts = facts.get();
    if (!m.source) m.source = source;
    try {
        if (Evaluator(rt).run_traced_input(in)) return;
    } catch (Error& e) {
        e.leave_module();
        throw;
    }
    if (!in.graph_failed) return eager(in.eager_reason);

    // The graph raised an error. Eager would have assigned what the input
    // assigns before the error: run it again eagerly from the same generator
    // state, holding back what the graph already printed.
    note("the graph raised an error: the input runs again eagerly (the same output and error, and eager's variables)");
    rt.rng = in.rng_before;
    HeldBackOutput output(rt.options.write_output, in.printed);
    rt.run_chunk(m, source, &echo, nullptr, {});
}

}  // namespace tg::interp
