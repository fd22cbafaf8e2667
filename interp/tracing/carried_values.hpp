// interp's values as the AutoGraph conversion's policy sees them
// (tracer/conversion.hpp): a carried variable's value taken apart into its
// tensor leaves, its static skeleton and its definedness, compared with
// another path's value, and put back together from a cond's or a loop's
// results.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interp/values/value.hpp"
#include "tracer/conversion.hpp"

namespace tg::interp {

// The ConversionHost of interp's values (stateless).
struct CarriedValues {
    using Value = interp::Value;
    // A batched tensor (vmap) is one leaf, batched or not alike (vmap's
    // per-example merge, interp/batching/batched_control.cpp), rather than
    // its value with the batch axis behind a wrapper the paths must share (a
    // graph's carried values).
    bool batched_leaves = false;
    bool identical(const Value& a, const Value& b) const { return a.identical(b); }
    tracer::CarriedParts<Value> parts(const Value& v) const;
    bool has_value(const Value& v) const;
    bool is_defined(const Value& v) const { return v.defined(); }
    bool is_none(const Value& v) const { return v.is(Kind::None); }
    bool is_static(const Value& v) const;
    bool statically_true(const Value& v) const { return v.scalar() && v.scalar()->nonzero(); }
    Value static_bool(bool b) const { return Value::from_bool(b); }
    // A string showing tensor values (an f-string of a symbolic tensor) has
    // no leaves to carry: unsupported.
    std::vector<Value> leaves(const Value& v) const;
    stdlib::TensorType type(const Value& leaf) const { return leaf.tensor_type(); }
    std::optional<tracer::Mismatch> structure_diff(const Value& a, const Value& b) const;
    [[noreturn]] void unsupported(const std::string& what) const;
};
static_assert(tracer::ConversionHost<CarriedValues>);

// The skeleton with its tensor leaves replaced by `leaves`, in order
// (batched_leaves: as CarriedValues::batched_leaves).
Value rebuild_from_leaves(const Value& skeleton, std::span<const Value> leaves, bool batched_leaves = false);
// A maybe-undefined value: `inner` where the symbolic `flag` is true; else
// None (`none`) or undefined.
Value make_maybe(Value inner, Value flag, bool none);
inline bool statically_true(const Value& b) { return CarriedValues{}.statically_true(b); }

}  // namespace tg::interp
