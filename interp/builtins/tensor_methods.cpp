#include "interp/builtins/tensor_methods.hpp"

#include <vector>

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "stdlib/errors.hpp"

namespace tg::interp {

namespace {

// x[i] along axis 0, for any kind of tensor value (concrete, traced, differentiated)
Value row(Runtime& rt, const Value& x, int64_t i) {
    stdlib::IndexItem it;
    it.kind = stdlib::IndexItem::Int;
    it.index = i;
    return index_tensor(rt, x, std::span<const stdlib::IndexItem>(&it, 1));
}

Value tolist(Runtime& rt, const Value& x) {
    const stdlib::Shape& shape = x.tensor_type().shape;
    if (shape.rank() == 0) return x;
    std::vector<Value> items;
    items.reserve(static_cast<size_t>(shape[0]));
    for (int64_t i = 0; i < shape[0]; ++i) items.push_back(tolist(rt, row(rt, x, i)));
    return Value::list(std::move(items));
}

}  // namespace

bool is_tensor_method(std::string_view name) { return method_signature(MethodOf::Tensor, name) != nullptr; }

Value call_tensor_method(Runtime& rt, std::string_view name, const Value& x, const CallArgs& args) {
    check_method_arguments(MethodOf::Tensor, name, args);  // what each takes: interp/method_signatures.cpp
    if (name == "copy") return x;
    if (name == "tolist") return tolist(rt, x);
    // item: NumPy's rule, one element of any shape
    const stdlib::TensorType t = x.tensor_type();
    if (t.shape.numel() != 1)
        throw Error("item: can only convert a tensor with one element to a number, not one of shape " +
                    t.shape.to_string() + " (" + std::to_string(t.shape.numel()) + " elements)");
    Value out = x;
    while (out.tensor_type().shape.rank() > 0) out = row(rt, out, 0);
    return out;
}

}  // namespace tg::interp
