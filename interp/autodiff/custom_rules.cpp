// Calls whose backward is given instead of taped (docs/training.md
// "Custom gradients and checkpointing"): custom_vjp's user-written rule and
// checkpoint's recomputation. Either is one tape entry (TapeEntry::Custom)
// on the innermost tape an argument is tracked on; the function's own ops
// are not recorded there, so nothing of its inside is kept for the
// backward pass but what the rule holds (custom_vjp: the residuals fwd
// returned; checkpoint: the arguments).
#include <memory>
#include <string>
#include <vector>

#include "interp/autodiff/tape_internal.hpp"
#include "interp/check_args.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"

namespace tg::interp {

struct CustomVjpRule {
    Value f, fwd, bwd;
    std::string name;
};

namespace {

using ad::is_container;
using ad::tensor_leaves;

// `tree` with each tensor leaf replaced by f(leaf), in order.
template <class F>
Value map_leaves(const Value& tree, F&& f) {
    if (tree.is_tensor()) return f(tree);
    if (!is_container(tree)) return tree;
    std::vector<Value> items;
    for (const Value& x : tree.child_values()) items.push_back(map_leaves(x, f));
    return tree.with_children(std::move(items));
}

uint32_t innermost_level(const Runtime& rt, const std::vector<Value>& args) {
    uint32_t level = 0;
    for (const Value& a : args) {
        std::vector<Value> leaves;
        tensor_leaves(a, leaves);
        for (const Value& v : leaves) level = std::max(level, tracked_level(rt, v));
    }
    return level;
}

// The arguments seen from tape `level`: primals there, with the node of
// each tensor leaf (kNotTracked where it is not tracked there).
std::vector<Value> primals_at(const Runtime& rt, const std::vector<Value>& args, uint32_t level,
                              std::vector<uint32_t>& nodes, std::vector<Value>& leaf_primals) {
    std::vector<Value> out;
    for (const Value& a : args)
        out.push_back(map_leaves(a, [&](const Value& v) {
            uint32_t node = kNotTracked;
            Value p = ad::primal_at_level(rt, v, level, &node);
            nodes.push_back(node);
            leaf_primals.push_back(p);
            return p;
        }));
    return out;
}

// Records the call: its float output leaves become nodes of `tape`, and the
// entry's backward is `rule`. Returns the output with those leaves tracked.
Value record_custom(Tape& tape, const Value& out, std::vector<Value> in_primals, std::vector<uint32_t> in_nodes,
                    std::function<std::vector<Value>(Runtime&, const std::vector<Value>&)> backward) {
    auto rule = std::make_shared<CustomRule>();
    rule->out = out;
    rule->backward = std::move(backward);
    Value tracked = map_leaves(out, [&](const Value& v) {
        if (!stdlib::is_float(v.tensor_type().dtype)) {
            rule->out_nodes.push_back(kNotTracked);
            return v;
        }
        Value w = ad::track(tape, v);
        rule->out_nodes.push_back(w.tracked()->node);
        return w;
    });
    TapeEntry e;
    e.what = TapeEntry::What::Custom;
    e.inputs = std::move(in_primals);
    e.in_nodes = std::move(in_nodes);
    e.out_node = kNotTracked;
    e.custom = std::move(rule);
    tape.push(std::move(e));
    return tracked;
}

// The output cotangent tree: each leaf's cotangent, zeros where none reached it.
Value cotangent_tree(Runtime& rt, const Value& out, const std::vector<Value>& cots) {
    size_t k = 0;
    return map_leaves(out, [&](const Value& v) {
        const Value& c = cots[k++];
        stdlib::TensorType t = v.tensor_type();
        t.weak = false;
        return c.defined() ? c : ad::zeros_of(rt, t);
    });
}

// ------------------------------------------------------------------ custom_vjp

// bwd's result, one tree per argument, as one cotangent per argument leaf.
std::vector<Value> rule_cotangents(const CustomVjpRule& r, const Value& result, const std::vector<Value>& args) {
    if (!result.is_sequence() || result.items().size() != args.size())
        throw Error("custom_vjp: `" + r.name + "`'s backward must return a tuple of " + std::to_string(args.size()) +
                    " cotangents, one per argument (None for none), not " +
                    (result.is_sequence() ? "a " + std::string(kind_name(result.kind())) + " of " +
                                                std::to_string(result.items().size())
                                          : ad::describe(result)));
    std::vector<Value> out;
    for (size_t i = 0; i < args.size(); ++i) {
        std::vector<Value> want, got;
        tensor_leaves(args[i], want);
        if (result.items()[i].is(Kind::None)) {
            out.insert(out.end(), want.size(), Value());
            continue;
        }
        tensor_leaves(result.items()[i], got);
        if (got.size() != want.size())
            throw Error("custom_vjp: `" + r.name + "`'s backward returned " + std::to_string(got.size()) +
                        " tensors for argument " + std::to_string(i) + ", which has " + std::to_string(want.size()));
        for (size_t k = 0; k < got.size(); ++k)
            if (!(got[k].tensor_type().shape == want[k].tensor_type().shape))
                throw Error("custom_vjp: `" + r.name + "`'s backward returned a cotangent of shape " +
                            got[k].tensor_type().shape.to_string() + " for argument " + std::to_string(i) +
                            ", whose shape is " + want[k].tensor_type().shape.to_string());
        out.insert(out.end(), got.begin(), got.end());
    }
    return out;
}

Value call_custom_vjp(Runtime& rt, const std::shared_ptr<CustomVjpRule>& r, const CallArgs& a) {
    if (!a.keywords.empty()) throw Error("custom_vjp: `" + r->name + "` takes positional arguments only");
    std::vector<Value> args(a.positional.begin(), a.positional.end());
    const uint32_t level = innermost_level(rt, args);
    if (level == 0) return ad::call_function(rt, r->f, args, a.loc);
    if (!r->fwd.defined())
        throw Error("custom_vjp: `" + r->name + "` is differentiated but has no rule: call " + r->name +
                    ".defvjp(fwd, bwd) first");
    std::vector<uint32_t> nodes;
    std::vector<Value> leaf_primals;
    std::vector<Value> primals = primals_at(rt, args, level, nodes, leaf_primals);
    Value pair = ad::call_function(rt, r->fwd, primals, a.loc);
    if (!pair.is_sequence() || pair.items().size() != 2)
        throw Error("custom_vjp: `" + r->name + "`'s forward must return a pair (output, residuals), not " +
                    ad::describe(pair));
    const Value out = pair.items()[0], res = pair.items()[1];
    auto backward = [r, res, out, primals, loc = a.loc](Runtime& rt, const std::vector<Value>& cots) {
        Value result = ad::call_function(rt, r->bwd, {res, cotangent_tree(rt, out, cots)}, loc);
        return rule_cotangents(*r, result, primals);
    };
    return record_custom(*rt.tapes[level - 1], out, leaf_primals, nodes, backward);
}

Value make_custom_vjp_value(std::shared_ptr<CustomVjpRule> r) {
    auto obj = std::make_shared<BuiltinObj>();
    obj->name = r->name;
    obj->custom_vjp = r;
    obj->fn = [r](Runtime& rt, const CallArgs& a) { return call_custom_vjp(rt, r, a); };
    return Value::builtin(std::move(obj));
}

void check_function(const Value& f, const std::string& what) {
    if (!f.is(Kind::Function) && !f.is(Kind::Builtin) && !f.is(Kind::BoundMethod))
        throw Error(what + " must be a function, not a " + kind_name(f.kind()));
}

Value custom_vjp_builtin(Runtime&, const CallArgs& a) {
    check_arguments("custom_vjp(f, fwd=None, bwd=None, /)", a);  // docs/builtins.md
    check_function(a.positional[0], "custom_vjp: the first argument");
    auto r = std::make_shared<CustomVjpRule>();
    r->f = a.positional[0];
    r->name = r->f.is(Kind::Function) ? r->f.function().name : "function";
    if (a.positional.size() == 2) throw Error("custom_vjp: give both fwd and bwd, or neither");
    if (a.positional.size() == 3) {
        check_function(a.positional[1], "custom_vjp: fwd");
        check_function(a.positional[2], "custom_vjp: bwd");
        r->fwd = a.positional[1];
        r->bwd = a.positional[2];
    }
    return make_custom_vjp_value(std::move(r));
}

// f.defvjp(fwd, bwd): sets the rule of a custom_vjp function (JAX's form).
Value defvjp_builtin(Runtime&, const CallArgs& a) {
    check_arguments("defvjp(f, fwd, bwd, /)", a);  // docs/builtins.md
    const Value& f = a.positional[0];
    if (!f.is(Kind::Builtin) || !f.builtin().custom_vjp)
        throw Error("defvjp: the function must be made by custom_vjp (f = custom_vjp(f)), not a " +
                    std::string(f.is(Kind::Builtin) ? "builtin" : kind_name(f.kind())));
    check_function(a.positional[1], "defvjp: fwd");
    check_function(a.positional[2], "defvjp: bwd");
    f.builtin().custom_vjp->fwd = a.positional[1];
    f.builtin().custom_vjp->bwd = a.positional[2];
    return Value::none();
}

// ------------------------------------------------------------------ checkpoint

// The backward of a checkpointed call: f again on the saved arguments, on
// a tape of its own, swept back from the outputs' cotangents.
std::vector<Value> recompute(Runtime& rt, const Value& f, const std::vector<Value>& primals,
                             const std::vector<Value>& cots, lang::Loc loc) {
    ad::TapeScope scope(rt);
    Tape& tape = *scope.tape;
    std::vector<Value> leaves;
    std::vector<Value> args;
    for (const Value& p : primals)
        args.push_back(map_leaves(p, [&](const Value& v) {
            Value w = stdlib::is_float(v.tensor_type().dtype) ? ad::track(tape, v) : v;
            leaves.push_back(w);
            return w;
        }));
    Value out = ad::call_function(rt, f, args, loc);
    scope.pop();
    std::vector<Value> outs;
    tensor_leaves(out, outs);
    std::vector<std::pair<uint32_t, Value>> seeds;
    for (size_t k = 0; k < outs.size() && k < cots.size(); ++k) {
        const GradObj* g = outs[k].tracked();
        if (g && g->tape == tape.id && cots[k].defined()) seeds.emplace_back(g->node, cots[k]);
    }
    std::vector<Value> cot = ad::backward_from(rt, tape, seeds);
    std::vector<Value> result;
    for (const Value& l : leaves) {
        const GradObj* g = l.tracked();
        result.push_back(g ? cot[g->node] : Value());
    }
    return result;
}

Value call_checkpoint(Runtime& rt, const Value& f, const CallArgs& a) {
    if (!a.keywords.empty()) throw Error("checkpoint(f): the function it returns takes positional arguments only");
    std::vector<Value> args(a.positional.begin(), a.positional.end());
    const uint32_t level = innermost_level(rt, args);
    if (level == 0) return ad::call_function(rt, f, args, a.loc);
    std::vector<uint32_t> nodes;
    std::vector<Value> leaf_primals;
    std::vector<Value> primals = primals_at(rt, args, level, nodes, leaf_primals);
    Value out = ad::call_function(rt, f, primals, a.loc);
    auto backward = [f, primals, loc = a.loc](Runtime& rt, const std::vector<Value>& cots) {
        return recompute(rt, f, primals, cots, loc);
    };
    return record_custom(*rt.tapes[level - 1], out, leaf_primals, nodes, backward);
}

Value checkpoint_builtin(Runtime&, const CallArgs& a) {
    check_arguments("checkpoint(f, /)", a);  // docs/builtins.md
    check_function(a.positional[0], "checkpoint: the argument");
    Value f = a.positional[0];
    std::string shown = "checkpoint(" + (f.is(Kind::Function) ? f.function().name : std::string("function")) + ")";
    return Value::builtin(std::make_shared<BuiltinObj>(
        BuiltinObj{shown, [f](Runtime& rt, const CallArgs& c) { return call_checkpoint(rt, f, c); }}));
}

}  // namespace

void add_custom_rule_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const char* name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)})));
    };
    add("custom_vjp", custom_vjp_builtin);
    add("defvjp", defvjp_builtin);
    add("checkpoint", checkpoint_builtin);
}

}  // namespace tg::interp
