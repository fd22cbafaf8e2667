// Integer-tensor indexing along one axis (docs/language.md "Values" `x[idx]`, `x[:, idx]`,
// `x[idx] = v`, and the flat positions of a bool mask): the ops `_gather`,
// `_scatter` and `_scatter_add` of the op table. They are made by the
// interpreter from subscripts (kInternal: no builtin of these names); their
// gradients are each other (gather <-> scatter-add).
//
//   _gather(x, indices, axis)            x.shape[:axis] + indices.shape + x.shape[axis+1:]
//   _scatter(x, indices, values, axis)   x with those positions set to values (the last of repeated indices wins)
//   _scatter_add(x, indices, values, axis)   x with values added there (repeated indices accumulate)
//
// `values` has the shape of the gather's result and x's dtype (the
// interpreter broadcasts and casts it first). Negative indices count from the
// end; an index out of range is an OpError naming the first one.
#pragma once

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

class OpRegistry;
void register_gather_ops(OpRegistry& r);

// The shape of x.shape with axis `axis` replaced by `indices` (the result of
// _gather); `axis` must be normalized.
Shape gather_shape(const Shape& x, const Shape& indices, int axis);

}  // namespace tg::stdlib
