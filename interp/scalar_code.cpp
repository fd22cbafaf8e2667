#include "interp/scalar_code.hpp"

#include <bit>
#include <cstddef>
#include <cstring>

#include "interp/dispatch.hpp"

namespace tg::interp {

using namespace lang;

namespace {

// A variable an operator can read itself (ScalarCode::Op's var): a local
// or a global.
bool plain_var(const Expr& e) {
    if (e.kind != ExprKind::Name) return false;
    const Name& n = e.as<Name>();
    return (n.scope == Scope::Local || n.scope == Scope::Global) && n.slot >= 0;
}

// op's first variable (slot, global) or its second (slot2, global2): `name`.
void set_var(ScalarCode::Op& op, const Expr& name, bool second) {
    const Name& n = name.as<Name>();
    (second ? op.slot2 : op.slot) = n.slot;
    (second ? op.global2 : op.global) = n.scope == Scope::Global;
}

// Appends the postfix code of expressions to `ops`, keeping in `peak` the
// highest stack it needs. Each emit is false when its expression is not
// pure scalar arithmetic (what eval_scalar would give up on at once,
// whatever the values); `depth` is the stack height before it.
struct Emitter {
    using Op = ScalarCode::Op;
    std::vector<Op>& ops;
    int peak = 0;

    bool push(const Op& op, int depth) {  // an op that leaves one more entry
        ops.push_back(op);
        if (depth + 1 > peak) peak = depth + 1;
        return peak <= ScalarCode::kMaxStack;
    }

    bool emit(const Expr& e, int depth) {
        switch (e.kind) {
        case ExprKind::Name: {
            const Name& n = e.as<Name>();
            if (n.scope != Scope::Local && n.scope != Scope::Global && n.scope != Scope::Enclosing) return false;
            Op op{};
            op.kind = n.scope == Scope::Local ? Op::Local : n.scope == Scope::Global ? Op::Global : Op::Enclosing;
            op.slot = n.slot;
            op.depth = n.depth;
            return push(op, depth);
        }
        case ExprKind::Index: return item(e.as<Index>(), depth);
        case ExprKind::Int: case ExprKind::Float: case ExprKind::Bool: {
            Op op{};
            op.kind = Op::Const;
            if (e.kind == ExprKind::Int) op.value = Scalar::of_int(e.as<IntLit>().value, stdlib::DType::I64, true);
            else if (e.kind == ExprKind::Float) op.value = Scalar::of_float(e.as<FloatLit>().value, stdlib::DType::F32, true);
            else op.value = Scalar::of_bool(e.as<BoolLit>().value);
            return push(op, depth);
        }
        case ExprKind::Binary: {
            const lang::Binary& b = e.as<lang::Binary>();
            // scalar_binary covers these (the bitwise ones on ints); matmul always takes the general path
            switch (b.op) {
            case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::Div: case BinOp::FloorDiv: case BinOp::Mod:
            case BinOp::Pow: case BinOp::BitAnd: case BinOp::BitOr: case BinOp::BitXor: case BinOp::LShift:
            case BinOp::RShift:
                return binary(*b.lhs, *b.rhs, binary_kind(b.op), depth);
            default: return false;
            }
        }
        case ExprKind::Compare: {
            const Compare& c = e.as<Compare>();
            if (c.ops.size() != 1 || is_membership(c.ops[0]) || is_identity(c.ops[0])) return false;
            return binary(*c.first, *c.rest[0], compare_kind(c.ops[0]), depth);
        }
        default: return false;
        }
    }

    // lhs <k> rhs: two variables read by one op, else lhs's code and an op
    // that reads a literal or a variable rhs itself, else both and Binary.
    bool binary(const Expr& lhs, const Expr& rhs, stdlib::BinaryKind k, int depth) {
        Op op{};
        op.bin = k;
        if (plain_var(lhs) && plain_var(rhs)) {  // (read in the same order: lhs, then rhs)
            op.kind = Op::VarVar;
            set_var(op, lhs, false);
            set_var(op, rhs, true);
            return push(op, depth);
        }
        if (!emit(lhs, depth)) return false;
        if (rhs.kind == ExprKind::Int || rhs.kind == ExprKind::Float) {
            op.kind = Op::BinaryConst;
            op.value = rhs.kind == ExprKind::Int
                           ? Scalar::of_int(rhs.as<IntLit>().value, stdlib::DType::I64, true)
                           : Scalar::of_float(rhs.as<FloatLit>().value, stdlib::DType::F32, true);
        } else if (plain_var(rhs)) {
            op.kind = Op::BinaryVar;
            set_var(op, rhs, true);
        } else {
            if (!emit(rhs, depth + 1)) return false;
            op.kind = Op::Binary;
        }
        ops.push_back(op);
        return true;
    }

    // xs[k]: both variables read by one op, else the index computed on the
    // stack, then replaced by the item.
    bool item(const Index& ix, int depth) {
        if (ix.indices.size() != 1 || ix.is_tuple || ix.value->kind != ExprKind::Name) return false;
        const Expr& k = *ix.indices[0];
        const Name& n = ix.value->as<Name>();
        if (k.kind == ExprKind::Slice || k.kind == ExprKind::Ellipsis) return false;
        if (n.scope != Scope::Local && n.scope != Scope::Global) return false;
        Op op{};
        if (plain_var(*ix.value) && plain_var(k)) {
            op.kind = Op::VarItem;
            set_var(op, *ix.value, false);
            set_var(op, k, true);
            return push(op, depth);
        }
        if (!emit(k, depth)) return false;
        op.kind = n.scope == Scope::Local ? Op::LocalItem : Op::GlobalItem;
        op.slot = n.slot;
        ops.push_back(op);
        return true;
    }
};

}  // namespace

std::unique_ptr<ExprCode> compile_scalar(const Expr& e) {
    if (e.kind != ExprKind::Binary && e.kind != ExprKind::Compare) return nullptr;
    auto code = std::make_unique<ScalarCode>();
    Emitter emitter{code->ops};
    if (!emitter.emit(e, 0) || emitter.peak > ScalarCode::kMaxStack) return nullptr;
    ScalarCode::Op end{};
    end.kind = ScalarCode::Op::End;
    code->ops.push_back(end);
    return code;
}

// flatten: scalar_binary inlined into each operator's code.
//
// The top of the stack lives in a local (registers), the rest in arrays of
// fields: a Scalar goes through memory only as its separate fields, each
// read back with the width it was written with. (A Scalar written field by
// field and read back as one wide load waits for the stores to retire,
// ~15 cycles: it was a third of the scalar loop's time.)
//
// Threaded dispatch, as run_code's (interp/run_code.cpp): each op jumps to
// the next one's code; the End op returns. A `for` over the ops with a
// `switch` cost a dozen instructions per op, a third of mandelbrot's.
[[gnu::flatten]] bool run_scalar(const ScalarCode& code, const Env* env, const Value* globals, Scalar& out) {
    using Op = ScalarCode::Op;
    const Value* locals = env ? env->slots.data() : nullptr;
    int64_t bits[ScalarCode::kMaxStack];
    stdlib::DType dtypes[ScalarCode::kMaxStack];
    bool weak[ScalarCode::kMaxStack];
    int below = 0;  // entries under the top
    Scalar top;
    bool empty = true;
    auto push = [&](const Scalar& s) {
        if (!empty) {
            bits[below] = top.i;
            dtypes[below] = top.dtype;
            weak[below] = top.weak;
            ++below;
        }
        top.dtype = s.dtype;
        top.weak = s.weak;
        top.i = s.i;
        empty = false;
    };
    auto set_top = [&](const Scalar& r) {
        top.dtype = r.dtype;
        top.weak = r.weak;
        top.i = r.i;
    };
    // An op's variable: a number, or null (not a 0-d value, or not assigned: the caller's error).
    auto var = [&](int32_t slot, bool global) { return (global ? globals : locals)[slot].scalar(); };
    // Item k of the list or tuple seq as a number, or null (the general path's case or error).
    auto item = [](const Value& seq, const Scalar& k) -> const Scalar* {
        return seq.is_sequence() && stdlib::is_int(k.dtype) ? scalar_at(seq.items(), k.i) : nullptr;
    };
    // (in Op::Kind's order)
    static const void* const kLabels[] = {&&local,     &&global,     &&enclosing, &&constant,
                                          &&binary,    &&binary_const, &&binary_var, &&var_var,
                                          &&local_item, &&global_item, &&var_item,  &&end};
    static_assert(sizeof kLabels / sizeof kLabels[0] == Op::End + 1);
    const Op* op = code.ops.data();
#define TG_NEXT() goto* kLabels[(++op)->kind]
    goto* kLabels[op->kind];
local:
    if (const Scalar* s = locals[op->slot].scalar()) {
        push(*s);
        TG_NEXT();
    }
    return false;
global:
    if (const Scalar* s = globals[op->slot].scalar()) {
        push(*s);
        TG_NEXT();
    }
    return false;
enclosing: {
    const Env* e = env;
    for (int d = 0; d < op->depth; ++d) e = e->parent.get();
    const Scalar* s = e->slots[static_cast<size_t>(op->slot)].scalar();
    if (!s) return false;
    push(*s);
    TG_NEXT();
}
constant:
    push(op->value);
    TG_NEXT();
binary: {
    --below;
    Scalar x, r;
    x.dtype = dtypes[below];
    x.weak = weak[below];
    x.i = bits[below];
    if (!scalar_binary(op->bin, x, top, r)) return false;
    set_top(r);
    TG_NEXT();
}
binary_const: {
    Scalar r;
    if (!scalar_binary(op->bin, top, op->value, r)) return false;
    set_top(r);
    TG_NEXT();
}
binary_var: {
    const Scalar* y = var(op->slot2, op->global2);
    Scalar r;
    if (!y || !scalar_binary(op->bin, top, *y, r)) return false;
    set_top(r);
    TG_NEXT();
}
var_var: {
    const Scalar* x = var(op->slot, op->global);
    const Scalar* y = var(op->slot2, op->global2);
    Scalar r;
    if (!x || !y || !scalar_binary(op->bin, *x, *y, r)) return false;
    push(r);
    TG_NEXT();
}
local_item:
global_item: {
    const Scalar* s = item((op->kind == Op::LocalItem ? locals : globals)[op->slot], top);
    if (!s) return false;
    set_top(*s);
    TG_NEXT();
}
var_item: {
    const Scalar* k = var(op->slot2, op->global2);
    const Scalar* s = k ? item((op->global ? globals : locals)[op->slot], *k) : nullptr;
    if (!s) return false;
    push(*s);
    TG_NEXT();
}
end: {
#undef TG_NEXT
    // The caller copies `out` with one 16-bit load of dtype and weak: write them with one store.
    static_assert(offsetof(Scalar, dtype) == 0 && offsetof(Scalar, weak) == 1 && sizeof(stdlib::DType) == 1);
    static_assert(std::endian::native == std::endian::little);
    const uint16_t head = static_cast<uint16_t>(static_cast<uint8_t>(top.dtype) | (uint16_t{top.weak} << 8));
    std::memcpy(static_cast<void*>(&out), &head, sizeof head);  // void*: Scalar has a union, the bytes are what is meant
    out.i = top.i;
    return true;
}
}

}  // namespace tg::interp
