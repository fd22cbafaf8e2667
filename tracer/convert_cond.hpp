// A converted `if` (docs/graph.md "Static and dynamic"): the `cond` node built from its two branches.
// The steps are the tracer's — save the carried variables, trace each
// branch in its region from their values before, merge what each variable
// is after (conversion.hpp), yield the results, put the variables back
// together from the node's results, or roll everything back — and the host
// (interp) does what needs its values and its evaluator, through CondHost:
// evaluate a branch, read and set the carried variables, make the graph
// value of a leaf, and the autodiff tape's part.
#pragma once

#include "tracer/conversion.hpp"

namespace tg::tracer {

// A RegionHost (conversion.hpp) that also:
// - evaluates branch b in the current region (`run_branch`): true when it
//   raises when it runs (the host added the raise node and keeps the error);
//   any other error propagates (the cond then rolls back);
// - throws the first branch's error when both raise (`raise_branch_error`);
// - the tape's part (autodiff): marks before each branch and after
//   (`tape_mark(0..2)`; `tape_roll_back` goes back to the first), takes
//   the differentiated sides of the results apart and appends the
//   residuals its rule needs as results (`tape_results`), and records the
//   cond (`tape_record`, with the results' host values and ids).
template <class H>
concept CondHost = RegionHost<H> &&
    requires(H& h, int b, std::vector<typename H::Value>& vs, std::vector<BranchResult<typename H::Value>>& results,
             const RegionId* regions, const std::vector<ValueId>& ids) {
        { h.run_branch(b) } -> std::same_as<bool>;
        h.raise_branch_error();
        h.tape_mark(b);
        h.tape_results(results, regions);
        h.tape_record(vs, ids);
    };

namespace detail {

// Branch b's yield: its token, then each result (undef where the branch gives none).
template <CondHost H>
void yield_branch(H& h, Graph& g, RegionId region, int b, ValueId token,
                  const std::vector<BranchResult<typename H::Value>>& results, const SrcLoc& where) {
    g.enter(region);
    std::vector<ValueId> ys{token};
    for (const auto& y : results) {
        if (y.is_flag && h.is_defined(y.side[b])) ys.push_back(h.bool_id(y.side[b], where));
        else if (h.is_defined(y.side[b])) ys.push_back(h.leaf_id(y.side[b], y.type, where));
        else ys.push_back(g.undef(ValueType::of(y.type), where));
    }
    g.yield(ys);
    g.exit();
}

// The variable after the cond, from its merge and the cond's results
// (`outs`: the host values of `res`, the result ids after the token).
template <CondHost H>
typename H::Value merged_value(H& h, const BranchMerge<typename H::Value>& r,
                               const std::vector<typename H::Value>& outs, const std::vector<ValueId>& res) {
    using V = typename H::Value;
    if (r.keep) return r.value;
    std::vector<V> leaves;
    for (size_t k = 0; k < r.leaf.size(); ++k)
        leaves.push_back(r.leaf[k] < 0 ? r.static_leaf[k] : outs[static_cast<size_t>(r.leaf[k])]);
    V v = h.rebuild(r.skeleton, std::span<const V>(leaves));
    if (r.flag >= 0) v = h.make_maybe(std::move(v), h.symbolic(res[1 + static_cast<size_t>(r.flag)]), r.none);
    return v;
}

// Both branches raise, each after what it did first (a print): the cond
// stays, carrying only the token, and the error goes on to the enclosing
// construct, whose own raise is never reached.
template <CondHost H>
void finish_raising_cond(H& h, Graph& g, NodeId node, const RegionId reg[2], const ValueId tok_out[2],
                         const std::vector<typename H::Value>& before) {
    h.tape_roll_back();
    for (int b = 0; b < 2; ++b) {
        g.enter(reg[b]);
        ValueId y[1] = {tok_out[b]};
        g.yield(y);
        g.exit();
    }
    h.set_values(before);
    h.token() = g.finish(node)[0];
}

// What each variable is after the cond (`before` it, `out` after each
// branch), the results it needs appended to `results`. Throws CarriedMismatch.
template <CondHost H>
std::vector<BranchMerge<typename H::Value>> merge_all(H& h, const std::vector<typename H::Value>& before,
                                                      const std::vector<typename H::Value> out[2], const bool raised[2],
                                                      int vars_dead_on,
                                                      std::vector<BranchResult<typename H::Value>>& results) {
    using V = typename H::Value;
    const std::span<const CarriedVar> vars = h.vars();
    std::vector<BranchMerge<V>> merged(vars.size());
    for (size_t i = 0; i < vars.size(); ++i) {
        const CarriedVar& var = vars[i];
        // A side that raised, or (for variables) that has returned, gives no value.
        const bool dead_var = var.role == CarriedRole::Var;
        // The return value of a path that has not returned is never read.
        auto no_return = [&](int s) { return var.role == CarriedRole::Ret && !h.parts(out[s][i]).inner; };
        const bool gone[2] = {raised[0] || (dead_var && vars_dead_on == 0) || no_return(0),
                              raised[1] || (dead_var && vars_dead_on == 1) || no_return(1)};
        const V* const sides[2] = {&out[0][i], &out[1][i]};
        merged[i] = merge_branches(h, var, before[i], sides, gone, results);
    }
    return merged;
}

}  // namespace detail

// The cond on `pred` (a bool[] graph value) at `where`, its branches the
// host's. vars_dead_on: the branch (0 or 1) after which local variables
// are never read again (it has returned), so they need not merge; -1: none.
// Afterwards the carried variables hold their values after the cond.
template <CondHost H>
void convert_cond(H& h, Graph& g, ValueId pred, const SrcLoc& where, int vars_dead_on) {
    using V = typename H::Value;
    const std::span<const CarriedVar> vars = h.vars();
    std::vector<V> before = h.values();
    const Graph::Checkpoint cp = g.checkpoint();
    const ValueId tok_in = h.token();
    auto give_up = [&] {
        h.set_values(before);
        h.token() = tok_in;
        g.rollback(cp);
        h.tape_roll_back();
    };
    ValueId ins[1] = {tok_in};
    const NodeId node = g.add_cond(pred, ins, where);
    const RegionId reg[2] = {g.node(node).regions[0], g.node(node).regions[1]};
    // ---- the branches, each in its region from the values before the cond
    std::vector<V> out[2];
    ValueId tok_out[2];
    bool raised[2];
    for (int b = 0; b < 2; ++b) {
        h.tape_mark(b);
        g.enter(reg[b]);
        h.token() = g.args(reg[b])[0];
        h.set_values(before);
        try {
            raised[b] = h.run_branch(b);
        } catch (...) {
            give_up();
            throw;
        }
        out[b] = h.values();
        tok_out[b] = h.token();
        g.exit();
    }
    h.tape_mark(2);
    if (raised[0] && raised[1]) {
        detail::finish_raising_cond(h, g, node, reg, tok_out, before);
        h.raise_branch_error();
    }
    // ---- merge: what each variable is after the cond, and the results
    std::vector<BranchResult<V>> results;
    std::vector<BranchMerge<V>> merged;
    try {
        merged = detail::merge_all(h, before, out, raised, vars_dead_on, results);
    } catch (const CarriedMismatch& e) {
        give_up();
        h.mismatch(e);
    }
    // ---- the regions' yields, the node's results, the variables after it
    const size_t n_results = results.size();
    h.tape_results(results, reg);
    for (int b = 0; b < 2; ++b) detail::yield_branch(h, g, reg[b], b, tok_out[b], results, where);
    std::vector<ValueId> res = g.finish(node);
    h.token() = res[0];
    std::vector<V> outs;
    for (size_t j = 0; j < n_results; ++j) outs.push_back(h.symbolic(res[1 + j]));
    h.tape_record(outs, res);
    std::vector<V> after;
    for (size_t i = 0; i < vars.size(); ++i) after.push_back(detail::merged_value(h, merged[i], outs, res));
    h.set_values(after);
}

}  // namespace tg::tracer
