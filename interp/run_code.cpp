// Runs body code (interp/body_code.hpp): one loop over a function body's
// instructions, in the frame run_body made.
#include <new>
#include <optional>

#include "interp/body_code.hpp"
#include "interp/control.hpp"
#include "interp/dispatch.hpp"
#include "interp/evaluator.hpp"
#include "interp/method_signatures.hpp"
#include "interp/target_indices.hpp"
#include "interp/values/dict.hpp"
#include "interp/values/set.hpp"
#include "interp/scalar_builtins.hpp"
#include "interp/scalar_code.hpp"
#include "interp/scalar_ops.hpp"

namespace tg::interp {

using namespace lang;
using Instr = BodyCode::Instr;
using Operand = BodyCode::Operand;

namespace {

// A `for` loop's state: the next number of a range, or the position in its items.
struct LoopState {
    int64_t i = 0, stop = 0, step = 1;
    std::optional<Iterable> items;
};

// n values of T made on the native stack (up to N), destroyed with it: as
// many as one body code needs, not N.
template <class T, int N>
class OnStack {
public:
    explicit OnStack(int n) {
        for (; n_ < n; ++n_) new (at(n_)) T();
    }
    ~OnStack() {
        for (int i = 0; i < n_; ++i) at(i)->~T();
    }
    OnStack(const OnStack&) = delete;
    OnStack& operator=(const OnStack&) = delete;
    T& operator[](size_t i) { return *at(static_cast<int>(i)); }

private:
    T* at(int i) { return std::launder(reinterpret_cast<T*>(raw_ + i * sizeof(T))); }
    alignas(T) unsigned char raw_[N * sizeof(T)];
    int n_ = 0;
};

// A key body code looks up itself: a str, or an i64 (other keys: the walker's).
inline bool plain_key(const Value& k) {
    return k.str_obj() || (k.scalar() && k.scalar()->dtype == stdlib::DType::I64);
}

// `x in c` (`not in`: `negated`) for a plain key x in a dict or a set, as
// membership() answers it; false: another case, the walker's.
inline bool member_at_once(const Runtime& rt, const Value& x, const Value& c, bool negated, bool& holds) {
    if (!plain_key(x)) return false;
    if (c.is(Kind::Dict)) holds = (c.dict().find(dict_key(rt, x)) != nullptr) != negated;
    else if (c.is(Kind::Set)) holds = (c.set().items.count(set_element(rt, x)) != 0) != negated;
    else return false;
    return true;
}

// An enclosing function's variable, as load_slow finds it (out of line:
// only closures read one, and read() is inlined at every operand).
[[gnu::noinline]] const Value& enclosing_variable(const Env& env, const Operand& o) {
    const Env* e = &env;
    for (int d = 0; d < o.name->depth; ++d) e = e->parent.get();
    return e->slots[o.index];
}

// Temporary t let go (its value destroyed) and empty again.
inline void empty_temp(Value* temps, size_t t) {
    temps[t].~Value();
    new (temps + t) Value();
}

}  // namespace

// A MethodCall instruction (out of run_code's loop: its code there kept the
// compiler from inlining the arithmetic into the loop): what call_method
// does once the receiver (temps[dst]) and the arguments are evaluated.
[[gnu::noinline]] void Evaluator::run_method_call(const BodyCode::Instr& in, Value* temps) {
    const Call& c = in.expr->as<Call>();
    check_stack(c.loc);
    const Attribute& at = c.callee->as<Attribute>();
    auto release = [&](size_t t) { empty_temp(temps, t); };
    if (in.name) {  // `xs.append(v)`, xs a local: what call_list_method's append does, v moved in
        Value& list = f_->env->slots[in.name->slot];
        if (list.is(Kind::List)) {
            release(in.dst);  // (the receiver's copy let go first: the list is not copied)
            try {
                list.list_mut().push_back(std::move(temps[in.dst + 1]));
            } catch (const stdlib::LimitError& err) {
                limit_error(err, at.loc);
            }
            release(in.dst + 1);
            new (temps + in.dst) Value(Value::none());
            return;
        }
    }
    const MethodIds ids = method_ids_of(at);
    Value scratch;
    std::optional<TargetIndices> no_indices;  // (a variable's method: none)
    Value r = apply_method(at, ids, *method_kind(ids, temps[in.dst]), temps[in.dst], scratch, no_indices,
                           CallArgs{std::span<const Value>(temps + in.dst + 1, c.args.size()), {}, {}, at.loc});
    for (size_t i = 0; i <= c.args.size(); ++i) release(in.dst + i);
    new (temps + in.dst) Value(std::move(r));
}

// A CallBuiltin instruction: what the Copy of the builtin, the Copies of
// the arguments and the Call would do — a builtin on numbers (len of a
// container too) by call_on_numbers on the arguments where they are, else
// call_evaluated on copies of them.
[[gnu::noinline]] Value Evaluator::run_builtin_call(const BodyCode::Instr& in, const Value& x, const Value* y) {
    const Call& c = in.expr->as<Call>();
    const Value& callee = rt_.builtin(in.name->slot);
    if (!rt_.options.debug_nans) {
        Value out;
        if (!y && call_on_numbers(callee, std::span<const Value>(&x, 1), out)) return out;
        if (y) {
            const Value pair[2] = {x, *y};
            if (call_on_numbers(callee, pair, out)) return out;
        }
    }
    Value args[2] = {x, y ? *y : Value()};
    return call_evaluated(c, callee, std::span<Value>(args, y ? 2 : 1));
}

// Threaded dispatch (GCC's labels as values): each instruction jumps to the
// next one's code from its own indirect branch, which the branch predictor
// learns per instruction kind; one shared `switch` jump mispredicted on
// about every instruction (a fifth of a recursive call's time).
Evaluator::Flow Evaluator::run_code(const BodyCode& body) {
    // The temporaries: as many as the body uses, each empty (Undefined, or
    // moved from) except between the instruction that makes its value and
    // the one that takes it, so a value is made in place (no Value assigned)
    // and only an error's way out has any to destroy.
    alignas(Value) unsigned char raw[BodyCode::kMaxTemps * sizeof(Value)];
    Value* const temps = std::launder(reinterpret_cast<Value*>(raw));
    for (int i = 0; i < body.temps; ++i) new (temps + i) Value();
    auto release = [&](uint16_t t) { empty_temp(temps, t); };
    OnStack<LoopState, BodyCode::kMaxLoops> loops(body.loops);  // the `for` loops' state

    // (in Instr::Op's order)
    static const void* const kLabels[] = {
        &&line,            &&count_line,      &&stmt,            &&eval,            &&copy,
        &&binary,          &&call,            &&call_builtin,    &&item,            &&negate,
        &&slice_of,        &&method_receiver, &&method_call,     &&store,           &&store_scalar,
        &&load_item,       &&store_item,      &&store_number,    &&assign_to,       &&unpack,
        &&aug_store,       &&aug_item,        &&discard,         &&ret,             &&jump,
        &&jump_on_truth,   &&compare,         &&jump_on_compare, &&jump_on_none,    &&jump_on_item,
        &&member,          &&jump_on_member,  &&sequence,        &&for_range,       &&for_iter,
        &&for_range_next,  &&for_iter_next,   &&for_step,        &&for_end,         &&end};
    static_assert(sizeof kLabels / sizeof kLabels[0] == Instr::End + 1);
    const Instr* const code = body.code.data();
    const Instr* in = code;
    Loc statement{};  // where an error that is not located yet is raised (as exec does)
    // A variable read in place must be assigned ("not defined" otherwise).
    // (always_inline: GCC stops inlining it once the loop grows, and a call
    // per operand cost fib 5 % more instructions)
    auto read = [&](const Operand& o) __attribute__((always_inline)) -> const Value& {
        switch (o.kind) {
        case Operand::Temp: return temps[o.index];
        case Operand::Const: return body.consts[o.index];
        case Operand::Local: {
            const Value& v = f_->env->slots[o.index];
            if (!v.defined()) [[unlikely]] undefined(*o.name);
            return v;
        }
        case Operand::Global: {
            const Value& v = f_->module->globals[o.index];
            if (!v.defined()) [[unlikely]] undefined(*o.name);
            return v;
        }
        case Operand::Builtin: return rt_.builtin(o.index);
        case Operand::Enclosing: {
            const Value& v = enclosing_variable(*f_->env, o);
            if (!v.defined()) [[unlikely]] undefined(*o.name);
            return v;
        }
        }
        return temps[o.index];
    };
    // A variable or a constant as it is, assigned or not (the instructions
    // that decline an unassigned one: the walker raises the error).
    auto peek = [&](const Operand& o) __attribute__((always_inline)) -> const Value& {
        return o.kind == Operand::Const   ? body.consts[o.index]
               : o.kind == Operand::Local ? f_->env->slots[o.index]
                                          : f_->module->globals[o.index];
    };
    // x[y] (Item, LoadItem): a dict's item as eval_index reads it (base,
    // then key), a list's or a tuple's by an int in range as eval_index's
    // item_at does; null: a key missing, another kind of base or key, an
    // operand not assigned (the walker's, which raises the error).
    auto item_at_once = [&](const Instr& i) __attribute__((always_inline)) -> const Value* {
        const Value& base = peek(i.x);
        if (base.is(Kind::Dict)) {
            const Value& key = peek(i.y);
            return plain_key(key) ? base.dict().find(dict_key(rt_, key)) : nullptr;
        }
        if (base.is_sequence() && presets_.empty()) {  // (presets: scalar_item's case)
            const Scalar* k = peek(i.y).scalar();
            if (k && stdlib::is_int(k->dtype)) return item_in_range(base.items(), k->i);
        }
        return nullptr;
    };
    // The resolver's scalar program of e, when it has one and it computes
    // (what eval_scalar runs first; false: the walker evaluates e).
    auto scalar_program = [&](const Expr& e, Scalar& out) {
        const ScalarCode* sc = scalar_code_of(e);
        return sc && !rt_.options.debug_nans && run_scalar(*sc, f_->env, f_->module->globals.data(), out);
    };
    // A comparison of two numbers on the scalar fast path (as eval_scalar
    // computes it; false: the walker evaluates it, as eval_scalar's caller does).
    auto compared = [&](const Compare& c, const Value& x, const Value& y, Scalar& out) {
        const Scalar *sa, *sb;
        return !rt_.options.debug_nans && (sa = x.scalar()) && (sb = y.scalar()) &&
               scalar_binary(compare_kind(c.ops[0]), *sa, *sb, out);
    };
    // An operand's value to keep: a temporary's moved out, a variable's copied.
    auto take = [&](const Operand& o) __attribute__((always_inline)) -> Value {
        if (o.kind == Operand::Temp) return std::move(temps[o.index]);
        return read(o);
    };
#define TG_NEXT() goto* kLabels[(++in)->op]
#define TG_JUMP(to)        \
    do {                   \
        in = code + (to);  \
        goto* kLabels[in->op]; \
    } while (0)
    try {
        goto* kLabels[in->op];
    line:
        f_->loc = in->loc;  // (the fault report's and the debugger's)
        statement = in->loc;
        count_line(in->loc);
        TG_NEXT();
    count_line:
        statement = in->loc;
        count_line(in->loc);
        TG_NEXT();
    stmt: {
        const Stmt& s = *in->stmt;
        if (s.kind == StmtKind::Assign && assign_scalar(s.as<Assign>())) TG_NEXT();
        if (exec_inner(s) == Flow::Return) return Flow::Return;
        TG_NEXT();
    }
    eval: {
        // The resolver's scalar program first, as eval_binary and eval_compare run it.
        Scalar out;
        if (scalar_program(*in->expr, out))
            new (temps + in->dst) Value(out);
        else
            new (temps + in->dst) Value(eval(*in->expr));
        TG_NEXT();
    }
    copy:
        new (temps + in->dst) Value(read(in->x));
        TG_NEXT();
    binary: {
        // What eval_binary does with its operands' values.
        const Binary& b = in->expr->as<Binary>();
        {  // (a scope: a computed goto may not leave one with a Value alive)
            const Value& x = read(in->x);
            const Value& y = read(in->y);
            const Scalar *sa, *sb;
            Scalar out;
            // (numbers: the result made in its temporary at once; a Value in
            // between was written field by field and read back whole, which
            // waits for the stores — a sixth of a recursive call's time)
            // (--debug-nans: binary_at checks what it makes)
            const bool numbers = b.op != BinOp::MatMul && !rt_.options.debug_nans && (sa = x.scalar()) && (sb = y.scalar()) &&
                                 scalar_binary(binary_kind(b.op), *sa, *sb, out);
            Value r = numbers ? Value() : binary_at(b, x, y);
            // (an operand's temporary let go: a list left there would be copied when next changed)
            if (in->x.kind == Operand::Temp) release(in->x.index);
            if (in->y.kind == Operand::Temp) release(in->y.index);
            if (numbers) new (temps + in->dst) Value(out);
            else new (temps + in->dst) Value(std::move(r));
        }
        TG_NEXT();
    }
    call: {
        const Call& c = in->expr->as<Call>();
        {
            Value r = call_from_body_code(c, temps[in->dst], std::span<Value>(temps + in->dst + 1, c.args.size()));
            // the callee and the arguments let go (moved into a frame, or passed to a builtin)
            for (size_t i = 0; i <= c.args.size(); ++i) release(static_cast<uint16_t>(in->dst + i));
            new (temps + in->dst) Value(std::move(r));
        }
        TG_NEXT();
    }
    call_builtin:
        // (its arguments read in place: nothing runs between them and the call)
        new (temps + in->dst) Value(run_builtin_call(*in, read(in->x), in->when ? &read(in->y) : nullptr));
        TG_NEXT();
    item:
        if (const Value* got = item_at_once(*in)) new (temps + in->dst) Value(*got);
        else new (temps + in->dst) Value(eval(*in->expr));
        TG_NEXT();
    negate: {
        // What eval_unary does with its operand's value.
        {  // (a scope: a computed goto may not leave one with a Value alive)
            const Value& x = read(in->x);
            const Scalar* s;
            Scalar out;
            const bool number = !rt_.options.debug_nans && (s = x.scalar()) && scalar_negate(*s, out);
            Value r = number ? Value() : unary_at(in->expr->as<Unary>(), x);
            if (in->x.kind == Operand::Temp) release(in->x.index);
            if (number) new (temps + in->dst) Value(out);
            else new (temps + in->dst) Value(std::move(r));
        }
        TG_NEXT();
    }
    slice_of:
        if (!slice_at_once(in->expr->as<Index>(), read(in->x), temps + in->dst))
            new (temps + in->dst) Value(eval(*in->expr));
        TG_NEXT();
    method_receiver: {
        // What call_method decides by the receiver's value (read as eval reads it)
        const Value& r = read(in->x);
        if (!method_kind(method_ids_of(in->expr->as<Call>().callee->as<Attribute>()), r)) TG_JUMP(in->target);
        new (temps + in->dst) Value(r);
        TG_NEXT();
    }
    method_call:
        run_method_call(*in, temps);
        TG_NEXT();
    store:
        store_slot(*in->name) = take(in->x);
        TG_NEXT();
    store_scalar: {
        // assign_scalar's `name = <arithmetic>`: the number computed into the
        // local variable in place; when the program gives up, the walker's
        // statement (which evaluates the expression again: it runs no code).
        Scalar out;
        if (scalar_program(*in->expr, out)) {
            f_->env->slots[in->name->slot].set_scalar(out);
            TG_NEXT();
        }
        exec_inner(*in->stmt);
        TG_NEXT();
    }
    load_item: {
        // item_at_once's item, else the walker's statement.
        if (const Value* item = item_at_once(*in)) {
            {  // (a scope: a computed goto may not leave one with a Value alive)
                Value v = *item;  // (a copy first: the store may replace the dict or the list)
                store_slot(*in->name) = std::move(v);
            }
            TG_NEXT();
        }
        goto stmt;
    }
    store_item: {
        // store_index's dict and list cases, with the value x read first (as
        // exec_assign evaluates it first) and copied before the store (a
        // dict or list stored into itself is the one it was); the base, then
        // the key, as lvalue and index_key read them.
        {
            Value v = take(in->x);
            Value& base = f_->env->slots[in->name->slot];
            if (base.is(Kind::Dict) && plain_key(read(in->y))) {
                base.dict_mut().set(dict_key(rt_, read(in->y)), std::move(v));
            } else if (const Scalar* k; base.is(Kind::List) && (k = read(in->y).scalar()) &&
                                        k->dtype == stdlib::DType::I64) {
                const int64_t n = static_cast<int64_t>(base.items().size()), i = k->i < 0 ? k->i + n : k->i;
                if (i >= 0 && i < n) base.list_mut()[static_cast<size_t>(i)] = std::move(v);
                else assign(*in->expr, std::move(v));  // (its error)
            } else {
                assign(*in->expr, std::move(v));
            }
        }
        TG_NEXT();
    }
    store_number: {
        // exec_assign's store_scalar_item: the number v (a variable's, a
        // literal's, an item read in place, or v's scalar program)
        // overwrites a list's item in range (the list copied first if
        // shared); else the walker's statement, which reads the same
        // operands again (none of them runs code).
        const Index& target = in->expr->as<Index>();
        const Expr& v = *in->stmt->as<Assign>().value;
        Value& base = f_->env->slots[in->name->slot];
        Scalar number;
        bool made = false;
        if (in->when) {  // `xs[k] = ys[j]`
            const Scalar* s = nullptr;
            int64_t j;
            if (const Value& ys = peek(in->x); ys.is_sequence() && pure_int_index(v.as<Index>(), j))
                s = scalar_at(ys.items(), j);
            if (s) number = *s, made = true;  // (a copy: ys may be xs, which the store may copy)
        } else if (in->x.kind != Operand::Temp) {  // a variable's or a literal's
            const Scalar* s = peek(in->x).scalar();
            if (s) number = *s, made = true;
        } else {
            made = scalar_program(v, number);
        }
        int64_t k;
        if (!made || !base.is(Kind::List) || !presets_.empty()) goto stmt;
        if (in->y.kind != Operand::Temp) {  // (pure_int's case of a variable or a literal)
            const Scalar* key = peek(in->y).scalar();
            if (!key || !stdlib::is_int(key->dtype)) goto stmt;
            k = key->i;
        } else if (!pure_int_index(target, k)) {
            goto stmt;
        }
        {  // (the range checked here, not by item_in_range: its pointer back to an index cost fannkuch 1.3 %)
            const int64_t n = static_cast<int64_t>(base.items().size());
            if (k < 0) k += n;
            if (k < 0 || k >= n) goto stmt;
            base.list_mut()[static_cast<size_t>(k)].set_scalar(number);
        }
        TG_NEXT();
    }
    assign_to:
        assign(*in->expr, take(in->x));
        TG_NEXT();
    unpack: {
        // assign()'s case of a sequence of as many items as the targets,
        // each a local variable: its items stored in order (v holds the
        // sequence: the stores cannot change it)
        {
            Value v = take(in->x);
            const auto& targets = in->expr->kind == ExprKind::Tuple ? in->expr->as<TupleExpr>().elts
                                                                     : in->expr->as<ListExpr>().elts;
            if (v.is_sequence() && v.items().size() == targets.size()) {
                const std::span<const Value> xs = v.items();
                for (size_t i = 0; i < xs.size(); ++i) f_->env->slots[targets[i]->as<Name>().slot] = xs[i];
            } else {
                assign(*in->expr, std::move(v));
            }
        }
        TG_NEXT();
    }
    aug_store: {
        // aug_assign's: numbers computed in place (aug_assign_scalar's case), anything else by aug_value
        const AugAssign& a = in->stmt->as<AugAssign>();
        const Value& rhs = read(in->x);
        Value* slot = plain_store_slot(a.target->as<Name>());
        const Scalar *cur, *r;
        Scalar out;
        if (!rt_.options.debug_nans && a.op != BinOp::MatMul && slot && (cur = slot->scalar()) && (r = rhs.scalar()) &&
            scalar_binary(binary_kind(a.op), *cur, *r, out))
            slot->set_scalar(out);
        else if (in->x.kind == Operand::Temp)
            aug_assign_name(a, rhs);
        else
            aug_assign_name(a, Value(rhs));  // a copy, as eval makes it: `s += s` must not append s to itself in place
        if (in->x.kind == Operand::Temp) release(in->x.index);
        TG_NEXT();
    }
    aug_item: {
        // aug_assign_scalar's `xs[k] op= v`: the item a number, v a number
        // (a variable, a literal, or its scalar program), the result stored
        // into the item (the list copied first if shared); else the walker's
        // statement, which reads the same operands again (none runs code).
        const AugAssign& a = in->stmt->as<AugAssign>();
        Value& base = f_->env->slots[in->name->slot];
        const Value& key = peek(in->y);
        const Scalar *k = nullptr, *cur = nullptr, *plain = nullptr;
        if (!rt_.options.debug_nans && a.op != BinOp::MatMul && base.is(Kind::List) && (k = key.scalar()) &&
            stdlib::is_int(k->dtype))
            cur = scalar_at(base.items(), k->i);
        Scalar rhs, out;
        if (cur && in->x.kind != Operand::Temp) {
            plain = peek(in->x).scalar();
        } else if (cur && scalar_program(*in->expr, rhs)) {
            plain = &rhs;
        }
        if (!plain || !scalar_binary(binary_kind(a.op), *cur, *plain, out)) goto stmt;
        {
            const int64_t n = static_cast<int64_t>(base.items().size());
            base.list_mut()[static_cast<size_t>(k->i < 0 ? k->i + n : k->i)].set_scalar(out);
        }
        TG_NEXT();
    }
    discard:
        release(in->dst);
        TG_NEXT();
    ret:
        f_->ret = take(in->x);
        return Flow::Return;
    jump:
        TG_JUMP(in->target);
    jump_on_truth: {
        const Expr& e = *in->expr;
        Scalar s;
        const bool holds = scalar_program(e, s) ? s.nonzero() : cond_at(e, in->loc);
        if (holds == in->when) TG_JUMP(in->target);
        TG_NEXT();
    }
    compare: {
        // What eval_compare does with two numbers (its scalar program's result), else the walker.
        const Value& x = read(in->x);
        const Value& y = read(in->y);
        Scalar out;
        if (compared(in->expr->as<Compare>(), x, y, out))
            new (temps + in->dst) Value(out);
        else
            new (temps + in->dst) Value(eval(*in->expr));
        TG_NEXT();
    }
    jump_on_compare: {
        const Value& x = read(in->x);
        const Value& y = read(in->y);
        Scalar out;
        if ((compared(in->expr->as<Compare>(), x, y, out) ? out.nonzero() : cond_at(*in->expr, in->loc)) == in->when)
            TG_JUMP(in->target);
        TG_NEXT();
    }
    jump_on_none: {
        // What eval_compare does for `x is None` (a value None on some paths only exists while tracing).
        const Value& x = read(in->x);
        const bool holds = x.maybe_undef() ? cond_at(*in->expr, in->loc) : x.is(Kind::None) == in->when_none;
        if (holds == in->when) TG_JUMP(in->target);
        TG_NEXT();
    }
    jump_on_item: {
        // cond_at's `if xs[k]` (scalar_item's case: a number in a list or a
        // tuple by an int in range, its truth read in place), else cond_at.
        // The operands are peeked at: one not assigned is cond_at's error.
        const Value& base = peek(in->x);
        const Value& key = peek(in->y);
        const Scalar *k, *item = nullptr;
        if (base.is_sequence() && (k = key.scalar()) && stdlib::is_int(k->dtype)) item = scalar_at(base.items(), k->i);
        if ((item ? item->nonzero() : cond_at(*in->expr, in->loc)) == in->when) TG_JUMP(in->target);
        TG_NEXT();
    }
    member: {
        const Value& x = read(in->x);
        const Value& y = read(in->y);
        bool holds;
        if (member_at_once(rt_, x, y, in->expr->as<Compare>().ops[0] == CmpOp::NotIn, holds))
            new (temps + in->dst) Value(Value::from_bool(holds));
        else
            new (temps + in->dst) Value(eval(*in->expr));
        TG_NEXT();
    }
    jump_on_member: {
        const Value& x = read(in->x);
        const Value& y = read(in->y);
        bool holds;
        if (!member_at_once(rt_, x, y, in->expr->as<Compare>().ops[0] == CmpOp::NotIn, holds))
            holds = cond_at(*in->expr, in->loc);
        if (holds == in->when) TG_JUMP(in->target);
        TG_NEXT();
    }
    sequence: {
        // What eval_sequence makes of its items' values (moved out of their temporaries).
        const Expr& e = *in->expr;
        Value* items = temps + in->dst + 1;
        if (e.kind == ExprKind::Tuple) {
            const size_t n = e.as<TupleExpr>().elts.size();
            new (temps + in->dst) Value(Value::tuple_filled(n, [&](TupleItems& out) {
                for (size_t i = 0; i < n; ++i) out.push_back(std::move(items[i]));
            }));
        } else {
            const size_t n = e.as<ListExpr>().elts.size();
            new (temps + in->dst) Value(Value::list(std::vector<Value>(std::make_move_iterator(items),
                                                                       std::make_move_iterator(items + n))));
        }
        TG_NEXT();
    }
    for_range: {
        LoopState& l = loops[in->dst];
        int64_t a[3];
        range_args(in->stmt->as<For>().iter->as<Call>(), a);
        l.i = a[0], l.stop = a[1], l.step = a[2];
        TG_NEXT();
    }
    for_iter: {
        LoopState& l = loops[in->dst];
        l.items.emplace(loop_items(in->stmt->as<For>()));
        l.i = 0, l.stop = l.items->size(), l.step = 1;
        TG_NEXT();
    }
    for_range_next: {
        const LoopState& l = loops[in->dst];
        if (l.step > 0 ? l.i >= l.stop : l.i <= l.stop) TG_JUMP(in->target);
        statement = in->loc;
        count_line(in->loc);
        store_slot(*in->name).set_scalar(Scalar::of_int(l.i));
        TG_NEXT();
    }
    for_iter_next: {
        const LoopState& l = loops[in->dst];
        if (l.i >= l.stop) TG_JUMP(in->target);
        {
            Value item = l.items->item(l.i);
            statement = in->loc;
            count_line(in->loc);
            assign(*in->expr, std::move(item));
        }
        TG_NEXT();
    }
    for_step:
        loops[in->dst].i += loops[in->dst].step;
        TG_JUMP(in->target);
    for_end:
        loops[in->dst].items.reset();  // (a list held there would be copied when next changed)
        TG_NEXT();
    end:
        return Flow::Normal;
    } catch (...) {
        for (int i = 0; i < body.temps; ++i) temps[i].~Value();
        if (body.lambda) throw;  // (no statement: eval's error as it is)
        raise_at_statement(statement);
    }
#undef TG_NEXT
#undef TG_JUMP
}

}  // namespace tg::interp
