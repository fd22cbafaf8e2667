// The builtins every interpreter starts with: the host builtins of docs/builtins.md
// (print, len, range, str, repr, int, float, time, type, seed, argv, graph),
// the dtypes, and one builtin per op of stdlib's op table.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "interp/values/value.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

class Runtime;

std::vector<std::pair<std::string, Value>> make_builtins();
// enumerate, zip, sorted, reversed, pi, e, inf, nan (builtins_seq.cpp)
void add_sequence_builtins(std::vector<std::pair<std::string, Value>>& out);
// The value of keyword `name` of a call, or null; an error naming `fn` for
// a keyword not in `allowed` (seq.cpp)
const Value* keyword(const CallArgs& a, std::string_view name);
void only_keywords(const std::string& fn, const CallArgs& a, std::initializer_list<std::string_view> allowed);
// The items a `for` loop walks in v (a list, tuple, string, dict's keys,
// tensor's rows), as a list; errors begin with `what` (seq.cpp).
std::vector<Value> items_of(Runtime& rt, const Value& v, const std::string& what);
// a < b as Python orders values (tuples and lists lexicographically); an
// order that depends on traced tensor contents is a trace error (seq.cpp).
bool less(Runtime& rt, const Value& a, const Value& b, const std::string& fn);
// Python's min / max when the call is Python's form (a `key` or `default`,
// three or more values, strings, a dict); nullopt: NumPy's (python_iter.cpp).
std::optional<Value> python_min_max(Runtime& rt, const CallArgs& a, bool is_max);
// Python's int() and float() of a string (parse_number.cpp): errors name `fn`
double parse_float(const std::string& fn, const std::string& text, stdlib::DType d);
int64_t parse_int(const std::string& fn, const std::string& text, int base);
// The str s parsed as a number of dtype d (f64("0.1"), i64("12"); bool: not empty)
Value parse_as(const std::string& fn, const Value& s, stdlib::DType d);
// map, filter (python_iter.cpp)
void add_iter_builtins(std::vector<std::pair<std::string, Value>>& out);
// Python's sorted(xs, key=None, reverse=False) on the items (stable); `a`
// holds the keywords; `fn` names the builtin in errors (sorted, sort).
std::vector<Value> sort_values(Runtime& rt, std::vector<Value> xs, const CallArgs& a, const std::string& fn);
// sum(xs) / min(xs) / max(xs) the way Python means them when xs is one
// list or tuple of tensors or strings (not only numbers or nested lists);
// nullopt: the call is the tensor reduction (builtins_seq.cpp).
enum class PythonFold { Sum, Min, Max };
std::optional<Value> python_fold(Runtime& rt, const CallArgs& a, PythonFold which);
// load, save, loadtxt (builtins_files.cpp)
void add_file_builtins(std::vector<std::pair<std::string, Value>>& out);
// split, meshgrid, nonzero, einsum (shape.cpp, einsum.cpp)
void add_shape_builtins(std::vector<std::pair<std::string, Value>>& out);
Value einsum(Runtime& rt, const CallArgs& a);
// A host builtin's call arguments bound to its parameter names, Python's
// way (positional first, then keywords; an unknown, repeated or missing one
// is an error naming `fn`); parameters at or past `required` are optional:
// null when not given.
std::vector<const Value*> bind_args(const std::string& fn, const CallArgs& a, std::span<const std::string_view> names,
                                    size_t required);
inline std::vector<const Value*> bind_args(const std::string& fn, const CallArgs& a,
                                           std::initializer_list<std::string_view> names, size_t required) {
    return bind_args(fn, a, std::span<const std::string_view>(names.begin(), names.size()), required);
}
// gelu(x, approximate=False), isclose, allclose: made of table ops (builtins_math.cpp)
void add_math_builtins(std::vector<std::pair<std::string, Value>>& out);
// The neural-network builtins made of table ops: conv1d, conv2d and
// conv_transpose2d with bias and PyTorch's paddings, avg_pool2d
// (nn_conv.cpp); batch_norm, layer_norm, group_norm, dropout, embedding
// (nn_norm.cpp); activations (nn_act.cpp); interpolate (nn_resize.cpp)
void add_nn_conv_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_nn_norm_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_nn_act_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_nn_resize_builtins(std::vector<std::pair<std::string, Value>>& out);
// NumPy's functions made of table ops (docs/numpy.md): stacking and axes
// (np_stack.cpp), products and diagonals (np_products.cpp), element-wise
// functions (np_elementwise.cpp), NaN-ignoring reductions (np_stats.cpp),
// quantiles, averages, covariance (np_quantile.cpp)
void add_np_stack_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_product_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_elementwise_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_stats_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_quantile_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_search_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_histogram_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_sets_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_create_builtins(std::vector<std::pair<std::string, Value>>& out);
// NumPy's argument forms of table ops: sort / argsort with kind= and
// descending=, clip with a None bound (np_forms.cpp); pad's modes
// (np_pad.cpp); unique's return_* and axis (np_unique.cpp)
void add_np_form_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_pad_builtins(std::vector<std::pair<std::string, Value>>& out);
void add_np_unique_builtins(std::vector<std::pair<std::string, Value>>& out);
// dtype= of sum, prod, mean, cumsum, cumprod (np_dtype.cpp): wraps their builtins, so it runs
// after every other builtin is added
void add_np_dtype_builtins(std::vector<std::pair<std::string, Value>>& out);
// np.linalg's svd, eigh, eig, qr, slogdet, lstsq, matrix_rank, norm (np_linalg*.cpp)
void add_np_linalg_builtins(std::vector<std::pair<std::string, Value>>& out);
// all of the above (np_util.cpp)
void add_numpy_builtins(std::vector<std::pair<std::string, Value>>& out);
// ord, chr, hex, oct, bin, divmod (python_builtins.cpp)
void add_python_builtins(std::vector<std::pair<std::string, Value>>& out);
// tree_map, tree_leaves, tree_flatten, tree_unflatten, tree_structure (tree.cpp)
void add_tree_builtins(std::vector<std::pair<std::string, Value>>& out);
// display(x, ...) (display.cpp), and help(x) with it: both print for the reader
void add_display_builtins(std::vector<std::pair<std::string, Value>>& out);
// help(x) (help.cpp)
void add_help_builtins(std::vector<std::pair<std::string, Value>>& out);
// breakpoint() (interp/debug/breakpoint_builtin.cpp)
void add_debug_builtins(std::vector<std::pair<std::string, Value>>& out);

}  // namespace tg::interp
