#include "interp/scalar_builtins.hpp"

#include "interp/scalar_ops.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/elementwise.hpp"
#include "stdlib/tensor.hpp"

namespace tg::interp {

namespace {

// A Scalar and stdlib's Number hold a number the same way (field by field).
stdlib::Number number_of(const Scalar& x) {
    stdlib::Number n;
    n.dtype = x.dtype;
    n.weak = x.weak;
    n.i = x.i;  // the union's bits (an f64 is copied exactly)
    return n;
}
Value value_of(const stdlib::Number& n) {
    Scalar x;
    x.dtype = n.dtype;
    x.weak = n.weak;
    x.i = n.i;
    return Value(x);
}

// len(x) of a container (a tensor's length may be a traced size: the general path)
bool length(const Value& x, Value& out) {
    if (x.is_sequence()) out = Value::from_int(static_cast<int64_t>(x.items().size()));
    else if (x.is(Kind::Dict)) out = Value::from_int(static_cast<int64_t>(x.dict().size()));
    else if (x.is(Kind::Str) && !x.sym_str()) out = Value::from_int(x.text_chars().size());
    else return false;
    return true;
}

// The builtins of builtins.cpp marked with what they compute on numbers.
bool python_builtin(const BuiltinObj& b, std::span<const Value> args, Value& out) {
    if (b.on_numbers == NumberBuiltin::Len) return args.size() == 1 && length(args[0], out);
    if (b.on_numbers == NumberBuiltin::Max || b.on_numbers == NumberBuiltin::Min) {
        const Scalar* x = args.size() == 2 ? args[0].scalar() : nullptr;
        const Scalar* y = x ? args[1].scalar() : nullptr;
        Scalar r;
        const auto kind = b.on_numbers == NumberBuiltin::Max ? stdlib::BinaryKind::Maximum : stdlib::BinaryKind::Minimum;
        if (!y || !scalar_binary(kind, *x, *y, r)) return false;
        out = Value(r);
        return true;
    }
    const Scalar* x = args.size() == 1 ? args[0].scalar() : nullptr;
    if (!x) return false;
    // int(x), float(x): astype to i64, f32 (builtins.cpp)
    if (b.on_numbers == NumberBuiltin::Int) out = value_of(stdlib::cast(number_of(*x), stdlib::DType::I64));
    else if (b.on_numbers == NumberBuiltin::Float) out = value_of(stdlib::cast(number_of(*x), stdlib::DType::F32));
    else return false;
    return true;
}

}  // namespace

bool call_on_numbers(const Value& callee, std::span<const Value> args, Value& out) {
    try {
        if (callee.is(Kind::DType)) {
            // f64(x) is astype(x, f64)
            if (args.size() != 1 || !args[0].scalar()) return false;
            out = value_of(stdlib::cast(number_of(*args[0].scalar()), callee.dtype()));
            return true;
        }
        if (!callee.is(Kind::Builtin)) return false;
        const BuiltinObj& b = callee.builtin();
        if (b.host || b.caller || b.custom_vjp) return false;
        if (b.on_numbers != NumberBuiltin::None) return python_builtin(b, args, out);
        // a table op's builtin (not one replaced by a builtin with more parameters)
        if (!b.op || b.adds_params || b.op->params.size() != 1 || args.size() != 1 || !args[0].scalar()) return false;
        const auto* kind = std::get_if<stdlib::UnaryKind>(&b.op->kind);
        if (!kind || (b.op->flags & stdlib::kRandom)) return false;
        out = value_of(stdlib::unary(*kind, number_of(*args[0].scalar())));
        return true;
    } catch (const stdlib::OpError&) {
        return false;  // the general path raises it, located at the call
    }
}

}  // namespace tg::interp
