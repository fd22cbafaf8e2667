// `break` and `continue` on a batched condition under vmap (docs/training.md
// "vmap"), by masking as the rest of batched control flow is: a batched `if`
// runs both branches for every example, so a `break` in one branch means
// "the examples of this branch leave the loop here". Those examples (the
// frame's lane_path) are recorded with the values the frame's variables
// have at the `break`; the rest of the iteration runs for every example,
// and at its end the examples that left get back the values they left
// with. An example that broke keeps them through the loop's later
// iterations (each iteration starts with it marked as left); the loop ends
// when every example broke, or when it would have ended anyway.
//
// Inside @graph each iteration must be traced: a loop whose body is traced
// once as a `while` node's body would have to carry which examples broke,
// so that conversion gives up (tracer errors of kind Unsupported): a loop
// of static bounds is unrolled instead, any other makes the call run
// eagerly. A `while` on a batched condition carries its `active` mask
// anyway: the examples that broke leave it (batched_control.cpp).
#include "interp/batching/batching.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/runtime.hpp"

namespace tg::interp {

using namespace lang;

namespace {
Value lane_not(Runtime& rt, const Value& m) { return unary(rt, UnaryOp::Invert, m); }
Value lane_and(Runtime& rt, const Value& a, const Value& b) { return binary(rt, BinOp::BitAnd, a, b); }
Value lane_or(Runtime& rt, const Value& a, const Value& b) { return binary(rt, BinOp::BitOr, a, b); }
}  // namespace

void Evaluator::lane_exit(bool is_break, Loc loc) {
    if (f_->loop_depth == 0) return;  // (a `break` outside a loop does not parse)
    LaneExits* lanes = &lanes_of(*f_);
    if (lanes->converting && !lanes->masked)
        throw Error(std::string("a `") + (is_break ? "break" : "continue") +
                    "` on a batched condition in a loop whose body is traced once")
            .as(TraceErrorKind::Unsupported);
    at(loc);
    const std::vector<TraceVar> vars = trace_vars({});
    const std::vector<Value> now = values_of(vars);
    const Value& path = f_->lane_path;
    if (!lanes->left.defined()) {
        lanes->left = path;
        lanes->at_exit = now;
        if (is_break) lanes->done = lanes->done.defined() ? lane_or(rt_, lanes->done, path) : path;
        return;
    }
    // the examples of this path that had not left yet
    const Value fresh = path.defined() ? lane_and(rt_, path, lane_not(rt_, lanes->left)) : lane_not(rt_, lanes->left);
    const std::vector<Value> sides[2] = {now, lanes->at_exit};
    const bool returned[2] = {false, false};
    lanes->at_exit = merge_lanes(fresh, vars, lanes->at_exit, sides, returned, loc,
                                 is_break ? "`break`" : "`continue`");
    lanes->left = lane_or(rt_, lanes->left, fresh);
    if (is_break) lanes->done = lanes->done.defined() ? lane_or(rt_, lanes->done, fresh) : fresh;
}

void Evaluator::lane_iteration_start() {
    LaneExits* lanes = lanes_here(*f_);
    if (!lanes || !lanes->done.defined() || lanes->masked) return;
    // the examples that broke before are out of this iteration: they keep their values
    lanes->left = lanes->done;
    lanes->at_exit = values_of(trace_vars({}));
}

void Evaluator::lane_iteration_end(Loc loc) {
    LaneExits* lanes = lanes_here(*f_);
    if (!lanes || !lanes->left.defined()) return;
    at(loc);
    const std::vector<TraceVar> vars = trace_vars({});
    const std::vector<Value> now = values_of(vars);
    const std::vector<Value> sides[2] = {lanes->at_exit, now};
    const bool returned[2] = {false, false};
    set_values(vars, merge_lanes(lanes->left, vars, now, sides, returned, loc, "loop"));
    lanes->left = Value();
    lanes->at_exit.clear();
}

bool Evaluator::loop_ends(Flow flow, Loc loc) {
    const LaneExits* lanes = lanes_here(*f_);
    if (flow == Flow::Break && (!lanes || !lanes->done.defined())) return true;
    return lanes_all_done(loc);
}

bool Evaluator::lanes_all_done(Loc loc) {
    const LaneExits* lanes = lanes_here(*f_);
    if (!lanes || !lanes->done.defined() || lanes->masked) return false;
    at(loc);
    const Value none_left = any_lane(lane_not(rt_, lanes->done));
    if (none_left.is_symbolic()) return false;  // traced: the remaining iterations run masked
    return !truth_at(none_left, loc);
}

}  // namespace tg::interp
