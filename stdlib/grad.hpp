// What a gradient rule is written against (JAX's "transpose rules in terms
// of primitives"): a builder that applies tg ops to opaque values. interp
// implements it over its values, so the same rule computes eagerly on
// tensors, appends graph nodes while tracing, and is itself recorded when a
// gradient is differentiated again (grad of grad).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

using GradVar = uint32_t;
inline constexpr GradVar kNoGrad = UINT32_MAX;  // "zero": no cotangent flows here

class GradBuilder {
public:
    virtual ~GradBuilder() = default;
    virtual TensorType type(GradVar v) const = 0;
    // `attrs`: one per op parameter in order; missing trailing ones take the defaults.
    virtual GradVar apply(const OpDef& op, std::span<const GradVar> inputs, std::vector<Attr> attrs) = 0;
    virtual GradVar constant(const Tensor& t) = 0;
    // x[items] with static items (ints and slices), and x with x[items] = v.
    virtual GradVar index(GradVar x, std::span<const IndexItem> items) = 0;
    virtual GradVar index_assign(GradVar x, std::span<const IndexItem> items, GradVar v) = 0;
    // The value of v when it is a number known now (a concrete 0-d tensor,
    // not one computed by the graph being traced): rules specialize on it
    // (x ** 2 differentiates to 2 * x, not to a pow).
    virtual std::optional<double> known_scalar(GradVar) const { return std::nullopt; }
};

// One application of an op, for its rule: what it was applied to and gave,
// the cotangent of its result, and which inputs want a cotangent. The rule
// writes one GradVar per input into `cots` (kNoGrad: zero, or not wanted).
struct VjpArgs {
    std::span<const GradVar> inputs;  // in OpArgs order (Tensor params, then TensorList items)
    std::span<const Attr> attrs;      // one per param
    GradVar out;
    GradVar cot;
    std::span<const bool> wanted;
    std::span<GradVar> cots;
};

// The rules (stdlib/grad_rules.cpp): attached to every op of the registry.
class OpRegistry;
void attach_grad_rules(OpRegistry& r);
void attach_shape_grad_rules(OpRegistry& r);  // stdlib/grad_rules_shape.cpp
void attach_linalg_grad_rules(OpRegistry& r);  // stdlib/grad_rules_linalg.cpp

// Helpers the rules use, also for interp's rules of indexing and control flow.
// g summed over the axes broadcasting added to reach g's shape, reshaped to
// `to`'s shape and cast to its dtype (the cotangent of a broadcast operand).
GradVar unbroadcast(GradBuilder& b, GradVar g, const TensorType& to);
GradVar zeros_of(GradBuilder& b, const TensorType& t);

}  // namespace tg::stdlib
