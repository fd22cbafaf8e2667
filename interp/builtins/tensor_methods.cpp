#include "interp/builtins/tensor_methods.hpp"

#include <vector>

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
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

bool is_tensor_method(std::string_view name) { return name == "item" || name == "tolist" || name == "copy"; }

Value call_tensor_method(Runtime& rt, std::string_view name, const Value& x, const CallArgs& args) {
    const std::string fn(name);
    if (!args.keywords.empty()) throw Error(fn + ": unknown keyword argument `" + std::string(args.keywords[0].name) + "`");
    if (!args.positional.empty())
        throw Error(fn + ": takes no arguments but " + std::to_string(args.positional.size()) +
                    (args.positional.size() == 1 ? " was given" : " were given"));
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
