#include "interp/value.hpp"

namespace tg::interp {

const char* kind_name(Kind k) {
    switch (k) {
    case Kind::Undefined: return "undefined";
    case Kind::None: return "None";
    case Kind::Tensor: return "tensor";
    case Kind::List: return "list";
    case Kind::Tuple: return "tuple";
    case Kind::Str: return "str";
    case Kind::Function: case Kind::Builtin: case Kind::BoundMethod: return "function";
    case Kind::DType: return "dtype";
    case Kind::Module: return "module";
    }
    return "?";
}

Scalar Scalar::from_tensor(const stdlib::Tensor& t) {
    using stdlib::DType;
    if (stdlib::is_float(t.dtype())) return of_float(t.item_f64(), t.dtype(), t.weak());
    if (t.dtype() == DType::Bool) return of_bool(t.item_bool());
    return of_int(t.item_i64(), t.dtype(), t.weak());
}

stdlib::Tensor Scalar::to_tensor() const {
    using stdlib::DType;
    using stdlib::Tensor;
    if (weak) return stdlib::is_float(dtype) ? Tensor::weak_float(f) : Tensor::weak_int(i);
    switch (dtype) {
    case DType::Bool: return Tensor::scalar(i != 0);
    case DType::I32: case DType::I64: return Tensor::scalar(i, dtype);
    default: return Tensor::scalar(f, dtype);
    }
}

Value::Value(stdlib::Tensor t) {
    if (t.rank() == 0) v_ = Scalar::from_tensor(t);
    else v_ = std::move(t);
}

stdlib::Tensor Value::tensor() const {
    if (const Scalar* s = scalar()) return s->to_tensor();
    return std::get<stdlib::Tensor>(v_);
}

stdlib::Tensor& Value::tensor_mut() {
    if (const Scalar* s = scalar()) v_ = s->to_tensor();
    return std::get<stdlib::Tensor>(v_);
}

Value Value::list(std::vector<Value> items) {
    Value v;
    v.v_ = std::make_shared<ListObj>(ListObj{std::move(items)});
    return v;
}
Value Value::tuple(std::vector<Value> items) {
    Value v;
    v.v_ = std::shared_ptr<const TupleObj>(std::make_shared<TupleObj>(TupleObj{std::move(items)}));
    return v;
}
Value Value::str(std::string text) {
    Value v;
    v.v_ = std::shared_ptr<const StrObj>(std::make_shared<StrObj>(StrObj{std::move(text)}));
    return v;
}
Value Value::function(std::shared_ptr<const FunctionObj> f) {
    Value v;
    v.v_ = std::move(f);
    return v;
}
Value Value::builtin(std::shared_ptr<const BuiltinObj> b) {
    Value v;
    v.v_ = std::move(b);
    return v;
}
Value Value::module(ModuleState* m) {
    Value v;
    v.v_ = m;
    return v;
}
Value Value::bound(Value self, Value fn) {
    Value v;
    v.v_ = std::shared_ptr<const BoundMethodObj>(
        std::make_shared<BoundMethodObj>(BoundMethodObj{std::move(self), std::move(fn)}));
    return v;
}

const std::vector<Value>& Value::items() const {
    if (kind() == Kind::List) return std::get<std::shared_ptr<ListObj>>(v_)->items;
    return std::get<std::shared_ptr<const TupleObj>>(v_)->items;
}

std::vector<Value>& Value::list_mut() {
    auto& p = std::get<std::shared_ptr<ListObj>>(v_);
    if (p.use_count() > 1) p = std::make_shared<ListObj>(*p);  // copy-on-write
    return p->items;
}

}  // namespace tg::interp
