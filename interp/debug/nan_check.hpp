// --debug-nans (docs/debugging.md "NaN hunting"): JAX's jax_debug_nans, with
// the line instead of an op name. Eager ops check their float results; a
// compiled call checks its outputs and, when one holds a NaN or inf its
// inputs did not, is replayed eagerly to find the operation.
#pragma once

#include <span>
#include <string>

#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"
#include "stdlib/tensor.hpp"

namespace tg::interp {

// Whether a float tensor holds a NaN or an inf (other dtypes: false).
bool has_nonfinite(const stdlib::Tensor& t);
// The same of any tensor inside a value (lists, tuples, dicts).
bool value_has_nonfinite(const Value& v);
// An eager op's check: throws Error (located by the caller at the op) when
// `out` holds a NaN or inf that no input held.
void check_op_result(const stdlib::OpDef& op, std::span<const stdlib::Tensor> inputs, const stdlib::Tensor& out);

}  // namespace tg::interp
