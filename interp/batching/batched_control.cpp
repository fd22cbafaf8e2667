// Control flow on a batched predicate under vmap (docs/training.md "vmap"),
// as JAX batches `cond` and `while_loop`: an `if` (and `x if c else y`,
// `and` / `or`) whose condition differs per example runs both branches and
// keeps, per example, what its branch computed (`where` on the predicate);
// a `while` runs until no example's condition holds, the examples already
// done keeping their values (`where(active, new, old)` after each
// iteration).
//
// Which variables merge, and how (unchanged ones kept, trees taken apart
// into tensor leaves, skeletons compared, types joined), is the AutoGraph
// conversion's policy (tracer/conversion.hpp's merge_branches), the same
// that builds a traced `if`'s `cond` node; here the merge of each leaf is a
// `where` instead of a result of the node. The ops are ordinary ops, so this
// runs alike in eager code and while a @graph function is traced, and grad
// records the `where`s like any op. Inside @graph the loop becomes a
// converted `while` (interp/tracing/autograph.cpp) whose condition is
// any(active).
#include "interp/autodiff/autodiff.hpp"
#include "interp/batching/batching.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/carried_values.hpp"
#include "interp/tracing/trace.hpp"
#include "lang/diagnostics.hpp"
#include "tracer/conversion.hpp"
#include "tracer/graph.hpp"

namespace tg::interp {

using namespace lang;

namespace {

Value op1(Runtime& rt, const stdlib::OpDef& op, const Value& x, std::vector<stdlib::Attr> attrs) {
    Value in[1] = {x};
    return run_op(rt, op, in, std::move(attrs));
}

// where(p, a, b) of the joined type `want`.
Value select(Runtime& rt, const Value& p, const Value& a, const Value& b, const stdlib::TensorType& want) {
    Value in[3] = {p, a, b};
    Value r = run_op(rt, stdlib::op_of(stdlib::ElementwiseKind::Where), in, {});
    if (r.tensor_type().dtype != want.dtype)
        r = op1(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), r, {std::monostate{}, want.dtype});
    return r;
}

// A batched value with the same value in every example, or v itself: what
// a carried variable is before a loop whose body changes it, so that the
// converted loop carries one structure (interp/tracing/carried_values.cpp).
Value lift(Runtime& rt, const Value& active, const Value& v) {
    if (v.is_tensor()) return select(rt, active, v, v, v.tensor_type());
    if (const auto xs = v.children()) {
        std::vector<Value> items;
        for (const Value& x : *xs) items.push_back(lift(rt, active, x));
        return v.with_children(std::move(items));
    }
    return v;
}

}  // namespace

bool is_batched_condition(const Value& v) { return v.is_tensor() && has_batched(v); }

Value Evaluator::lane_truth(const Value& v, Loc loc) {
    Value c = v.is_tensor() ? v : Value::from_bool(truth_at(v, loc));
    const stdlib::TensorType t = c.tensor_type();
    at(loc);
    try {
        if (t.shape.numel() != 1)
            throw Error("vmap: a condition must have one element per example, but this one is " +
                        std::string(stdlib::dtype_name(t.dtype)) + " of shape " + t.shape.to_string() +
                        " per example (use any() or all())");
        if (t.shape.rank() != 0)
            c = op1(rt_, stdlib::op_of(stdlib::OtherKind::Reshape), c, {std::monostate{}, std::vector<int64_t>{}});
        if (t.dtype != stdlib::DType::Bool)
            c = op1(rt_, stdlib::op_of(stdlib::ElementwiseKind::AsType), c, {std::monostate{}, stdlib::DType::Bool});
        return c;
    } catch (const stdlib::OpError& err) {
        fail(err.what(), loc);
    } catch (Error& err) {
        err.locate(source(), loc);
        throw;
    }
}

Value Evaluator::lane_combine(bool is_and, const Value& a, const Value& b, Loc loc) {
    const Value ta = lane_truth(a, loc), tb = lane_truth(b, loc);
    return binary(rt_, is_and ? BinOp::BitAnd : BinOp::BitOr, ta, tb);
}

Value Evaluator::batched_boolop(const BoolOp& b, const Value& x) {
    // both operands evaluated: `x and y` is where(x, y, x), `x or y` where(x, x, y)
    const Value p = lane_truth(x, b.lhs->loc);
    const Value y = eval(*b.rhs);
    at(b.loc);
    try {
        if (!y.is_tensor() || y.tensor_type().shape != x.tensor_type().shape)
            throw Error(std::string("vmap: `") + (b.is_and ? "and" : "or") +
                        "` on a batched value needs operands of one shape (both run for every example); "
                        "use & / | or where()");
        const stdlib::TensorType want = tracer::join(x.tensor_type(), y.tensor_type()).value_or(x.tensor_type());
        return b.is_and ? select(rt_, p, y, x, want) : select(rt_, p, x, y, want);
    } catch (const stdlib::OpError& err) {
        fail(err.what(), b.loc);
    } catch (Error& err) {
        err.locate(source(), b.loc);
        throw;
    }
}

std::vector<Value> Evaluator::merge_lanes(const Value& p, const std::vector<TraceVar>& vars,
                                          const std::vector<Value>& before, const std::vector<Value> out[2],
                                          const bool returned[2], Loc loc, const std::string& construct) {
    const CarriedValues h{true};
    std::vector<Value> after;
    for (size_t i = 0; i < vars.size(); ++i) {
        const tracer::CarriedVar var{vars[i].name, static_cast<tracer::CarriedRole>(vars[i].role)};
        const Value* sides[2] = {&out[0][i], &out[1][i]};
        // the local variables of a side that returned are never read again in its examples
        const bool gone[2] = {returned[0] && vars[i].role == TraceVar::Var, returned[1] && vars[i].role == TraceVar::Var};
        std::vector<tracer::BranchResult<Value>> results;
        tracer::BranchMerge<Value> m;
        try {
            m = tracer::merge_branches(h, var, before[i], sides, gone, results);
        } catch (const tracer::CarriedMismatch& e) {
            fail(tracer::mismatch_message(e.var, e.mismatch, tracer::MergeSite::Branches,
                                          " of the " + construct + " on a batched value at " +
                                              format_location(source().get(), loc)),
                 loc);
        }
        if (m.keep) {
            after.push_back(m.value);
            continue;
        }
        std::vector<Value> leaves;
        for (size_t k = 0; k < m.leaf.size(); ++k) {
            if (m.leaf[k] < 0) {
                leaves.push_back(m.static_leaf[k]);
                continue;
            }
            const tracer::BranchResult<Value>& y = results[static_cast<size_t>(m.leaf[k])];
            // one side gone (returned), or the return value of a side that has not returned: the other's
            if (!y.side[0].defined() || !y.side[1].defined()) {
                leaves.push_back(y.side[0].defined() ? y.side[0] : y.side[1]);
                continue;
            }
            at(loc);
            leaves.push_back(select(rt_, p, y.side[0], y.side[1], y.type));
        }
        if (m.flag >= 0)
            fail("vmap: `" + vars[i].name + "` has a value on one path of the " + construct +
                     " on a batched value and none on the other; every example needs one (give it a value before "
                     "the " + construct + "; docs/training.md \"vmap\")",
                 loc);
        after.push_back(rebuild_from_leaves(m.skeleton, leaves, true));
    }
    return after;
}

namespace {
const char* flow_name(int f) {
    static const char* const names[] = {"goes on", "breaks", "continues", "returns"};
    return names[f];
}
}  // namespace

Evaluator::Flow Evaluator::batched_if(const Value& cond, std::vector<TraceVar> extra, const BranchFn& then_fn,
                                      const BranchFn& else_fn, Loc loc, const std::string& construct) {
    const Value p = lane_truth(cond, loc);
    const std::vector<TraceVar> vars = trace_vars(std::move(extra));
    const std::vector<Value> before = values_of(vars);
    std::vector<Value> out[2];
    Flow flow[2];
    bool returned[2];
    for (int b = 0; b < 2; ++b) {
        set_values(vars, before);
        // the examples this branch runs for: a `break` / `continue` in it is theirs (batched_exits.cpp)
        const Value outer_path = f_->lane_path;
        if (f_->loop_depth > 0) {
            const Value side = b == 0 ? p : unary(rt_, UnaryOp::Invert, p);
            f_->lane_path = outer_path.defined() ? binary(rt_, BinOp::BitAnd, outer_path, side) : side;
        }
        try {
            flow[b] = b == 0 ? then_fn() : else_fn();
        } catch (...) {
            f_->lane_path = outer_path;
            throw;
        }
        f_->lane_path = outer_path;
        // A side that returns has, for its examples, returned: the frame's
        // return flag becomes per example where only one side returns, and
        // the rest of the function runs for the others (batched_return).
        returned[b] = flow[b] == Flow::Return;
        if (returned[b]) f_->ret_flag = Value::from_bool(true);
        out[b] = values_of(vars);
    }
    // A `break` / `continue` on one side only was recorded for its examples
    // (batched_exits.cpp); the rest of the loop's body runs for all.
    const bool exits_apart = flow[0] != flow[1] && !returned[0] && !returned[1] && f_->loop_depth > 0;
    if (exits_apart) flow[0] = flow[1] = Flow::Normal;
    if (flow[0] != flow[1] && !returned[0] && !returned[1])
        fail("vmap: one branch of this " + construct + " on a batched value " + flow_name(int(flow[0])) +
                 " and the other " + flow_name(int(flow[1])) +
                 "; both branches run for every example, so they must end alike (docs/training.md \"vmap\")",
             loc);
    if (returned[0] != returned[1] && flow[returned[0] ? 1 : 0] != Flow::Normal)
        fail("vmap: one branch of this " + construct + " on a batched value returns and the other " +
                 flow_name(int(flow[returned[0] ? 1 : 0])) + " (docs/training.md \"vmap\")",
             loc);
    set_values(vars, merge_lanes(p, vars, before, out, returned, loc, construct));
    return returned[0] && returned[1] ? Flow::Return : flow[returned[0] ? 1 : 0];
}

Value Evaluator::batched_return(const Value& v, Loc loc) {
    // some examples returned before: they keep their value
    const TraceVar ret{&f_->ret, "the return value", TraceVar::Ret};
    const std::vector<TraceVar> vars{ret};
    const std::vector<Value> before{f_->ret};
    const std::vector<Value> out[2] = {before, {v}};
    const bool returned[2] = {false, false};
    Value r = merge_lanes(f_->ret_flag, vars, before, out, returned, loc, "`return`")[0];
    f_->ret_flag = Value::from_bool(true);
    return r;
}

void Evaluator::batched_fall_off(const FunctionObj& fn) const {
    fail("vmap: `" + fn.name +
             "` returns a value for some examples and falls off its end (None) for others; give every path a "
             "`return` (docs/training.md \"vmap\")",
         fn.body && !fn.body->empty() ? fn.body->back()->loc : Loc{});
}

Value Evaluator::batched_ifexp(const IfExp& e, const Value& cond) {
    Value result;
    batched_if(
        cond, {{&result, "the value of the conditional expression", TraceVar::Var}},
        [&] {
            result = eval(*e.then_);
            return Flow::Normal;
        },
        [&] {
            result = eval(*e.else_);
            return Flow::Normal;
        },
        e.loc, "conditional expression");
    return result;
}

Value Evaluator::lane_condition(const Expr& e) {
    Value captured;
    batched_cond_ = &captured;
    if (rt_.trace) {
        uint32_t pred;
        std::optional<bool> c = condition(e, pred);
        if (captured.defined()) return captured;
        return c ? Value::from_bool(*c) : symbolic(*rt_.trace, pred);
    }
    const bool c = cond(e);
    return captured.defined() ? captured : Value::from_bool(c);
}

Value Evaluator::any_lane(const Value& active) {
    const Value* cur = &active;
    while (const GradObj* g = cur->tracked()) cur = &g->primal;
    const BatchObj* b = cur->batched();
    if (!b) return *cur;
    return op1(rt_, stdlib::op_of(stdlib::ReduceKind::Any), b->value, {});
}

void Evaluator::masked_iteration(const While& w, const std::vector<TraceVar>& vars, Value& active) {
    const std::vector<Value> before = values_of(vars);
    const Value ret_flag = f_->ret_flag;
    Flow f = exec_block(w.body);
    if (f == Flow::Normal && !f_->ret_flag.identical(ret_flag)) f = Flow::Return;  // for some examples
    if (f == Flow::Return)
        fail("vmap: this `while` on a batched condition returns from its body; `return` would end the loop for "
             "some examples only, which vmap does not support here (`break`, then return after the loop; "
             "docs/training.md \"vmap\")",
             w.loc);
    LaneExits& lanes = lanes_of(*f_);
    if (f != Flow::Normal && !lanes.left.defined()) {
        // a `break` / `continue` of every example still looping (batched_exits.cpp)
        f_->lane_path = active;
        lane_exit(f == Flow::Break, w.loc);
        f_->lane_path = Value();
    }
    lane_iteration_end(w.loc);
    std::vector<Value> out[2] = {values_of(vars), before};
    const bool returned[2] = {false, false};
    set_values(vars, merge_lanes(active, vars, before, out, returned, w.loc, "`while`"));
    if (lanes.done.defined()) {  // the examples that broke out loop no more
        at(w.loc);
        active = binary(rt_, BinOp::BitAnd, active, unary(rt_, UnaryOp::Invert, lanes.done));
        lanes.done = Value();
    }
    const Value c = lane_condition(*w.cond);
    at(w.cond->loc);
    active = binary(rt_, BinOp::BitAnd, active, lane_truth(c, w.cond->loc));
}

Evaluator::Flow Evaluator::batched_while(const While& w, const Value& first) {
    Value active = lane_truth(first, w.cond->loc);
    if (const LaneExits* outer = lanes_here(*f_); outer && outer->done.defined()) {
        // the condition became batched after some examples broke out (batched_exits.cpp)
        at(w.loc);
        active = binary(rt_, BinOp::BitAnd, active, unary(rt_, UnaryOp::Invert, outer->done));
    }
    LaneScope lane_scope(*f_);
    lane_scope.exits().masked = true;
    std::vector<TraceVar> vars = trace_vars({});
    if (!rt_.trace) {
        while (truth_at(any_lane(active), w.cond->loc)) {
            masked_iteration(w, vars, active);
            count_line(w.loc);
        }
        return Flow::Normal;
    }
    // Traced: one trial iteration (rolled back) finds the variables the body
    // changes, which enter the converted loop batched, so that every
    // iteration carries one structure.
    const std::vector<Value> before = values_of(vars);
    const tracer::Graph::Checkpoint cp = rt_.trace->graph.checkpoint();
    const tracer::ValueId token = rt_.trace->token;
    const std::vector<size_t> tapes = tape_marks(rt_);
    Value trial_active = active;
    masked_iteration(w, vars, trial_active);
    const std::vector<Value> changed = values_of(vars);
    rt_.trace->graph.rollback(cp);
    rt_.trace->token = token;
    truncate_tapes(rt_, tapes);
    for (size_t i = 0; i < vars.size(); ++i)
        *vars[i].slot = changed[i].identical(before[i]) ? before[i] : lift(rt_, active, before[i]);
    return trace_while([&] { return any_lane(active); },
                       [&] {
                           masked_iteration(w, vars, active);
                           return Flow::Normal;
                       },
                       {{&active, "the examples still looping", TraceVar::Var, true}}, w.loc);
}

}  // namespace tg::interp
