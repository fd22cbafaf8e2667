// A converted loop (docs/graph.md "Static and dynamic"): the `while` node built from a condition and a
// body. The steps are the tracer's — plan which variables are carried
// (conversion.hpp), trace the condition region and the body region from the
// carried values, widen the plans and trace again until one iteration keeps
// them, then put the variables back together from the node's results — and
// the host (interp) does what needs its values and evaluator, through
// WhileHost: evaluate the condition and the body, read and set the carried
// variables, make the graph value of a leaf, and the autodiff tape's part.
#pragma once

#include <set>

#include "tracer/conversion.hpp"

namespace tg::tracer {

// The tape node of a value that is not being differentiated.
inline constexpr uint32_t kNoTapeNode = UINT32_MAX;

// Per differentiated leaf of a loop (in id order), what the tape records:
// the tape nodes of the initial values, of the body's arguments and
// yields and of the loop's results; the initial and yielded primals.
template <class V>
struct LoopTapeIds {
    std::vector<uint32_t> in_nodes, arg_nodes, out_nodes, yield_nodes;
    std::vector<V> in_primals, out_primals;
    std::vector<stdlib::TensorType> leaf_types;
};

// A RegionHost (conversion.hpp) that also:
// - says which variables are carried from the first attempt (`forced(i)`:
//   a loop counter);
// - evaluates, in the current region, the loop's condition (`condition`: a
//   static bool or a symbolic bool[]) and its body (`run_body`: true when
//   it raises when it runs — the host added the raise node; any other error
//   propagates and the loop rolls back), after resetting the body's exit
//   flags (`reset_exits`);
// - the tape's part (autodiff): `tape_begin` marks an attempt (true: a tape
//   runs; `tape_roll_back` goes back to the mark);
//   `tape_differentiated(leaf)`: the leaf is differentiated by the innermost
//   tape; `tape_primal(leaf)`: its tape node, the leaf replaced by its
//   primal (kNoTapeNode if not differentiated); `tape_track(v, node)`: v
//   differentiated anew; `tape_body_start` / `tape_body_end(raised, any,
//   body)`: the body's entries (true: the residuals are saved per
//   iteration); `tape_before_loop(node, where)`: the stack's size before
//   it; `tape_record(ids)`: the loop's entry.
template <class H>
concept WhileHost = RegionHost<H> &&
    requires(H& h, size_t i, typename H::Value& lv, const typename H::Value& v, const SrcLoc& where, uint32_t& node,
             LoopTapeIds<typename H::Value>& ids) {
        { h.forced(i) } -> std::same_as<bool>;
        { h.condition() } -> std::same_as<typename H::Value>;
        h.reset_exits();
        { h.run_body() } -> std::same_as<bool>;
        { h.tape_begin() } -> std::same_as<bool>;
        { h.tape_differentiated(v) } -> std::same_as<bool>;
        { h.tape_primal(lv) } -> std::same_as<uint32_t>;
        { h.tape_track(v, node) } -> std::same_as<typename H::Value>;
        h.tape_body_start();
        { h.tape_body_end(true, true, RegionId{}) } -> std::same_as<bool>;
        h.tape_before_loop(NodeId{}, where);
        h.tape_record(ids);
    };

template <WhileHost H>
class WhileConversion {
public:
    using V = typename H::Value;

    WhileConversion(H& h, Graph& g, SrcLoc where) : h_(h), g_(g), where_(std::move(where)), vars_(h.vars()) {}

    // Builds the loop; afterwards the carried variables hold its results.
    void run() {
        entry_ = h_.values();
        plan_.resize(vars_.size());
        for (size_t i = 0; i < vars_.size(); ++i)
            if (h_.forced(i)) carry_or_report(i, entry_[i], nullptr);
        const int max_attempts = 4 * static_cast<int>(vars_.size()) + 4;
        for (int attempt = 0;; ++attempt) {
            h_.set_values(entry_);
            if (attempt > max_attempts) h_.unsupported("this loop (its variables' types do not settle)");
            if (attempt_once()) return;
        }
    }

private:
    // One attempt with the current plans (its graph state to roll back to,
    // and the tape's ids); false when a plan widened (traced again).
    struct Attempt {
        Graph::Checkpoint cp;
        ValueId tok_in;
        bool ad;  // gradients through the loop: only with a tape running
        NodeId node = kNoId;
        RegionId cond_r = 0, body_r = 0;
        std::vector<uint32_t> init_nodes, arg_nodes, yield_nodes, out_nodes;
        std::vector<V> init_primals, yield_primals;
        bool saves = false;  // the body's residuals are saved per iteration
        // (braces at the call: the checkpoint and token are taken before the tape's marks)
        Attempt(Graph::Checkpoint c, ValueId token, bool tape) : cp(c), tok_in(token), ad(tape) {}
    };

    void give_up(const Attempt& at) {
        h_.set_values(entry_);
        h_.token() = at.tok_in;
        g_.rollback(at.cp);
        h_.tape_roll_back();
    }
    void carry_or_report(size_t i, const V& a, const V* b) {
        try {
            carry(h_, vars_[i], plan_[i], a, b);
        } catch (const CarriedMismatch& e) {
            h_.set_values(entry_);
            h_.mismatch(e);
        }
    }

    bool attempt_once() {
        Attempt at{g_.checkpoint(), h_.token(), h_.tape_begin()};
        std::vector<ValueId> inits{h_.token()};
        for (size_t i = 0; i < vars_.size(); ++i)
            if (plan_[i].carried) {
                if (at.ad) newly_differentiated(i, entry_[i]);
                carried_ids(i, entry_[i], inits, at.ad ? &at.init_nodes : nullptr, at.ad ? &at.init_primals : nullptr);
            }
        at.node = g_.add_while(inits, where_);
        at.cond_r = g_.node(at.node).regions[0];
        at.body_r = g_.node(at.node).regions[1];
        condition_region(at);
        if (!body_region(at)) {
            give_up(at);
            return false;
        }
        if (at.saves) h_.tape_before_loop(at.node, where_);
        std::vector<ValueId> res = g_.finish(at.node);
        h_.set_values(entry_);
        bind(res, at.saves ? &at.out_nodes : nullptr);
        if (at.saves) record(at, res);
        return true;
    }

    // "no break/return yet, and the condition", from the carried values;
    // what computed it carries no gradient.
    void condition_region(Attempt& at) {
        g_.enter(at.cond_r);
        bind(g_.args(at.cond_r));
        try {
            const ValueId pred = h_.bool_id(h_.condition(), where_);
            h_.tape_roll_back();
            std::vector<ValueId> ys{pred, h_.token()};
            const std::vector<V> now = h_.values();
            for (size_t i = 0; i < vars_.size(); ++i)
                if (plan_[i].carried) carried_ids(i, now[i], ys);
            g_.yield(ys);
        } catch (...) {
            give_up(at);
            throw;
        }
        g_.exit();
    }

    // The body from the carried values; false when a plan widened (retry).
    bool body_region(Attempt& at) {
        g_.enter(at.body_r);
        bind(g_.args(at.body_r), at.ad ? &at.arg_nodes : nullptr);
        h_.tape_body_start();
        h_.reset_exits();
        bool raised;
        try {
            raised = h_.run_body();
        } catch (...) {
            give_up(at);
            throw;
        }
        if (!raised && settle_plans(at)) {
            g_.exit();
            return false;
        }
        if (at.ad) at.saves = h_.tape_body_end(raised, !diff_keys_.empty(), at.body_r);
        std::vector<ValueId> ys{h_.token()};
        if (raised) {  // the body raises: it yields its arguments
            std::span<const ValueId> args = g_.args(at.body_r);
            ys.assign(args.begin(), args.end());
            ys[0] = h_.token();
        } else {
            const std::vector<V> now = h_.values();
            for (size_t i = 0; i < vars_.size(); ++i)
                if (plan_[i].carried)
                    carried_ids(i, now[i], ys, at.saves ? &at.yield_nodes : nullptr,
                                at.saves ? &at.yield_primals : nullptr);
        }
        g_.yield(ys);
        g_.exit();
        return true;
    }

    // settle() on the body's values; a mismatch is reported after the roll back.
    bool settle_plans(Attempt& at) {
        const std::vector<V> now = h_.values();
        auto newly = [&](size_t i) { return at.ad && newly_differentiated(i, now[i]); };
        try {
            return settle(h_, vars_, std::span<const V>(entry_), std::span<const V>(now), std::span<CarryPlan<V>>(plan_),
                          newly);
        } catch (const CarriedMismatch& e) {
            g_.exit();
            give_up(at);
            h_.mismatch(e);
        } catch (...) {
            g_.exit();
            give_up(at);
            throw;
        }
        return false;
    }

    // The leaves (and flag) of carried variable i's value `v`, as graph
    // values of the plan's types. With `nodes`: per id, the tape node of a
    // leaf being differentiated (kNoTapeNode otherwise) and in `primals`
    // its value; the id is the primal's.
    void carried_ids(size_t i, const V& v, std::vector<ValueId>& out, std::vector<uint32_t>* nodes = nullptr,
                     std::vector<V>* primals = nullptr) {
        const CarryPlan<V>& p = plan_[i];
        auto note = [&](uint32_t n, V primal) {
            if (nodes) nodes->push_back(n);
            if (primals) primals->push_back(std::move(primal));
        };
        if (vars_[i].role == CarriedRole::Flag) {
            out.push_back(h_.bool_id(v, where_));
            note(kNoTapeNode, V());
            return;
        }
        const CarriedParts<V> pv = parts_with_none(h_, v, p.none);
        const std::vector<V> ls = pv.inner ? h_.leaves(*pv.inner) : std::vector<V>{};
        for (size_t k = 0; k < p.types.size(); ++k) {
            if (pv.inner) {
                V leaf = ls[k];
                const uint32_t n = nodes ? h_.tape_primal(leaf) : kNoTapeNode;
                out.push_back(h_.leaf_id(leaf, p.types[k], where_));
                note(n, leaf);
            } else {
                out.push_back(g_.undef(ValueType::of(p.types[k]), where_));
                note(kNoTapeNode, V());
            }
        }
        if (p.flag) {
            out.push_back(h_.bool_id(pv.defined, where_));
            note(kNoTapeNode, V());
        }
    }

    // Binds the carried variables to `ids` (region arguments or the loop's
    // results). With `nodes`: the leaves in diff_keys_ are bound as values
    // differentiated anew, their tape nodes noted in order.
    void bind(std::span<const ValueId> ids, std::vector<uint32_t>* nodes = nullptr) {
        size_t k = 1;
        h_.token() = ids[0];
        auto leaf = [&](size_t i, size_t j) {
            // named after the variable, for DOT (the text form numbers region arguments)
            const std::string name(vars_[i].name);
            g_.set_name(ids[k], plan_[i].types.size() == 1 ? name : name + "[" + std::to_string(j) + "]");
            V v = h_.symbolic(ids[k++]);
            if (!nodes || !diff_keys_.count({i, j})) return v;
            uint32_t node = kNoTapeNode;
            V t = h_.tape_track(v, node);
            nodes->push_back(node);
            return t;
        };
        std::vector<V> values = h_.values();
        for (size_t i = 0; i < vars_.size(); ++i) {
            const CarryPlan<V>& p = plan_[i];
            if (!p.carried) continue;
            if (vars_[i].role == CarriedRole::Flag) {
                g_.set_name(ids[k], std::string(vars_[i].name));
                values[i] = h_.symbolic(ids[k++]);
                continue;
            }
            std::vector<V> leaves;
            for (size_t j = 0; j < p.types.size(); ++j) leaves.push_back(leaf(i, j));
            V v = h_.is_defined(p.skeleton) ? h_.rebuild(p.skeleton, std::span<const V>(leaves)) : V();
            if (p.flag) {
                g_.set_name(ids[k], std::string(vars_[i].name) + " defined");
                v = h_.make_maybe(std::move(v), h_.symbolic(ids[k++]), p.none);
            }
            values[i] = std::move(v);
        }
        h_.set_values(values);
    }

    // The leaves of `v` (carried variable i) differentiated by the innermost
    // tape that are not yet in diff_keys_ (float leaves only): true if any.
    bool newly_differentiated(size_t i, const V& v) {
        if (vars_[i].role == CarriedRole::Flag) return false;
        const CarriedParts<V> pv = parts_with_none(h_, v, plan_[i].none);
        const std::vector<V> ls = pv.inner ? h_.leaves(*pv.inner) : std::vector<V>{};
        bool any = false;
        for (size_t k = 0; k < ls.size() && k < plan_[i].types.size(); ++k)
            if (h_.tape_differentiated(ls[k]) && stdlib::is_float(plan_[i].types[k].dtype) &&
                diff_keys_.insert({i, k}).second)
                any = true;
        return any;
    }

    // The tape's record of the loop: per differentiated leaf, in id order.
    void record(const Attempt& at, const std::vector<ValueId>& res) {
        const std::vector<std::pair<size_t, size_t>> keys =
            carried_keys<V>(vars_, std::span<const CarryPlan<V>>(plan_));
        LoopTapeIds<V> ids;
        size_t a = 0;
        for (size_t pos = 0; pos < keys.size(); ++pos) {
            if (!diff_keys_.count(keys[pos])) continue;
            ids.in_nodes.push_back(at.init_nodes[pos]);
            ids.in_primals.push_back(at.init_primals[pos]);
            ids.leaf_types.push_back(g_.tensor_type(res[1 + pos]));
            ids.arg_nodes.push_back(at.arg_nodes[a]);
            ids.out_nodes.push_back(at.out_nodes[a]);
            ids.yield_nodes.push_back(at.yield_nodes[pos]);
            ids.out_primals.push_back(at.yield_primals[pos]);
            ++a;
        }
        h_.tape_record(ids);
    }

    H& h_;
    Graph& g_;
    SrcLoc where_;
    std::span<const CarriedVar> vars_;
    std::vector<V> entry_;  // the variables' values before the loop
    std::vector<CarryPlan<V>> plan_;
    // Which carried ids (after the token) hold a leaf being differentiated,
    // keyed by (variable, leaf) so that the set survives a retry's new plan.
    std::set<std::pair<size_t, size_t>> diff_keys_;
};

// The `while` node of a converted loop at `where`, its condition and body
// the host's. Afterwards the carried variables hold the loop's results.
template <WhileHost H>
void convert_while(H& h, Graph& g, const SrcLoc& where) {
    WhileConversion<H>(h, g, where).run();
}

}  // namespace tg::tracer
