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
