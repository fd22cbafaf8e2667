// Statements of docs/language.md.
#include "interp/call_signature.hpp"
#include "interp/batching/batching.hpp"
#include "interp/control.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/dispatch.hpp"
#include "interp/evaluator.hpp"
#include "interp/target_indices.hpp"
#include "interp/index_advanced.hpp"
#include "interp/values/printing.hpp"
#include "interp/scalar_code.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

using namespace lang;

void Evaluator::run_module(ModuleState& m, const lang::Module& chunk, const std::function<void(const Value&)>* echo) {
    set_step_limit();
    Frame frame{nullptr, nullptr, &m, &chunk.source};
    OnCallStack on_stack(rt_, frame);
    Frame* saved = f_;
    f_ = &frame;
    echo_ = echo;
    try {
        for (const auto& s : chunk.body) {
            Flow flow = exec(*s);
            if (flow != Flow::Normal) break;  // `return` at top level ends the chunk
        }
    } catch (Error& e) {
        if (rt_.debug && !rt_.trace) rt_.debug->raised(*this, frame, e);  // post-mortem at the top level
        f_ = saved;
        throw;
    } catch (...) {
        f_ = saved;
        throw;
    }
    f_ = saved;
}

Evaluator::Flow Evaluator::exec_block(const Block& b) { return exec_range(b, 0); }

Evaluator::Flow Evaluator::exec_range(const Block& b, size_t from) {
    for (size_t i = from; i < b.size(); ++i) {
        Flow flow = exec(*b[i]);
        if (flow != Flow::Normal) return flow;
        // Tracing: a break/continue/return inside converted control flow may
        // have happened; the rest of the block runs only if it did not.
        if (rt_.trace && exit_pending()) [[unlikely]] return guard_rest(b, i + 1);
    }
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec(const Stmt& s) {
    f_->loc = s.loc;  // for the fault report (the live call stack) and the debugger
    count_line(s.loc);
    if (s.kind == StmtKind::Assign && assign_scalar(s.as<Assign>())) return Flow::Normal;
    try {
        return exec_inner(s);
    } catch (...) {
        raise_at_statement(s.loc);
    }
}

void Evaluator::raise_at_statement(Loc loc) {
    try {
        throw;
    } catch (Error&) {
        throw;
    } catch (const stdlib::LimitError& e) {
        limit_error(e, loc);
    } catch (const stdlib::OpError& e) {
        fail(e.what(), loc);
    } catch (const std::bad_alloc&) {
        fail("out of memory", loc);
    } catch (const std::exception& e) {
        fail(std::string("internal error: ") + e.what(), loc);
    }
}

// The scalar loop's statement, `s = s + (i * i) % 7`: a variable assigned a
// pure scalar expression the resolver compiled (interp/scalar_code.hpp).
// Throws nothing: what it does not cover (another target, an operand that is
// not a 0-d value, tracing) returns false before anything is stored, and
// exec_inner runs the statement (re-running a pure program is harmless).
// Also `t = t_link[t]`, `n = m`, `x = 0`: a number read from a list item, a
// variable or a literal (interp/scalar_items.cpp).
bool Evaluator::assign_scalar(const Assign& a) {
    if (rt_.trace || a.targets.size() != 1 || a.targets[0]->kind != ExprKind::Name) return false;
    const ScalarCode* code = scalar_code_of(*a.value);
    if (!code && a.value->kind != ExprKind::Index && a.value->kind != ExprKind::Name && a.value->kind != ExprKind::Int &&
        a.value->kind != ExprKind::Float && a.value->kind != ExprKind::Bool)
        return false;
    Value* slot = plain_store_slot(a.targets[0]->as<Name>());
    if (!slot) return false;  // store_slot's error
    Scalar out;
    if (code ? !run_scalar(*code, f_->env, f_->module->globals.data(), out)
             : !fast_scalars_allowed() || !pure_scalar(*a.value, out))
        return false;
    slot->set_scalar(out);
    return true;
}

// Like eval, a small dispatch; the larger statements are functions of their own.
Evaluator::Flow Evaluator::exec_inner(const Stmt& s) {
    switch (s.kind) {
    case StmtKind::Expr: return exec_expr_stmt(s);
    case StmtKind::Assign: return exec_assign(s);
    case StmtKind::AugAssign: aug_assign(s.as<AugAssign>()); return Flow::Normal;
    case StmtKind::If: return exec_if(s);
    case StmtKind::While: return exec_while(s);
    case StmtKind::For: return exec_for(s.as<For>());
    case StmtKind::Break:
        if (lane_exit_recorded()) [[unlikely]] lane_exit(true, s.loc);  // vmap (batched_exits.cpp)
        return Flow::Break;
    case StmtKind::Continue:
        if (lane_exit_recorded()) [[unlikely]] lane_exit(false, s.loc);
        return Flow::Continue;
    case StmtKind::Pass: return Flow::Normal;
    case StmtKind::Return: return exec_return(s);
    case StmtKind::Assert: return exec_assert(s);
    case StmtKind::FunctionDef: define_function(s.as<FunctionDef>()); return Flow::Normal;
    case StmtKind::Delete: exec_delete(s.as<Delete>()); return Flow::Normal;
    case StmtKind::Global: return Flow::Normal;  // the resolver did its work
    case StmtKind::Import: return exec_import(s);
    }
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec_assign(const Stmt& s) {
    const Assign& a = s.as<Assign>();
    // `xs[k] = <number>`: the item overwritten in place (interp/scalar_items.cpp)
    if (a.targets.size() == 1 && a.targets[0]->kind == ExprKind::Index &&
        store_scalar_item(a.targets[0]->as<Index>(), *a.value))
        return Flow::Normal;
    // scalar arithmetic into a variable: no Value built on the way (a
    // compiled program was tried by assign_scalar already)
    if (a.targets.size() == 1 && a.targets[0]->kind == ExprKind::Name &&
        (a.value->kind == ExprKind::Binary || a.value->kind == ExprKind::Compare) &&
        (rt_.trace || !scalar_code_of(*a.value))) {
        Scalar out;
        if (eval_scalar(*a.value, out)) {
            store_slot(a.targets[0]->as<Name>()) = Value(out);
            return Flow::Normal;
        }
    }
    Value v = eval_passing_none(*a.value);
    for (size_t i = 0; i + 1 < a.targets.size(); ++i) assign(*a.targets[i], v);
    assign(*a.targets.back(), std::move(v));
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec_return(const Stmt& s) {
    const Return& r = s.as<Return>();
    Value v = r.value ? eval_passing_none(*r.value) : Value::none();
    if (f_->ret_flag.batched()) [[unlikely]] v = batched_return(v, s.loc);  // vmap (batched_control.cpp)
    f_->ret = std::move(v);
    return Flow::Return;
}

Evaluator::Flow Evaluator::exec_expr_stmt(const Stmt& s) {
    const Expr& e = *s.as<ExprStmt>().expr;
    if (echo_ && (!f_->env || f_ == echo_frame_)) {
        Value v = eval(e);
        (*echo_)(v);
    } else {
        Value scratch;
        eval_ref(e, scratch);
    }
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec_if(const Stmt& s) {
    const If& i = s.as<If>();
    Value batched;  // a condition batched by vmap (interp/batching/batched_control.cpp)
    auto batched_if_stmt = [&] {
        return batched_if(batched, {}, [&] { return exec_block(i.body); }, [&] { return exec_block(i.orelse); },
                          i.cond->loc, "`if`");
    };
    if (rt_.trace) {
        uint32_t pred;
        batched_cond_ = &batched;
        std::optional<bool> c = condition(*i.cond, pred);
        if (batched.defined()) return batched_if_stmt();
        if (!c) {
            // `if y is None` / `if y is not None` on a variable that is None on
            // some paths: each branch knows which it is (the value, or None)
            Value* narrowed = nullptr;
            Value original;
            bool then_is_none = false;
            if (i.cond->kind == ExprKind::Compare) {
                const Compare& cmp = i.cond->as<Compare>();
                if (cmp.ops.size() == 1 && lang::is_identity(cmp.ops[0]) && cmp.first->kind == ExprKind::Name &&
                    cmp.rest[0]->kind == ExprKind::NoneLit && cmp.first->as<Name>().scope == lang::Scope::Local) {
                    Value& slot = f_->env->slots[cmp.first->as<Name>().slot];
                    if (slot.maybe_undef() && slot.maybe_undef()->none) {
                        narrowed = &slot;
                        original = slot;
                        then_is_none = cmp.ops[0] == CmpOp::Is;
                    }
                }
            }
            auto branch = [&](const Block& body, bool none) {
                return [&, none] {
                    if (narrowed) *narrowed = none ? Value::none() : original.maybe_undef()->inner;
                    return exec_block(body);
                };
            };
            return trace_cond(pred, {}, branch(i.body, then_is_none), branch(i.orelse, !then_is_none), s.loc, "if");
        }
        return *c ? exec_block(i.body) : exec_block(i.orelse);
    }
    batched_cond_ = &batched;
    const bool c = cond(*i.cond);
    if (batched.defined()) return batched_if_stmt();
    return c ? exec_block(i.body) : exec_block(i.orelse);
}

Evaluator::Flow Evaluator::exec_while(const Stmt& s) {
    const While& w = s.as<While>();
    if (rt_.trace) return exec_while_traced(w);
    LaneScope lanes(*f_);  // vmap: examples that left by a batched `break` (batched_exits.cpp)
    for (;;) {
        Value batched;  // a condition batched by vmap (interp/batching/batched_control.cpp)
        batched_cond_ = &batched;
        const bool c = cond(*w.cond);
        if (batched.defined()) return batched_while(w, batched);
        if (!c) break;
        lane_iteration_start();
        Flow flow = exec_block(w.body);
        lane_iteration_end(w.loc);
        if (flow == Flow::Return) return flow;
        if (loop_ends(flow, w.loc)) break;
        count_line(s.loc);
    }
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec_assert(const Stmt& s) {
    const Assert& a = s.as<Assert>();
    if (rt_.trace) {
        Value c = eval(*a.cond);
        if (c.is_symbolic()) {
            trace_assert(a, c);
            return Flow::Normal;
        }
        bool t;
        try {
            t = truth(c);
        } catch (const stdlib::OpError& err) {
            fail(err.what(), a.cond->loc);
        }
        if (t) return Flow::Normal;
        std::string msg = "assertion failed";
        if (a.msg) {
            Value m = eval(*a.msg);
            if (has_symbolic(m)) {
                trace_assert(a, Value::from_bool(false));
                return Flow::Normal;
            }
            msg += ": " + str_of(m);
        }
        fail(msg, s.loc);
    }
    if (!cond(*a.cond)) {
        std::string msg = "assertion failed";
        if (a.msg) msg += ": " + str_of(eval(*a.msg));
        fail(msg, s.loc);
    }
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec_import(const Stmt& s) {
    const Import& im = s.as<Import>();
    ModuleState& m = rt_.import_module(im.module, f_->module->path, source(), im.module_loc);
    // the resolver declared the alias; find its slot the same way
    Value v = Value::module(&m);
    if (f_->env) {
        const FunctionFacts* facts = f_->env->facts;
        for (size_t i = 0; i < facts->slots.size(); ++i)
            if (facts->slots[i].name == im.alias) f_->env->slots[i] = v;
    } else {
        f_->module->globals[f_->module->slot_of(im.alias)] = v;
    }
    return Flow::Normal;
}

Evaluator::Flow Evaluator::exec_for(const For& s) {
    // Every `for` iterates here — range(...) lazily, anything else through
    // Iterable. While tracing, exec_for_traced converts it (docs/graph.md "Static and dynamic").
    if (rt_.trace) return exec_for_traced(s);
    LaneScope lanes(*f_);  // vmap: examples that left by a batched `break` (batched_exits.cpp)
    auto run_body = [&](Value item) -> Flow {
        count_line(s.loc);
        lane_iteration_start();
        assign(*s.target, std::move(item));
        Flow flow = exec_block(s.body);
        lane_iteration_end(s.loc);
        return flow;
    };
    if (is_range_call(*s.iter)) {
        int64_t a[3];
        range_args(s.iter->as<Call>(), a);
        const bool simple_target = s.target->kind == ExprKind::Name;
        for (int64_t i = a[0]; a[2] > 0 ? i < a[1] : i > a[1]; i += a[2]) {
            Flow flow;
            if (simple_target && !lanes_here(*f_)) {
                count_line(s.loc);
                store_slot(s.target->as<Name>()).set_scalar(Scalar::of_int(i));
                flow = exec_block(s.body);
                lane_iteration_end(s.loc);
            } else {
                flow = run_body(Value::from_int(i));
            }
            if (flow == Flow::Return) return flow;
            if (loop_ends(flow, s.loc)) break;
        }
        return Flow::Normal;
    }
    Iterable it = loop_items(s);
    for (int64_t i = 0; i < it.size(); ++i) {
        Flow flow = run_body(it.item(i));
        if (flow == Flow::Return) return flow;
        if (loop_ends(flow, s.loc)) break;
    }
    return Flow::Normal;
}

// An int argument read at once: a literal, a local variable holding an int
// (or a bool), or a scalar program computing one — what eval_ref and
// to_int give for them. False: anything else, which eval_ref evaluates
// (none of these runs code, so nothing is evaluated twice). A third of a
// nested loop's setup was the walker evaluating `range(i + 1, n)`.
bool Evaluator::int_at_once(const Expr& e, int64_t& out) {
    if (rt_.trace || rt_.options.debug_nans) return false;
    if (e.kind == ExprKind::Int) {
        out = e.as<IntLit>().value;
        return true;
    }
    Scalar computed;
    const Scalar* s = nullptr;
    if (e.kind == ExprKind::Name) {
        const Name& n = e.as<Name>();
        if (n.scope == Scope::Local && f_->env) s = f_->env->slots[n.slot].scalar();
    } else if (const ScalarCode* code = scalar_code_of(e)) {
        if (run_scalar(*code, f_->env, f_->module->globals.data(), computed)) s = &computed;
    }
    if (!s || !(stdlib::is_int(s->dtype) || s->dtype == stdlib::DType::Bool)) return false;
    out = s->i;
    return true;
}

void Evaluator::range_args(const Call& c, int64_t (&a)[3]) {
    a[0] = 0, a[1] = 0, a[2] = 1;
    const size_t n = c.args.size();
    if (n < 1 || n > 3) fail(arity_error("range", 1, 3, n, ArityWording::Method), c.loc);
    for (size_t i = 0; i < n; ++i) {
        if (int_at_once(*c.args[i], a[n == 1 ? 1 : i])) continue;
        Value scratch;
        const Value& v = eval_ref(*c.args[i], scratch);
        try {
            a[n == 1 ? 1 : i] = to_int(v, "range: argument");
        } catch (Error& e) {
            e.locate(source(), c.args[i]->loc);
            throw;
        }
    }
    if (a[2] == 0) fail("range: step must not be zero", c.loc);
}

Iterable Evaluator::loop_items(const For& s) {
    Value iterable = eval(*s.iter);
    try {
        return Iterable(std::move(iterable), rt_);
    } catch (Error& e) {
        e.locate(source(), s.iter->loc);
        throw;
    }
}

void Evaluator::assign(const Expr& target, Value v) {
    switch (target.kind) {
    case ExprKind::Name: store_slot(target.as<Name>()) = std::move(v); return;
    case ExprKind::Index: assign_index(target.as<Index>(), v); return;
    case ExprKind::Tuple: case ExprKind::List: {
        const auto& elts = target.kind == ExprKind::Tuple ? target.as<TupleExpr>().elts : target.as<ListExpr>().elts;
        std::vector<Value> items;
        if (v.is_sequence()) {
            // (`v` holds the sequence: the targets' stores cannot change it)
            if (const std::span<const Value> xs = v.items(); xs.size() == elts.size()) {
                for (size_t i = 0; i < elts.size(); ++i) {
                    // (a name stores its item directly: no Value copied to pass it on)
                    if (elts[i]->kind == ExprKind::Name) store_slot(elts[i]->as<Name>()) = xs[i];
                    else assign(*elts[i], xs[i]);
                }
                return;
            }
            items = v.items_copy();
        } else if (v.is_tensor() || v.is(Kind::Str) || v.is(Kind::Dict)) {  // a dict unpacks its keys
            Iterable it = [&] {
                try {
                    return Iterable(v, rt_);
                } catch (Error& e) {
                    throw Error("cannot unpack a " + std::string(v.is_tensor() ? "0-d tensor" : "str") + " into " +
                                    std::to_string(elts.size()) + " targets",
                                source(), target.loc);
                }
            }();
            for (int64_t i = 0; i < it.size(); ++i) items.push_back(it.item(i));
        } else {
            fail(std::string("cannot unpack a ") + kind_name(v.kind()) + " into " + std::to_string(elts.size()) +
                     " targets",
                 target.loc);
        }
        if (items.size() != elts.size())
            fail("cannot unpack " + std::to_string(items.size()) + (items.size() == 1 ? " value" : " values") +
                     " into " + std::to_string(elts.size()) + " targets",
                 target.loc);
        for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], std::move(items[i]));
        return;
    }
    default: fail("cannot assign to this expression", target.loc);
    }
}

void Evaluator::assign_index(const Index& t, const Value& v) {
    TargetIndices indices(*this, t);
    store_index(t, v);
}

void Evaluator::store_index(const Index& t, const Value& v) {
    Value* base = lvalue(*t.value);
    if (!base) fail("cannot assign to an item of this expression (assign to an item of a variable)", t.loc);
    if (base->is(Kind::Dict)) {  // d[k] = v: a new key goes last
        DictKey k = index_key(t);
        base->dict_mut().set(std::move(k), v);
        return;
    }
    // `xs[k] = v` by an int: computed here, or before the walk when it runs code (`xs[f(x)] = v`)
    if (int64_t k; base->is(Kind::List) && (presets_.empty() ? pure_int_index(t, k) : preset_int_index(t, k)) &&
                   store_item(*base, k, v))
        return;
    Subscript sub;
    sub.items = located_index_items(t, base->is_tensor() && rt_.trace ? &sub.dynamic : nullptr,
                                    base->is_tensor() ? &sub.special : nullptr);
    const std::vector<stdlib::IndexItem>& items = sub.items;
    at(t.loc);
    try {
        if (base->is_tensor()) {
            if (sub.advanced()) assign_advanced(rt_, *base, sub, v);
            else assign_index_tensor(rt_, *base, items, v, sub.dynamic);
            return;
        }
        if (base->is(Kind::List)) {
            if (items.size() == 1 && items[0].kind == stdlib::IndexItem::Slice)
                return assign_list_slice(*base, items[0], v);
            if (items.size() != 1 || items[0].kind != stdlib::IndexItem::Int)
                throw Error("list indices must be an int or a slice");
            auto& xs = base->list_mut();
            int64_t n = static_cast<int64_t>(xs.size());
            int64_t k = items[0].index < 0 ? items[0].index + n : items[0].index;
            if (k < 0 || k >= n)
                throw Error("list index " + std::to_string(items[0].index) + " is out of range for length " +
                            std::to_string(n));
            xs[static_cast<size_t>(k)] = v;
            return;
        }
        throw Error(std::string("a ") + kind_name(base->kind()) + " does not support item assignment");
    } catch (const stdlib::OpError& err) {
        fail(err.what(), t.loc);
    } catch (Error& err) {
        err.locate(source(), t.loc);
        throw;
    }
}

// xs[k] = v for a list: false (nothing done) when k is out of range, and
// the general path raises the error.
bool Evaluator::store_item(Value& list, int64_t k, const Value& v) {
    const int64_t n = static_cast<int64_t>(list.items().size());
    if (k < 0) k += n;
    if (k < 0 || k >= n) return false;
    list.list_mut()[static_cast<size_t>(k)] = v;
    return true;
}

// `x op= v`'s new value: eval_binary's scalar path for two numbers (no 0-d
// tensors), else binary(), errors located at the operator.
Value Evaluator::aug_value(const AugAssign& s, const Value& cur, const Value& rhs) {
    if (const Scalar *a = cur.scalar(), *b = rhs.scalar(); a && b && s.op != BinOp::MatMul && !rt_.options.debug_nans)
        if (Scalar out; scalar_binary(binary_kind(s.op), *a, *b, out)) return Value(out);
    return located(s.op_loc, [&] { return binary(rt_, s.op, cur, rhs); });
}

// `name op= v` once v is evaluated.
void Evaluator::aug_assign_name(const AugAssign& s, const Value& rhs) {
    const Name& n = s.target->as<Name>();
    const Value& cur = load(n);
    // `text += more` on a string only this variable holds: appended in place
    if (s.op == BinOp::Add && cur.is(Kind::Str) && rhs.is(Kind::Str) && !cur.sym_str() && !rhs.sym_str() &&
        (n.scope == lang::Scope::Local || (n.scope == lang::Scope::Global && !f_->env)) &&
        located(s.op_loc, [&] { return store_slot(n).append_text_unshared(rhs.text()); }))
        return;
    Value next = aug_value(s, load(n), rhs);
    store_slot(n) = std::move(next);
}

void Evaluator::aug_assign(const AugAssign& s) {
    if (aug_assign_scalar(s)) return;  // `count += 1` (interp/scalar_items.cpp)
    if (s.target->kind == ExprKind::Name) {
        aug_assign_name(s, eval(*s.value));
        return;
    }
    if (s.target->kind != ExprKind::Index) fail("cannot assign to this expression", s.target->loc);
    const Index& t = s.target->as<Index>();
    TargetIndices indices(*this, t);  // each index evaluated once, for the read and the store
    Value* base = lvalue(*t.value);
    if (!base) fail("cannot assign to an item of this expression", t.loc);
    // A right side that runs no code cannot move what base points to: the
    // store needs no second walk from the variable.
    const bool rhs_runs_code = !runs_no_code(*s.value);
    if (base->is(Kind::Dict) && !rhs_runs_code) return aug_assign_entry(s, *base, indices);
    // `xs[k] += v` by an int (no index runs code): the index computed once, the item read in place
    int64_t k;
    if (Value current; base->is(Kind::List) && presets_.empty() && pure_int_index(t, k) && item_at(*base, k, current)) {
        Value rhs = eval(*s.value);
        Value next = aug_value(s, current, rhs);
        // the right side may have changed the list (a method called on it)
        Value* list = rhs_runs_code ? lvalue(*t.value) : base;
        if (!list || !list->is(Kind::List) || !store_item(*list, k, next)) store_index(t, next);
        return;
    }
    Value current = index_value(*base, t);
    Value rhs;
    {
        TargetIndices::Paused paused(indices);
        rhs = eval(*s.value);  // may move what base pointed to: the store walks again
    }
    Value next = aug_value(s, current, rhs);
    store_index(t, next);
}

// `d[k] += v`, `counts[w][0] -= 1`, the right side running no code: the
// key made and looked up once, and the entry changed where it was found.
void Evaluator::aug_assign_entry(const AugAssign& s, Value& dict, TargetIndices& indices) {
    const Index& t = s.target->as<Index>();
    const DictKey key = index_key(t);
    const Value* cur = dict.dict().find(key);
    if (!cur) fail("key " + key_repr(key) + " is not in the dict", t.loc);
    Value rhs;
    {
        TargetIndices::Paused paused(indices);
        rhs = eval(*s.value);
    }
    Value next = aug_value(s, *cur, rhs);
    // In place when the dict has one owner; else (the right side holds it
    // too: `d["a"] += [d]`) it is copied first, as store_index would.
    Value* entry = dict.ref().uses == 1 ? const_cast<Value*>(cur) : dict.dict_mut().find(key);
    *entry = std::move(next);
}

void Evaluator::define_function(const FunctionDef& d) {
    auto fn = std::make_shared<FunctionObj>();
    fn->name = d.name;
    fn->params = &d.params;
    fn->body = &d.body;
    fn->info = d.info.get();
    fn->env = f_->owner();
    fn->module = f_->module;
    for (const auto& p : d.params) fn->defaults.push_back(p.default_value ? eval(*p.default_value) : Value());
    Value v = Value::function(std::move(fn));
    // decorators apply bottom-up; `@graph` is the builtin `graph`, which marks the function
    for (auto it = d.decorators.rbegin(); it != d.decorators.rend(); ++it) {
        Value deco = eval(**it);
        Value args[1] = {v};
        v = call(deco, CallArgs{args, {}, {}, (*it)->loc}, source());
    }
    if (f_->env) {
        const FunctionFacts* facts = f_->env->facts;
        for (size_t i = 0; i < facts->slots.size(); ++i)
            if (facts->slots[i].name == d.name) {
                f_->env->slots[i] = std::move(v);
                return;
            }
        // `global f` before `def f` (a nonlocal `def` is not supported)
        if (rt_.trace) fail("cannot define the module's function `" + d.name + "` inside a @graph function", d.name_loc);
        f_->module->globals[f_->module->slot_of(d.name)] = std::move(v);
    } else {
        f_->module->globals[f_->module->slot_of(d.name)] = std::move(v);
    }
}

}  // namespace tg::interp
