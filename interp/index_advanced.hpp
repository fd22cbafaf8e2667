// The indexing of docs/language.md "Values" beyond ints, slices and `...` (interp/dispatch's
// index_tensor): `None` (a new axis of size 1), an integer tensor (or list)
// that gathers along its axis, and a bool mask. Each is lowered to table ops
// — the basic view, `_gather` / `_scatter` (stdlib/index_gather.hpp),
// `reshape`, `transpose`, `where` — so it runs eagerly, traces, compiles and
// differentiates like any other code.
//
// Decisions (docs/language.md, "Indexing"):
// - Integers beside index tensors count as advanced indices for NumPy's
//   placement rule (the gathered axes go where the tensors are when the
//   advanced indices are adjacent, else first). Several index tensors
//   broadcast together (NumPy's index arrays): the axes they index are
//   merged into one and gathered with one linear index, each tensor first
//   bounds-checked by a gather of its axis' positions.
// - A bool mask is the only item of its subscript; its shape is x's shape or
//   its leading dims. `x[mask]` needs the mask's contents (its length does),
//   so inside @graph it is a trace error suggesting `where` — unless the
//   mask is a constant. `x[mask] = v` is a `where` when v broadcasts to the
//   unselected dims (in graphs too); a v with one value per selected element
//   needs the mask's contents.
#pragma once

#include <span>
#include <vector>

#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

class Runtime;

// A tensor subscript as evaluated.
struct Subscript {
    std::vector<stdlib::IndexItem> items;  // None and tensor items hold a full slice
    std::vector<Value> dynamic;            // while tracing: as index_tensor's `dynamic`
    std::vector<Value> special;            // per item: None, an index or mask tensor, or Undefined (a basic item)
    bool advanced() const;
};

// x[s] and x[s] = v for a subscript with a None or a tensor item. Throw
// unlocated errors (stdlib::OpError or Error).
Value index_advanced(Runtime& rt, const Value& x, const Subscript& s);
void assign_advanced(Runtime& rt, Value& x, const Subscript& s, const Value& v);

}  // namespace tg::interp
