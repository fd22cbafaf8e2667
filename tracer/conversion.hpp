// The AutoGraph conversion's policy (docs/graph.md "Static and dynamic"): which variables a converted
// `if` or loop carries, and in what form. For each carried variable it
// decides, from the values the paths give it, whether it stays as it is
// (the same object on every path, a static value), or becomes results of
// the `cond` / carried values of the `while`: its tensor leaves (of joined
// types), a static skeleton the leaves are put back into, and a hidden
// defined-flag where it is undefined or None on some path.
//
// The values are the host's (interp's Value); the policy knows them only
// through the ConversionHost concept below — compare two for identity, take
// one apart into its tensor leaves and its definedness, compare two
// skeletons — so tracer/ needs nothing of interp. The host evaluates the
// bodies, builds the regions from these decisions, and handles the autodiff
// tape (interp/tracing/autograph.cpp). Two values that do not merge throw
// CarriedMismatch, which the host turns into the conversion error
// (mismatch_message, carried_merge.hpp) after rolling back.
#pragma once

#include <concepts>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tracer/carried_merge.hpp"
#include "tracer/graph.hpp"

namespace tg::tracer {

// What a carried variable is: a local variable, the function's return
// value, or a hidden break/continue/return flag (a bool).
enum class CarriedRole : uint8_t { Var, Ret, Flag };

struct CarriedVar {
    std::string_view name;  // as messages name it: "x", "the return value", "break" (the host keeps the text)
    CarriedRole role = CarriedRole::Var;
};

// A value taken apart into what it is where defined, and whether it is.
template <class V>
struct CarriedParts {
    const V* inner = nullptr;  // null: undefined (or None) on this path
    V defined;                 // a static bool, or a symbolic bool[]
    bool none = false;         // where not `defined`, the value is None (not undefined)
    bool unset = false;        // undefined on some path (a plain or maybe-undefined variable)
};

// What the policy asks of the host's values. `parts` takes a value apart:
// a maybe-undefined one into its inner value and flag, an undefined one
// into {null, false, unset}, anything else into {&v, true}. `leaves` lists
// the tensor leaves in order (lists, tuples, dicts' values walked);
// `structure_diff` is the first difference of two values' skeletons
// (tensors anywhere a tensor is, equal static parts), or nullopt.
// `unsupported` throws the host's "not supported in a graph" error.
template <class H>
concept ConversionHost = requires(const H& h, const typename H::Value& v, const std::string& s) {
    { h.identical(v, v) } -> std::same_as<bool>;
    { h.parts(v) } -> std::same_as<CarriedParts<typename H::Value>>;
    { h.has_value(v) } -> std::same_as<bool>;   // defined and not None (a maybe-undefined one: its inner value is)
    { h.is_defined(v) } -> std::same_as<bool>;  // has any value (None included)
    { h.is_none(v) } -> std::same_as<bool>;
    { h.is_static(v) } -> std::same_as<bool>;   // defined, not maybe-undefined, no symbolic part
    { h.statically_true(v) } -> std::same_as<bool>;
    { h.static_bool(true) } -> std::same_as<typename H::Value>;
    { h.leaves(v) } -> std::same_as<std::vector<typename H::Value>>;
    { h.type(v) } -> std::same_as<stdlib::TensorType>;  // of a tensor leaf
    { h.structure_diff(v, v) } -> std::same_as<std::optional<Mismatch>>;
    h.unsupported(s);
};

// Thrown when the two values of `var` do not merge.
struct CarriedMismatch {
    std::string var;
    Mismatch mismatch;
};

// A ConversionHost that builds the regions of a cond or a while with the
// tracer (convert_cond.hpp, convert_while.hpp); it also:
// - names the carried variables (`vars`), reads their values and sets them;
// - owns the trace's token (`token`: the graph value effects are threaded on);
// - throws the conversion error of a mismatch (`mismatch`), after the roll back;
// - makes the graph value of a leaf of the joined type (`leaf_id`: a
//   literal becomes a constant, a weak value strong) and of a flag
//   (`bool_id`), the host value of a graph value (`symbolic`), and puts a
//   variable back together (`rebuild`: leaves into a skeleton; `make_maybe`:
//   a value with its defined-flag);
// - drops what the autodiff tape recorded since the construct began
//   (`tape_roll_back`).
template <class H>
concept RegionHost = ConversionHost<H> &&
    requires(H& h, const typename H::Value& v, std::vector<typename H::Value>& vs, const CarriedMismatch& m,
             const stdlib::TensorType& t, const SrcLoc& where, std::span<const typename H::Value> leaves) {
        { h.vars() } -> std::same_as<std::span<const CarriedVar>>;
        { h.values() } -> std::same_as<std::vector<typename H::Value>>;
        h.set_values(vs);
        { h.token() } -> std::same_as<ValueId&>;
        h.mismatch(m);
        { h.leaf_id(v, t, where) } -> std::same_as<ValueId>;
        { h.bool_id(v, where) } -> std::same_as<ValueId>;
        { h.symbolic(ValueId{}) } -> std::same_as<typename H::Value>;
        { h.rebuild(v, leaves) } -> std::same_as<typename H::Value>;
        { h.make_maybe(v, v, true) } -> std::same_as<typename H::Value>;
        h.tape_roll_back();
    };

// A value on one path, as the policy sees it: None counts as the plain
// value (with the None flag) where another path gives the variable a
// value, so that the two meet (docs/graph.md "Static and dynamic").
template <ConversionHost H>
CarriedParts<typename H::Value> parts_with_none(const H& h, const typename H::Value& v, bool other_has_value) {
    if (h.is_none(v) && other_has_value) return {nullptr, h.static_bool(false), true, false};
    return h.parts(v);
}

// "`x`, which is None on some paths and not defined on others"
std::string none_and_undefined(std::string_view var);

// ------------------------------------------------------------------ cond

// One result of a cond beyond the token: a tensor leaf or a defined-flag,
// as each branch yields it (undefined: that branch gives none).
template <class V>
struct BranchResult {
    V side[2];
    stdlib::TensorType type;
    bool is_flag = false;
};

// A variable after the cond: kept as it is, or rebuilt from the cond's results.
template <class V>
struct BranchMerge {
    bool keep = true;
    V value;                  // keep: the value after the cond
    V skeleton;               // else: rebuilt from the results
    std::vector<int> leaf;    // per leaf of the skeleton: result index, or -1 (static: take static_leaf)
    std::vector<V> static_leaf;
    int flag = -1;            // result index of the defined flag, or -1
    bool none = false;        // where the flag is false: None (else undefined)
};

namespace detail {

// The value after the cond when it needs no result: both sides gone, one
// side gone and the other unchanged or static, or both identical.
template <ConversionHost H>
std::optional<typename H::Value> needs_no_result(const H& h, const typename H::Value& before,
                                                 const typename H::Value* const out[2], const bool gone[2]) {
    if (gone[0] && gone[1]) return before;
    if (gone[0] || gone[1]) {
        const auto& live = gone[0] ? *out[1] : *out[0];
        if (h.identical(live, before)) return before;
        // The other side raises (or never reads it again): a static value
        // of the live side is the value after the cond — so a `return`
        // whose alternative raises still returns on every path.
        if (h.is_static(live)) return live;
        return std::nullopt;
    }
    if (h.identical(*out[0], *out[1])) return *out[0];
    return std::nullopt;
}

template <class V>
BranchResult<V> flag_result(const V& a, const V& b, const bool gone[2]) {
    BranchResult<V> y;
    y.is_flag = true;
    y.type = {stdlib::DType::Bool, {}, false};
    if (!gone[0]) y.side[0] = a;
    if (!gone[1]) y.side[1] = b;
    return y;
}

// The tensor leaves of the value on each side (where defined): equal ones
// stay static, the others become results of the joined type.
template <ConversionHost H>
void merge_leaves(const H& h, std::string_view var, const CarriedParts<typename H::Value> p[2],
                  BranchMerge<typename H::Value>& r, std::vector<BranchResult<typename H::Value>>& results) {
    using V = typename H::Value;
    std::vector<V> leaves[2];
    for (int s = 0; s < 2; ++s)
        if (p[s].inner) leaves[s] = h.leaves(*p[s].inner);
    const size_t nl = (p[0].inner ? leaves[0] : leaves[1]).size();
    for (size_t k = 0; k < nl; ++k) {
        const V* l0 = p[0].inner ? &leaves[0][k] : nullptr;
        const V* l1 = p[1].inner ? &leaves[1][k] : nullptr;
        if (l0 && l1 && h.identical(*l0, *l1)) {
            r.leaf.push_back(-1);
            r.static_leaf.push_back(*l0);
            continue;
        }
        BranchResult<V> y;
        if (l0 && l1) {
            stdlib::TensorType t0 = h.type(*l0), t1 = h.type(*l1);
            std::optional<stdlib::TensorType> j = join(t0, t1);
            if (!j) throw CarriedMismatch{std::string(var), type_mismatch(t0, t1)};
            y.type = *j;
        } else {
            y.type = h.type(l0 ? *l0 : *l1);
        }
        if (l0) y.side[0] = *l0;
        if (l1) y.side[1] = *l1;
        r.leaf.push_back(static_cast<int>(results.size()));
        r.static_leaf.emplace_back();
        results.push_back(std::move(y));
    }
}

}  // namespace detail

// What `var` (`before` the cond, `out` after each branch; a `gone` side —
// it raised, or returned — gives no value) is after the cond; the results
// it needs are appended to `results`. Throws CarriedMismatch, or the
// host's unsupported error.
template <ConversionHost H>
BranchMerge<typename H::Value> merge_branches(const H& h, const CarriedVar& var, const typename H::Value& before,
                                              const typename H::Value* const out[2], const bool gone[2],
                                              std::vector<BranchResult<typename H::Value>>& results) {
    using V = typename H::Value;
    BranchMerge<V> r;
    if (std::optional<V> v = detail::needs_no_result(h, before, out, gone)) {
        r.value = std::move(*v);
        return r;
    }
    if (var.role == CarriedRole::Flag) {
        r.keep = false;
        r.skeleton = h.static_bool(false);
        r.leaf.push_back(static_cast<int>(results.size()));
        r.static_leaf.emplace_back();
        results.push_back(detail::flag_result(*out[0], *out[1], gone));
        return r;
    }
    CarriedParts<V> p[2];
    for (int s = 0; s < 2; ++s)
        if (!gone[s]) p[s] = parts_with_none(h, *out[s], !gone[1 - s] && h.has_value(*out[1 - s]));
    const bool none = p[0].none || p[1].none;
    if (none && (p[0].unset || p[1].unset)) h.unsupported(none_and_undefined(var.name));
    const V* sk = p[0].inner ? p[0].inner : p[1].inner;
    if (!sk) {  // undefined on every path that gets here
        r.value = V();
        return r;
    }
    if (p[0].inner && p[1].inner) {
        if (auto d = h.structure_diff(*p[0].inner, *p[1].inner)) {
            if (var.role == CarriedRole::Ret)
                h.unsupported("a function returning different kinds of values on different paths");
            throw CarriedMismatch{std::string(var.name), *d};
        }
    }
    r.keep = false;
    r.skeleton = *sk;
    detail::merge_leaves(h, var.name, p, r, results);
    const bool def0 = gone[0] || h.statically_true(p[0].defined);
    const bool def1 = gone[1] || h.statically_true(p[1].defined);
    r.none = none;
    if ((var.role == CarriedRole::Var || none) && !(def0 && def1)) {
        r.flag = static_cast<int>(results.size());
        results.push_back(detail::flag_result(p[0].defined, p[1].defined, gone));
    }
    return r;
}

// ------------------------------------------------------------------ while

// How a converted loop carries one variable: not at all (it keeps its value
// before the loop), or as its skeleton's tensor leaves of these types, plus
// a defined-flag. Plans only widen, attempt by attempt, until one traced
// iteration of the body keeps them all (settle).
template <class V>
struct CarryPlan {
    bool carried = false;
    bool flag = false;
    bool none = false;  // the flag says None / a value (not undefined / defined)
    V skeleton;
    std::vector<stdlib::TensorType> types;
};

// Makes `var` carried with the structure of `a` (and `b`, its value after
// one iteration, when known): types joined. Throws CarriedMismatch, or the
// host's unsupported error.
template <ConversionHost H>
void carry(const H& h, const CarriedVar& var, CarryPlan<typename H::Value>& p, const typename H::Value& a,
           const typename H::Value* b) {
    using V = typename H::Value;
    p.carried = true;
    if (var.role == CarriedRole::Flag) {
        p.skeleton = h.static_bool(false);
        p.types = {stdlib::TensorType{stdlib::DType::Bool, {}, false}};
        return;
    }
    CarriedParts<V> pa = parts_with_none(h, a, (b && h.has_value(*b)) || p.none);
    CarriedParts<V> pb = b ? parts_with_none(h, *b, h.has_value(a) || p.none) : CarriedParts<V>{};
    if (pa.none || pb.none) p.none = true;
    if (p.none && (pa.unset || pb.unset)) h.unsupported(none_and_undefined(var.name));
    const V* sk = pa.inner ? pa.inner : pb.inner;
    if ((var.role == CarriedRole::Var || p.none) &&
        (!h.statically_true(pa.defined) || (b && !h.statically_true(pb.defined))))
        p.flag = true;
    if (!sk) return;
    if (pa.inner && pb.inner) {
        if (auto d = h.structure_diff(*pa.inner, *pb.inner)) {
            if (var.role == CarriedRole::Ret) h.unsupported("a loop returning different kinds of values");
            throw CarriedMismatch{std::string(var.name), *d};
        }
    }
    p.skeleton = *sk;
    std::vector<V> la, lb;
    if (pa.inner) la = h.leaves(*pa.inner);
    if (pb.inner) lb = h.leaves(*pb.inner);
    const std::vector<V>& ls = pa.inner ? la : lb;
    p.types.clear();
    for (size_t k = 0; k < ls.size(); ++k) {
        stdlib::TensorType t = h.type(ls[k]);
        if (pa.inner && pb.inner) {
            stdlib::TensorType u = h.type(lb[k]);
            std::optional<stdlib::TensorType> j = join(t, u);
            if (!j) throw CarriedMismatch{std::string(var.name), type_mismatch(t, u)};
            t = *j;
        }
        p.types.push_back(t);
    }
}

// After one traced body (`now`: the variables' values after it, `entry`:
// before the loop): widens the plans to what the body gave — a variable it
// changed, a type joined with a literal's, a defined-flag needed; true when
// the loop must be traced again with them. `newly_differentiated(i)` is the
// autodiff tape's part (a carried variable's leaf now differentiated: trace
// again); it is asked about every carried variable. Throws CarriedMismatch,
// or the host's unsupported error.
template <ConversionHost H>
bool settle(const H& h, std::span<const CarriedVar> vars, std::span<const typename H::Value> entry,
            std::span<const typename H::Value> now, std::span<CarryPlan<typename H::Value>> plan,
            const std::function<bool(size_t)>& newly_differentiated) {
    using V = typename H::Value;
    bool retry = false;
    for (size_t i = 0; i < vars.size(); ++i) {
        CarryPlan<V>& p = plan[i];
        if (p.carried && newly_differentiated(i)) retry = true;
        if (!p.carried) {
            if (h.identical(now[i], entry[i])) continue;
            carry(h, vars[i], p, entry[i], &now[i]);
            retry = true;
            continue;
        }
        if (vars[i].role == CarriedRole::Flag) continue;
        if (!p.none && h.is_none(now[i]) && h.is_defined(p.skeleton) && !h.is_none(p.skeleton)) {
            carry(h, vars[i], p, entry[i], &now[i]);  // a value before, None now: carried with the None flag
            retry = true;
            continue;
        }
        CarriedParts<V> pn = parts_with_none(h, now[i], p.none);
        if ((vars[i].role == CarriedRole::Var || p.none) && !p.flag && !h.statically_true(pn.defined)) {
            p.flag = true;
            retry = true;
        }
        if (!pn.inner) continue;
        if (!h.is_defined(p.skeleton)) {  // first assigned in the loop
            carry(h, vars[i], p, entry[i], &now[i]);
            retry = true;
            continue;
        }
        const V skeleton = p.skeleton;
        // compare the new value against the plan's structure and types
        if (h.structure_diff(skeleton, *pn.inner)) carry(h, vars[i], p, skeleton, pn.inner);  // throws
        const std::vector<V> ls = h.leaves(*pn.inner);
        for (size_t k = 0; k < ls.size(); ++k) {
            stdlib::TensorType t = h.type(ls[k]);
            std::optional<stdlib::TensorType> j = join(p.types[k], t);
            if (!j) throw CarriedMismatch{std::string(vars[i].name), type_mismatch(p.types[k], t)};
            if (j->weak != p.types[k].weak || j->dtype != p.types[k].dtype) {
                p.types[k] = *j;
                retry = true;
            }
        }
    }
    return retry;
}

// The carried ids of a loop (after the token), in order, as keys that
// survive a retry's new plans: (variable, leaf), with SIZE_MAX for a flag
// (a hidden flag variable, or a variable's defined-flag).
template <class V>
std::vector<std::pair<size_t, size_t>> carried_keys(std::span<const CarriedVar> vars,
                                                    std::span<const CarryPlan<V>> plan) {
    std::vector<std::pair<size_t, size_t>> keys;
    for (size_t i = 0; i < vars.size(); ++i) {
        const CarryPlan<V>& p = plan[i];
        if (!p.carried) continue;
        if (vars[i].role == CarriedRole::Flag) {
            keys.push_back({i, SIZE_MAX});
            continue;
        }
        for (size_t k = 0; k < p.types.size(); ++k) keys.push_back({i, k});
        if (p.flag) keys.push_back({i, SIZE_MAX});
    }
    return keys;
}

}  // namespace tg::tracer
