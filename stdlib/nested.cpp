// tensor(data): nested lists flattened by the interpreter become tensors;
// and the truth value of a tensor.
#include <string>

#include "stdlib/cast.hpp"
#include "stdlib/op_table.hpp"

namespace tg::stdlib {

Tensor tensor_from_nested(const NestedData& data, std::optional<DType> dtype) {
    const int64_t n = data.shape.numel();
    const bool use_floats = data.any_float;
    const size_t have = use_floats ? data.values.size() : data.ints.size();
    if (static_cast<int64_t>(have) != n)
        throw OpError("tensor: " + std::to_string(have) + " values do not fill the shape " + data.shape.to_string());
    const DType dt = dtype ? *dtype : use_floats ? DType::F32 : data.all_bool ? DType::Bool : DType::I64;
    Tensor t = Tensor::empty(dt, data.shape);
    dispatch_dtype(dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t.data<T>();
        if (use_floats)
            for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(data.values[static_cast<size_t>(i)]);
        else
            for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(data.ints[static_cast<size_t>(i)]);
    });
    return t;
}

bool truth(const Tensor& x) {
    const int64_t n = x.numel();
    if (n != 1)
        throw OpError("the truth value of a tensor with " + std::to_string(n) +
                      " elements is ambiguous; use any() or all()");
    return x.item_bool();
}

}  // namespace tg::stdlib
