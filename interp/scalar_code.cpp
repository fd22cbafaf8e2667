#include "interp/scalar_code.hpp"

#include <new>

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
        if (n.scope != Scope::Local && n.scope != Scope::Global) return false;
        Op op{};
        op.kind = n.scope == Scope::Local ? Op::Local : Op::Global;
        op.slot = n.slot;
        return push(op);
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

// flatten: scalar_binary's i64 path inlined into the loop
[[gnu::flatten]] bool run_scalar(const ScalarCode& code, const Value* locals, const Value* globals, Scalar& out) {
    using Op = ScalarCode::Op;
    // Raw storage: Scalar's constructor would clear all kMaxStack entries on every run.
    alignas(Scalar) unsigned char raw[ScalarCode::kMaxStack * sizeof(Scalar)];
    Scalar* const stack = reinterpret_cast<Scalar*>(raw);
    Scalar* top = stack;  // one past the top
    for (const Op& op : code.ops) {
        switch (op.kind) {
        case Op::Local: case Op::Global: {
            const Scalar* s = (op.kind == Op::Local ? locals : globals)[op.slot].scalar();
            if (!s) return false;  // not a 0-d value, or not assigned
            new (top++) Scalar(*s);
            break;
        }
        case Op::Const: new (top++) Scalar(op.value); break;
        case Op::Binary: {
            --top;
            Scalar r;
            if (!scalar_binary(op.bin, top[-1], top[0], r)) return false;
            top[-1] = r;
            break;
        }
        case Op::BinaryConst: {
            Scalar r;
            if (!scalar_binary(op.bin, top[-1], op.value, r)) return false;
            top[-1] = r;
            break;
        }
        }
    }
    out = stack[0];
    return true;
}

}  // namespace tg::interp
