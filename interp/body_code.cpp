// The compiler of body code (interp/body_code.hpp): a def's statements to a
// flat list of instructions, once, on the function's first call.
//
// What it compiles itself: `if` / `elif` / `else`, `while` and `for` (their
// conditions' `and` / `or` / `not` as jumps), `break`, `continue`, `pass`,
// `return`; calls of a function by its name with positional arguments
// (alone, as the value of `name = ...`, `name op= ...` or `return ...`, in
// arithmetic `fib(n - 1) + fib(n - 2)`, or in a tuple or list display); a
// comparison or an arithmetic operation on two variables or literals,
// `x is None`, `k in d` (plain_membership), `name op= v`, `x = v`
// (stored_by_body_code), `d[k] = v` (item_of_local), a number into a
// list's item `xs[i + 1] = ys[j]` (item_by_pure_int), an unpacking
// `a, b = v`, a method call on a variable (method_call_syntax), an item of
// a variable `r["name"]` and a negation `-x` as values, small displays of
// those (small_display), and any call as a statement; a literal or a tuple
// display of literals is a constant, made once. Everything else is handed to the tree
// walker whole: another statement as a Stmt instruction, another
// expression as an Eval instruction. So a statement runs exactly as exec
// runs it, an expression as eval does.
#include "interp/body_code.hpp"

#include <algorithm>
#include <limits>

#include "interp/control.hpp"
#include "interp/method_signatures.hpp"
#include "interp/runtime.hpp"
#include "interp/scalar_code.hpp"
#include "interp/target_indices.hpp"

namespace tg::interp {

using namespace lang;

namespace {

using Instr = BodyCode::Instr;
using Operand = BodyCode::Operand;

const std::vector<ExprPtr>& sequence_items(const Expr& e) {
    return e.kind == ExprKind::List ? e.as<ListExpr>().elts : e.as<TupleExpr>().elts;
}

// A call body code makes itself: `f(a, b)`, f a variable, no keyword, no `*`.
bool direct_call_syntax(const Expr& e) {
    if (e.kind != ExprKind::Call) return false;
    const Call& c = e.as<Call>();
    return c.callee->kind == ExprKind::Name && c.keywords.empty() && !c.unpacks &&
           c.args.size() + 1 < BodyCode::kMaxTemps;
}

// A variable an operand reads in place: a local or a global whose slot
// fits an operand's index (a module may have more variables; those are
// read by `eval`).
bool in_place_name(const Name& n) {
    return (n.scope == Scope::Local || n.scope == Scope::Global) && n.slot >= 0 &&
           n.slot <= std::numeric_limits<uint16_t>::max();
}

// An int the walker's pure_int reads without running code: an int literal
// (or its negation), a variable read in place, arithmetic the resolver
// compiled.
bool pure_int_syntax(const Expr& b) {
    if (b.kind == ExprKind::Int) return true;
    if (b.kind == ExprKind::Unary) return b.as<Unary>().op == UnaryOp::Neg && b.as<Unary>().operand->kind == ExprKind::Int;
    if (b.kind == ExprKind::Name) return in_place_name(b.as<Name>());
    return b.kind == ExprKind::Binary && scalar_code_of(b) != nullptr;
}

// `xs[k]` (xs a variable read in place, k pure_int_syntax): an item store_scalar_item reads or stores.
bool item_by_pure_int(const Expr& e) {
    if (e.kind != ExprKind::Index) return false;
    const Index& x = e.as<Index>();
    return x.indices.size() == 1 && !x.is_tuple && x.value->kind == ExprKind::Name &&
           in_place_name(x.value->as<Name>()) && pure_int_syntax(*x.indices[0]);
}

// `s[i:i + k]`, `xs[1:]`: a slice by step 1 of a variable read in place,
// each bound absent, an int literal (or its negation), a variable read in
// place or arithmetic the resolver compiled — none runs code, so when SliceOf declines (a
// dict, a tensor, a bound that is not an int) the walker evaluates the
// whole subscript again and finds what it always found.
bool slice_of_variable(const Expr& e) {
    if (e.kind != ExprKind::Index) return false;
    const Index& x = e.as<Index>();
    if (x.indices.size() != 1 || x.is_tuple || x.indices[0]->kind != ExprKind::Slice ||
        x.value->kind != ExprKind::Name || !in_place_name(x.value->as<Name>()))
        return false;
    const Slice& s = x.indices[0]->as<Slice>();
    auto bound = [](const ExprPtr& b) { return !b || pure_int_syntax(*b); };
    return !s.step && bound(s.lo) && bound(s.hi);
}

// A variable of an enclosing function read in place (only by a Copy).
bool enclosing_name(const Name& n) {
    return n.scope == Scope::Enclosing && n.slot >= 0 && n.slot <= std::numeric_limits<uint16_t>::max();
}
Operand enclosing_operand(const Name& n) {
    return {.kind = Operand::Enclosing, .index = static_cast<uint16_t>(n.slot), .name = &n};
}

// `x.name(a, b)`: x a variable read in place, name a list, dict, set, str
// or tensor method, no keyword, no `*`. (Any other attribute call is the
// walker's: it looks the attribute up before the arguments.)
bool method_call_syntax(const Expr& e) {
    if (e.kind != ExprKind::Call) return false;
    const Call& c = e.as<Call>();
    if (c.callee->kind != ExprKind::Attribute || !c.keywords.empty() || c.unpacks ||
        c.args.size() + 1 >= BodyCode::kMaxTemps)
        return false;
    const Attribute& at = c.callee->as<Attribute>();
    if (at.value->kind != ExprKind::Name || !in_place_name(at.value->as<Name>())) return false;
    const MethodIds ids = method_ids_of(at);
    return std::ranges::any_of(ids.index, [](int8_t i) { return i >= 0; });
}

// Whether e holds a call body code makes itself (a function's by name, a
// method's on a variable) where body code reaches it: through arithmetic,
// or in a tuple or list display.
bool has_compiled_call(const Expr& e) {
    if (direct_call_syntax(e) || method_call_syntax(e)) return true;
    if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List)
        return std::ranges::any_of(sequence_items(e), [](const auto& x) { return has_compiled_call(*x); });
    if (e.kind != ExprKind::Binary) return false;
    const Binary& b = e.as<Binary>();
    return has_compiled_call(*b.lhs) || has_compiled_call(*b.rhs);
}

// A variable read in place or a number literal.
bool plain_operand(const Expr& e) {
    if (e.kind == ExprKind::Int || e.kind == ExprKind::Float || e.kind == ExprKind::Bool) return true;
    return e.kind == ExprKind::Name && in_place_name(e.as<Name>());
}

// `len(xs)`, `max(a, b)`: a builtin called by its name with one or two
// arguments, each a variable or a number literal (CallBuiltin).
bool builtin_on_operands(const Expr& e) {
    if (!direct_call_syntax(e)) return false;
    const Call& c = e.as<Call>();
    const Name& f = c.callee->as<Name>();
    return f.scope == Scope::Builtin && f.slot >= 0 && (c.args.size() == 1 || c.args.size() == 2) &&
           std::ranges::all_of(c.args, [](const ExprPtr& a) { return plain_operand(*a); });
}

// `a < b`, `n - 1`: one operator of the scalar fast path on two plain
// operands, computed in place from them (eval_scalar's cases).
bool plain_binary(const Expr& e) {
    if (e.kind == ExprKind::Binary) {
        const Binary& b = e.as<Binary>();
        switch (b.op) {
        case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::Div: case BinOp::FloorDiv: case BinOp::Mod:
            return plain_operand(*b.lhs) && plain_operand(*b.rhs);
        default: return false;
        }
    }
    if (e.kind != ExprKind::Compare) return false;
    const Compare& c = e.as<Compare>();
    return c.ops.size() == 1 && !is_membership(c.ops[0]) && !is_identity(c.ops[0]) && plain_operand(*c.first) &&
           plain_operand(*c.rest[0]);
}

// `x is None` / `x is not None` of a local variable (what eval_compare reads in place).
bool local_is_none(const Expr& e) {
    if (e.kind != ExprKind::Compare) return false;
    const Compare& c = e.as<Compare>();
    return c.ops.size() == 1 && is_identity(c.ops[0]) && c.rest[0]->kind == ExprKind::NoneLit &&
           c.first->kind == ExprKind::Name && c.first->as<Name>().scope == Scope::Local &&
           in_place_name(c.first->as<Name>());
}

// The value of a literal, or of a tuple display of literals (`(None, None)`,
// `("a", 1)`): made once, when the body is compiled — a tuple cannot change,
// so one value serves every evaluation, as eval's would (false: not one).
bool literal_value(const Expr& e, Value& out) {
    switch (e.kind) {
    case ExprKind::Int: out = Value::weak_int(e.as<IntLit>().value); return true;
    case ExprKind::Float: out = Value::weak_float(e.as<FloatLit>().value); return true;
    case ExprKind::Bool: out = Value::from_bool(e.as<BoolLit>().value); return true;
    case ExprKind::NoneLit: out = Value::none(); return true;
    case ExprKind::Str: out = Value::str(e.as<StrLit>().value); return true;
    case ExprKind::Tuple: {
        const auto& elts = e.as<TupleExpr>().elts;
        std::vector<Value> items(elts.size());
        for (size_t i = 0; i < elts.size(); ++i)
            if (!literal_value(*elts[i], items[i])) return false;
        out = Value::tuple_filled(items.size(), [&](TupleItems& made) {
            for (Value& v : items) made.push_back(std::move(v));
        });
        return true;
    }
    default: return false;
    }
}

// A key read where it is used: a variable read in place, or an int or str literal.
bool key_operand(const Expr& k) {
    return k.kind == ExprKind::Int || k.kind == ExprKind::Str || (k.kind == ExprKind::Name && in_place_name(k.as<Name>()));
}

// `d[k]`: d a variable read in place, k a key operand (LoadItem: a dict's item read at once).
bool item_of_variable(const Expr& e) {
    if (e.kind != ExprKind::Index) return false;
    const Index& x = e.as<Index>();
    return x.indices.size() == 1 && !x.is_tuple && x.value->kind == ExprKind::Name &&
           in_place_name(x.value->as<Name>()) && key_operand(*x.indices[0]);
}

// A local variable the function stores into itself (as lvalue finds it:
// not one declared `global`).
bool own_local(const Name& n) { return n.scope == Scope::Local && !n.declared_outer; }

// `d[k] = ...`: d a local variable (one a function changes in place, as
// lvalue finds it), k a key operand (StoreItem).
bool item_of_local(const Expr& e) {
    if (!item_of_variable(e)) return false;
    const Name& d = e.as<Index>().value->as<Name>();
    return own_local(d);
}

// `-x`, x a variable, a literal or an item of a variable (Negate: at most
// one temporary, the item's).
bool negation_of_operand(const Expr& e) {
    if (e.kind != ExprKind::Unary || e.as<Unary>().op != UnaryOp::Neg) return false;
    const Expr& x = *e.as<Unary>().operand;
    return plain_operand(x) || item_of_variable(x);
}

// `(-r["salary"], r["name"])`, `[a, xs[i]]`: a tuple or list display of at
// most four items, each a variable, a literal, an item of a variable or
// one's negation (each at most one temporary beyond its own).
bool small_display(const Expr& e) {
    if (e.kind != ExprKind::Tuple && e.kind != ExprKind::List) return false;
    const auto& items = sequence_items(e);
    return items.size() <= 4 && std::ranges::all_of(items, [](const ExprPtr& x) {
               Value unused;
               return plain_operand(*x) || literal_value(*x, unused) || item_of_variable(*x) ||
                      negation_of_operand(*x);
           });
}

// `a, b = ...`: every target a local variable (Unpack).
bool local_names(const Expr& target) {
    return std::ranges::all_of(sequence_items(target), [](const ExprPtr& e) {
        return e->kind == ExprKind::Name && own_local(e->as<Name>());
    });
}

// `k in d`, `w not in seen`: one membership test of two key operands (Member).
bool plain_membership(const Expr& e) {
    if (e.kind != ExprKind::Compare) return false;
    const Compare& c = e.as<Compare>();
    return c.ops.size() == 1 && is_membership(c.ops[0]) && key_operand(*c.first) && key_operand(*c.rest[0]);
}

// A value `x = v` computes with body code and a Store: v is not one the
// walker's assign_scalar computes in place (arithmetic, an item's number:
// body code made a Value of them, 2-5 % more instructions on richards and
// nbody).
bool stored_by_body_code(const Expr& v) {
    switch (v.kind) {
    case ExprKind::Call: case ExprKind::Name: case ExprKind::Str: case ExprKind::FString: case ExprKind::NoneLit:
    case ExprKind::Bool: case ExprKind::List: case ExprKind::Tuple: case ExprKind::Dict: case ExprKind::Set:
        return true;
    case ExprKind::Index: {  // a slice (`s[i:j]`) or a string key (`row["city"]`): never a list's number
        const Index& x = v.as<Index>();
        return x.indices.size() == 1 &&
               (x.indices[0]->kind == ExprKind::Slice || x.indices[0]->kind == ExprKind::Str);
    }
    case ExprKind::Compare: return plain_membership(v);  // (a bool, made by Member)
    default: return has_compiled_call(v);
    }
}

class Compiler {
public:
    explicit Compiler(BodyCode& out) : out_(out) {}

    bool block(const Block& b) {
        for (const auto& s : b)
            if (!statement(*s)) return false;
        return true;
    }
    // A lambda's body: its expression's value returned (no Line: the walker
    // counts no line in a lambda either).
    bool expression_body(const Expr& e) {
        out_.lambda = true;
        out_.entry = e.loc;
        temps_ = 0;
        emit({.op = Instr::Return, .x = value(e, true)});
        return true;
    }
    void end() { emit({.op = Instr::End}); }
    // Every index fits its field (temporaries, constants): else the walker runs the body.
    bool fits() const { return !too_many_; }

private:
    struct Loop {
        std::vector<size_t> breaks, continues;  // their jumps, patched at the loop's end
    };
    BodyCode& out_;
    std::vector<Loop> loops_;
    int temps_ = 0;  // temporaries in use by the statement being compiled
    int fors_ = 0;   // `for` loops around the statement being compiled
    bool too_many_ = false;

    size_t emit(Instr i) {
        out_.code.push_back(i);
        return out_.code.size() - 1;
    }
    uint32_t here() const { return static_cast<uint32_t>(out_.code.size()); }
    void patch(size_t jump, uint32_t to) { out_.code[jump].target = to; }
    uint16_t new_temp() {
        if (temps_ >= BodyCode::kMaxTemps) too_many_ = true;
        out_.temps = std::max(out_.temps, temps_ + 1);
        return static_cast<uint16_t>(temps_++);
    }
    Operand constant(Value v) {
        if (out_.consts.size() > std::numeric_limits<uint16_t>::max()) too_many_ = true;  // (the walker's body)
        out_.consts.push_back(std::move(v));
        return {.kind = Operand::Const, .index = static_cast<uint16_t>(out_.consts.size() - 1)};
    }

    // One statement's instructions; a simple statement that needs more
    // temporaries or constants than fit is handed to the tree walker alone
    // (a 15-item display of calls), not the whole body with it.
    bool statement(const Stmt& s) {
        emit({.op = Instr::Line, .loc = s.loc});
        const size_t code_mark = out_.code.size(), consts_mark = out_.consts.size();
        const int temps_mark = out_.temps;
        if (!compiled(s)) return false;
        if (!too_many_ || is_compound(s)) return true;
        out_.code.resize(code_mark);
        out_.consts.resize(consts_mark);
        out_.temps = temps_mark;
        too_many_ = false;
        emit({.op = Instr::Stmt, .stmt = &s});
        return true;
    }
    static bool is_compound(const Stmt& s) {
        return s.kind == StmtKind::If || s.kind == StmtKind::For || s.kind == StmtKind::While;
    }

    bool compiled(const Stmt& s) {
        temps_ = 0;
        switch (s.kind) {
        case StmtKind::If: return if_statement(s.as<If>());
        case StmtKind::For:
            if (fors_ == BodyCode::kMaxLoops) break;
            return for_statement(s.as<For>());
        case StmtKind::While: return while_statement(s.as<While>());
        case StmtKind::Break: case StmtKind::Continue: {
            if (loops_.empty()) return false;  // (not inside a loop of this body: the walker's business)
            auto& jumps = s.kind == StmtKind::Break ? loops_.back().breaks : loops_.back().continues;
            jumps.push_back(emit({.op = Instr::Jump}));
            return true;
        }
        case StmtKind::Pass: return true;
        case StmtKind::Return: {
            const Return& r = s.as<Return>();
            Operand x = r.value ? value(*r.value, true) : constant(Value::none());
            emit({.op = Instr::Return, .x = x});
            return true;
        }
        case StmtKind::Expr: {
            // A call's value dropped (`xs.append(v)`, `f(x)`): what exec_expr_stmt does
            // in a function, whose frame echoes nothing.
            const Expr& e = *s.as<ExprStmt>().expr;
            if (e.kind != ExprKind::Call) break;
            const uint16_t t = new_temp();
            into(e, t);
            emit({.op = Instr::Discard, .dst = t});
            return true;
        }
        case StmtKind::AugAssign: {
            const AugAssign& a = s.as<AugAssign>();
            // `xs[k] op= v`, v a variable, a literal or arithmetic the
            // resolver compiled: what aug_assign_scalar computes, else the
            // walker's statement (nothing in it runs code).
            if (item_of_local(*a.target) && (plain_operand(*a.value) || scalar_code_of(*a.value))) {
                const Index& ix = a.target->as<Index>();
                emit({.op = Instr::AugItem, .x = plain_operand(*a.value) ? value(*a.value, true) : Operand{},
                      .y = value(*ix.indices[0], true), .expr = a.value.get(), .stmt = &s,
                      .name = &ix.value->as<Name>()});
                return true;
            }
            if (a.target->kind != ExprKind::Name ||
                !(plain_operand(*a.value) || plain_binary(*a.value) || has_compiled_call(*a.value)))
                break;
            emit({.op = Instr::AugStore, .x = value(*a.value, true), .stmt = &s});
            return true;
        }
        case StmtKind::Assign:
            if (assignment(s)) return true;
            break;
        default: break;
        }
        // Handed to the tree walker. A `break` / `continue` cannot come out of
        // such a statement: a `for` too deep keeps its own, and `if` / `while` are compiled.
        emit({.op = Instr::Stmt, .stmt = &s});
        return true;
    }

    // An assignment's instructions; false: the walker's statement.
    bool assignment(const Stmt& s) {
        const Assign& a = s.as<Assign>();
        if (a.targets.size() != 1) return false;
        const Expr& target = *a.targets[0];
        // `a, b = v`: v's value (a variable's copied: the stores may rebind
        // it) unpacked by assign(), or at once into local variables (Unpack)
        if (target.kind == ExprKind::Tuple || target.kind == ExprKind::List) {
            const Operand x = value(*a.value, false);
            emit({.op = local_names(target) ? Instr::Unpack : Instr::Assign, .x = x, .expr = &target});
            return true;
        }
        // `x = d[k]`: a dict's item stored at once; a list's number, a
        // missing key, anything else: the walker's statement (the
        // operands run no code, so it reads them again as they were).
        if (target.kind == ExprKind::Name && item_of_variable(*a.value)) {
            const Index& ix = a.value->as<Index>();
            emit({.op = Instr::LoadItem, .x = value(*ix.value, true), .y = value(*ix.indices[0], true),
                  .expr = a.value.get(), .stmt = &s, .name = &target.as<Name>()});
            return true;
        }
        // `d[k] = v`: v's value (read in place: nothing runs between it
        // and the store), then a dict's key or a list's item stored at
        // once, anything else by assign() (the operands run no code, so
        // it reads them again as they were). Arithmetic stays with the
        // walker, whose statement stores a number into a list's item
        // without making a Value.
        if (item_of_local(target) && (stored_by_body_code(*a.value) || plain_operand(*a.value))) {
            const Operand x = value(*a.value, true);
            const Index& ix = target.as<Index>();
            emit({.op = Instr::StoreItem, .x = x, .y = value(*ix.indices[0], true), .expr = &target,
                  .name = &ix.value->as<Name>()});
            return true;
        }
        // `xs[k] = v`, xs a local, v a number that runs no code (a variable,
        // a literal, an item `ys[j]`, arithmetic the resolver compiled): what
        // exec_assign's store_scalar_item does (the number into the item in place).
        if (item_by_pure_int(target) && own_local(target.as<Index>().value->as<Name>()) &&
            (plain_operand(*a.value) || item_by_pure_int(*a.value) || scalar_code_of(*a.value))) {
            const bool item = a.value->kind == ExprKind::Index;
            const Operand x = item                      ? value(*a.value->as<Index>().value, true)
                              : plain_operand(*a.value) ? value(*a.value, true)
                                                        : Operand{};
            // (a key that is a variable or an int literal: read in place, not by pure_int)
            const Expr& key = *target.as<Index>().indices[0];
            const Operand y = key.kind == ExprKind::Int || key.kind == ExprKind::Name ? value(key, true) : Operand{};
            emit({.op = Instr::StoreNumber, .when = item, .x = x, .y = y, .expr = &target, .stmt = &s,
                  .name = &target.as<Index>().value->as<Name>()});
            return true;
        }
        // `x = <arithmetic>`, x a local: what assign_scalar does (the number
        // computed into the variable in place, no Value made), without the
        // statement around it.
        if (target.kind == ExprKind::Name && own_local(target.as<Name>()) && scalar_code_of(*a.value)) {
            emit({.op = Instr::StoreScalar, .expr = a.value.get(), .stmt = &s, .name = &target.as<Name>()});
            return true;
        }
        // `x = v`, v a call, a variable, a literal or a display: v by body code, stored.
        // (Arithmetic and items stay with the walker, whose statement
        // computes a number into the variable without making a Value.)
        if (target.kind != ExprKind::Name || !stored_by_body_code(*a.value)) return false;
        const Operand x = value(*a.value, false);
        emit({.op = Instr::Store, .x = x, .name = &target.as<Name>()});
        return true;
    }

    // Jumps (patched later, listed in `jumps`) taken when the truth of
    // `cond` is `when`: `and`, `or` and `not` as jumps between their
    // operands, as cond_at takes them — each operand's truth once, in order,
    // an error in the last right operand's truth located at the whole
    // condition (`loc`), the others' at their own.
    void jump_on(const Expr& cond, Loc loc, bool when, std::vector<size_t>& jumps) {
        if (cond.kind == ExprKind::Unary && cond.as<Unary>().op == UnaryOp::Not) {
            const Expr& x = *cond.as<Unary>().operand;
            return jump_on(x, x.loc, !when, jumps);
        }
        if (cond.kind == ExprKind::BoolOp) {
            const BoolOp& b = cond.as<BoolOp>();
            // `a and b` jumps on false when a is false; `a or b` on true when a is true
            if (b.is_and != when) {
                jump_on(*b.lhs, b.lhs->loc, when, jumps);
            } else {
                std::vector<size_t> decided;  // a decides the other way: b is not looked at
                jump_on(*b.lhs, b.lhs->loc, !when, decided);
                jump_on(*b.rhs, loc, when, jumps);
                for (size_t j : decided) patch(j, here());
                return;
            }
            return jump_on(*b.rhs, loc, when, jumps);
        }
        if (local_is_none(cond)) {
            const Compare& c = cond.as<Compare>();
            jumps.push_back(emit({.op = Instr::JumpOnNone, .when = when, .when_none = c.ops[0] == CmpOp::Is,
                                  .x = value(*c.first, true), .expr = &cond, .loc = loc}));
        } else if (item_of_variable(cond)) {  // `if t_holding[t]`
            const Index& ix = cond.as<Index>();
            jumps.push_back(emit({.op = Instr::JumpOnItem, .when = when, .x = value(*ix.value, true),
                                  .y = value(*ix.indices[0], true), .expr = &cond, .loc = loc}));
        } else if (plain_membership(cond)) {
            const Compare& c = cond.as<Compare>();
            jumps.push_back(emit({.op = Instr::JumpOnMember, .when = when, .x = value(*c.first, true),
                                  .y = value(*c.rest[0], true), .expr = &cond, .loc = loc}));
        } else if (plain_binary(cond) && cond.kind == ExprKind::Compare) {
            const Compare& c = cond.as<Compare>();
            jumps.push_back(emit({.op = Instr::JumpOnCompare, .when = when, .x = value(*c.first, true),
                                  .y = value(*c.rest[0], true), .expr = &cond, .loc = loc}));
        } else {
            jumps.push_back(emit({.op = Instr::JumpOnTruth, .when = when, .expr = &cond, .loc = loc}));
        }
    }
    // The jumps taken when `cond` does not hold.
    std::vector<size_t> unless(const Expr& cond) {
        std::vector<size_t> jumps;
        jump_on(cond, cond.loc, false, jumps);
        return jumps;
    }
    void patch(const std::vector<size_t>& jumps, uint32_t to) {
        for (size_t j : jumps) patch(j, to);
    }

    bool if_statement(const If& i) {
        const std::vector<size_t> skip = unless(*i.cond);
        if (!block(i.body)) return false;
        if (i.orelse.empty()) {
            patch(skip, here());
            return true;
        }
        const size_t over = emit({.op = Instr::Jump});
        patch(skip, here());
        if (!block(i.orelse)) return false;
        patch(over, here());
        return true;
    }

    // As exec_while: the condition, the body, then the next iteration's line
    // at the loop (not after a `break`).
    bool while_statement(const While& w) {
        const uint32_t top = here();
        const std::vector<size_t> leave = unless(*w.cond);
        loops_.emplace_back();
        if (!block(w.body)) return false;
        const uint32_t next = here();
        emit({.op = Instr::CountLine, .loc = w.loc});
        emit({.op = Instr::Jump, .target = top});
        const uint32_t after = here();
        patch(leave, after);
        for (size_t j : loops_.back().breaks) patch(j, after);
        for (size_t j : loops_.back().continues) patch(j, next);
        loops_.pop_back();
        return true;
    }

    // As exec_for: the bounds or the iterable once, then per iteration the
    // next item's line at the loop, the target, the body.
    bool for_statement(const For& f) {
        const auto k = static_cast<uint16_t>(fors_++);
        out_.loops = std::max(out_.loops, fors_);
        const bool range = is_range_call(*f.iter);
        if (range && f.target->kind != ExprKind::Name) return false;  // (rare: the walker's)
        emit({.op = range ? Instr::ForRange : Instr::ForIter, .dst = k, .stmt = &f});
        const uint32_t next = here();
        const size_t check = emit({.op = range ? Instr::ForRangeNext : Instr::ForIterNext, .dst = k,
                                   .expr = f.target.get(),
                                   .name = range ? &f.target->as<Name>() : nullptr, .loc = f.loc});
        loops_.emplace_back();
        if (!block(f.body)) return false;
        const uint32_t step = here();
        emit({.op = Instr::ForStep, .dst = k, .target = next});
        const uint32_t after = here();
        emit({.op = Instr::ForEnd, .dst = k});
        patch(check, after);
        for (size_t j : loops_.back().breaks) patch(j, after);
        for (size_t j : loops_.back().continues) patch(j, step);
        loops_.pop_back();
        --fors_;
        return true;
    }

    // e's value as an operand: a variable or a literal read where it is used
    // (only when `in_place`: nothing runs between here and that use), else a
    // temporary computed now.
    Operand value(const Expr& e, bool in_place) {
        if (Value v; literal_value(e, v)) return constant(std::move(v));
        if (e.kind == ExprKind::Name && in_place && in_place_name(e.as<Name>())) {
            const Name& n = e.as<Name>();
            return {.kind = n.scope == Scope::Local ? Operand::Local : Operand::Global,
                    .index = static_cast<uint16_t>(n.slot), .name = &n};
        }
        const uint16_t t = new_temp();
        into(e, t);
        return {.kind = Operand::Temp, .index = t};
    }

    // Each expression's value in the next temporary, in order.
    void items_into(const std::vector<ExprPtr>& items) {
        for (const auto& x : items) {
            const uint16_t a = new_temp();
            into(*x, a);
        }
    }

    // `f(a, b)`: the callee first, held for the call (the call may rebind
    // its name), then the arguments, as eval_call evaluates them.
    void call_into(const Call& c, uint16_t t) {
        const Name& callee = c.callee->as<Name>();
        if (callee.scope == Scope::Builtin && callee.slot >= 0 &&
            callee.slot <= std::numeric_limits<uint16_t>::max())  // (`len`: its value read where eval reads it)
            emit({.op = Instr::Copy, .dst = t,
                  .x = {.kind = Operand::Builtin, .index = static_cast<uint16_t>(callee.slot), .name = &callee}});
        else if (callee.scope == Scope::Local || callee.scope == Scope::Global)
            emit({.op = Instr::Copy, .dst = t, .x = value(callee, true)});
        else if (enclosing_name(callee))  // (a closure's `f(g(x))`)
            emit({.op = Instr::Copy, .dst = t, .x = enclosing_operand(callee)});
        else
            emit({.op = Instr::Eval, .dst = t, .expr = &callee});
        items_into(c.args);
        emit({.op = Instr::Call, .dst = t, .expr = &c});
    }

    // `x.m(a)`: the receiver read (and held: what the method is decided
    // by), then the arguments; a receiver without the method (a module, a
    // value of another kind) hands the whole call to the walker, which
    // looks its attribute up before the arguments.
    void method_call_into(const Call& c, uint16_t t) {
        const size_t receiver =
            emit({.op = Instr::MethodReceiver, .dst = t, .x = value(*c.callee->as<Attribute>().value, true), .expr = &c});
        items_into(c.args);
        // (`xs.append(v)` on a local variable: MethodCall appends in place itself)
        const Attribute& at = c.callee->as<Attribute>();
        const Name& recv = at.value->as<Name>();
        const bool local_append = at.attr == "append" && c.args.size() == 1 && recv.scope == Scope::Local;
        emit({.op = Instr::MethodCall, .dst = t, .expr = &c, .name = local_append ? &recv : nullptr});
        const size_t over = emit({.op = Instr::Jump});
        patch(receiver, here());
        emit({.op = Instr::Eval, .dst = t, .expr = &c});
        patch(over, here());
    }

    // The instructions that leave e's value in temps[t] (the temporaries
    // above t are free again after them).
    void into(const Expr& e, uint16_t t) {
        if (builtin_on_operands(e)) {
            const Call& c = e.as<Call>();
            const bool two = c.args.size() == 2;
            emit({.op = Instr::CallBuiltin, .dst = t, .when = two, .x = value(*c.args[0], true),
                  .y = two ? value(*c.args[1], true) : Operand{}, .expr = &e, .name = &c.callee->as<Name>()});
        } else if (direct_call_syntax(e)) {
            call_into(e.as<Call>(), t);
        } else if (method_call_syntax(e)) {
            method_call_into(e.as<Call>(), t);
        } else if (Value v; literal_value(e, v)) {
            emit({.op = Instr::Copy, .dst = t, .x = constant(std::move(v))});
        } else if ((e.kind == ExprKind::Tuple || e.kind == ExprKind::List) &&
                   (has_compiled_call(e) ||  // (a small display: when temporaries are to spare, else the walker's, not the body)
                    (small_display(e) && t + 2 + sequence_items(e).size() <= BodyCode::kMaxTemps))) {
            items_into(sequence_items(e));
            emit({.op = Instr::Sequence, .dst = t, .expr = &e});
        } else if (item_of_variable(e)) {
            const Index& ix = e.as<Index>();
            emit({.op = Instr::Item, .dst = t, .x = value(*ix.value, true), .y = value(*ix.indices[0], true), .expr = &e});
        } else if (negation_of_operand(e) && t + 2 <= BodyCode::kMaxTemps) {
            emit({.op = Instr::Negate, .dst = t, .x = value(*e.as<Unary>().operand, true), .expr = &e});
        } else if (plain_operand(e)) {
            emit({.op = Instr::Copy, .dst = t, .x = value(e, true)});
        } else if (slice_of_variable(e)) {
            emit({.op = Instr::SliceOf, .dst = t, .x = value(*e.as<Index>().value, true), .expr = &e});
        } else if (e.kind == ExprKind::Name && enclosing_name(e.as<Name>())) {
            emit({.op = Instr::Copy, .dst = t, .x = enclosing_operand(e.as<Name>())});
        } else if (plain_binary(e)) {
            const bool compare = e.kind == ExprKind::Compare;
            const Expr& lhs = compare ? *e.as<Compare>().first : *e.as<Binary>().lhs;
            const Expr& rhs = compare ? *e.as<Compare>().rest[0] : *e.as<Binary>().rhs;
            emit({.op = compare ? Instr::Compare : Instr::Binary, .dst = t, .x = value(lhs, true),
                  .y = value(rhs, true), .expr = &e});
        } else if (plain_membership(e)) {
            const Compare& c = e.as<Compare>();
            emit({.op = Instr::Member, .dst = t, .x = value(*c.first, true), .y = value(*c.rest[0], true), .expr = &e});
        } else if (e.kind == ExprKind::Binary && has_compiled_call(e)) {
            // As eval_binary: the left side read in place only when the right one runs no code.
            const Binary& b = e.as<Binary>();
            const Operand x = value(*b.lhs, runs_no_code(*b.rhs));
            const Operand y = value(*b.rhs, true);
            emit({.op = Instr::Binary, .dst = t, .x = x, .y = y, .expr = &e});
        } else {
            emit({.op = Instr::Eval, .dst = t, .expr = &e});
        }
        temps_ = t + 1;
    }
};

}  // namespace

BodyCodeSlot::~BodyCodeSlot() { delete code_.load(); }

// The body code `compile` makes (false: the walker runs the body), made
// once per function and kept in its facts.
template <class Compile>
const BodyCode* compiled_once(const FunctionFacts& facts, Compile compile) {
    const BodyCodeSlot& slot = facts.body_code;
    if (slot.tried_.load(std::memory_order_acquire)) return slot.code_.load(std::memory_order_acquire);
    auto code = std::make_unique<BodyCode>();
    Compiler compiler(*code);
    const bool ok = compile(compiler) && compiler.fits();
    compiler.end();
    const BodyCode* expected = nullptr;
    if (ok && slot.code_.compare_exchange_strong(expected, code.get(), std::memory_order_acq_rel)) code.release();
    slot.tried_.store(true, std::memory_order_release);
    return slot.code_.load(std::memory_order_acquire);
}

const BodyCode* body_code_of(const FunctionFacts& facts, const Block& body) {
    return compiled_once(facts, [&](Compiler& c) { return c.block(body); });
}

const BodyCode* body_code_of(const FunctionFacts& facts, const Expr& body) {
    return compiled_once(facts, [&](Compiler& c) { return c.expression_body(body); });
}

}  // namespace tg::interp
