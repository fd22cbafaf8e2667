// The one op table (STYLE.md, "JAX's primitive tables"): every tensor builtin
// of docs/builtins.md is defined once here — name, parameters with keywords and
// defaults, a shape-and-dtype rule that needs no data, an eager kernel, and
// the facts other folders would otherwise match by name: its typed kind (its
// row of stdlib/op_kinds.hpp), whether it may raise on valid types, its cost
// class and its effects. The tracer, codegen and the ONNX exporter attach
// their own rules per op, keyed by the kind, in their own tables
// (codegen/native_ops.cpp, onnx_export/map_ops.cpp); docs/adding-an-op.md
// lists the places.
//
// Host-side builtins that are not tensor ops (print, len, range, str, repr,
// int, float, time, type, list methods) live in interp/.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stdlib/dtype.hpp"
#include "stdlib/op_kinds.hpp"
#include "stdlib/random.hpp"
#include "stdlib/shape.hpp"
#include "stdlib/tensor.hpp"

namespace tg::stdlib {

// How the caller must supply each parameter.
enum class ParamKind : uint8_t {
    Tensor,      // a tensor operand; numbers and nested lists are converted with tensor()
    TensorList,  // a list/tuple of tensor operands (concat, stack): all go to `inputs`
    Int,         // a static int (one_hot's n, linspace's num)
    Scalar,      // a static number, int or float kept apart (arange's start/stop/step)
    Axis,        // None, an int, or a tuple of ints
    Shape,       // an int or a tuple of ints
    DType,       // a dtype, or None
    Bool,        // a static bool (keepdims)
    Widths,      // pad's widths: an int, a (before, after) pair, or one pair per axis; the attr
                 // is canonical: [before, after] for every axis, or [b0, a0, b1, a1, ...]
    Value,       // tensor() / constant()'s data: a tensor or nested list/tuple of numbers;
                 // interp converts it to a tensor first (see tensor_from_nested)
};

// A static (non-tensor) argument. monostate is None / "not given".
using Attr = std::variant<std::monostate, int64_t, double, bool, DType, std::vector<int64_t>>;

struct ParamDef {
    std::string_view name;
    ParamKind kind;
    bool required = true;      // false: `default_value` applies when not given
    Attr default_value = {};
};

// The static description of a tensor: what shape rules compute.
struct TensorType {
    DType dtype = DType::F32;
    Shape shape;
    bool weak = false;
};

struct SavedStack;  // stdlib/saved_stack.hpp

// What kernels may use besides their arguments: the interpreter's generator.
struct OpContext {
    Rng* rng = nullptr;
    // The values a graph run saves for its backward loops (kStack ops): one
    // stack per run of a graph (stdlib/saved_stack.hpp).
    SavedStack* stack = nullptr;
};

// Arguments bound to parameters, in parameter order:
//   inputs — every Tensor parameter, then the elements of the TensorList (if any);
//   attrs  — one entry per parameter (monostate for Tensor / TensorList parameters,
//            and for optional ones not given that have no default).
struct OpArgs {
    std::span<const Tensor> inputs;
    std::span<const Attr> attrs;
};
struct TypeArgs {
    std::span<const TensorType> inputs;
    std::span<const Attr> attrs;
};

using ShapeRule = TensorType (*)(const TypeArgs&);               // throws OpError
using Kernel = Tensor (*)(OpContext&, const OpArgs&);            // throws OpError

enum OpFlags : uint32_t {
    kElementwise = 1u << 0,  // result[i] depends on the broadcast inputs at i only
    kReduction = 1u << 1,
    kRandom = 1u << 2,       // effect: reads and advances the generator (never dropped, never merged)
    kCreation = 1u << 3,     // no tensor inputs; shape from attrs
    kStack = 1u << 4,        // effect: pushes to / pops from the run's saved-value stack (OpContext::stack)
    kInternal = 1u << 5,     // made by the tracer and gradient rules only (autodiff's stack ops, _scatter_add):
                             // no builtin of that name
};

// What an op is, typed: its row of stdlib/op_kinds.hpp (an element-wise op,
// a reduction, or OtherKind for linear algebra, shapes, creation, random,
// nn, ...). Backends key their rules on this, never on the name. Every
// registered op has one; monostate is only an OpDef's "not set", which
// tests/stdlib/test_core_kinds.cpp rejects for every op of the table.
using OpKind = std::variant<std::monostate, UnaryKind, BinaryKind, ReduceKind, ElementwiseKind, OtherKind>;

// The builtin name of a kind, from its X-macro row ("add", "broadcast_to");
// empty for monostate. Equal to the name of the op that has the kind.
std::string_view op_kind_name(const OpKind& kind);

// When an op can fail at run time although its operand types are valid.
enum class Raises : uint8_t {
    Never,
    OnIntegers,  // integer operands: the IntCheck of its BinaryKind (division by zero, ...)
    OnData,      // data-dependent checks (class indices out of range)
};
// (Reductions without an identity raise on empty operands: a rule of kReduction.)

// How much work one application is, for deciding what to compile in the background.
enum class Cost : uint8_t {
    PerElement,   // about one unit per result element
    Contraction,  // one dot product of the operands' inner dimension per result element (matmul)
};

// The derivative rule of an op (its vector-Jacobian product), written in
// terms of tg ops through a GradBuilder (stdlib/grad.hpp), so a gradient is
// an ordinary computation: eager, traced into a graph, or differentiated
// again. Rules live in stdlib/grad_rules.cpp; the coverage test
// (tests/stdlib/test_grad_rules.cpp) requires every op to have one or to say
// why it needs none.
class GradBuilder;
struct VjpArgs;
using VjpFn = void (*)(GradBuilder&, const VjpArgs&);
struct GradRule {
    enum Mode : uint8_t {
        Missing,    // not written: differentiating through the op is an error naming it
        Vjp,        // `vjp` gives the cotangents of the inputs
        NoGradient, // results never carry a gradient (bool/integer results, creation, random)
    } mode = Missing;
    VjpFn vjp = nullptr;
};

struct OpDef {
    std::string_view name;
    std::vector<ParamDef> params;
    ShapeRule infer;
    Kernel eager;
    uint32_t flags = 0;
    std::string_view doc;  // one line, for :help and the docs
    OpKind kind = {};
    Raises raises = Raises::Never;
    Cost cost = Cost::PerElement;
    GradRule grad = {};

    // Takes and gives the effect token in graphs: never dropped, merged or reordered.
    bool has_effect() const { return (flags & (kRandom | kStack)) != 0; }
};

// The attributes of a call made from code (gradient rules, einsum): `attrs`
// covers the first parameters, the rest take their defaults. A monostate
// inside `attrs` is an explicit None (sort's axis=None flattens), never
// "not given", so an eager call, its trace and its gradient bind alike.
void complete_attrs(const OpDef& def, std::vector<Attr>& attrs);

// Lookup by builtin name ("add", "matmul", "sum", "exp", ...). Aliases
// (constant -> tensor) resolve to the same OpDef. Null if unknown.
const OpDef* find_op(std::string_view name);
// Every op, in registration order (for docs, completion and tests).
std::span<const OpDef* const> all_ops();

// Operators of docs/language.md "Values" map onto ops with these names:
//   + add, - sub, * mul, / div, // floordiv, % mod, ** pow, @ matmul,
//   unary - neg, ~ invert, & bitand, | bitor, ^ bitxor,
//   == eq, != ne, < lt, <= le, > gt, >= ge, `not` logical_not.

// Direct entry points for the hot path (the interpreter's operators on 0-d
// tensors): same semantics as the table's kernels, no argument vectors.
Tensor binary(BinaryKind kind, const Tensor& a, const Tensor& b);
const OpDef& binary_op(BinaryKind kind);
// The op of a kind, for code that applies a particular op (gradient rules,
// the tracer, autodiff): `op_of(OtherKind::BroadcastTo)`, never
// find_op("broadcast_to"). Each kind is the kind of exactly one op.
const OpDef& op_of(UnaryKind kind);
const OpDef& op_of(BinaryKind kind);  // binary_op
const OpDef& op_of(ReduceKind kind);
const OpDef& op_of(ElementwiseKind kind);
const OpDef& op_of(OtherKind kind);
// Unary operators and element-wise functions have the same kind of entry
// point: `unary(UnaryKind::Neg, x)`, declared in stdlib/elementwise.hpp.

// Convert nested data to a tensor: the interpreter flattens a nested
// list/tuple of scalars into `values` (as f64 or i64 or bool) with `shape`.
struct NestedData {
    Shape shape;
    std::vector<double> values;  // used when any leaf is a float
    std::vector<int64_t> ints;   // used when all leaves are ints/bools
    bool any_float = false;
    bool all_bool = false;
};
Tensor tensor_from_nested(const NestedData& data, std::optional<DType> dtype);

// Indexing (docs/language.md "Values"): ints, slices (Python clamping), `...`, negative
// indices. Results are views. Out of range: OpError
// "index 5 is out of range for axis 0 with size 3".
struct IndexItem {
    enum Kind : uint8_t { Int, Slice, Ellipsis } kind = Int;
    int64_t index = 0;                     // Int
    std::optional<int64_t> lo, hi, step;   // Slice (step 0 is an error)
};
Tensor index(const Tensor& x, std::span<const IndexItem> items);
// x[items] = v: broadcasts v to the indexed region and casts it to x.dtype;
// copy-on-write (x is made unique first).
void index_assign(Tensor& x, std::span<const IndexItem> items, const Tensor& v);
// Shape rule of index (for symbolic tensors).
Shape index_shape(const Shape& x, std::span<const IndexItem> items);

// Truth value of a tensor (docs/language.md "Values"): exactly one element, nonzero is true;
// otherwise OpError "the truth value of a tensor with 6 elements is ambiguous; use any() or all()".
bool truth(const Tensor& x);

}  // namespace tg::stdlib
