#include "interp/builtins/compose.hpp"

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/tracing/trace.hpp"

namespace tg::interp {

using stdlib::Attr;

Value Compose::op(const stdlib::OpDef& def, std::vector<Value> in, std::vector<Attr> attrs) {
    attrs.insert(attrs.begin(), in.size(), std::monostate{});
    stdlib::complete_attrs(def, attrs);
    return run_op(rt, def, in, std::move(attrs));
}

Value Compose::un(stdlib::UnaryKind k, const Value& x) { return op(stdlib::op_of(k), {x}); }
Value Compose::bin(stdlib::BinaryKind k, const Value& a, const Value& b) { return op(stdlib::op_of(k), {a, b}); }
Value Compose::where(const Value& c, const Value& a, const Value& b) {
    return op(stdlib::op_of(stdlib::ElementwiseKind::Where), {c, a, b});
}
Value Compose::clip(const Value& x, const Value& lo, const Value& hi) {
    return op(stdlib::op_of(stdlib::ElementwiseKind::Clip), {x, lo, hi});
}
Value Compose::reshape(const Value& x, const stdlib::Shape& s) {
    if (x.tensor_type().shape == s) return x;
    return op(stdlib::op_of(stdlib::OtherKind::Reshape), {x}, {std::vector<int64_t>(s.begin(), s.end())});
}
Value Compose::mean(const Value& x, std::vector<int64_t> axes, bool keepdims) {
    return op(stdlib::op_of(stdlib::ReduceKind::Mean), {x}, {std::move(axes), keepdims});
}
Value Compose::var(const Value& x, std::vector<int64_t> axes, bool keepdims) {
    return op(stdlib::op_of(stdlib::ReduceKind::Var), {x}, {std::move(axes), keepdims});
}
Value Compose::take(const Value& x, const stdlib::Tensor& idx, int64_t axis) {
    return op(stdlib::op_of(stdlib::OtherKind::Take), {x, Value(idx)}, {axis});
}

Value tensor_operand(const Value& v, const std::string& what) {
    if (v.is_tensor()) return v;
    return Value(to_tensor(v, what));
}

namespace {

void require_static(const Value& v, const std::string& what) {
    if (has_symbolic(v))
        dynamic_value_error(what + " must be static inside a @graph function, but it depends on the contents of a tensor");
}

}  // namespace

bool static_bool(const Value& v, const std::string& what) {
    require_static(v, what);
    if (const Scalar* s = v.scalar(); s && s->dtype == stdlib::DType::Bool) return s->i != 0;
    throw Error(what + " must be True or False, not " + std::string(kind_name(v.kind())));
}

double static_number(const Value& v, const std::string& what) {
    require_static(v, what);
    if (const Scalar* s = v.scalar(); s && s->dtype != stdlib::DType::Bool)
        return stdlib::is_float(s->dtype) ? s->f : static_cast<double>(s->i);
    throw Error(what + " must be a number, not " + std::string(kind_name(v.kind())));
}

std::vector<int64_t> static_ints(const Value& v, const std::string& what, size_t n) {
    require_static(v, what);
    if (v.is_sequence()) {
        if (v.items().size() != n)
            throw Error(what + " must be an int or " + std::to_string(n) + " ints, not " +
                        std::to_string(v.items().size()));
        std::vector<int64_t> out;
        for (const Value& item : v.items()) out.push_back(to_int(item, what));
        return out;
    }
    return std::vector<int64_t>(n, to_int(v, what));
}

std::optional<std::string> string_arg(const Value& v) {
    if (v.kind() == Kind::Str) return v.text();
    return std::nullopt;
}

bool is_none(const Value* v) { return v == nullptr || v->kind() == Kind::None; }

}  // namespace tg::interp
