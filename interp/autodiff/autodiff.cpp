#include "interp/autodiff/autodiff.hpp"

#include "stdlib/budget.hpp"

#include <map>
#include <memory>
#include <string>

#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/values/dict.hpp"
#include "interp/evaluator.hpp"
#include "interp/tracing/graph_cache.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "tracer/clone_region.hpp"
#include "tracer/graph.hpp"
#include "stdlib/grad.hpp"
#include "interp/autodiff/tape_internal.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::GradVar;
using stdlib::TensorType;

namespace {

bool live(const Runtime& rt, const GradObj& g) {
    return g.level >= 1 && g.level <= rt.tapes.size() && rt.tapes[g.level - 1]->id == g.tape;
}

// v seen from tape `level`: its primal and node if tracked there; else v
// itself (tracked lower, or not at all) with no node. Stale wrappers (their
// grad has returned) are looked through.
Value primal_at(const Runtime& rt, const Value& v, uint32_t level, uint32_t* node) {
    *node = kNotTracked;
    const Value* cur = &v;
    while (const GradObj* g = cur->tracked()) {
        if (live(rt, *g)) {
            if (g->level != level) return *cur;
            *node = g->node;
            return g->primal;
        }
        cur = &g->primal;
    }
    return *cur;
}

bool differentiable_type(const TensorType& t) { return stdlib::is_float(t.dtype); }

Value wrap(Tape& tape, Value primal) {
    auto g = std::make_shared<GradObj>();
    g->primal = std::move(primal);
    g->level = tape.level;
    g->tape = tape.id;
    g->node = tape.nodes++;
    return Value::tracked(std::move(g));
}


// ---- the rules' view of interp values
class ValueBuilder final : public stdlib::GradBuilder {
public:
    explicit ValueBuilder(Runtime& rt) : rt_(rt) {}
    GradVar add(Value v) {
        vars_.push_back(std::move(v));
        return static_cast<GradVar>(vars_.size() - 1);
    }
    const Value& operator[](GradVar v) const { return vars_[v]; }

    TensorType type(GradVar v) const override { return vars_[v].tensor_type(); }
    GradVar apply(const stdlib::OpDef& op, std::span<const GradVar> inputs, std::vector<Attr> attrs) override {
        stdlib::complete_attrs(op, attrs);
        std::vector<Value> in;
        in.reserve(inputs.size());
        for (GradVar v : inputs) in.push_back(vars_[v]);
        return add(run_op(rt_, op, in, std::move(attrs)));
    }
    GradVar constant(const stdlib::Tensor& t) override { return add(Value(t)); }
    std::optional<double> known_scalar(GradVar v) const override {
        const Value& x = vars_[v];
        if (x.tracked() || x.is_symbolic() || !x.is_tensor()) return std::nullopt;
        const stdlib::Tensor t = x.tensor();
        if (t.rank() != 0) return std::nullopt;
        return t.item_f64();
    }
    GradVar index(GradVar x, std::span<const stdlib::IndexItem> items) override {
        return add(index_tensor(rt_, vars_[x], items));
    }
    GradVar index_assign(GradVar x, std::span<const stdlib::IndexItem> items, GradVar v) override {
        Value y = vars_[x];
        assign_index_tensor(rt_, y, items, vars_[v]);
        return add(std::move(y));
    }

private:
    Runtime& rt_;
    std::vector<Value> vars_;
};

Value zeros_value(Runtime& rt, const TensorType& t) {
    const stdlib::OpDef* zeros = &stdlib::op_of(stdlib::OtherKind::Zeros);
    std::vector<int64_t> dims(t.shape.begin(), t.shape.end());
    return run_op(rt, *zeros, {}, {dims, t.dtype});
}

Value cast_value(Runtime& rt, const Value& v, stdlib::DType d) {
    if (v.tensor_type().dtype == d) return v;
    Value in[1] = {v};
    return run_op(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), in, {std::monostate{}, d});
}

// The cotangents of one entry's inputs (Undefined: zero).
std::vector<Value> entry_vjp(Runtime& rt, const TapeEntry& e, const Value& g) {
    std::vector<Value> out(e.inputs.size());
    switch (e.what) {
    case TapeEntry::What::Op: {
        ValueBuilder b(rt);
        std::vector<GradVar> ins;
        for (const Value& v : e.inputs) ins.push_back(b.add(v));
        const GradVar y = b.add(e.out), cot = b.add(g);
        // one flag per input, however many (concat of 70 tensors); not a
        // std::vector<bool>, which has no contiguous bools for the span
        const size_t n = e.inputs.size();
        std::unique_ptr<bool[]> wanted(new bool[n]());
        for (size_t i = 0; i < n; ++i) wanted[i] = e.in_nodes[i] != kNotTracked;
        std::vector<GradVar> cots(n, stdlib::kNoGrad);
        e.op->grad.vjp(b, stdlib::VjpArgs{ins, e.attrs, y, cot, std::span<const bool>(wanted.get(), n), cots});
        for (size_t i = 0; i < cots.size(); ++i)
            if (cots[i] != stdlib::kNoGrad) out[i] = b[cots[i]];
        break;
    }
    case TapeEntry::What::Index: {
        // the scatter of g into zeros (basic indexing picks each element once)
        Value z = zeros_value(rt, e.inputs[0].tensor_type());
        assign_index_tensor(rt, z, e.items, g, e.dynamic);
        out[0] = z;
        break;
    }
    case TapeEntry::What::Cond: case TapeEntry::What::While: case TapeEntry::What::Custom:
        break;  // (sweep: cond_vjp, while_vjp, the custom rule)
    case TapeEntry::What::IndexAssign: {
        if (e.in_nodes[0] != kNotTracked) {
            Value gx = g;
            assign_index_tensor(rt, gx, e.items, Value::weak_float(0.0), e.dynamic);
            out[0] = gx;
        }
        if (e.in_nodes[1] != kNotTracked) {
            ValueBuilder b(rt);
            GradVar part = b.add(index_tensor(rt, g, e.items, e.dynamic));
            out[1] = b[stdlib::unbroadcast(b, part, e.inputs[1].tensor_type())];
        }
        break;
    }
    }
    return out;
}

void sweep(Runtime& rt, std::span<const TapeEntry> entries, std::vector<Value>& cot);

// Every value an entry reads or gives, also inside a converted `if` it
// records (its predicate, its branches' entries).
template <class F>
void each_value(const TapeEntry& e, F&& f) {
    for (const Value& v : e.inputs) f(v);
    f(e.out);
    for (const Value& v : e.dynamic) f(v);
    if (e.cond) {
        f(e.cond->pred);
        for (const auto& br : e.cond->branch)
            for (const TapeEntry& x : br) each_value(x, f);
    }
    if (e.loop) {  // (its body's own values are popped, not read from outside)
        f(e.loop->saved_before);
        for (const Value& v : e.loop->captures) f(v);  // (a bounded loop's recomputation reads them)
        for (const TapeEntry& x : e.loop->body) each_value(x, f);
    }
}
template <class F>
void each_value_mut(TapeEntry& e, F&& f) {
    for (Value& v : e.inputs) f(v);
    f(e.out);
    for (Value& v : e.dynamic) f(v);
    if (e.cond) {
        auto copy = std::make_shared<CondData>(*e.cond);
        f(copy->pred);
        for (auto& br : copy->branch)
            for (TapeEntry& x : br) each_value_mut(x, f);
        e.cond = std::move(copy);
    }
    if (e.loop) {
        auto copy = std::make_shared<WhileData>(*e.loop);
        f(copy->saved_before);
        for (Value& v : copy->captures) f(v);
        for (TapeEntry& x : copy->body) each_value_mut(x, f);
        e.loop = std::move(copy);
    }
}
// The nodes an entry gives a value to.
template <class F>
void each_out_node(const TapeEntry& e, F&& f) {
    if (e.cond)
        for (uint32_t n : e.cond->out_nodes) {
            if (n != kNotTracked) f(n);
        }
    else if (e.loop)
        for (uint32_t n : e.loop->out_nodes) {
            if (n != kNotTracked) f(n);
        }
    else if (e.custom)
        for (uint32_t n : e.custom->out_nodes) {
            if (n != kNotTracked) f(n);
        }
    else if (e.out_node != kNotTracked)
        f(e.out_node);
}

// The normalized cotangent a cond branch yields: the outer value's dtype, strong.
Value yield_ready(Runtime& rt, const Value& c, const TensorType& t) {
    const TensorType ct = c.tensor_type();
    if (ct.dtype == t.dtype && !ct.weak) return c;
    Value in[1] = {c};
    return run_op(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), in, {std::monostate{}, t.dtype});
}

// Finishes a backward cond/while: the token goes on, and `count` results
// from `first` on are the cotangents it computed.
std::vector<Value> finish_control(TraceState& T, tracer::NodeId node, size_t first, size_t count) {
    std::vector<tracer::ValueId> res = T.graph.finish(node);
    T.token = res[0];
    std::vector<Value> out;
    for (size_t k = 0; k < count; ++k) out.push_back(symbolic(T, res[first + k]));
    return out;
}

// The backward of a converted `if`: a cond on the same predicate whose
// branch b runs branch b's entries back from the results' cotangents and
// yields the cotangents of the outer values the branches read.
std::vector<Value> cond_vjp(Runtime& rt, const TapeEntry& e, const std::vector<Value>& cot) {
    if (!rt.trace) throw Error("internal error: a cond's gradient outside its trace");
    TraceState& T = *rt.trace;
    tracer::Graph& g = T.graph;
    const CondData& d = *e.cond;
    tracer::ValueId ins[1] = {T.token};
    const tracer::NodeId node = g.add_cond(d.pred.sym()->id, ins, T.here());
    for (int b = 0; b < 2; ++b) {
        g.enter(g.node(node).regions[size_t(b)]);
        T.token = g.args(g.node(node).regions[size_t(b)])[0];
        std::vector<Value> local(cot.size());
        for (size_t j = 0; j < d.out_nodes.size(); ++j) {
            const uint32_t leaf = d.leaf_nodes[b][j];
            if (leaf == kNotTracked || d.out_nodes[j] == kNotTracked || !cot[d.out_nodes[j]].defined()) continue;
            const Value& c = cot[d.out_nodes[j]];
            local[leaf] = local[leaf].defined() ? binary(rt, lang::BinOp::Add, local[leaf], c) : c;
        }
        sweep(rt, d.branch[b], local);
        std::vector<tracer::ValueId> ys{T.token};
        for (size_t k = 0; k < e.in_nodes.size(); ++k) {
            const Value& c = local[e.in_nodes[k]];
            TensorType t = d.in_types[k];
            t.weak = false;
            ys.push_back(value_id(T, c.defined() ? yield_ready(rt, c, t) : zeros_value(rt, t)));
        }
        g.yield(ys);
        g.exit();
    }
    return finish_control(T, node, 1, e.in_nodes.size());
}

// Removes a _stack_push or _stack_pop node: its token result becomes its
// token operand, a push's value result its value operand.
void drop_stack_op(tracer::Graph& g, tracer::NodeId n) {
    const tracer::Node& node = g.node(n);
    if (node.erased) return;
    g.replace_all_uses(node.results.back(), node.operands[0]);
    if (node.operands.size() > 1) g.replace_all_uses(node.results[0], node.operands[1]);
    g.erase(n);
}

// The _stack_push nodes of a converted loop whose backward is never built,
// and of the loops nested in it or in a cond's branches, go.
void drop_saves(tracer::Graph& g, const TapeEntry& e) {
    if (e.loop) {
        for (uint32_t push : e.loop->push_nodes) drop_stack_op(g, push);
        for (const TapeEntry& x : e.loop->body) drop_saves(g, x);
    }
    if (e.cond)
        for (const auto& branch : e.cond->branch)
            for (const TapeEntry& x : branch) drop_saves(g, x);
}

// The forward loop saves every value its body's entries read, but each
// rule reads only some (tanh's needs its result, add's nothing): once the
// backward body is built, the residuals it never reads are neither pushed
// nor popped. One pair stays when none is read: the backward loop counts
// the forward's iterations by the stack's size.
void drop_unused_residuals(tracer::Graph& g, const std::vector<uint32_t>& pushes,
                           const std::vector<tracer::NodeId>& pops) {
    if (pushes.size() != pops.size()) throw Error("internal error: a loop's residuals and pops disagree");
    const std::vector<uint32_t> uses = g.use_counts();
    std::vector<size_t> unused;
    for (size_t k = 0; k < pops.size(); ++k)
        if (uses[g.node(pops[k]).results[0]] == 0) unused.push_back(k);
    if (unused.size() == pops.size() && !unused.empty()) unused.pop_back();
    for (size_t k : unused) {
        drop_stack_op(g, pops[k]);
        drop_stack_op(g, pushes[k]);
    }
}

TensorType strong(TensorType t) {
    t.weak = false;
    return t;
}

// One iteration's residuals popped (pushed last, popped first; their pop
// nodes in `pops`, in residual order), and the body's entries reading them.
std::vector<TapeEntry> popped_body(Runtime& rt, const WhileData& d, std::vector<tracer::NodeId>& pops) {
    TraceState& T = *rt.trace;
    std::map<uint32_t, Value> remap;
    const stdlib::OpDef& pop = stdlib::op_of(stdlib::OtherKind::StackPop);
    pops.assign(d.residuals.size(), tracer::kNoId);
    for (size_t k = d.residuals.size(); k-- > 0;) {
        const TensorType t = d.residuals[k].tensor_type();
        std::vector<int64_t> dims(t.shape.begin(), t.shape.end());
        Value v = trace_op(rt, pop, {}, {t.dtype, dims});
        pops[k] = T.graph.value(v.sym()->id).def;
        if (const SymObj* s = d.residuals[k].sym()) remap[s->id] = v;
    }
    std::vector<TapeEntry> body = d.body;
    for (TapeEntry& x : body)
        each_value_mut(x, [&](Value& v) {
            if (const SymObj* s = v.sym()) {
                auto it = remap.find(s->id);
                if (it != remap.end()) v = it->second;
            }
        });
    return body;
}

// The cotangents a loop's backward starts from (after the token): per
// differentiated leaf its result's (zeros where none reached it), then a
// zero sum per outer value the body reads.
std::vector<tracer::ValueId> loop_inits(Runtime& rt, const TapeEntry& e, const std::vector<Value>& cot) {
    TraceState& T = *rt.trace;
    const WhileData& d = *e.loop;
    const size_t nl = d.leaf_types.size(), no = e.in_nodes.size() - nl;
    std::vector<tracer::ValueId> inits;
    for (size_t l = 0; l < nl; ++l) {
        const uint32_t o = d.out_nodes[l];
        const TensorType t = strong(d.leaf_types[l]);
        inits.push_back(value_id(T, o != kNotTracked && cot[o].defined() ? yield_ready(rt, cot[o], t) : zeros_value(rt, t)));
    }
    for (size_t m = 0; m < no; ++m) inits.push_back(value_id(T, zeros_value(rt, strong(d.in_types[nl + m]))));
    return inits;
}

// The backward loop of a converted `while` (not finished): from `inits`
// (the token, then loop_inits'), it runs while the stack is above `floor`,
// popping each iteration's residuals (pushed last, popped first) and running
// the body's entries back; it carries the cotangents of the loop's leaves
// and the sums of the cotangents of the outer values the body reads.
// `cot_size`: the tape's node count. `moved`: the copy of the forward body
// that ran last and saved what this pops (a bounded loop's recomputation),
// for the records of loops nested in it.
tracer::NodeId loop_backward(Runtime& rt, const TapeEntry& e, size_t cot_size, std::span<const tracer::ValueId> inits,
                             const Value& floor, const tracer::CloneMap* moved) {
    TraceState& T = *rt.trace;
    tracer::Graph& g = T.graph;
    const WhileData& d = *e.loop;
    const size_t nl = d.leaf_types.size(), no = e.in_nodes.size() - nl;
    const tracer::NodeId node = g.add_while(inits, T.here());
    const tracer::RegionId cond_r = g.node(node).regions[0], body_r = g.node(node).regions[1];
    {
        // another iteration while values of this loop are saved (above the floor)
        g.enter(cond_r);
        std::span<const tracer::ValueId> a = g.args(cond_r);
        T.token = a[0];
        Value size = trace_op(rt, stdlib::op_of(stdlib::OtherKind::StackSize), {}, {});
        Value more = compare(rt, lang::CmpOp::Gt, size, floor);
        std::vector<tracer::ValueId> ys{more.sym()->id, T.token};
        ys.insert(ys.end(), a.begin() + 1, a.end());
        g.yield(ys);
        g.exit();
    }
    g.enter(body_r);
    std::vector<tracer::ValueId> a(g.args(body_r).begin(), g.args(body_r).end());
    T.token = a[0];
    std::vector<tracer::NodeId> pop_nodes;
    std::vector<TapeEntry> body = popped_body(rt, d, pop_nodes);
    if (moved) ad::remap_moved_loops(body, *moved);
    std::vector<Value> local(cot_size);
    for (size_t l = 0; l < nl; ++l) {
        const uint32_t y = d.yield_nodes[l];
        if (y == kNotTracked) continue;
        Value c = symbolic(T, a[1 + l]);
        local[y] = local[y].defined() ? binary(rt, lang::BinOp::Add, local[y], c) : c;
    }
    sweep(rt, body, local);
    std::vector<tracer::ValueId> ys{T.token};
    for (size_t l = 0; l < nl; ++l) {
        const Value& c = local[d.arg_nodes[l]];
        const TensorType t = strong(d.leaf_types[l]);
        ys.push_back(value_id(T, c.defined() ? yield_ready(rt, c, t) : zeros_value(rt, t)));
    }
    for (size_t m = 0; m < no; ++m) {
        const Value& c = local[e.in_nodes[nl + m]];
        Value acc = symbolic(T, a[1 + nl + m]);
        if (c.defined()) acc = binary(rt, lang::BinOp::Add, acc, yield_ready(rt, c, strong(d.in_types[nl + m])));
        ys.push_back(value_id(T, acc));
    }
    g.yield(ys);
    g.exit();
    std::vector<uint32_t> pushes;
    for (uint32_t p : d.push_nodes) pushes.push_back(moved ? moved->node(p) : p);
    drop_unused_residuals(g, pushes, pop_nodes);
    return node;
}

// The backward of a converted `while`: a loop running as many times as the
// forward one ran (loop_backward), or with a bound, a loop over stretches
// of k iterations (loop_checkpoint.cpp).
std::vector<Value> while_vjp(Runtime& rt, const TapeEntry& e, const std::vector<Value>& cot) {
    if (!rt.trace) throw Error("internal error: a loop's gradient outside its trace");
    if (e.loop->every > 0) return ad::checkpointed_while_vjp(rt, e, cot);
    TraceState& T = *rt.trace;
    std::vector<tracer::ValueId> inits{T.token};
    for (tracer::ValueId v : loop_inits(rt, e, cot)) inits.push_back(v);
    const tracer::NodeId node = loop_backward(rt, e, cot.size(), inits, e.loop->saved_before, nullptr);
    return finish_control(T, node, 1, e.in_nodes.size());
}

// Reverse sweep over `entries`: accumulates into `cot` (one per tape node;
// Undefined: zero) the cotangents of every node they read.
void sweep(Runtime& rt, std::span<const TapeEntry> entries, std::vector<Value>& cot) {
    for (size_t i = entries.size(); i-- > 0;) {
        const TapeEntry& e = entries[i];
        std::vector<Value> ins;
        if (e.what == TapeEntry::What::Cond || e.what == TapeEntry::What::While) {
            const std::vector<uint32_t>& outs = e.cond ? e.cond->out_nodes : e.loop->out_nodes;
            bool any = false;
            for (uint32_t n : outs) any = any || (n != kNotTracked && cot[n].defined());
            if (!any) {
                // No backward loop will pop what this forward loop saves: it
                // must not save it (it would sit above an earlier loop's
                // values, which that loop's backward pops down to its size).
                if (rt.trace) drop_saves(rt.trace->graph, e);
                continue;
            }
            ins = e.cond ? cond_vjp(rt, e, cot) : while_vjp(rt, e, cot);
            for (uint32_t n : outs)
                if (n != kNotTracked) cot[n] = Value();
        } else if (e.what == TapeEntry::What::Custom) {
            std::vector<Value> outs;
            bool any = false;
            for (uint32_t n : e.custom->out_nodes) {
                outs.push_back(n != kNotTracked ? cot[n] : Value());
                any = any || outs.back().defined();
            }
            if (!any) continue;
            ins = e.custom->backward(rt, outs);
            for (uint32_t n : e.custom->out_nodes)
                if (n != kNotTracked) cot[n] = Value();
        } else {
            if (!cot[e.out_node].defined()) continue;
            ins = entry_vjp(rt, e, cot[e.out_node]);
            cot[e.out_node] = Value();  // released as soon as it has been used
        }
        for (size_t k = 0; k < ins.size(); ++k) {
            const uint32_t n = e.in_nodes[k];
            if (n == kNotTracked || !ins[k].defined()) continue;
            cot[n] = cot[n].defined() ? binary(rt, lang::BinOp::Add, cot[n], ins[k]) : ins[k];
        }
    }
}

std::vector<Value> backward(Runtime& rt, const Tape& tape, uint32_t out_node, const Value& seed) {
    std::vector<Value> cot(tape.nodes);
    cot[out_node] = seed;
    sweep(rt, tape.entries, cot);
    return cot;
}

Value record(Tape& tape, TapeEntry e) {
    Value out = wrap(tape, e.out);
    e.out_node = out.tracked()->node;
    tape.push(std::move(e));
    return out;
}

}  // namespace

uint32_t tracked_level(const Runtime& rt, const Value& v) {
    const Value* cur = &v;
    while (const GradObj* g = cur->tracked()) {
        if (live(rt, *g)) return g->level;
        cur = &g->primal;
    }
    return 0;
}

bool has_tracked(const Value& v) {
    if (v.tracked()) return true;
    if (const auto xs = v.children())
        for (const Value& x : *xs)
            if (has_tracked(x)) return true;
    return false;
}

Value untracked(const Value& v) {
    if (const GradObj* g = v.tracked()) return untracked(g->primal);
    if (const auto xs = v.children(); xs && has_tracked(v)) {
        std::vector<Value> items;
        for (const Value& x : *xs) items.push_back(untracked(x));
        return v.with_children(std::move(items));
    }
    return v;
}

Value tracked_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands, std::vector<Attr> attrs) {
    uint32_t level = 0;
    for (const Value& v : operands) level = std::max(level, tracked_level(rt, v));
    TapeEntry e;
    e.inputs.reserve(operands.size());
    for (const Value& v : operands) {
        uint32_t node = kNotTracked;
        e.inputs.push_back(level ? primal_at(rt, v, level, &node) : untracked(v));
        e.in_nodes.push_back(node);
    }
    Value out = run_op(rt, op, e.inputs, attrs);
    if (level == 0 || op.grad.mode == stdlib::GradRule::NoGradient || !out.is_tensor() ||
        !differentiable_type(out.tensor_type()))
        return out;
    if (op.grad.mode == stdlib::GradRule::Missing)
        throw Error("grad: `" + std::string(op.name) + "` has no gradient rule, so it cannot be differentiated");
    e.op = &op;
    e.attrs = std::move(attrs);
    e.out = std::move(out);
    return record(*rt.tapes[level - 1], std::move(e));
}

Value tracked_index(Runtime& rt, const Value& x, std::span<const stdlib::IndexItem> items,
                    std::span<const Value> dynamic) {
    const uint32_t level = tracked_level(rt, x);
    TapeEntry e;
    uint32_t node = kNotTracked;
    e.inputs.push_back(level ? primal_at(rt, x, level, &node) : untracked(x));
    e.in_nodes.push_back(node);
    for (const Value& d : dynamic) e.dynamic.push_back(untracked(d));
    Value out = index_tensor(rt, e.inputs[0], items, e.dynamic);
    if (level == 0) return out;
    e.what = TapeEntry::What::Index;
    e.items.assign(items.begin(), items.end());
    e.out = std::move(out);
    return record(*rt.tapes[level - 1], std::move(e));
}

void tracked_index_assign(Runtime& rt, Value& x, std::span<const stdlib::IndexItem> items, const Value& v,
                          std::span<const Value> dynamic) {
    const uint32_t level = std::max(tracked_level(rt, x), tracked_level(rt, v));
    TapeEntry e;
    for (const Value* p : {static_cast<const Value*>(&x), &v}) {
        uint32_t node = kNotTracked;
        e.inputs.push_back(level ? primal_at(rt, *p, level, &node) : untracked(*p));
        e.in_nodes.push_back(node);
    }
    for (const Value& d : dynamic) e.dynamic.push_back(untracked(d));
    Value y = e.inputs[0];
    assign_index_tensor(rt, y, items, e.inputs[1], e.dynamic);
    if (level == 0 || !differentiable_type(y.tensor_type())) {
        x = std::move(y);
        return;
    }
    e.what = TapeEntry::What::IndexAssign;
    e.items.assign(items.begin(), items.end());
    e.out = std::move(y);
    x = record(*rt.tapes[level - 1], std::move(e));
}

// ------------------------------------------------------------------ converted `if`

std::vector<size_t> tape_marks(const Runtime& rt) {
    std::vector<size_t> m;
    for (const Tape* t : rt.tapes) m.push_back(t->entries.size());
    return m;
}

void truncate_tapes(Runtime& rt, const std::vector<size_t>& marks) {
    for (size_t i = 0; i < marks.size() && i < rt.tapes.size(); ++i)
        if (rt.tapes[i]->entries.size() > marks[i]) rt.tapes[i]->entries.resize(marks[i]);
}

std::optional<CondTape> take_branch_entries(Runtime& rt, const std::vector<size_t> marks[3], bool force) {
    if (rt.tapes.empty() || marks[0].size() != rt.tapes.size()) return std::nullopt;
    const size_t inner = rt.tapes.size() - 1;
    for (size_t i = 0; i < inner; ++i)
        if (rt.tapes[i]->entries.size() != marks[0][i])
            unsupported_in_graph("a gradient of a gradient through a converted `if` (it depends on a tensor)");
    Tape& tape = *rt.tapes[inner];
    const size_t m0 = marks[0][inner], m1 = marks[1][inner], m2 = marks[2][inner];
    if (m0 == m2 && !force) return std::nullopt;
    CondTape t;
    t.level = tape.level;
    t.branch[0].assign(std::make_move_iterator(tape.entries.begin() + long(m0)),
                       std::make_move_iterator(tape.entries.begin() + long(m1)));
    t.branch[1].assign(std::make_move_iterator(tape.entries.begin() + long(m1)),
                       std::make_move_iterator(tape.entries.begin() + long(m2)));
    tape.entries.resize(m0);
    for (const auto& br : t.branch)
        for (const TapeEntry& e : br) {
            for (const Value& v : e.inputs)
                if (v.tracked()) unsupported_in_graph("a gradient of a gradient through a converted `if`");
            if (e.custom) unsupported_in_graph("a custom_vjp or checkpoint call inside a converted `if`");
        }
    return t;
}

std::vector<Value> branch_residuals(const CondTape& t, int b, const std::function<bool(uint32_t)>& inside) {
    std::vector<Value> out;
    std::vector<uint32_t> seen;
    for (const TapeEntry& e : t.branch[b])
        each_value(e, [&](const Value& v) {
            const SymObj* s = v.sym();
            if (!s || !inside(s->id) || std::find(seen.begin(), seen.end(), s->id) != seen.end()) return;
            seen.push_back(s->id);
            out.push_back(v);
        });
    return out;
}

void record_cond(Runtime& rt, CondTape t, uint32_t pred, const std::vector<uint32_t> leaf_nodes[2],
                 const std::vector<Value> leaf_primals[2], std::vector<Value>& results,
                 const std::vector<Value> residuals[2], const std::vector<Value> residual_results[2]) {
    Tape& tape = *rt.tapes[t.level - 1];
    auto data = std::make_shared<CondData>();
    data->pred = symbolic(*rt.trace, pred);
    TapeEntry e;
    e.what = TapeEntry::What::Cond;
    std::map<uint32_t, size_t> outer;  // node -> index into e.in_nodes
    auto add_outer = [&](uint32_t n, const Value& primal) {
        if (n == kNotTracked || outer.count(n)) return;
        outer[n] = e.in_nodes.size();
        e.in_nodes.push_back(n);
        e.inputs.push_back(primal);
        data->in_types.push_back(primal.tensor_type());
    };
    for (int b = 0; b < 2; ++b) {
        // the branch's entries read the residual results instead of the region's values
        std::map<uint32_t, Value> remap;
        for (size_t k = 0; k < residuals[b].size(); ++k) remap[residuals[b][k].sym()->id] = residual_results[b][k];
        std::vector<bool> produced(tape.nodes, false);
        for (TapeEntry& x : t.branch[b]) {
            each_value_mut(x, [&](Value& v) {
                if (const SymObj* s = v.sym()) {
                    auto it = remap.find(s->id);
                    if (it != remap.end()) v = it->second;
                }
            });
            each_out_node(x, [&](uint32_t n) { produced[n] = true; });
        }
        for (const TapeEntry& x : t.branch[b])
            for (size_t k = 0; k < x.in_nodes.size(); ++k)
                if (x.in_nodes[k] != kNotTracked && !produced[x.in_nodes[k]]) add_outer(x.in_nodes[k], x.inputs[k]);
        for (size_t j = 0; j < leaf_nodes[b].size(); ++j)
            if (leaf_nodes[b][j] != kNotTracked && !produced[leaf_nodes[b][j]])
                add_outer(leaf_nodes[b][j], leaf_primals[b][j]);
        data->branch[b] = std::move(t.branch[b]);
        data->leaf_nodes[b] = leaf_nodes[b];
    }
    data->out_nodes.assign(results.size(), kNotTracked);
    for (size_t j = 0; j < results.size(); ++j) {
        const bool tracked = leaf_nodes[0][j] != kNotTracked || leaf_nodes[1][j] != kNotTracked;
        if (!tracked || !differentiable_type(results[j].tensor_type())) continue;
        results[j] = wrap(tape, results[j]);
        data->out_nodes[j] = results[j].tracked()->node;
    }
    if (e.in_nodes.empty()) return;  // nothing it reads is differentiated
    e.cond = std::move(data);
    e.out_node = kNotTracked;
    tape.push(std::move(e));
}

// ------------------------------------------------------------------ converted `while`

LoopTape take_body_entries(Runtime& rt, const std::vector<size_t>& before, const std::vector<size_t>& after) {
    LoopTape t;
    if (rt.tapes.empty() || before.size() != rt.tapes.size()) return t;
    const size_t inner = rt.tapes.size() - 1;
    for (size_t i = 0; i < inner; ++i)
        if (after[i] != before[i])
            unsupported_in_graph("a gradient of a gradient through a converted loop (it depends on a tensor)");
    Tape& tape = *rt.tapes[inner];
    t.level = tape.level;
    t.body.assign(std::make_move_iterator(tape.entries.begin() + long(before[inner])),
                  std::make_move_iterator(tape.entries.begin() + long(after[inner])));
    tape.entries.resize(before[inner]);
    for (const TapeEntry& e : t.body) {
        for (const Value& v : e.inputs)
            if (v.tracked()) unsupported_in_graph("a gradient of a gradient through a converted loop");
        if (e.custom) unsupported_in_graph("a custom_vjp or checkpoint call inside a converted loop");
    }
    return t;
}

std::vector<Value> body_residuals(const LoopTape& t, const std::function<bool(uint32_t)>& inside) {
    CondTape c;
    c.branch[0] = t.body;
    return branch_residuals(c, 0, inside);
}

Value track_new(Runtime& rt, Value primal) { return wrap(*rt.tapes.back(), std::move(primal)); }

void record_while(Runtime& rt, LoopTape t, std::shared_ptr<WhileData> d, const std::vector<uint32_t>& init_nodes,
                  const std::vector<Value>& init_primals, const std::vector<Value>& yield_primals) {
    Tape& tape = *rt.tapes[t.level - 1];
    TapeEntry e;
    e.what = TapeEntry::What::While;
    const size_t nl = d->leaf_types.size();
    for (size_t l = 0; l < nl; ++l) {
        e.in_nodes.push_back(init_nodes[l]);
        e.inputs.push_back(init_primals[l]);
        d->in_types.push_back(d->leaf_types[l]);
    }
    std::vector<bool> inner(tape.nodes, false);
    for (const TapeEntry& x : t.body) each_out_node(x, [&](uint32_t n) { inner[n] = true; });
    for (uint32_t n : d->arg_nodes) inner[n] = true;
    std::vector<bool> seen(tape.nodes, false);
    auto add_outer = [&](uint32_t n, const Value& primal) {
        if (n == kNotTracked || inner[n] || seen[n]) return;
        seen[n] = true;
        e.in_nodes.push_back(n);
        e.inputs.push_back(primal);
        d->in_types.push_back(primal.tensor_type());
    };
    for (const TapeEntry& x : t.body)
        for (size_t k = 0; k < x.in_nodes.size(); ++k) add_outer(x.in_nodes[k], x.inputs[k]);
    for (size_t l = 0; l < nl; ++l) add_outer(d->yield_nodes[l], yield_primals[l]);  // an outer value carried on
    ad::plan_loop_checkpoint(rt, *d, tape.loop_checkpoint);
    d->body = std::move(t.body);
    e.loop = std::move(d);
    e.out_node = kNotTracked;
    tape.push(std::move(e));
}

// ------------------------------------------------------------------ the tape's memory

namespace {
size_t entry_bytes(const TapeEntry& e) {
    return sizeof(TapeEntry) + e.inputs.size() * (sizeof(Value) + sizeof(uint32_t)) +
           e.attrs.size() * sizeof(stdlib::Attr) + e.items.size() * sizeof(stdlib::IndexItem) +
           e.dynamic.size() * sizeof(Value);
}
}  // namespace

void Tape::push(TapeEntry e) {
    if (!budget_) {
        budget_ = stdlib::Budget::current();
        if (budget_) budget_->retain();
    }
    if (budget_) {
        const size_t bytes = entry_bytes(e);
        budget_->charge(bytes, "the gradient tape's record");
        charged_ += bytes;
    }
    entries.push_back(std::move(e));
}

Tape::~Tape() {
    if (!budget_) return;
    budget_->credit(charged_);
    budget_->release();
}

// ------------------------------------------------------------------ grad

namespace {

struct GradSpec {
    Value f;
    std::vector<int64_t> argnums;
    bool many = false;  // argnums was a tuple: a tuple of gradients
    bool has_aux = false;
    bool with_value = false;  // value_and_grad
    int64_t loop_checkpoint = 0;  // converted loops save their state every k iterations (0: every residual)
    std::string name;
};

using ad::TapeScope;

std::string arg_name(const GradSpec& s, size_t i) {
    if (s.f.is(Kind::Function)) {
        const auto& params = *s.f.function().params;
        if (i < params.size()) return "`" + params[i].name + "`";
    }
    return std::to_string(i);
}

std::string type_desc(const Value& v) {
    if (v.is_tensor()) {
        const TensorType t = v.tensor_type();
        return std::string("an ") + stdlib::dtype_name(t.dtype) + " tensor of shape " + t.shape.to_string();
    }
    return std::string("a ") + kind_name(v.kind());
}

// The differentiated argument with its tensor leaves tracked (pytrees: lists,
// tuples, dicts; None is an empty subtree, as in JAX: its gradient is None).
// `what` names a leaf by its path: argument `p`['l2']['b'].
Value track_leaves(Tape& tape, const Value& v, const std::string& what, std::vector<Value>& leaves) {
    if (v.is(Kind::None)) return v;
    if (v.is_tensor()) {
        const TensorType t = v.tensor_type();
        if (!differentiable_type(t))
            throw Error(what + " is " + (t.weak ? std::string("an int") : type_desc(v)) +
                        "; gradients are taken with respect to float tensors (write 2.0, or f32(x))");
        Value w = wrap(tape, v);
        leaves.push_back(w);
        return w;
    }
    if (const auto xs = v.children()) {
        std::vector<Value> items;
        for (size_t i = 0; i < xs->size(); ++i)
            items.push_back(track_leaves(tape, (*xs)[i], what + child_suffix(v, i), leaves));
        return v.with_children(std::move(items));
    }
    throw Error(what + " is " + type_desc(v) + "; grad differentiates tensors, and lists, tuples and dicts of them (None is an empty subtree)");
}

// The gradient with the structure of `arg`, leaf by leaf from the cotangents.
Value gradient_tree(Runtime& rt, const Value& arg, const std::vector<Value>& cot, size_t& k,
                    const std::vector<Value>& leaves) {
    if (arg.is(Kind::None)) return arg;
    if (arg.is_tensor()) {
        const GradObj* g = leaves[k++].tracked();
        const TensorType t = g->primal.tensor_type();
        const Value& c = cot[g->node];
        return c.defined() ? cast_value(rt, c, t.dtype) : zeros_value(rt, t);
    }
    std::vector<Value> items;
    for (const Value& x : arg.child_values()) items.push_back(gradient_tree(rt, x, cot, k, leaves));
    return arg.with_children(std::move(items));
}

// aux (and the value) without this tape's tracking
Value strip_tape(const Value& v, uint64_t id) {
    if (const GradObj* g = v.tracked()) return g->tape == id ? strip_tape(g->primal, id) : v;
    if (const auto xs = v.children(); xs && has_tracked(v)) {
        std::vector<Value> items;
        for (const Value& x : *xs) items.push_back(strip_tape(x, id));
        return v.with_children(std::move(items));
    }
    return v;
}

Value call_grad(Runtime& rt, const GradSpec& s, const CallArgs& a);

// grad of a @graph function, called from eager code: an implicit @graph
// function whose body is the gradient of f's undecorated body, with its own
// trace cache (kept in f's, per transformation), so the gradient is traced,
// optimized and compiled as one graph per signature (--trace shows it as
// `grad(f)`). Its calls go through the usual machinery: --eager, a trace
// that fails (the body then runs eagerly: the tape) and --verify behave as
// for any @graph function.
Value graph_gradient(const GradSpec& s) {
    const FunctionObj& f = s.f.function();
    std::string key = s.name + (s.has_aux ? " aux" : "") + (s.many ? " (" : " ");
    for (int64_t i : s.argnums) key += std::to_string(i) + ",";
    if (s.loop_checkpoint > 0) key += " loop_checkpoint=" + std::to_string(s.loop_checkpoint);
    std::shared_ptr<GraphCache>& cache = f.graph_cache->derived[key];
    if (!cache) cache = std::make_shared<GraphCache>();
    auto plain = std::make_shared<FunctionObj>(f);
    plain->is_graph = false;
    plain->graph_cache = nullptr;
    auto spec = std::make_shared<GradSpec>(s);
    spec->f = Value::function(std::move(plain));
    auto fn = std::make_shared<FunctionObj>(f);
    fn->name = s.name + "(" + f.name + ")";
    fn->graph_cache = cache;
    fn->native_body = [spec](Runtime& rt, const CallArgs& args) { return call_grad(rt, *spec, args); };
    return Value::function(std::move(fn));
}

Value call_grad(Runtime& rt, const GradSpec& s, const CallArgs& a) {
    if (!rt.trace && s.f.is(Kind::Function) && s.f.function().is_graph && s.f.function().graph_cache)
        return Evaluator(rt).call(graph_gradient(s), a, rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
    // While tracing, the backward's nodes are located at the grad call (where
    // an error in them is reported), not at f's last line.
    lang::SourcePtr call_source;
    std::shared_ptr<const tracer::CallSite> call_inlined;
    if (rt.trace) {
        call_source = rt.trace->source;
        call_inlined = rt.trace->inlined;
    }
    TapeScope scope(rt);
    Tape& tape = *scope.tape;
    tape.loop_checkpoint = s.loop_checkpoint;
    std::vector<Value> args(a.positional.begin(), a.positional.end());
    std::vector<std::vector<Value>> leaves(s.argnums.size());
    for (size_t j = 0; j < s.argnums.size(); ++j) {
        const int64_t i = s.argnums[j];
        if (i >= static_cast<int64_t>(args.size()))
            throw Error(s.name + ": argnums asks for argument " + std::to_string(i) + ", but only " +
                        std::to_string(args.size()) + " positional arguments were given");
        args[size_t(i)] = track_leaves(tape, args[size_t(i)], s.name + ": argument " + arg_name(s, size_t(i)),
                                       leaves[j]);
    }
    Value result = Evaluator(rt).call(s.f, CallArgs{args, a.keyword_values, a.keywords, a.loc},
                                      rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
    Value loss = result, aux;
    if (s.has_aux) {
        if (!result.is_sequence() || result.items().size() != 2)
            throw Error(s.name + ": with has_aux=True the function must return a pair (value, aux), not " +
                        type_desc(result));
        loss = result.items()[0];
        aux = result.items()[1];
    }
    if (!loss.is_tensor() || loss.tensor_type().shape.rank() != 0 || !differentiable_type(loss.tensor_type()))
        throw Error(s.name + ": the function must return a 0-d float tensor (the value to differentiate), not " +
                    type_desc(loss));
    scope.pop();  // the backward ops are not recorded on this tape (an outer grad records them)
    if (rt.trace) {
        rt.trace->source = call_source;
        rt.trace->loc = a.loc;
        rt.trace->inlined = call_inlined;
    }
    uint32_t node = kNotTracked;
    Value value = loss;
    if (const GradObj* g = loss.tracked(); g && g->tape == tape.id) {
        node = g->node;
        value = g->primal;
    }
    const TensorType lt = value.tensor_type();
    std::vector<Value> cot;
    if (node != kNotTracked) {
        Value seed = lt.weak ? Value::weak_float(1.0) : Value(stdlib::Tensor::scalar(1.0, lt.dtype));
        // In a trace, a graph constant: the backward pass's arithmetic on it
        // (a mean's 1 / count) stays in the graph, where a generalized trace
        // sees the count as a size (tracer/generalize.hpp); folding gives the
        // same constants otherwise.
        if (rt.trace) seed = symbolic(*rt.trace, value_id(*rt.trace, seed));
        cot = backward(rt, tape, node, seed);
    } else {
        cot.resize(tape.nodes);
    }
    std::vector<Value> grads;
    for (size_t j = 0; j < s.argnums.size(); ++j) {
        size_t k = 0;
        grads.push_back(gradient_tree(rt, args[size_t(s.argnums[j])], cot, k, leaves[j]));
        // (the tracked argument's structure is the original's)
    }
    Value g = s.many ? Value::tuple(std::move(grads)) : grads[0];
    value = strip_tape(value, tape.id);
    if (s.has_aux) aux = strip_tape(aux, tape.id);
    if (s.with_value) {
        Value v = s.has_aux ? Value::tuple({value, aux}) : value;
        return Value::tuple({v, g});
    }
    return s.has_aux ? Value::tuple({g, aux}) : g;
}

const Value* keyword(const CallArgs& a, std::string_view name) {
    for (size_t k = 0; k < a.keywords.size(); ++k)
        if (a.keywords[k].name == name) return &a.keyword_values[k];
    return nullptr;
}

// grad's loop_checkpoint=k (docs/training.md "Bounding a loop's saved
// values"): None, or a positive int, known when the gradient is built.
int64_t loop_checkpoint_of(const Runtime& rt, const Value& v, const std::string& name) {
    if (v.is(Kind::None)) return 0;
    const std::string what = name + ": loop_checkpoint";
    if (v.is_symbolic() && rt.trace)
        dynamic_value_error(*rt.trace, what + " must be static inside a @graph function, but it depends on the contents of a tensor", v);
    // an int, or a 0-d int tensor
    if (v.is_tensor() && stdlib::is_int(v.tensor_type().dtype)) {
        const int64_t k = to_int(v, what);
        if (k >= 1) return k;
        throw Error(what + " must be a positive number of iterations (the loop saves its state every k), not " +
                    std::to_string(k));
    }
    const Scalar* x = v.scalar();
    const std::string given = x && x->dtype == stdlib::DType::Bool ? "a bool"
                              : x && x->weak                       ? "a float"
                                                                   : type_desc(v);
    throw Error(what + " must be an int (the loop saves its state every k iterations) or None, not " + given);
}

Value make_grad(Runtime& rt, const CallArgs& a, bool with_value) {
    const std::string name = with_value ? "value_and_grad" : "grad";
    check_arguments(name + "(f, /, argnums=0, has_aux=False, loop_checkpoint=None)", a);  // docs/builtins.md
    auto spec = std::make_shared<GradSpec>();
    spec->name = name;
    spec->with_value = with_value;
    spec->f = a.positional[0];
    if (!spec->f.is(Kind::Function) && !spec->f.is(Kind::Builtin) && !spec->f.is(Kind::BoundMethod))
        throw Error(name + ": the first argument must be a function, not a " + kind_name(spec->f.kind()));
    const Value* argnums = a.positional.size() > 1 ? &a.positional[1] : keyword(a, "argnums");
    const Value* aux = a.positional.size() > 2 ? &a.positional[2] : keyword(a, "has_aux");
    if (argnums && argnums->is_sequence()) {
        spec->many = true;
        for (const Value& v : argnums->items()) spec->argnums.push_back(to_int(v, name + ": argnums"));
        if (spec->argnums.empty()) throw Error(name + ": argnums must name at least one argument");
    } else {
        spec->argnums.push_back(argnums ? to_int(*argnums, name + ": argnums") : 0);
    }
    for (int64_t i : spec->argnums)
        if (i < 0) throw Error(name + ": argnums must be non-negative, not " + std::to_string(i));
    if (aux) spec->has_aux = to_int(*aux, name + ": has_aux") != 0;
    if (const Value* k = keyword(a, "loop_checkpoint")) spec->loop_checkpoint = loop_checkpoint_of(rt, *k, name);
    std::string shown = name + "(" + (spec->f.is(Kind::Function) ? spec->f.function().name : "function") + ")";
    return Value::builtin(std::make_shared<BuiltinObj>(
        BuiltinObj{shown, [spec](Runtime& rt, const CallArgs& args) { return call_grad(rt, *spec, args); }}));
}

}  // namespace

namespace ad {
bool is_live(const Runtime& rt, const GradObj& g) { return live(rt, g); }
Value primal_at_level(const Runtime& rt, const Value& v, uint32_t level, uint32_t* node) {
    return primal_at(rt, v, level, node);
}
Value track(Tape& tape, Value primal) { return wrap(tape, std::move(primal)); }
Value zeros_of(Runtime& rt, const TensorType& t) { return zeros_value(rt, t); }
Value cast_to(Runtime& rt, const Value& v, stdlib::DType d) { return cast_value(rt, v, d); }
Value add_values(Runtime& rt, const Value& a, const Value& b) { return binary(rt, lang::BinOp::Add, a, b); }
std::vector<Value> backward_from(Runtime& rt, const Tape& tape, const std::vector<std::pair<uint32_t, Value>>& seeds) {
    std::vector<Value> cot(tape.nodes);
    for (const auto& [node, c] : seeds) cot[node] = cot[node].defined() ? add_values(rt, cot[node], c) : c;
    sweep(rt, tape.entries, cot);
    return cot;
}
Value track_tree(Tape& tape, const Value& v, const std::string& what, std::vector<Value>& leaves) {
    return track_leaves(tape, v, what, leaves);
}
Value gradient_of(Runtime& rt, const Value& arg, const std::vector<Value>& cot, size_t& k, const std::vector<Value>& leaves) {
    return gradient_tree(rt, arg, cot, k, leaves);
}
Value without_tape(const Value& v, uint64_t id) { return strip_tape(v, id); }
std::string describe(const Value& v) { return type_desc(v); }
std::vector<tracer::ValueId> backward_loop_inits(Runtime& rt, const TapeEntry& e, const std::vector<Value>& cot) {
    return loop_inits(rt, e, cot);
}
tracer::NodeId build_backward_loop(Runtime& rt, const TapeEntry& e, size_t cot_size, std::span<const tracer::ValueId> inits,
                                   const Value& floor, const tracer::CloneMap* moved) {
    return loop_backward(rt, e, cot_size, inits, floor, moved);
}
std::vector<Value> finish_backward(TraceState& T, tracer::NodeId node, size_t first, size_t count) {
    return finish_control(T, node, first, count);
}
void drop_loop_saves(tracer::Graph& g, const TapeEntry& e) { drop_saves(g, e); }
}  // namespace ad

void add_autodiff_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const char* name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)})));
    };
    add("grad", [](Runtime& rt, const CallArgs& a) { return make_grad(rt, a, false); });
    add("value_and_grad", [](Runtime& rt, const CallArgs& a) { return make_grad(rt, a, true); });
    add("stop_gradient", [](Runtime&, const CallArgs& a) {
        check_arguments("stop_gradient(x, /)", a);
        return untracked(a.positional[0]);
    });
}

}  // namespace tg::interp
