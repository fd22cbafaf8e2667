// The saved-value stack of a graph run (OpContext::stack): autodiff's
// reverse loops. The forward `while` of a gradient pushes, each iteration,
// the values its backward needs; the backward loop pops them in reverse
// (interp/autodiff/autodiff.cpp). Made by the tracer only (kInternal: no builtin of
// these names); ordered by the effect token like random ops.
#include "stdlib/saved_stack.hpp"

#include "stdlib/errors.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

namespace {

SavedStack& stack_of(OpContext& ctx) {
    if (!ctx.stack) throw OpError("internal error: a saved-value stack op outside a graph run");
    return *ctx.stack;
}

TensorType infer_push(const TypeArgs& a) { return a.inputs[0]; }
Tensor eager_push(OpContext& ctx, const OpArgs& a) {
    stack_of(ctx).push(a.inputs[0]);
    return a.inputs[0];
}

// `weak`: the value popped is a weak-typed one (a bounded loop gradient's
// saved loop counter, docs/training.md "Bounding a loop's saved values").
TensorType infer_pop(const TypeArgs& a) {
    const auto& dims = std::get<std::vector<int64_t>>(a.attrs[1]);
    const bool* weak = a.attrs.size() > 2 ? std::get_if<bool>(&a.attrs[2]) : nullptr;
    return {std::get<DType>(a.attrs[0]), Shape(std::span<const int64_t>(dims)), weak && *weak};
}
Tensor eager_pop(OpContext& ctx, const OpArgs& a) {
    SavedStack& s = stack_of(ctx);
    if (s.values.empty()) throw OpError("internal error: the saved-value stack is empty");
    Tensor t = s.pop();
    const TensorType want = infer_pop(TypeArgs{{}, a.attrs});
    if (t.dtype() != want.dtype || !(t.shape() == want.shape))
        throw OpError("internal error: the saved-value stack holds another type");
    return t;
}

TensorType infer_size(const TypeArgs&) { return {DType::I64, Shape{}, false}; }
Tensor eager_size(OpContext& ctx, const OpArgs&) {
    return Tensor::scalar(static_cast<int64_t>(stack_of(ctx).values.size()));
}

}  // namespace

void register_stack_ops(OpRegistry& r) {
    constexpr uint32_t flags = kStack | kInternal;
    r.add({"_stack_push", {{"x", ParamKind::Tensor}}, &infer_push, &eager_push, flags,
           "saves x for a backward loop (the result is x)", OtherKind::StackPush});
    r.add({"_stack_pop", {{"dtype", ParamKind::DType}, {"shape", ParamKind::Shape}, {"weak", ParamKind::Bool, false, false}},
           &infer_pop, &eager_pop,
           flags, "the value saved last", OtherKind::StackPop});
    r.add({"_stack_size", {}, &infer_size, &eager_size, flags, "how many values are saved", OtherKind::StackSize});
}

}  // namespace tg::stdlib
