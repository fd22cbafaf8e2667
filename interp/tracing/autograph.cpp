// AutoGraph conversion (docs/graph.md "Static and dynamic"), interp's side: while a @graph function is
// traced, control flow on a symbolic (dynamic) value becomes `cond` / `while`
// nodes; control flow on static values simply runs, as in eager mode. The
// conversion's policy and steps are the tracer's (tracer/conversion.hpp,
// convert_cond.hpp, convert_while.hpp); here are the seams (one call per
// construct) and the hosts they call back: CondSite and WhileSite evaluate
// the bodies, read and set the frame's variables, make graph values of
// leaves, and do the autodiff tape's part.
//
// The carried state of a converted `if` or loop is every local variable of the
// current frame, plus hidden ones: the return value, whether a `return` may
// have happened, and `break` / `continue` of the innermost loop. A variable
// whose value is the same object on every path stays as it is (static values
// stay static); the others are split into tensor leaves (yielded or carried)
// and a skeleton that must agree (same list lengths, same strings...).
//
// break / continue / return inside converted control flow set those hidden
// flags; while one of them may be set, the rest of the block runs inside a
// `cond` on "none is set" (exec_range -> guard_rest), and a converted loop's
// condition also checks them. Which flag settled and which are pending is
// tracer/exit_flags' policy, over the frame's flags (FrameExits below).
//
// Errors: a User error in a branch (or loop body) that may not run becomes a
// `raise` node with the same message and traceback; Conversion errors (the
// trace-time errors of docs/graph.md "Static and dynamic") and Unsupported ones stop the conversion.
#include "interp/batching/batching.hpp"
#include "interp/control.hpp"
#include "interp/autodiff/autodiff.hpp"
#include "interp/tracing/carried_values.hpp"
#include "interp/values/dict.hpp"
#include "interp/dispatch.hpp"
#include "interp/evaluator.hpp"
#include "interp/values/printing.hpp"
#include "interp/tracing/trace.hpp"
#include "lang/diagnostics.hpp"
#include "stdlib/cast.hpp"
#include "tracer/carried_merge.hpp"
#include "tracer/convert_cond.hpp"
#include "tracer/convert_while.hpp"
#include "tracer/exit_flags.hpp"

namespace tg::interp {

using namespace lang;
using stdlib::TensorType;
using tracer::Graph;
using tracer::join;
using tracer::MergeSite;
using tracer::kNoId;
using tracer::NodeId;
using tracer::RegionId;
using tracer::TextPiece;
using tracer::ValueId;

namespace {

using tracer::Mismatch;

// The conversion error of a carried variable whose two values do not merge.
[[noreturn]] void merge_error(const std::string& var, const Mismatch& m, tracer::MergeSite site,
                              const std::string& where, const lang::SourcePtr& source, Loc loc) {
    throw Error(tracer::mismatch_message(var, m, site, where), source, loc).as(TraceErrorKind::Conversion);
}

// A carried variable as the conversion's policy names it.
tracer::CarriedVar carried(const TraceVar& v) {
    static_assert(int(TraceVar::Var) == int(tracer::CarriedRole::Var) &&
                  int(TraceVar::Ret) == int(tracer::CarriedRole::Ret) &&
                  int(TraceVar::Flag) == int(tracer::CarriedRole::Flag));
    return {v.name, static_cast<tracer::CarriedRole>(v.role)};
}

}  // namespace

// ------------------------------------------------------------------ helpers

void Evaluator::at(Loc loc) {
    // (an Evaluator a builtin makes to call a function has no frame: the
    // location stays the builtin's call)
    if (rt_.trace && f_) {
        rt_.trace->source = source();
        rt_.trace->loc = loc;
    }
}

uint32_t Evaluator::truth_node(const Value& v, Loc loc) {
    TraceState& t = *rt_.trace;
    at(loc);
    try {
        return t.graph.truth(v.sym()->id, t.here());
    } catch (const stdlib::OpError& err) {
        fail(err.what(), loc);
    }
}

std::optional<bool> Evaluator::condition(const Expr& e, uint32_t& pred) {
    // Only the truth of `a and b` / `a or b` / `not a` matters here, so their
    // operands need not have one type: the truth values are combined, with
    // the short-circuit kept (b is evaluated only where it would be).
    // A batched operand (vmap) is stored in *batched (see batched_cond_):
    // then both operands run, their truths combined per example.
    Value* const batched = std::exchange(batched_cond_, nullptr);
    if (rt_.trace && e.kind == ExprKind::BoolOp) {
        const BoolOp& b = e.as<BoolOp>();
        uint32_t pa;
        batched_cond_ = batched;
        std::optional<bool> a = condition(*b.lhs, pa);
        if (batched && batched->defined()) {
            *batched = lane_combine(b.is_and, *batched, eval(*b.rhs), b.loc);
            return false;
        }
        if (a) {
            if (b.is_and ? !*a : *a) return *a;
            batched_cond_ = batched;
            return condition(*b.rhs, pred);
        }
        Value r;
        auto rhs = [&] {
            uint32_t pb;
            std::optional<bool> c = condition(*b.rhs, pb);
            r = c ? Value::from_bool(*c) : symbolic(*rt_.trace, pb);
            return Flow::Normal;
        };
        auto lhs = [&] {
            r = Value::from_bool(!b.is_and);
            return Flow::Normal;
        };
        trace_cond(pa, {{&r, "the condition", TraceVar::Var}}, b.is_and ? BranchFn(rhs) : BranchFn(lhs),
                   b.is_and ? BranchFn(lhs) : BranchFn(rhs), b.loc, b.is_and ? "and" : "or");
        if (r.scalar()) return r.scalar()->nonzero();
        pred = r.sym()->id;
        return std::nullopt;
    }
    if (rt_.trace && e.kind == ExprKind::Unary && e.as<Unary>().op == UnaryOp::Not) {
        uint32_t pa;
        batched_cond_ = batched;
        std::optional<bool> a = condition(*e.as<Unary>().operand, pa);
        if (batched && batched->defined()) {
            *batched = unary(rt_, UnaryOp::Invert, lane_truth(*batched, e.loc));
            return false;
        }
        if (a) return !*a;
        at(e.loc);
        pred = unary(rt_, UnaryOp::Invert, symbolic(*rt_.trace, pa)).sym()->id;
        return std::nullopt;
    }
    Value scratch;
    const Value& v = eval_ref(e, scratch);
    if (batched && is_batched_condition(v)) {
        *batched = v;
        return false;
    }
    if (v.is_symbolic() && rt_.trace) {
        pred = truth_node(v, e.loc);
        return std::nullopt;
    }
    return truth_at(v, e.loc);
}

std::vector<TraceVar> Evaluator::trace_vars(std::vector<TraceVar> extra) {
    std::vector<TraceVar> vars = std::move(extra);
    if (f_->env) {
        const FunctionFacts* facts = f_->env->facts;
        for (size_t i = 0; i < f_->env->slots.size(); ++i)
            vars.push_back({&f_->env->slots[i], facts ? facts->slots[i].name : "?", TraceVar::Var});
    }
    vars.push_back({&f_->ret, "the return value", TraceVar::Ret});
    vars.push_back({&f_->ret_flag, "return", TraceVar::Flag});
    if (f_->loop) {
        vars.push_back({&f_->loop->brk, "break", TraceVar::Flag});
        vars.push_back({&f_->loop->cont, "continue", TraceVar::Flag});
    }
    return vars;
}

namespace {

using tracer::Exit;

// The frame's break / continue / return flags, for tracer/exit_flags' policy.
class FrameExits final : public tracer::ExitFlags {
public:
    explicit FrameExits(Frame& f) : f_(f) {}
    bool in_loop() const override { return f_.loop != nullptr; }
    tracer::FlagState state(Exit e) const override {
        const Value& v = slot(e);
        if (v.is_symbolic()) return tracer::FlagState::Dynamic;
        return statically_true(v) ? tracer::FlagState::True : tracer::FlagState::False;
    }
    void set(Exit e, bool on) override { slot(e) = Value::from_bool(on); }
    Value& slot(Exit e) const {
        switch (e) {
        case Exit::Break: return f_.loop->brk;
        case Exit::Continue: return f_.loop->cont;
        case Exit::Return: break;
        }
        return f_.ret_flag;
    }

private:
    Frame& f_;
};

}  // namespace

void Evaluator::set_flow_flag(Flow f) {
    FrameExits exits(*f_);
    switch (f) {
    case Flow::Break: exits.set(Exit::Break, true); break;
    case Flow::Continue: exits.set(Exit::Continue, true); break;
    case Flow::Return: exits.set(Exit::Return, true); break;
    case Flow::Normal: break;
    }
}

Evaluator::Flow Evaluator::flow_of_flags() {
    FrameExits exits(*f_);
    const std::optional<Exit> taken = tracer::take_settled_exit(exits);
    if (!taken) return Flow::Normal;
    switch (*taken) {
    case Exit::Return: return Flow::Return;
    case Exit::Break: return Flow::Break;
    case Exit::Continue: return Flow::Continue;
    }
    return Flow::Normal;
}

bool Evaluator::exit_pending() const {
    FrameExits exits(*f_);
    return tracer::any_pending(exits);
}

namespace {

// The raise node for an error found while tracing a branch that may not run:
// its location, and the calls it happened in (to rebuild the same traceback).
tracer::SrcLoc error_location(const TraceState& t, const Error& e) {
    std::shared_ptr<const tracer::CallSite> chain = t.inlined;
    const auto& tb = e.traceback();
    for (size_t j = tb.size(); j-- > 0;) {
        const lang::SourcePtr& src = j + 1 < tb.size() ? tb[j + 1].source : e.here_source();
        Loc loc = j + 1 < tb.size() ? tb[j + 1].loc : e.here();
        chain = std::make_shared<const tracer::CallSite>(tracer::CallSite{tb[j].function, tb[j].is_graph, src, loc, chain});
    }
    return {e.source(), e.loc(), chain};
}

tracer::Template text_template(const std::string& s) { return {TextPiece{TextPiece::Text, s, 0}}; }

// The graph value of a leaf with the type `want` (a weak value made strong
// when the other paths give a strong one).
// Constants made here (a literal carried into a cond/while) get the location
// of that construct: it is what makes them a node.
ValueId leaf_id(Runtime& rt, const Value& v, const TensorType& want, const tracer::SrcLoc& where) {
    TraceState& t = *rt.trace;
    // A value being differentiated, carried out of a converted if/while: the
    // graph does not differentiate cond/while nodes; the call runs eagerly
    // (interp/autodiff/autodiff.hpp).
    if (v.tracked()) unsupported_in_graph("a gradient through a converted `if` or loop (it depends on a tensor)");
    if (const SymObj* s = v.sym()) {
        if (s->type.weak && !want.weak) {
            const stdlib::OpDef* astype = &stdlib::op_of(stdlib::ElementwiseKind::AsType);
            Value in[1] = {v};
            t.source = where.source;
            t.loc = where.loc;
            return trace_op(rt, *astype, in, {std::monostate{}, want.dtype}).sym()->id;
        }
        return s->id;
    }
    stdlib::Tensor c = v.tensor();
    if (c.weak() && !want.weak) c = stdlib::cast(c, want.dtype);  // from the literal's exact value
    return t.graph.constant(c, where);
}
ValueId bool_id(TraceState& t, const Value& b, const tracer::SrcLoc& where) {
    if (const SymObj* s = b.sym()) return s->id;
    return t.graph.constant(stdlib::Tensor::scalar(statically_true(b)), where);
}

// ---- a cond's tape part

// One result of a cond beyond the token, as each branch yields it (tracer/conversion.hpp).
using Yielded = tracer::BranchResult<Value>;

// Values being differentiated through a cond (autodiff.hpp): the branches'
// tape entries kept apart, and per branch the tape nodes and primals of the
// yielded leaves and the residuals those entries need (extra results).
struct CondGradients {
    std::optional<CondTape> tape;  // none: nothing is differentiated through the cond
    std::vector<uint32_t> leaf_nodes[2];
    std::vector<Value> leaf_primals[2], residuals[2];
};
CondGradients cond_gradients(Runtime& rt, const std::vector<size_t> marks[3], const RegionId reg[2],
                             std::vector<Yielded>& yielded) {
    const Graph& g = rt.trace->graph;
    bool tracked_side = false;
    for (const Yielded& y : yielded) tracked_side = tracked_side || y.side[0].tracked() || y.side[1].tracked();
    CondGradients out;
    out.tape = take_branch_entries(rt, marks, tracked_side);
    if (!out.tape) return out;
    const size_t n_results = yielded.size();
    for (int b = 0; b < 2; ++b) {
        out.leaf_nodes[b].assign(n_results, kNotTracked);
        out.leaf_primals[b].resize(n_results);
        for (size_t j = 0; j < n_results; ++j) {
            Value& side = yielded[j].side[b];
            const GradObj* go = side.tracked();
            if (!go) continue;
            if (tracked_level(rt, side) != out.tape->level)
                unsupported_in_graph("a gradient of a gradient through a converted `if`");
            out.leaf_nodes[b][j] = go->node;
            side = go->primal;
            out.leaf_primals[b][j] = side;
        }
        const RegionId here = reg[b];
        out.residuals[b] = branch_residuals(*out.tape, b, [&](uint32_t id) {
            const tracer::ValueInfo& vi = g.value(id);
            return vi.def == tracer::kNoId ? vi.region == here : g.node(vi.def).parent == here;
        });
        for (const Value& r : out.residuals[b]) {
            Yielded y;
            y.type = r.tensor_type();
            y.side[b] = r;
            yielded.push_back(std::move(y));
        }
    }
    return out;
}

// The tape's part of a differentiated cond: its branches' entries recorded
// as one cond entry (`res`: the cond's results, the residuals after the
// `outs` of the carried leaves).
void record_cond_gradients(Runtime& rt, CondGradients& grads, uint32_t pred, std::vector<Value>& outs,
                           const std::vector<ValueId>& res) {
    if (!grads.tape) return;
    std::vector<Value> residual_results[2];
    size_t at = 1 + outs.size();
    for (int b = 0; b < 2; ++b)
        for (size_t k = 0; k < grads.residuals[b].size(); ++k) residual_results[b].push_back(symbolic(*rt.trace, res[at++]));
    record_cond(rt, std::move(*grads.tape), pred, grads.leaf_nodes, grads.leaf_primals, outs, grads.residuals,
                residual_results);
}
// What interp's hosts of a converted `if` and loop share (tracer's
// RegionHost): the frame's carried variables, the trace's token, and the
// graph values of leaves and flags.
class CarriedSlots : public CarriedValues {
public:
    CarriedSlots(Runtime& rt, std::vector<TraceVar> vars) : rt_(rt), vars_(std::move(vars)) {
        for (const TraceVar& v : vars_) names_.push_back(carried(v));
    }
    std::span<const tracer::CarriedVar> vars() const { return names_; }
    std::vector<Value> values() const {
        std::vector<Value> now;
        for (const TraceVar& v : vars_) now.push_back(*v.slot);
        return now;
    }
    void set_values(const std::vector<Value>& vs) {
        for (size_t i = 0; i < vars_.size(); ++i) *vars_[i].slot = vs[i];
    }
    ValueId& token() { return rt_.trace->token; }
    ValueId leaf_id(const Value& v, const TensorType& want, const tracer::SrcLoc& where) {
        return interp::leaf_id(rt_, v, want, where);
    }
    ValueId bool_id(const Value& b, const tracer::SrcLoc& where) { return interp::bool_id(*rt_.trace, b, where); }
    Value symbolic(ValueId id) { return interp::symbolic(*rt_.trace, id); }
    Value rebuild(const Value& skeleton, std::span<const Value> leaves) const {
        return rebuild_from_leaves(skeleton, leaves);
    }
    Value make_maybe(Value inner, Value flag, bool none) const {
        return interp::make_maybe(std::move(inner), std::move(flag), none);
    }

protected:
    Runtime& rt_;
    std::vector<TraceVar> vars_;
    std::vector<tracer::CarriedVar> names_;
};

// interp's side of a converted `if` (tracer/convert_cond.hpp's CondHost):
// the frame's carried variables, the branches' evaluation, the graph values
// of leaves, and the autodiff tape.
class CondSite : public CarriedSlots {
public:
    using Run = std::function<std::optional<Error>(int)>;
    CondSite(Runtime& rt, std::vector<TraceVar> vars, Run run, uint32_t pred, const lang::SourcePtr& source, Loc loc,
             const char* construct)
        : CarriedSlots(rt, std::move(vars)), run_(std::move(run)), pred_(pred), source_(source), loc_(loc),
          construct_(construct) {}

    bool run_branch(int b) {
        err_[b] = run_(b);
        return err_[b].has_value();
    }
    [[noreturn]] void raise_branch_error() { throw *err_[0]; }
    [[noreturn]] void mismatch(const tracer::CarriedMismatch& e) const {
        const std::string what = std::string(construct_).find(' ') == std::string::npos
                                     ? std::string("`") + construct_ + "`"
                                     : std::string(construct_) + ",";
        merge_error(e.var, e.mismatch, MergeSite::Branches,
                    " of the " + what + " at " + format_location(source_.get(), loc_), source_, loc_);
    }
    // ---- the tape's part (autodiff.hpp)
    void tape_mark(int b) { marks_[b] = tape_marks(rt_); }
    void tape_roll_back() { truncate_tapes(rt_, marks_[0]); }
    void tape_results(std::vector<Yielded>& results, const RegionId* reg) {
        grads_ = cond_gradients(rt_, marks_, reg, results);
    }
    void tape_record(std::vector<Value>& outs, const std::vector<ValueId>& res) {
        record_cond_gradients(rt_, grads_, pred_, outs, res);
    }

private:
    Run run_;
    uint32_t pred_;
    lang::SourcePtr source_;
    Loc loc_;
    const char* construct_;
    std::optional<Error> err_[2];
    std::vector<size_t> marks_[3];  // tape lengths before each branch and after
    CondGradients grads_;
};
static_assert(tracer::CondHost<CondSite>);

}  // namespace

// ------------------------------------------------------------------ cond

std::optional<Error> Evaluator::trace_body(const BranchFn& fn, Loc loc, const std::function<void()>& give_up) {
    TraceState& T = *rt_.trace;
    Frame* frame = f_;
    try {
        try {
            set_flow_flag(fn());
        } catch (const stdlib::OpError& err) {
            throw Error(err.what(), T.source ? T.source : source(), T.source ? T.loc : loc);
        }
    } catch (Error& e) {
        f_ = frame;
        if (e.trace_kind != TraceErrorKind::User) {
            give_up();
            throw;
        }
        T.token = T.graph.raise(T.token, text_template(e.message()), {}, error_location(T, e));
        return e;
    }
    return std::nullopt;
}

Evaluator::Flow Evaluator::trace_cond(uint32_t pred, std::vector<TraceVar> extra, const BranchFn& then_fn,
                                      const BranchFn& else_fn, Loc loc, const char* construct, int vars_dead_on) {
    TraceState& T = *rt_.trace;
    // (the cond's steps are the tracer's; a branch runs here, in this frame)
    auto run = [&](int b) { return trace_body(b == 0 ? then_fn : else_fn, loc, [] {}); };
    CondSite site(rt_, trace_vars(std::move(extra)), run, pred, source(), loc, construct);
    tracer::convert_cond(site, T.graph, pred, T.at(source(), loc), vars_dead_on);
    return flow_of_flags();
}

Evaluator::Flow Evaluator::guard_rest(const Block& b, size_t from) {
    if (from >= b.size()) return Flow::Normal;
    FrameExits exits(*f_);
    const std::vector<Exit> pending = tracer::pending_exits(exits);
    std::vector<Value*> flags;
    for (Exit e : pending) flags.push_back(&exits.slot(e));
    at(b[from]->loc);
    uint32_t pred = none_set(rt_, flags);
    // Where only a `return` can have happened, the variables of the path that
    // returned are never read again: the rest of the block may rebind them to
    // other shapes or dtypes (docs/graph.md "Static and dynamic"). Unless a closure made in this frame
    // could still read them (it holds the frame: more than its caller refers
    // to it).
    const bool only_return = tracer::only_return_pending(pending);
    const bool no_closures = f_->env_owner && f_->env_owner->use_count() <= 1;
    // Which flag each pointer is must survive the branches: they point into the frame.
    return trace_cond(
        pred, {},
        [&] {
            for (Value* f : flags) *f = Value::from_bool(false);
            return exec_range(b, from);
        },
        [&] {
            if (flags.size() == 1) *flags[0] = Value::from_bool(true);
            return Flow::Normal;
        },
        b[from]->loc, "hidden `if` that skips the rest of the block after a `break`, `continue` or `return`",
        only_return && no_closures ? 1 : -1);
}

Value Evaluator::trace_boolop(const BoolOp& b, const Value& x, uint32_t pred) {
    Value result;
    const char* name = b.is_and ? "and" : "or";
    try {
    trace_cond(
        pred, {{&result, std::string("the value of `") + name + "`", TraceVar::Var}},
        [&] {
            result = b.is_and ? eval(*b.rhs) : x;
            return Flow::Normal;
        },
        [&] {
            result = b.is_and ? x : eval(*b.rhs);
            return Flow::Normal;
        },
        b.loc, name);
    } catch (Error& e) {
        // operands of different types: a graph value has one type (in a
        // condition this does not arise: see condition())
        if (e.trace_kind == TraceErrorKind::Conversion && e.message().find("the value of `") == 1)
            unsupported_in_graph(std::string("`") + name + "` on operands of different types");
        throw;
    }
    if (result.maybe_undef()) unsupported_in_graph("`and` / `or` here");
    return result;
}

Value Evaluator::trace_ifexp(const IfExp& e, uint32_t pred) {
    Value result;
    trace_cond(
        pred, {{&result, "the value of the conditional expression", TraceVar::Var}},
        [&] {
            result = eval(*e.then_);
            return Flow::Normal;
        },
        [&] {
            result = eval(*e.else_);
            return Flow::Normal;
        },
        e.loc, "if");
    if (result.maybe_undef()) unsupported_in_graph("this conditional expression");
    return result;
}

void Evaluator::trace_assert(const Assert& a, const Value& c) {
    TraceState& T = *rt_.trace;
    ValueId pred = c.is_symbolic() ? truth_node(c, a.cond->loc) : bool_id(T, c, T.at(source(), a.cond->loc));
    tracer::Template msg = text_template("assertion failed");
    std::vector<ValueId> operands;
    if (a.msg) {
        Value m = eval(*a.msg);
        msg.push_back(TextPiece{TextPiece::Text, ": ", 0});
        append_str(T, msg, operands, m, false);
    }
    T.token = T.graph.assert_(T.token, pred, std::move(msg), operands, T.at(source(), a.loc));
}

// ------------------------------------------------------------------ while

namespace {

// The values a differentiated loop body's tape entries read, pushed on the
// run's stack at the end of every iteration (autodiff.hpp's WhileData).
std::shared_ptr<WhileData> push_residuals(Runtime& rt, const LoopTape& body_tape, RegionId body_r) {
    const Graph& g = rt.trace->graph;
    auto wd = std::make_shared<WhileData>();
    wd->residuals = body_residuals(body_tape, [&](uint32_t id) {
        const tracer::ValueInfo& vi = g.value(id);
        return vi.def == tracer::kNoId ? vi.region == body_r : g.node(vi.def).parent == body_r;
    });
    if (wd->residuals.empty()) wd->residuals.push_back(Value::weak_int(0));  // counts the iterations
    const stdlib::OpDef& push = stdlib::op_of(stdlib::OtherKind::StackPush);
    for (const Value& r : wd->residuals) {
        Value in[1] = {r};
        wd->push_nodes.push_back(g.value(trace_op(rt, push, in, {}).sym()->id).def);
    }
    return wd;
}

// The stack's size before the while `node`: a node placed just before it,
// threaded on the token.
Value stack_size_before(TraceState& T, NodeId node, const tracer::SrcLoc& where) {
    Graph& g = T.graph;
    const stdlib::OpDef& size = stdlib::op_of(stdlib::OtherKind::StackSize);
    const tracer::ValueType types[2] = {tracer::ValueType::of({stdlib::DType::I64, {}, false}),
                                        tracer::ValueType::token_type()};
    const NodeId sn = g.create(tracer::Op::Apply, &size, {g.node(node).operands[0]}, types, {}, {}, where);
    const RegionId parent = g.node(node).parent;
    const auto& order = g.region(parent).nodes;
    g.insert(parent, size_t(std::find(order.begin(), order.end(), node) - order.begin()), sn);
    g.node(node).operands[0] = g.node(sn).results[1];
    return symbolic(T, g.node(sn).results[0]);
}

static_assert(kNotTracked == tracer::kNoTapeNode);

// interp's side of a converted loop (tracer/convert_while.hpp's WhileHost):
// the frame's carried variables and exit flags, the condition's and the
// body's evaluation, the graph values of leaves, and the autodiff tape.
class WhileSite : public CarriedSlots {
public:
    struct Evaluation {
        std::function<Value()> condition;  // "no break/return yet, and the condition"
        std::function<bool()> body;        // true: it raises (a raise node was added)
    };
    WhileSite(Runtime& rt, Frame& frame, LoopFlags& flags, std::vector<TraceVar> vars, Evaluation eval, Loc loc)
        : CarriedSlots(rt, std::move(vars)), frame_(frame), flags_(flags), eval_(std::move(eval)), loc_(loc) {}

    bool forced(size_t i) const { return vars_[i].force_carried; }
    Value condition() { return eval_.condition(); }
    void reset_exits() {
        flags_.brk = Value::from_bool(false);
        flags_.cont = Value::from_bool(false);
        frame_.ret_flag = Value::from_bool(false);
    }
    bool run_body() { return eval_.body(); }
    [[noreturn]] void mismatch(const tracer::CarriedMismatch& e) const {
        merge_error(e.var, e.mismatch, MergeSite::Iterations,
                    " in the loop at " + format_location(frame_.source->get(), loc_), *frame_.source, loc_);
    }

    // ---- the tape's part (autodiff.hpp): gradients through the loop
    bool tape_begin() {
        marks_ = tape_marks(rt_);
        wd_.reset();
        return !rt_.tapes.empty();
    }
    void tape_roll_back() { truncate_tapes(rt_, marks_); }
    bool tape_differentiated(const Value& leaf) const { return tracked_level(rt_, leaf) == rt_.tapes.size(); }
    uint32_t tape_primal(Value& leaf) const {
        const GradObj* go = leaf.tracked();
        if (!go || tracked_level(rt_, leaf) != rt_.tapes.size()) return kNotTracked;
        const uint32_t node = go->node;
        leaf = go->primal;
        return node;
    }
    Value tape_track(const Value& v, uint32_t& node) {
        Value t = track_new(rt_, v);
        node = t.tracked()->node;
        return t;
    }
    void tape_body_start() { body_marks_ = tape_marks(rt_); }
    // The body's entries, and what they read, saved at the end of every iteration.
    bool tape_body_end(bool raised, bool differentiated, RegionId body_r) {
        body_tape_ = take_body_entries(rt_, body_marks_, tape_marks(rt_));
        if (raised && differentiated) unsupported_in_graph("a gradient through a loop whose body always raises");
        if (!raised && differentiated) wd_ = push_residuals(rt_, body_tape_, body_r);
        return wd_ != nullptr;
    }
    void tape_before_loop(NodeId node, const tracer::SrcLoc& where) {
        wd_->saved_before = stack_size_before(*rt_.trace, node, where);
        wd_->node = node;
    }
    void tape_record(tracer::LoopTapeIds<Value>& ids) {
        wd_->leaf_types = std::move(ids.leaf_types);
        wd_->arg_nodes = std::move(ids.arg_nodes);
        wd_->out_nodes = std::move(ids.out_nodes);
        wd_->yield_nodes = std::move(ids.yield_nodes);
        record_while(rt_, std::move(body_tape_), wd_, ids.in_nodes, ids.in_primals, ids.out_primals);
    }

private:
    Frame& frame_;
    LoopFlags& flags_;
    Evaluation eval_;
    Loc loc_;
    std::vector<size_t> marks_, body_marks_;  // tape lengths at the attempt's start, the body's
    LoopTape body_tape_;
    std::shared_ptr<WhileData> wd_;  // set when leaves are differentiated around the loop
};
static_assert(tracer::WhileHost<WhileSite>);

}  // namespace

// In a while's condition region: "no break or return yet, and the
// condition" (a static bool, or a symbolic one).
Value Evaluator::loop_predicate(const std::function<Value()>& cond_fn, LoopFlags& flags, Loc loc) {
    TraceState& T = *rt_.trace;
    std::vector<Value*> exits;
    if (f_->ret_flag.is_symbolic()) exits.push_back(&f_->ret_flag);
    if (flags.brk.is_symbolic()) exits.push_back(&flags.brk);
    auto eval_pred = [&]() -> Value {
        Value c = cond_fn();
        if (c.is_symbolic()) return symbolic(T, truth_node(c, loc));
        try {
            return Value::from_bool(truth(c));
        } catch (const stdlib::OpError& err) {
            fail(err.what(), loc);
        }
    };
    if (exits.empty()) return eval_pred();
    Value p;
    at(loc);
    uint32_t go = none_set(rt_, exits);
    trace_cond(
        go, {{&p, "the loop condition", TraceVar::Var}},
        [&] {
            for (Value* e : exits) *e = Value::from_bool(false);
            p = eval_pred();
            return Flow::Normal;
        },
        [&] {
            p = Value::from_bool(false);
            return Flow::Normal;
        },
        loc, "while");
    return p;
}

Evaluator::Flow Evaluator::trace_while(const std::function<Value()>& cond_fn, const BranchFn& body_fn,
                                       std::vector<TraceVar> extra, Loc loc) {
    TraceState& T = *rt_.trace;
    Frame* frame = f_;
    LoopFlags flags;
    LoopFlags* const saved_loop = f_->loop;
    f_->loop = &flags;
    std::vector<TraceVar> vars = trace_vars(std::move(extra));
    std::erase_if(vars, [&](const TraceVar& v) { return v.slot == &flags.cont; });  // reset each iteration
    // (the loop's steps are the tracer's; the condition and the body run here, in this frame)
    WhileSite::Evaluation eval{[&] { return loop_predicate(cond_fn, flags, loc); },
                               [&] { return trace_body(body_fn, loc, [] {}).has_value(); }};
    WhileSite site(rt_, *frame, flags, std::move(vars), std::move(eval), loc);
    try {
        tracer::convert_while(site, T.graph, T.at(source(), loc));
    } catch (...) {
        f_ = frame;
        f_->loop = saved_loop;  // the enclosing loop's flags, on every way out
        throw;
    }
    f_->loop = saved_loop;
    return Flow::Normal;
}

}  // namespace tg::interp
