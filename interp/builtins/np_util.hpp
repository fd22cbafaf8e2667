// Shared by the NumPy-named builtins (np_*.cpp, docs/numpy.md): the table
// ops they are made of, applied through Compose (interp/builtins/compose.hpp)
// so every builtin traces, fuses and differentiates as those ops, and the
// readers of NumPy's argument forms (axes, sequences of tensors), whose
// errors name the function and the argument.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp::np {

std::string arg(const std::string& fn, const char* name);
stdlib::Shape shape_of(const Value& x);
int rank_of(const Value& x);

// `axis` in [-rank, rank) made non-negative; else "fn: axis 3 is out of
// bounds for a tensor of rank 2".
int64_t norm_axis(const std::string& fn, int64_t axis, int rank);
// An int or a list / tuple of ints: axes in [-rank, rank), made
// non-negative; a repeated axis is an error
std::vector<int64_t> axes_arg(const Value& v, const std::string& what, const std::string& fn, int rank);
// An optional axis argument: nullopt for absent or None.
std::optional<int64_t> opt_axis(const Value* v, const std::string& what);
// None, an int or a tuple of ints, as the reductions' `axis` attribute
stdlib::Attr axis_attr(const Value* v, const std::string& fn, int rank);
// The reduction k over `axis` (an axis attribute)
Value red(Compose& c, stdlib::ReduceKind k, const Value& x, const stdlib::Attr& axis, bool keepdims);
// The tensors of a list or tuple argument (NumPy's `tup`); at least one.
std::vector<Value> tensor_seq(const Value& v, const std::string& fn, const char* name);

// A trace error inside @graph: fn's result shape depends on the data
// (nonzero, unique, argwhere, bincount, the set functions: eager only)
void eager_only(Runtime& rt, const std::string& fn);
// element in test_elements (isin) and the insertion points of v in the
// sorted 1-d a (searchsorted): np_search.cpp
Value isin(Compose& c, const Value& element, const Value& test);
Value insertion_points(Compose& c, const Value& a, const Value& v, bool right);
// NumPy's take_along_axis(arr, idx, axis) with axis non-negative and idx of arr's rank (np_search.cpp)
Value take_along(Compose& c, Value arr, const Value& idx, int64_t axis);

// The positions in a flattened (n, m) matrix of its diagonal `offset` (np_products.cpp)
std::vector<int64_t> diagonal_positions(int64_t n, int64_t m, int64_t offset);

// Ops on values, each one op of the table
Value transpose(Compose& c, const Value& x, const std::vector<int64_t>& perm);
Value concat(Compose& c, const std::vector<Value>& xs, int64_t axis);
Value stack(Compose& c, const std::vector<Value>& xs, int64_t axis);
Value matmul(Compose& c, const Value& a, const Value& b);
Value reduce(Compose& c, stdlib::ReduceKind k, const Value& x, std::optional<int64_t> axis, bool keepdims = false);
Value astype(Compose& c, const Value& x, stdlib::DType d);
Value broadcast(Compose& c, const Value& x, const stdlib::Shape& s);
// x[..., lo:hi] along `axis` (non-negative), a view
Value slice(Compose& c, const Value& x, int64_t axis, int64_t lo, int64_t hi);
// x[..., i, ...] at one index of `axis` (the axis removed)
Value at(Compose& c, const Value& x, int64_t axis, int64_t i);
// A constant i64 tensor of the given values (an index for take)
Value indices(const std::vector<int64_t>& v);
// x moved so that its axis `from` is at `to` (both non-negative)
Value move_axis(Compose& c, const Value& x, int64_t from, int64_t to);

// The dtype a float result of x has: floats keep theirs, bool and integers
// give f32 (tg's rule for mean and exp, docs/language.md)
stdlib::DType float_dtype(const Value& x);

using Builtins = std::vector<std::pair<std::string, Value>>;
void add(Builtins& out, const std::string& name, BuiltinFn fn);
// A builtin named like the table op `op` that replaces the op's own builtin
// (with more parameters or argument forms: eye, diag, norm, sort, clip, pad)
void add_replacing(Builtins& out, const std::string& name, BuiltinFn fn, const stdlib::OpDef& op);

}  // namespace tg::interp::np
