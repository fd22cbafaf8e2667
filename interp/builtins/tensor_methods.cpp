#include "interp/builtins/tensor_methods.hpp"

#include <vector>

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/method_signatures.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/errors.hpp"
#include "stdlib/op_table.hpp"

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

// x.item(i) (of the flattened x) or x.item(i, j, ...) (one index per axis),
// negative indices from the end, as NumPy's
Value item_at(Runtime& rt, const Value& x, std::span<const Value> at) {
    const stdlib::Shape s = x.tensor_type().shape;
    std::vector<stdlib::IndexItem> items;
    auto index = [&](const Value& v, int64_t n, const std::string& what) {
        int64_t i = to_int(v, "item: " + what);
        if (i < -n || i >= n)
            throw Error("item: index " + std::to_string(i) + " is out of bounds for " + what + " of size " + std::to_string(n));
        stdlib::IndexItem it;
        it.kind = stdlib::IndexItem::Int;
        it.index = i < 0 ? i + n : i;
        items.push_back(it);
    };
    if (at.size() == 1) {
        index(at[0], s.numel(), "the flattened tensor");
        const Value in[1] = {x};
        const Value flat = run_op(rt, stdlib::op_of(stdlib::OtherKind::Reshape), in, {std::monostate{}, std::vector<int64_t>{s.numel()}});
        return index_tensor(rt, flat, items);
    }
    if (at.size() != static_cast<size_t>(s.rank()))
        throw Error("item: takes no index, one (of the flattened tensor) or one per axis (" + std::to_string(s.rank()) +
                    "), but " + std::to_string(at.size()) + " were given");
    for (size_t d = 0; d < at.size(); ++d) index(at[d], s[static_cast<int>(d)], "axis " + std::to_string(d));
    return index_tensor(rt, x, items);
}

}  // namespace

Value call_tensor_method(Runtime& rt, Method m, const Value& x, const CallArgs& args) {
    const std::string_view name = m.name();
    check_method_arguments(m, args);  // what each takes: interp/method_signatures.cpp
    if (name == "item" && !args.positional.empty()) return item_at(rt, x, args.positional);
    if (name == "copy" || name == "conj" || name == "conjugate") return x;  // tg's dtypes are real
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

namespace tg::interp {

bool is_tensor_attribute(std::string_view name) {
    return name == "itemsize" || name == "nbytes" || name == "real" || name == "imag" || name == "mT";
}

Value tensor_attribute(Runtime& rt, const Value& x, std::string_view name) {
    const stdlib::TensorType t = x.tensor_type();
    const auto bytes = static_cast<int64_t>(stdlib::dtype_size(t.dtype));
    if (name == "itemsize") return Value::from_int(bytes);
    if (name == "nbytes") return Value::from_int(bytes * t.shape.numel());
    if (name == "real") return x;  // tg's dtypes are real: the imaginary part is 0
    if (name == "imag") {
        const Value in[1] = {x};
        const stdlib::OpDef& zeros = stdlib::op_of(stdlib::OtherKind::ZerosLike);
        return run_op(rt, zeros, in, std::vector<stdlib::Attr>(zeros.params.size()));
    }
    // mT: the last two axes swapped (NumPy 2's matrix transpose)
    if (t.shape.rank() < 2) throw Error("mT: needs a tensor of at least 2 axes, got shape " + t.shape.to_string());
    std::vector<int64_t> perm;
    for (int d = 0; d < t.shape.rank(); ++d) perm.push_back(d);
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    const Value in[1] = {x};
    return run_op(rt, stdlib::op_of(stdlib::OtherKind::Transpose), in, {std::monostate{}, perm});
}

}  // namespace tg::interp
