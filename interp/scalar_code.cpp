#include "interp/scalar_code.hpp"

#include <bit>
#include <cstddef>
#include <cstring>

#include "interp/dispatch.hpp"

namespace tg::interp {

using namespace lang;

namespace {

// Appends the postfix code of `e` to `ops`; `depth` is the stack height
// before it, `peak` the highest so far. False when `e` is not pure scalar
// arithmetic (what eval_scalar would give up on at once, whatever the values).
bool emit(const Expr& e, std::vector<ScalarCode::Op>& ops, int depth, int& peak) {
    using Op = ScalarCode::Op;
    auto push = [&](Op op) {
        ops.push_back(op);
        if (depth + 1 > peak) peak = depth + 1;
        return peak <= ScalarCode::kMaxStack;
    };
    auto binary = [&](const Expr& lhs, const Expr& rhs, stdlib::BinaryKind k) {
        if (!emit(lhs, ops, depth, peak)) return false;
        Op op{};
        op.bin = k;
        if (rhs.kind == ExprKind::Int || rhs.kind == ExprKind::Float) {
            op.kind = Op::BinaryConst;
            op.value = rhs.kind == ExprKind::Int
                           ? Scalar::of_int(rhs.as<IntLit>().value, stdlib::DType::I64, true)
                           : Scalar::of_float(rhs.as<FloatLit>().value, stdlib::DType::F32, true);
            ops.push_back(op);
            return true;
        }
        if (!emit(rhs, ops, depth + 1, peak)) return false;
        op.kind = Op::Binary;
        ops.push_back(op);
        return true;
    };
    switch (e.kind) {
    case ExprKind::Name: {
        const Name& n = e.as<Name>();
        if (n.scope != Scope::Local && n.scope != Scope::Global && n.scope != Scope::Enclosing) return false;
        Op op{};
        op.kind = n.scope == Scope::Local ? Op::Local : n.scope == Scope::Global ? Op::Global : Op::Enclosing;
        op.slot = n.slot;
        op.depth = n.depth;
        return push(op);
    }
    case ExprKind::Index: {
        // xs[k]: the index computed on the stack, then replaced by the item
        const Index& ix = e.as<Index>();
        if (ix.indices.size() != 1 || ix.is_tuple || ix.value->kind != ExprKind::Name) return false;
        const Expr& k = *ix.indices[0];
        const Name& n = ix.value->as<Name>();
        if (k.kind == ExprKind::Slice || k.kind == ExprKind::Ellipsis) return false;
        if ((n.scope != Scope::Local && n.scope != Scope::Global) || !emit(k, ops, depth, peak)) return false;
        Op op{};
        op.kind = n.scope == Scope::Local ? Op::LocalItem : Op::GlobalItem;
        op.slot = n.slot;
        ops.push_back(op);
        return true;
    }
    case ExprKind::Int: case ExprKind::Float: case ExprKind::Bool: {
        Op op{};
        op.kind = Op::Const;
        if (e.kind == ExprKind::Int) op.value = Scalar::of_int(e.as<IntLit>().value, stdlib::DType::I64, true);
        else if (e.kind == ExprKind::Float) op.value = Scalar::of_float(e.as<FloatLit>().value, stdlib::DType::F32, true);
        else op.value = Scalar::of_bool(e.as<BoolLit>().value);
        return push(op);
    }
    case ExprKind::Binary: {
        const lang::Binary& b = e.as<lang::Binary>();
        // scalar_binary covers these; the others (matmul, pow, bitwise) always take the general path
        switch (b.op) {
        case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::Div: case BinOp::FloorDiv: case BinOp::Mod:
            return binary(*b.lhs, *b.rhs, binary_kind(b.op));
        default: return false;
        }
    }
    case ExprKind::Compare: {
        const Compare& c = e.as<Compare>();
        if (c.ops.size() != 1 || is_membership(c.ops[0]) || is_identity(c.ops[0])) return false;
        return binary(*c.first, *c.rest[0], compare_kind(c.ops[0]));
    }
    default: return false;
    }
}

}  // namespace

std::unique_ptr<ExprCode> compile_scalar(const Expr& e) {
    if (e.kind != ExprKind::Binary && e.kind != ExprKind::Compare) return nullptr;
    auto code = std::make_unique<ScalarCode>();
    int peak = 0;
    if (!emit(e, code->ops, 0, peak) || peak > ScalarCode::kMaxStack) return nullptr;
    return code;
}

// flatten: scalar_binary's i64 path inlined into the loop.
//
// The top of the stack lives in a local (registers), the rest in arrays of
// fields: a Scalar goes through memory only as its separate fields, each
// read back with the width it was written with. (A Scalar written field by
// field and read back as one wide load waits for the stores to retire,
// ~15 cycles: it was a third of the scalar loop's time.)
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
    for (const Op& op : code.ops) {
        switch (op.kind) {
        case Op::Local: case Op::Global: {
            const Scalar* s = (op.kind == Op::Local ? locals : globals)[op.slot].scalar();
            if (!s) return false;  // not a 0-d value, or not assigned
            push(*s);
            break;
        }
        case Op::Enclosing: {
            const Env* e = env;
            for (int d = 0; d < op.depth; ++d) e = e->parent.get();
            const Scalar* s = e->slots[static_cast<size_t>(op.slot)].scalar();
            if (!s) return false;
            push(*s);
            break;
        }
        case Op::Const: push(op.value); break;
        case Op::Binary: {
            --below;
            Scalar x, r;
            x.dtype = dtypes[below];
            x.weak = weak[below];
            x.i = bits[below];
            if (!scalar_binary(op.bin, x, top, r)) return false;
            top.dtype = r.dtype;
            top.weak = r.weak;
            top.i = r.i;
            break;
        }
        case Op::BinaryConst: {
            Scalar r;
            if (!scalar_binary(op.bin, top, op.value, r)) return false;
            top.dtype = r.dtype;
            top.weak = r.weak;
            top.i = r.i;
            break;
        }
        case Op::LocalItem: case Op::GlobalItem: {
            const Value& seq = (op.kind == Op::LocalItem ? locals : globals)[op.slot];
            if (!seq.is_sequence() || !stdlib::is_int(top.dtype)) return false;
            const std::span<const Value> items = seq.items();
            const int64_t n = static_cast<int64_t>(items.size());
            const int64_t k = top.i < 0 ? top.i + n : top.i;
            if (k < 0 || k >= n) return false;
            const Scalar* s = items[static_cast<size_t>(k)].scalar();
            if (!s) return false;
            top.dtype = s->dtype;
            top.weak = s->weak;
            top.i = s->i;
            break;
        }
        }
    }
    // The caller copies `out` with one 16-bit load of dtype and weak: write them with one store.
    static_assert(offsetof(Scalar, dtype) == 0 && offsetof(Scalar, weak) == 1 && sizeof(stdlib::DType) == 1);
    static_assert(std::endian::native == std::endian::little);
    const uint16_t head = static_cast<uint16_t>(static_cast<uint8_t>(top.dtype) | (uint16_t{top.weak} << 8));
    std::memcpy(static_cast<void*>(&out), &head, sizeof head);  // void*: Scalar has a union, the bytes are what is meant
    out.i = top.i;
    return true;
}

}  // namespace tg::interp
