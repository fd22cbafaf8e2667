// Loops while tracing (docs/graph.md "Static and dynamic"): which loops become `while` nodes and
// which run at trace time (unrolled).
//
//   while c:            c static at every check: runs at trace time; the first
//                       time c is dynamic, the rest of the loop is converted.
//   for i in range(..): converted (the counter is carried); if that fails and
//                       the bounds are static (the body needs `i` static, a
//                       list grows, a shape changes), unrolled instead.
//   for row in x:       x a tensor: as range(len(x)) with row = x[i].
//   for v in xs:        a list, tuple or string: unrolled.
//
// Unrolled loops honour a break/return that may have happened (a symbolic
// flag): the remaining iterations run inside a `cond` on "not yet".
#include "interp/autodiff/autodiff.hpp"
#include "interp/control.hpp"
#include "interp/dispatch.hpp"
#include "interp/evaluator.hpp"
#include "interp/tracing/trace.hpp"
#include "lang/diagnostics.hpp"

namespace tg::interp {

using namespace lang;
using tracer::Graph;

namespace {
constexpr int64_t kMaxUnroll = 1000;
// A `while` whose condition stays static runs at trace time; past this many
// iterations (or nodes added) the rest of it becomes a `while` node, so that
// a loop in a branch that never runs (`if x > 100: while True: ...`) does not
// trace forever — the node runs only if its path runs, as in eager.
constexpr int64_t kStaticWhileIterations = 10000;
constexpr size_t kStaticWhileNodes = 20000;

// A point tracing can go back to: the graph, the effect token, and the
// gradient tapes. All three go back together: a tape entry recorded after
// the point reads graph values the rollback removes, and left behind, an
// enclosing loop's backward would save and pop them (a stack of another
// type at run time).
struct TracePoint {
    Graph::Checkpoint graph;
    tracer::ValueId token;
    std::vector<size_t> tapes;
};
TracePoint trace_point(const Runtime& rt) { return {rt.trace->graph.checkpoint(), rt.trace->token, tape_marks(rt)}; }
void go_back(Runtime& rt, const TracePoint& p) {
    rt.trace->graph.rollback(p.graph);
    rt.trace->token = p.token;
    truncate_tapes(rt, p.tapes);
}
}  // namespace

Evaluator::Flow Evaluator::unrolled(const std::function<bool(int64_t)>& item, const Block& body, Loc loc, int64_t from) {
    for (int64_t k = from;; ++k) {
        std::vector<Value*> exits;
        if (f_->ret_flag.is_symbolic()) exits.push_back(&f_->ret_flag);
        if (f_->loop->brk.is_symbolic()) exits.push_back(&f_->loop->brk);
        if (!exits.empty()) {
            at(loc);
            uint32_t pred = none_set(rt_, exits);
            return trace_cond(
                pred, {},
                [&, k] {
                    for (Value* e : exits) *e = Value::from_bool(false);
                    return unrolled(item, body, loc, k);
                },
                [] { return Flow::Normal; }, loc, "for");
        }
        f_->loop->cont = Value::from_bool(false);
        lane_iteration_start();
        if (!item(k)) return Flow::Normal;
        count_step(loc);
        Flow flow = exec_block(body);
        lane_iteration_end(loc);
        if (flow == Flow::Return) return flow;
        if (loop_ends(flow, loc)) return Flow::Normal;
    }
}

namespace {
// Runs `fn` with a fresh innermost-loop state, restoring the enclosing one.
template <class F>
auto with_loop(Frame* f, F&& fn) {
    LaneScope lanes(*f);  // vmap: examples that left by a batched `break` (batched_exits.cpp)
    LoopFlags flags;
    LoopFlags* saved = f->loop;
    f->loop = &flags;
    try {
        auto r = fn();
        f->loop = saved;
        return r;
    } catch (...) {
        f->loop = saved;
        throw;
    }
}
}  // namespace

// A `while` loop traced as it runs (exec_while_traced): where it started in
// the graph, how many iterations ran at trace time, and whether the rest of
// it became a `while` node.
struct TracedWhile {
    const While& w;
    size_t nodes0;
    int64_t iterations = 0;
    bool converted = false;
};

Evaluator::Flow Evaluator::convert_rest_of_while(TracedWhile& tw) {
    TraceState& T = *rt_.trace;
    tw.converted = true;
    LoopFlags* mine = f_->loop;
    auto cond_fn = [&] {
        uint32_t p;
        std::optional<bool> c = condition(*tw.w.cond, p);
        return c ? Value::from_bool(*c) : symbolic(T, p);
    };
    // (a batched `break` in a body traced once gives up: batched_exits.cpp)
    LaneScope lanes(*f_);
    lanes.exits().converting = true;
    Flow flow = trace_while(cond_fn, [&] { return exec_block(tw.w.body); }, {}, tw.w.loc);
    f_->loop = mine;
    return flow;
}

Evaluator::Flow Evaluator::rest_of_while_unless_exited(TracedWhile& tw, const std::vector<Value*>& exits) {
    // A break/return may have happened (dynamic): the loop goes on only if
    // it did not, so the rest is a `while` node (unrolling it would nest one
    // `cond` per iteration). If the rest cannot be converted, it stays
    // unrolled.
    at(tw.w.loc);
    uint32_t pred = none_set(rt_, exits);
    return trace_cond(
        pred, {},
        [&] {
            for (Value* e : exits) *e = Value::from_bool(false);
            try {
                return convert_rest_of_while(tw);
            } catch (Error& e) {
                if (e.trace_kind != TraceErrorKind::Conversion) throw;
                tw.converted = false;
            }
            return run_while_traced(tw);
        },
        [] { return Flow::Normal; }, tw.w.loc, "while");
}

Evaluator::Flow Evaluator::rest_of_long_while(TracedWhile& tw) {
    TraceState& T = *rt_.trace;
    const size_t nodes = T.graph.num_nodes() - tw.nodes0;
    T.notes.push_back("the loop at " + format_location(source().get(), tw.w.loc) + " ran " +
                      std::to_string(tw.iterations) + " iterations while tracing (" + std::to_string(nodes) +
                      " nodes): the rest of it is a `while` node");
    try {
        return convert_rest_of_while(tw);
    } catch (Error& e) {
        if (e.trace_kind != TraceErrorKind::Conversion) throw;
        unsupported_in_graph("a loop that runs more than " + std::to_string(tw.iterations) +
                             " iterations while tracing and cannot become a `while` node (" + e.message() + ")");
    }
}

Evaluator::Flow Evaluator::run_while_traced(TracedWhile& tw) {
    TraceState& T = *rt_.trace;
    Graph& g = T.graph;
    for (;;) {
        std::vector<Value*> exits;
        if (f_->ret_flag.is_symbolic()) exits.push_back(&f_->ret_flag);
        if (f_->loop->brk.is_symbolic()) exits.push_back(&f_->loop->brk);
        if (!exits.empty()) return rest_of_while_unless_exited(tw, exits);
        f_->loop->cont = Value::from_bool(false);
        const TracePoint before = trace_point(rt_);
        uint32_t pred;
        Value batched;  // a condition batched by vmap (interp/batching/batched_control.cpp)
        batched_cond_ = &batched;
        std::optional<bool> c = condition(*tw.w.cond, pred);
        if (batched.defined()) return batched_while(tw.w, batched);
        if (!c) {
            // dynamic from here on: the rest of the loop is a `while` node
            go_back(rt_, before);
            return convert_rest_of_while(tw);
        }
        if (!*c) return Flow::Normal;
        lane_iteration_start();
        Flow flow = exec_block(tw.w.body);
        lane_iteration_end(tw.w.loc);
        if (flow == Flow::Return) return flow;
        if (loop_ends(flow, tw.w.loc)) return Flow::Normal;
        count_step(tw.w.loc);
        ++tw.iterations;
        if (tw.iterations >= kStaticWhileIterations || g.num_nodes() - tw.nodes0 > kStaticWhileNodes)
            return rest_of_long_while(tw);
    }
}

Evaluator::Flow Evaluator::exec_while_traced(const While& w) {
    TraceState& T = *rt_.trace;
    TracedWhile tw{w, T.graph.num_nodes()};
    Frame* frame = f_;
    Flow r = with_loop(f_, [&] { return run_while_traced(tw); });
    f_ = frame;
    if (tw.iterations > 0 && !tw.converted)
        T.notes.push_back("unrolled the loop at " + format_location(source().get(), w.loc) + ": " +
                          std::to_string(tw.iterations) + " iterations, " +
                          std::to_string(T.graph.num_nodes() - tw.nodes0) + " nodes");
    return r;
}

// A `for` loop's counter while tracing: range(start, stop, step), each a
// static int or a symbolic int scalar; over a tensor, range(len(x)) with
// `seq` the tensor (rows x[i]).
struct ForRange {
    Value start = Value::from_int(0), stop, step = Value::from_int(1);
    Value seq;  // the tensor iterated over axis 0 (range loops: undefined)

    bool all_static() const { return !start.is_symbolic() && !stop.is_symbolic() && !step.is_symbolic(); }
    // The number of iterations (all static).
    int64_t count() const {
        const int64_t a = start.scalar()->i, b = stop.scalar()->i, st = step.scalar()->i;
        return st > 0 ? (b > a ? (b - a + st - 1) / st : 0) : (a > b ? (a - b - st - 1) / -st : 0);
    }
};

void Evaluator::range_bounds(const Call& c, ForRange& r) {
    TraceState& T = *rt_.trace;
    size_t n = c.args.size();
    if (n < 1 || n > 3) fail("range: takes 1 to 3 arguments but " + std::to_string(n) + " were given", c.loc);
    Value a[3] = {Value::from_int(0), Value(), Value::from_int(1)};
    for (size_t i = 0; i < n; ++i) {
        Value v = eval(*c.args[i]);
        if (v.is_symbolic()) {
            const stdlib::TensorType& t = v.sym()->type;
            if (t.shape.rank() != 0 || stdlib::is_float(t.dtype))
                fail(std::string("range: argument must be an int, not ") + stdlib::dtype_name(t.dtype) + " tensor",
                     c.args[i]->loc);
        } else {
            try {
                v = Value::from_int(to_int(v, "range: argument"));
            } catch (Error& e) {
                e.locate(source(), c.args[i]->loc);
                throw;
            }
        }
        a[n == 1 ? 1 : i] = v;
    }
    r.start = a[0];
    r.stop = a[1];
    r.step = a[2];
    if (r.step.scalar() && r.step.scalar()->i == 0) fail("range: step must not be zero", c.loc);
    if (r.step.is_symbolic()) {
        // eager checks this before the first iteration
        at(c.loc);
        Value nz = compare(rt_, CmpOp::Ne, r.step, Value::weak_int(0));
        T.token = T.graph.assert_(T.token, nz.sym()->id,
                                  {tracer::TextPiece{tracer::TextPiece::Text, "range: step must not be zero", 0}}, {},
                                  T.at(source(), c.loc));
    }
}

Evaluator::Flow Evaluator::unroll_sequence(const For& s, Value it) {
    TraceState& T = *rt_.trace;
    Iterable items = [&] {
        try {
            return Iterable(std::move(it), rt_);
        } catch (Error& e) {
            e.locate(source(), s.iter->loc);
            throw;
        }
    }();
    const size_t nodes0 = T.graph.num_nodes();
    Flow f = with_loop(f_, [&] {
        return unrolled(
            [&](int64_t k) {
                if (k >= items.size()) return false;
                assign(*s.target, items.item(k));
                return true;
            },
            s.body, s.loc, 0);
    });
    if (items.size() > 0)
        T.notes.push_back("unrolled the loop at " + format_location(source().get(), s.loc) + ": " +
                          std::to_string(items.size()) + " iterations, " +
                          std::to_string(T.graph.num_nodes() - nodes0) + " nodes");
    return f;
}

Evaluator::Flow Evaluator::convert_for(const For& s, const ForRange& r) {
    Value counter = r.start;
    if (!counter.is_symbolic()) counter = Value::from_int(counter.scalar()->i);  // strong i64, as eager's loop variable
    auto cond_fn = [&]() -> Value {
        at(s.loc);
        if (r.step.is_symbolic()) {
            Value up = compare(rt_, CmpOp::Gt, r.step, Value::weak_int(0));
            Value lt = compare(rt_, CmpOp::Lt, counter, r.stop);
            Value gt = compare(rt_, CmpOp::Gt, counter, r.stop);
            const stdlib::OpDef* where = &stdlib::op_of(stdlib::ElementwiseKind::Where);
            Value in[3] = {up, lt, gt};
            return trace_op(rt_, *where, in, {});
        }
        return compare(rt_, r.step.scalar()->i > 0 ? CmpOp::Lt : CmpOp::Gt, counter, r.stop);
    };
    auto body_fn = [&]() -> Flow {
        Value item = counter;
        if (r.seq.defined()) {
            stdlib::IndexItem idx;
            idx.kind = stdlib::IndexItem::Int;
            at(s.loc);
            try {
                item = index_tensor(rt_, r.seq, std::span<const stdlib::IndexItem>(&idx, 1),
                                    std::span<const Value>(&counter, 1));
            } catch (const stdlib::OpError& err) {
                fail(err.what(), s.loc);  // an empty axis: the body never runs, so neither does this error
            }
        }
        at(s.loc);
        counter = binary(rt_, BinOp::Add, counter, r.step);
        count_step(s.loc);
        assign(*s.target, std::move(item));
        return exec_block(s.body);
    };
    LaneScope lanes(*f_);  // (a batched `break` in a body traced once gives up: batched_exits.cpp)
    lanes.exits().converting = true;
    return trace_while(cond_fn, body_fn, {{&counter, "the loop counter", TraceVar::Var, true}}, s.loc);
}

Evaluator::Flow Evaluator::unroll_range(const For& s, const ForRange& r, const std::string& why) {
    TraceState& T = *rt_.trace;
    const int64_t a = r.start.scalar()->i, st = r.step.scalar()->i;
    const int64_t b = r.stop.scalar()->i;
    const size_t nodes0 = T.graph.num_nodes();
    Flow f = with_loop(f_, [&] {
        return unrolled(
            [&](int64_t k) {
                int64_t i = a + k * st;
                if (st > 0 ? i >= b : i <= b) return false;
                Value item = Value::from_int(i);
                if (r.seq.defined()) {
                    stdlib::IndexItem idx;
                    idx.kind = stdlib::IndexItem::Int;
                    idx.index = i;
                    at(s.loc);
                    item = index_tensor(rt_, r.seq, std::span<const stdlib::IndexItem>(&idx, 1));
                }
                assign(*s.target, std::move(item));
                return true;
            },
            s.body, s.loc, 0);
    });
    T.notes.push_back("unrolled the loop at " + format_location(source().get(), s.loc) + " (" + why +
                      "): " + std::to_string(r.count()) + " iterations, " +
                      std::to_string(T.graph.num_nodes() - nodes0) + " nodes");
    return f;
}

Evaluator::Flow Evaluator::exec_for_traced(const For& s) {
    ForRange r;
    if (is_range_call(*s.iter)) {
        range_bounds(s.iter->as<Call>(), r);
    } else {
        Value it = eval(*s.iter);
        if (!it.is_tensor()) return unroll_sequence(s, std::move(it));
        stdlib::TensorType t = it.tensor_type();
        if (t.shape.rank() == 0) fail("cannot iterate over a 0-d tensor", s.iter->loc);
        r.seq = it;
        r.stop = Value::from_int(t.shape[0]);
    }
    // Convert: a `while` node carrying a hidden counter.
    std::vector<TraceVar> snapshot = trace_vars({});
    std::vector<Value> saved(snapshot.size());
    for (size_t i = 0; i < snapshot.size(); ++i) saved[i] = *snapshot[i].slot;
    const TracePoint before = trace_point(rt_);
    Frame* frame = f_;
    std::string why;  // the conversion error, for --trace
    try {
        return convert_for(s, r);
    } catch (Error& e) {
        f_ = frame;
        if (!r.all_static() || e.trace_kind == TraceErrorKind::User || e.trace_kind == TraceErrorKind::Limit) throw;
        why = e.message();
        if (size_t at_loop = why.find(" in the loop at "); at_loop != std::string::npos) why.resize(at_loop);
        if (r.count() > kMaxUnroll) throw;
        // The body needs the loop static: unroll it instead (same results).
        for (size_t i = 0; i < snapshot.size(); ++i) *snapshot[i].slot = saved[i];
        go_back(rt_, before);
    }
    return unroll_range(s, r, why);
}

}  // namespace tg::interp
