// A bound on what a converted loop's gradient saves (docs/training.md
// "Bounding a loop's saved values"): grad(f, loop_checkpoint=k).
//
// Without it, the forward loop pushes every iteration's residuals and the
// backward loop pops them (autodiff.cpp): memory O(iterations x residuals).
// With it, the forward loop counts its iterations, pushes its carried
// values at the start of every k-th iteration and its count once it ends.
// The backward is a loop over those stretches of k iterations, last first:
// it pops a stretch's start, runs the forward body again from there for
// the stretch's length — a copy of the body (tracer/clone_region.hpp)
// whose residual pushes save that stretch's residuals — then runs the
// ordinary backward loop over the stretch, which pops them. Memory:
// iterations / k carried states + k iterations' residuals; time: one more
// forward pass. The gradient is the same bit for bit: the same ops run on
// the same values, and the sums over iterations are carried from one
// stretch's backward loop to the next in the same order.
//
// The forward loop is rewritten when its backward is built (a loop whose
// gradient is never needed saves nothing, as without the bound). Inside an
// enclosing bounded loop, what runs before a nested loop's backward is the
// nested loop's copy in the enclosing recomputation: the nested records are
// moved to the copies (remap_moved_loops), and a loop's values from outside
// it (`captures`) are residuals of the enclosing loops and conds, so the
// copy made in the backward reads what it read forward.
#include <unordered_set>

#include "interp/autodiff/tape_internal.hpp"
#include "interp/dispatch.hpp"
#include "interp/tracing/trace.hpp"
#include "lang/diagnostics.hpp"
#include "tracer/clone_region.hpp"
#include "tracer/loop_rewrite.hpp"

namespace tg::interp::ad {

using stdlib::TensorType;
using tracer::Graph;
using tracer::NodeId;
using tracer::RegionId;
using tracer::ValueId;

namespace {

const TensorType kCount{stdlib::DType::I64, stdlib::Shape{}, false};

Value pop_as(Runtime& rt, const TensorType& t) {
    std::vector<int64_t> dims(t.shape.begin(), t.shape.end());
    return trace_op(rt, stdlib::op_of(stdlib::OtherKind::StackPop), {}, {t.dtype, dims, t.weak});
}

// Why running the loop's body again could give other values than the first
// run (nullptr: it cannot).
const char* not_repeatable(const Graph& g, RegionId body) {
    const char* why = nullptr;
    g.walk(body, [&](NodeId n) {
        const tracer::Node& node = g.node(n);
        if (node.op == tracer::Op::HostCall) why = "calls a host function";
        if (node.op == tracer::Op::Apply && (node.def->flags & stdlib::kRandom)) why = "draws random numbers";
    });
    return why;
}

// The values from outside region `body` its nodes read (tokens never are).
std::vector<ValueId> captured_by(const Graph& g, RegionId body) {
    std::unordered_set<ValueId> inside(g.args(body).begin(), g.args(body).end());
    std::unordered_set<ValueId> seen;
    std::vector<ValueId> out;
    g.walk(body, [&](NodeId n) {  // (pre-order: a value is defined before a node reads it)
        const tracer::Node& node = g.node(n);
        for (ValueId v : node.operands)
            if (!inside.count(v) && seen.insert(v).second) out.push_back(v);
        for (ValueId v : node.results) inside.insert(v);
        for (RegionId r : node.regions) inside.insert(g.args(r).begin(), g.args(r).end());
    });
    return out;
}

// A while node from `inits` that runs while `last carried value <op>
// bound`, left with its body region entered (the trace's token its
// argument); the body's arguments in `args`.
NodeId counted_loop(Runtime& rt, const std::vector<ValueId>& inits, lang::CmpOp op, const Value& bound,
                    std::vector<ValueId>& args) {
    TraceState& T = *rt.trace;
    Graph& g = T.graph;
    const NodeId loop = g.add_while(inits, T.here());
    const RegionId cond_r = g.node(loop).regions[0], body_r = g.node(loop).regions[1];
    g.enter(cond_r);
    args.assign(g.args(cond_r).begin(), g.args(cond_r).end());
    const Value more = compare(rt, op, symbolic(T, args.back()), bound);
    std::vector<ValueId> ys{more.sym()->id};
    ys.insert(ys.end(), args.begin(), args.end());
    g.yield(ys);
    g.exit();
    g.enter(body_r);
    args.assign(g.args(body_r).begin(), g.args(body_r).end());
    T.token = args[0];
    return loop;
}

// The recomputation of one stretch, in the current region: a loop that runs
// a copy of the forward body `len` times from `state` (the carried values
// the forward loop saved at the stretch's start), saves included. Returns
// where the forward body's nodes and values went.
tracer::CloneMap recompute(Runtime& rt, const WhileData& d, const std::vector<ValueId>& state, const Value& len) {
    TraceState& T = *rt.trace;
    Graph& g = T.graph;
    const RegionId forward = g.node(d.node).regions[1];
    std::vector<ValueId> inits{T.token};
    inits.insert(inits.end(), state.begin(), state.end());
    inits.push_back(value_id(T, Value(stdlib::Tensor::scalar(int64_t(0)))));
    std::vector<ValueId> a;
    const NodeId loop = counted_loop(rt, inits, lang::CmpOp::Lt, len, a);
    tracer::CloneMap map;
    const std::vector<ValueId> fa(g.args(forward).begin(), g.args(forward).end());
    for (size_t i = 0; i < fa.size(); ++i) map.values[fa[i]] = a[i];
    for (size_t i = 0; i < d.capture_ids.size(); ++i) map.values[d.capture_ids[i]] = value_id(T, d.captures[i]);
    std::vector<ValueId> ys = tracer::clone_region_nodes(g, forward, map, true);
    T.token = ys[0];
    ys.push_back(value_id(T, binary(rt, lang::BinOp::Add, symbolic(T, a.back()), Value::weak_int(1))));
    g.yield(ys);
    g.exit();
    T.token = g.finish(loop)[0];
    return map;
}

// While it lives, the trace's new nodes are located at the forward loop (the
// rewrite's nodes are the loop's); then the trace's token and location are
// back as they were.
class AtLoop {
public:
    AtLoop(TraceState& t, const tracer::SrcLoc& where)
        : t_(t), token_(t.token), source_(t.source), loc_(t.loc), inlined_(t.inlined) {
        t.source = where.source;
        t.loc = where.loc;
        t.inlined = where.inlined_in;
    }
    ~AtLoop() {
        t_.token = token_;
        t_.source = source_;
        t_.loc = loc_;
        t_.inlined = inlined_;
    }
    AtLoop(const AtLoop&) = delete;
    AtLoop& operator=(const AtLoop&) = delete;

private:
    TraceState& t_;
    ValueId token_;
    lang::SourcePtr source_;
    lang::Loc loc_;
    std::shared_ptr<const tracer::CallSite> inlined_;
};

// At the end of the forward body: `if count % k == 0: push the carried
// values` (the body's arguments: the iteration's start), then count + 1.
void save_every_k(Runtime& rt, const WhileData& d, const tracer::AddedCarry& c) {
    TraceState& T = *rt.trace;
    Graph& g = T.graph;
    const RegionId body_r = g.node(d.node).regions[1];
    const std::vector<ValueId> carried(g.args(body_r).begin() + 1, g.args(body_r).end() - 1);
    tracer::ReopenedRegion open(g, body_r);
    T.token = open.yield().operands[0];
    const Value i = symbolic(T, c.body_arg);
    const Value first = compare(rt, lang::CmpOp::Eq, binary(rt, lang::BinOp::Mod, i, Value::weak_int(d.every)),
                                Value::weak_int(0));
    const ValueId in[1] = {T.token};
    const NodeId cond = g.add_cond(first.sym()->id, in, T.here());
    const RegionId then_r = g.node(cond).regions[0], else_r = g.node(cond).regions[1];
    g.enter(then_r);
    T.token = g.args(then_r)[0];
    for (ValueId v : carried) {
        const Value x[1] = {symbolic(T, v)};
        trace_op(rt, stdlib::op_of(stdlib::OtherKind::StackPush), x, {});
    }
    g.yield(std::vector<ValueId>{T.token});
    g.exit();
    g.enter(else_r);
    g.yield(std::vector<ValueId>{g.args(else_r)[0]});
    g.exit();
    T.token = g.finish(cond)[0];
    const ValueId next = value_id(T, binary(rt, lang::BinOp::Add, i, Value::weak_int(1)));
    open.yield().operands[0] = T.token;
    open.yield().operands.back() = next;
}

// The forward loop rewritten: it counts its iterations, pushes its carried
// values at the start of every k-th one instead of any residual, and its
// count once it ends.
void save_stretches(Runtime& rt, const TapeEntry& e) {
    TraceState& T = *rt.trace;
    Graph& g = T.graph;
    const WhileData& d = *e.loop;
    drop_loop_saves(g, e);
    const tracer::SrcLoc where = g.node(d.node).loc;
    AtLoop at(T, where);
    const tracer::ValueType count = tracer::ValueType::of(kCount);
    const NodeId zero = g.create(tracer::Op::Constant, nullptr, {}, {&count, 1}, {}, stdlib::Tensor::scalar(int64_t(0)), where);
    tracer::place_before(g, d.node, zero);
    const tracer::AddedCarry c = tracer::add_carried(g, d.node, g.node(zero).results[0]);
    save_every_k(rt, d, c);
    // the count, pushed just after the loop: what used the loop's token uses the push's
    const tracer::ValueType types[2] = {count, tracer::ValueType::token_type()};
    const ValueId loop_token = g.node(d.node).results[0];
    const NodeId push = g.create(tracer::Op::Apply, &stdlib::op_of(stdlib::OtherKind::StackPush), {loop_token, c.result},
                                 types, {std::monostate{}}, {}, where);
    tracer::place_after(g, d.node, push);
    g.replace_all_uses(loop_token, g.node(push).results[1]);
    g.node(push).operands[0] = loop_token;
}

}  // namespace

void plan_loop_checkpoint(Runtime& rt, WhileData& d, int64_t every) {
    if (every <= 0 || !rt.trace || d.node == tracer::kNoId) return;
    TraceState& T = *rt.trace;
    const Graph& g = T.graph;
    const RegionId body = g.node(d.node).regions[1];
    if (const char* why = not_repeatable(g, body)) {
        const tracer::SrcLoc& at = g.node(d.node).loc;
        T.notes.push_back("loop_checkpoint: the loop at " + lang::format_location(at.source.get(), at.loc) +
                          " saves every iteration's values for its gradient: its body " + why +
                          ", so it cannot be run again");
        return;
    }
    d.every = every;
    d.capture_ids = captured_by(g, body);
    for (ValueId v : d.capture_ids) d.captures.push_back(symbolic(T, v));
}

void remap_moved_loops(std::vector<TapeEntry>& entries, const tracer::CloneMap& moved) {
    for (TapeEntry& e : entries) {
        if (e.loop) {
            auto copy = std::make_shared<WhileData>(*e.loop);
            copy->node = moved.node(copy->node);
            for (uint32_t& p : copy->push_nodes) p = moved.node(p);
            for (uint32_t& v : copy->capture_ids) v = moved.value(v);
            remap_moved_loops(copy->body, moved);
            e.loop = std::move(copy);
        }
        if (e.cond) {
            auto copy = std::make_shared<CondData>(*e.cond);
            for (auto& branch : copy->branch) remap_moved_loops(branch, moved);
            e.cond = std::move(copy);
        }
    }
}

// The backward: pop the iteration count, then per stretch (last first) pop
// its start, recompute it and run the backward loop over it.
std::vector<Value> checkpointed_while_vjp(Runtime& rt, const TapeEntry& e, const std::vector<Value>& cot) {
    TraceState& T = *rt.trace;
    Graph& g = T.graph;
    const WhileData& d = *e.loop;
    const RegionId forward = g.node(d.node).regions[1];
    std::vector<TensorType> state_types;
    for (size_t i = 1; i < g.args(forward).size(); ++i) state_types.push_back(g.tensor_type(g.args(forward)[i]));
    const Value n = pop_as(rt, kCount);
    std::vector<ValueId> inits{T.token};
    for (ValueId v : backward_loop_inits(rt, e, cot)) inits.push_back(v);
    inits.push_back(n.sym()->id);
    std::vector<ValueId> a;
    const NodeId loop = counted_loop(rt, inits, lang::CmpOp::Gt, Value::weak_int(0), a);  // while iterations are left
    // the last stretch's length: left - (left - 1) // k * k, from 1 to k
    const Value left = symbolic(T, a.back()), k = Value::weak_int(d.every);
    const Value before = binary(rt, lang::BinOp::Mul,
                                binary(rt, lang::BinOp::FloorDiv, binary(rt, lang::BinOp::Sub, left, Value::weak_int(1)), k), k);
    const Value len = binary(rt, lang::BinOp::Sub, left, before);
    std::vector<ValueId> state(state_types.size());
    for (size_t i = state.size(); i-- > 0;) state[i] = pop_as(rt, state_types[i]).sym()->id;
    const Value floor = trace_op(rt, stdlib::op_of(stdlib::OtherKind::StackSize), {}, {});
    const tracer::CloneMap moved = recompute(rt, d, state, len);
    std::vector<ValueId> back_inits{T.token};
    back_inits.insert(back_inits.end(), a.begin() + 1, a.end() - 1);
    const NodeId back = build_backward_loop(rt, e, cot.size(), back_inits, floor, &moved);
    std::vector<ValueId> ys = g.finish(back);
    T.token = ys[0];
    ys.push_back(value_id(T, before));
    g.yield(ys);
    g.exit();
    save_stretches(rt, e);
    return finish_backward(T, loop, 1, e.in_nodes.size());
}

}  // namespace tg::interp::ad
