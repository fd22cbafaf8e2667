// JAX's transformations beyond grad (docs/training.md "Transformations"),
// built on grad's tape:
// - vjp(f, *primals): f runs once on tracked primals; the tape is kept, and
//   the returned function sweeps it back from any cotangent.
// - jvp, jacfwd: forward mode by transposing the reverse rules. The
//   vector-Jacobian product u -> J^T u is linear in u, so it is itself run
//   on a tracked u, and sweeping *that* tape back from a tangent t gives
//   J t. Every op with a gradient rule so has a tangent, at the cost of one
//   forward and two reverse sweeps (jacfwd: the second once per column).
// - jacrev: one forward, one reverse sweep per output element; hessian is
//   jacfwd(jacrev(f)).
// - custom_vjp / checkpoint: a call recorded as one tape entry whose
//   backward is given (the user's bwd; checkpoint's: run f again and sweep).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/autodiff/tape_internal.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

namespace {

using ad::TapeScope;
using stdlib::TensorType;

using ad::is_container;
using ad::tensor_leaves;

// `tree` with its tensor leaves replaced, in order, by `leaves`.
Value with_leaves(const Value& tree, const std::vector<Value>& leaves, size_t& k) {
    if (tree.is_tensor()) return leaves.at(k++);
    if (!is_container(tree)) return tree;
    std::vector<Value> items;
    for (const Value& x : tree.child_values()) items.push_back(with_leaves(x, leaves, k));
    return tree.with_children(std::move(items));
}

bool has_while(const std::vector<TapeEntry>& entries) {
    for (const TapeEntry& e : entries)
        if (e.loop || (e.cond && (has_while(e.cond->branch[0]) || has_while(e.cond->branch[1])))) return true;
    return false;
}

std::vector<int64_t> argnums_of(const CallArgs& a, const std::string& name, size_t pos, bool* many) {
    const Value* v = a.positional.size() > pos ? &a.positional[pos] : nullptr;
    for (size_t k = 0; k < a.keywords.size(); ++k)
        if (a.keywords[k].name == "argnums") v = &a.keyword_values[k];
    *many = v && v->is_sequence();
    std::vector<int64_t> out;
    if (!v) return {0};
    if (*many)
        for (const Value& x : v->items()) out.push_back(to_int(x, name + ": argnums"));
    else
        out.push_back(to_int(*v, name + ": argnums"));
    if (out.empty()) throw Error(name + ": argnums must name at least one argument");
    for (int64_t i : out)
        if (i < 0) throw Error(name + ": argnums must be non-negative, not " + std::to_string(i));
    return out;
}

// ------------------------------------------------------------------ linearize

// f run once on primals whose `argnums` are tracked on a tape of their own.
struct Linearized {
    std::string name;
    std::shared_ptr<Tape> tape;
    std::vector<int64_t> argnums;
    std::vector<Value> args;                 // the tracked arguments (their structure)
    std::vector<std::vector<Value>> leaves;  // per argnum: its tracked leaves
    Value out;                               // the primal result, tape stripped
    std::vector<uint32_t> out_nodes;         // per tensor leaf of out (kNotTracked: constant)
    std::vector<TensorType> out_types;
    uint64_t trace = 0;                      // the trace it was recorded in (0: eagerly)
};

Linearized linearize(Runtime& rt, const std::string& name, const Value& f, std::vector<Value> primals,
                     const std::vector<int64_t>& argnums, lang::Loc loc) {
    Linearized L;
    L.name = name;
    L.argnums = argnums;
    TapeScope scope(rt);
    L.tape = scope.tape;
    L.leaves.resize(argnums.size());
    for (size_t j = 0; j < argnums.size(); ++j) {
        const size_t i = size_t(argnums[j]);
        if (i >= primals.size())
            throw Error(name + ": argnums asks for argument " + std::to_string(i) + ", but only " +
                        std::to_string(primals.size()) + " were given");
        primals[i] = ad::track_tree(*L.tape, primals[i], name + ": argument " + std::to_string(i), L.leaves[j]);
    }
    Value result = ad::call_function(rt, f, primals, loc);
    scope.pop();
    for (int64_t i : argnums) L.args.push_back(primals[size_t(i)]);
    std::vector<Value> outs;
    tensor_leaves(result, outs);
    for (const Value& o : outs) {
        const GradObj* g = o.tracked();
        const bool mine = g && g->tape == L.tape->id;
        L.out_nodes.push_back(mine ? g->node : kNotTracked);
        L.out_types.push_back((mine ? g->primal : o).tensor_type());
    }
    L.out = ad::without_tape(result, L.tape->id);
    L.trace = rt.trace ? rt.trace->serial : 0;
    return L;
}

// The cotangents of the arguments (one tree per argnum) from one cotangent
// per tensor leaf of the output (Undefined: none).
std::vector<Value> pull_back(Runtime& rt, const Linearized& L, const std::vector<Value>& out_cots) {
    std::vector<std::pair<uint32_t, Value>> seeds;
    for (size_t k = 0; k < out_cots.size(); ++k)
        if (L.out_nodes[k] != kNotTracked && out_cots[k].defined())
            seeds.emplace_back(L.out_nodes[k], ad::cast_to(rt, out_cots[k], L.out_types[k].dtype));
    std::vector<Value> cot = ad::backward_from(rt, *L.tape, seeds);
    std::vector<Value> grads;
    for (size_t j = 0; j < L.args.size(); ++j) {
        size_t k = 0;
        grads.push_back(ad::gradient_of(rt, L.args[j], cot, k, L.leaves[j]));
    }
    return grads;
}

// The cotangent leaves of `ct`, checked against the output's.
std::vector<Value> cotangent_leaves(const Linearized& L, const Value& ct) {
    std::vector<Value> cts;
    tensor_leaves(ct, cts);
    if (cts.size() != L.out_types.size())
        throw Error(L.name + ": the cotangent has " + std::to_string(cts.size()) + " tensors; the function's result has " +
                    std::to_string(L.out_types.size()));
    for (size_t k = 0; k < cts.size(); ++k) {
        const TensorType t = cts[k].tensor_type();
        if (!(t.shape == L.out_types[k].shape))
            throw Error(L.name + ": the cotangent's shape " + t.shape.to_string() + " is not the result's " +
                        L.out_types[k].shape.to_string());
    }
    return cts;
}

// ------------------------------------------------------------------ vjp

Value vjp_builtin(Runtime& rt, const CallArgs& a) {
    bool has_aux = false;
    check_arguments("vjp(f, /, *primals, has_aux=False)", a);  // docs/builtins.md
    for (size_t k = 0; k < a.keywords.size(); ++k) has_aux = to_int(a.keyword_values[k], "vjp: has_aux") != 0;
    std::vector<Value> primals(a.positional.begin() + 1, a.positional.end());
    std::vector<int64_t> all;
    for (size_t i = 0; i < primals.size(); ++i) all.push_back(int64_t(i));
    auto L = std::make_shared<Linearized>(linearize(rt, "vjp", a.positional[0], primals, all, a.loc));
    Value aux;
    if (has_aux) {
        if (!L->out.is_sequence() || L->out.items().size() != 2)
            throw Error("vjp: with has_aux=True the function must return a pair (value, aux), not " + ad::describe(L->out));
        aux = L->out.items()[1];
        Value main = L->out.items()[0];  // (a copy: L->out owns it)
        std::vector<Value> leaves;
        tensor_leaves(main, leaves);
        L->out_nodes.resize(leaves.size());  // aux's leaves get no cotangent
        L->out_types.resize(leaves.size());
        L->out = main;
    }
    // A saved-value stack of a converted loop is popped by one backward
    // only, in order: a vjp function called any number of times cannot own one.
    if (rt.trace && has_while(L->tape->entries))
        unsupported_in_graph("vjp of a converted loop (its saved values are popped by one backward, in order)");
    auto fn = [L](Runtime& rt, const CallArgs& c) {
        if (c.positional.size() != 1 || !c.keywords.empty())
            throw Error("vjp: the backward function takes 1 argument, the cotangent of the result");
        const uint64_t now = rt.trace ? rt.trace->serial : 0;
        if (L->trace && L->trace != now)
            throw Error("vjp: the backward function of a vjp taken inside a @graph function is called outside it");
        return Value::tuple(pull_back(rt, *L, cotangent_leaves(*L, c.positional[0])));
    };
    Value back = Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"vjp_fn", std::move(fn)}));
    return has_aux ? Value::tuple({L->out, back, aux}) : Value::tuple({L->out, back});
}

// ------------------------------------------------------------------ forward mode

// J t by transposition: u -> pull_back(u) recorded on an outer tape, swept
// back from each tangent. `tangents` holds one list of leaves per call
// (jvp: one; jacfwd: one per column); the results are the output leaves'
// tangents for each.
struct Transposed {
    Linearized L;
    std::shared_ptr<Tape> outer;
    std::vector<uint32_t> u_nodes;                  // per output leaf
    std::vector<std::vector<Value>> grad_leaves;     // per argnum: the pulled-back leaves (tracked on outer)
};

Transposed transpose(Runtime& rt, const std::string& name, const Value& f, const std::vector<Value>& primals,
                     const std::vector<int64_t>& argnums, lang::Loc loc) {
    TapeScope outer(rt);
    Transposed T{linearize(rt, name, f, primals, argnums, loc), outer.tape, {}, {}};
    std::vector<Value> us;
    for (size_t k = 0; k < T.L.out_types.size(); ++k) {
        TensorType t = T.L.out_types[k];
        t.weak = false;
        if (T.L.out_nodes[k] == kNotTracked || !stdlib::is_float(t.dtype)) {
            us.emplace_back();
            T.u_nodes.push_back(kNotTracked);
            continue;
        }
        us.push_back(ad::track(*outer.tape, ad::zeros_of(rt, t)));
        T.u_nodes.push_back(us.back().tracked()->node);
    }
    std::vector<Value> grads = pull_back(rt, T.L, us);
    outer.pop();
    for (const Value& g : grads) {
        T.grad_leaves.emplace_back();
        tensor_leaves(g, T.grad_leaves.back());
    }
    return T;
}

// The output leaves' tangents for one tangent per argument leaf (per argnum, in order).
std::vector<Value> push_forward(Runtime& rt, const Transposed& T, const std::vector<std::vector<Value>>& tangents) {
    std::vector<std::pair<uint32_t, Value>> seeds;
    for (size_t j = 0; j < T.grad_leaves.size(); ++j)
        for (size_t k = 0; k < T.grad_leaves[j].size(); ++k) {
            const GradObj* g = T.grad_leaves[j][k].tracked();
            if (g && g->tape == T.outer->id && tangents[j][k].defined())
                seeds.emplace_back(g->node, ad::cast_to(rt, tangents[j][k], g->primal.tensor_type().dtype));
        }
    std::vector<Value> cot = ad::backward_from(rt, *T.outer, seeds);
    std::vector<Value> out;
    for (size_t k = 0; k < T.u_nodes.size(); ++k) {
        const uint32_t n = T.u_nodes[k];
        TensorType t = T.L.out_types[k];
        t.weak = false;
        out.push_back(n != kNotTracked && cot[n].defined() ? ad::cast_to(rt, cot[n], t.dtype) : ad::zeros_of(rt, t));
    }
    return out;
}

Value jvp_builtin(Runtime& rt, const CallArgs& a) {
    check_arguments("jvp(f, primals, tangents, /)", a);  // docs/builtins.md
    const Value &ps = a.positional[1], &ts = a.positional[2];
    if (!ps.is_sequence() || !ts.is_sequence())
        throw Error("jvp: the primals and the tangents are tuples (or lists), one entry per argument");
    if (ps.items().size() != ts.items().size())
        throw Error("jvp: " + std::to_string(ps.items().size()) + " primals but " + std::to_string(ts.items().size()) +
                    " tangents");
    std::vector<Value> primals = ps.items_copy();
    std::vector<int64_t> all;
    for (size_t i = 0; i < primals.size(); ++i) all.push_back(int64_t(i));
    Transposed T = transpose(rt, "jvp", a.positional[0], primals, all, a.loc);
    std::vector<std::vector<Value>> tangents(primals.size());
    for (size_t i = 0; i < primals.size(); ++i) {
        std::vector<Value> p;
        tensor_leaves(primals[i], p);
        tensor_leaves(ts.items()[i], tangents[i]);
        if (p.size() != tangents[i].size())
            throw Error("jvp: the tangent of argument " + std::to_string(i) + " has " + std::to_string(tangents[i].size()) +
                        " tensors; the primal has " + std::to_string(p.size()));
        for (size_t k = 0; k < p.size(); ++k)
            if (!(p[k].tensor_type().shape == tangents[i][k].tensor_type().shape))
                throw Error("jvp: a tangent of argument " + std::to_string(i) + " has shape " +
                            tangents[i][k].tensor_type().shape.to_string() + "; its primal has " +
                            p[k].tensor_type().shape.to_string());
        // only the differentiated (float) leaves take a tangent
        std::vector<Value> kept;
        for (size_t k = 0; k < p.size(); ++k)
            if (stdlib::is_float(p[k].tensor_type().dtype)) kept.push_back(tangents[i][k]);
        tangents[i] = std::move(kept);
    }
    std::vector<Value> outs = push_forward(rt, T, tangents);
    size_t k = 0;
    return Value::tuple({T.L.out, with_leaves(T.L.out, outs, k)});
}


// ------------------------------------------------------------------ jacobians

struct JacSpec {
    Value f;
    std::vector<int64_t> argnums;
    bool many = false, has_aux = false, forward = false;
    std::string name;
};

// The one-hot tensor of type t with a 1 at flat position i.
Value one_hot_at(const TensorType& t, int64_t i) {
    stdlib::Tensor z = stdlib::Tensor::zeros(t.dtype, t.shape);
    if (t.dtype == stdlib::DType::F64) z.data<double>()[i] = 1.0;
    else z.data<float>()[i] = 1.0f;
    return Value(z);
}

// rows stacked on `axis`, then shaped as `shape` (the Jacobian's layout).
Value stack_as(Runtime& rt, std::vector<Value> parts, int64_t axis, const stdlib::Shape& shape, lang::Loc loc) {
    Value in[2] = {Value::list(std::move(parts)), Value::from_int(axis)};
    Value stacked = call_op(rt, stdlib::op_of(stdlib::OtherKind::Stack), CallArgs{in, {}, {}, loc});
    return Compose{rt}.reshape(stacked, shape);
}

stdlib::Shape joined(const stdlib::Shape& a, const stdlib::Shape& b) {
    stdlib::Shape s = a;
    for (int64_t d : b) s.push_back(d);
    return s;
}

const TensorType& single_output(const Linearized& L, const std::string& name) {
    if (!L.out.is_tensor() || L.out_types.size() != 1 || !stdlib::is_float(L.out_types[0].dtype))
        throw Error(name + ": the function must return one float tensor, not " + ad::describe(L.out));
    return L.out_types[0];
}

// jacrev: one pull-back per output element; row i is d out[i] / d args.
std::vector<std::vector<Value>> jac_rows(Runtime& rt, const JacSpec& s, const Linearized& L, lang::Loc loc) {
    const TensorType ot = single_output(L, s.name);
    const int64_t n = ot.shape.numel();
    if (rt.trace && n > 1 && has_while(L.tape->entries))
        unsupported_in_graph(s.name + " of a converted loop (its saved values are popped by one backward)");
    std::vector<std::vector<std::vector<Value>>> rows(L.args.size());  // [argnum][leaf][row]
    for (int64_t i = 0; i < n; ++i) {
        std::vector<Value> grads = pull_back(rt, L, {one_hot_at(ot, i)});
        for (size_t j = 0; j < grads.size(); ++j) {
            std::vector<Value> leaves;
            tensor_leaves(grads[j], leaves);
            rows[j].resize(leaves.size());
            for (size_t l = 0; l < leaves.size(); ++l) rows[j][l].push_back(leaves[l]);
        }
    }
    std::vector<std::vector<Value>> out(L.args.size());
    for (size_t j = 0; j < L.args.size(); ++j)
        for (size_t l = 0; l < L.leaves[j].size(); ++l) {
            const stdlib::Shape ls = L.leaves[j][l].tracked()->primal.tensor_type().shape;
            out[j].push_back(stack_as(rt, rows[j][l], 0, joined(ot.shape, ls), loc));
        }
    return out;
}

// jacfwd: one push-forward per input element; column c is d out / d arg[c].
std::vector<std::vector<Value>> jac_columns(Runtime& rt, const JacSpec& s, const Transposed& T, lang::Loc loc) {
    const TensorType ot = single_output(T.L, s.name);
    std::vector<std::vector<Value>> out(T.L.args.size());
    for (size_t j = 0; j < T.L.args.size(); ++j)
        for (size_t l = 0; l < T.L.leaves[j].size(); ++l) {
            TensorType lt = T.L.leaves[j][l].tracked()->primal.tensor_type();
            lt.weak = false;
            std::vector<Value> cols;
            for (int64_t c = 0; c < lt.shape.numel(); ++c) {
                std::vector<std::vector<Value>> tangents(T.L.args.size());
                for (size_t jj = 0; jj < T.L.args.size(); ++jj) tangents[jj].resize(T.L.leaves[jj].size());
                tangents[j][l] = one_hot_at(lt, c);
                cols.push_back(push_forward(rt, T, tangents)[0]);
            }
            out[j].push_back(stack_as(rt, cols, ot.shape.rank(), joined(ot.shape, lt.shape), loc));
        }
    return out;
}

Value call_jacobian(Runtime& rt, const JacSpec& s, const CallArgs& a) {
    if (!a.keywords.empty()) throw Error(s.name + "(f): the function it returns takes positional arguments only");
    std::vector<Value> primals(a.positional.begin(), a.positional.end());
    std::optional<Transposed> T;
    std::optional<Linearized> L;
    if (s.forward) T = transpose(rt, s.name, s.f, primals, s.argnums, a.loc);
    else L = linearize(rt, s.name, s.f, primals, s.argnums, a.loc);
    Linearized& lin = s.forward ? T->L : *L;
    Value aux;
    if (s.has_aux) {
        if (!lin.out.is_sequence() || lin.out.items().size() != 2)
            throw Error(s.name + ": with has_aux=True the function must return a pair (value, aux), not " + ad::describe(lin.out));
        aux = lin.out.items()[1];
        Value main = lin.out.items()[0];  // (a copy: lin.out owns it)
        lin.out = main;
        lin.out_nodes.resize(1);
        lin.out_types.resize(1);
        if (T) T->u_nodes.resize(1);
    }
    std::vector<std::vector<Value>> jac = s.forward ? jac_columns(rt, s, *T, a.loc) : jac_rows(rt, s, lin, a.loc);
    std::vector<Value> per_arg;
    for (size_t j = 0; j < jac.size(); ++j) {
        size_t k = 0;
        per_arg.push_back(with_leaves(lin.args[j], jac[j], k));
    }
    Value out = s.many ? Value::tuple(std::move(per_arg)) : per_arg[0];
    return s.has_aux ? Value::tuple({out, aux}) : out;
}

Value make_jacobian(const CallArgs& a, const std::string& name, bool forward) {
    check_arguments(name + "(f, /, argnums=0, has_aux=False)", a);  // docs/builtins.md
    auto spec = std::make_shared<JacSpec>();
    spec->f = a.positional[0];
    spec->name = name;
    spec->forward = forward;
    if (!spec->f.is(Kind::Function) && !spec->f.is(Kind::Builtin) && !spec->f.is(Kind::BoundMethod))
        throw Error(name + ": the first argument must be a function, not a " + kind_name(spec->f.kind()));
    spec->argnums = argnums_of(a, name, 1, &spec->many);
    if (a.positional.size() > 2) spec->has_aux = to_int(a.positional[2], name + ": has_aux") != 0;
    for (size_t k = 0; k < a.keywords.size(); ++k)
        if (a.keywords[k].name == "has_aux") spec->has_aux = to_int(a.keyword_values[k], name + ": has_aux") != 0;
    std::string shown = name + "(" + (spec->f.is(Kind::Function) ? spec->f.function().name : "function") + ")";
    return Value::builtin(std::make_shared<BuiltinObj>(
        BuiltinObj{shown, [spec](Runtime& rt, const CallArgs& c) { return call_jacobian(rt, *spec, c); }}));
}

// hessian(f) = jacfwd(jacrev(f)), as JAX defines it (argnums and has_aux
// given to both: the inner one's aux passes through the outer one).
Value make_hessian(const CallArgs& a) {
    check_arguments("hessian(f, /, argnums=0, has_aux=False)", a);  // docs/builtins.md
    std::vector<Value> pos(a.positional.begin(), a.positional.end());
    pos[0] = make_jacobian(a, "hessian", false);
    return make_jacobian(CallArgs{pos, a.keyword_values, a.keywords, a.loc}, "hessian", true);
}

}  // namespace

namespace ad {

Value call_function(Runtime& rt, const Value& f, const std::vector<Value>& args, lang::Loc loc) {
    return Evaluator(rt).call(f, CallArgs{args, {}, {}, loc}, rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
}

bool is_container(const Value& v) { return v.is_sequence() || v.is(Kind::Dict); }

void tensor_leaves(const Value& v, std::vector<Value>& out) {
    if (v.is_tensor()) out.push_back(v);
    else if (is_container(v))
        for (const Value& x : v.child_values()) tensor_leaves(x, out);
}

}  // namespace ad

void add_transform_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const char* name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn)})));
    };
    add("vjp", vjp_builtin);
    add("jvp", jvp_builtin);
    add("jacrev", [](Runtime&, const CallArgs& a) { return make_jacobian(a, "jacrev", false); });
    add("jacfwd", [](Runtime&, const CallArgs& a) { return make_jacobian(a, "jacfwd", true); });
    add("hessian", [](Runtime&, const CallArgs& a) { return make_hessian(a); });
    add_custom_rule_builtins(out);
}

}  // namespace tg::interp
