// Every op of the table, each listed once: these X-macro tables generate the
// kind enums, their builtin names, their rows of facts and (in
// elementwise_*.cpp) the eager kernels' functor lists, so no count is ever
// written by hand. Adding an element-wise op = one row here, one functor in
// elementwise_scalar.hpp (named like the kind), one codegen row
// (codegen/native_ops.cpp); any other op = one row of TG_OTHER_OPS and its
// registration in its group's file; see docs/adding-an-op.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace tg::stdlib {

// ---- binary: X(Kind, "name", class, integer check, "error", "doc")
//   class: how the dtypes go (binary_signature):
//     Arith   promote, any dtype
//     NoBool  promote, bool rejected
//     TrueDiv promote, integers give f32
//     Compare promote, the result is bool
//     Bitwise promote, floats rejected
//     Shift   promote, integers only (bool and floats rejected)
//   integer check: a value the right operand must not have on integers, and
//     the error raised then (the one place these messages are written: the
//     eager kernels, the tracer's may_raise and compiled code read them here).
#define TG_BINARY_OPS(X)                                                                                       \
    X(Add, "add", Arith, None, "", "a + b, element-wise with broadcasting")                                    \
    X(Sub, "sub", NoBool, None, "", "a - b")                                                                   \
    X(Mul, "mul", Arith, None, "", "a * b")                                                                    \
    X(Div, "div", TrueDiv, None, "", "a / b, true division (integers give f32)")                               \
    X(FloorDiv, "floordiv", NoBool, NonZero, "integer division by zero", "a // b, Python's floor division")    \
    X(Mod, "mod", NoBool, NonZero, "integer modulo by zero", "a % b, Python's modulo (the sign follows b)")    \
    X(Pow, "pow", NoBool, NonNegative, "integers to negative integer powers are not allowed", "a ** b")        \
    X(Maximum, "maximum", Arith, None, "", "element-wise maximum (NaN propagates)")                            \
    X(Minimum, "minimum", Arith, None, "", "element-wise minimum (NaN propagates)")                            \
    X(Eq, "eq", Compare, None, "", "a == b")                                                                   \
    X(Ne, "ne", Compare, None, "", "a != b")                                                                   \
    X(Lt, "lt", Compare, None, "", "a < b")                                                                    \
    X(Le, "le", Compare, None, "", "a <= b")                                                                   \
    X(Gt, "gt", Compare, None, "", "a > b")                                                                    \
    X(Ge, "ge", Compare, None, "", "a >= b")                                                                   \
    X(BitAnd, "bitand", Bitwise, None, "", "a & b on bool and integer tensors")                                \
    X(BitOr, "bitor", Bitwise, None, "", "a | b on bool and integer tensors")                                  \
    X(BitXor, "bitxor", Bitwise, None, "", "a ^ b on bool and integer tensors")                                \
    X(LeftShift, "left_shift", Shift, NonNegative, "negative shift count", "a << b on integer tensors (bits shifted out are lost; b >= the width gives 0)") \
    X(RightShift, "right_shift", Shift, NonNegative, "negative shift count", "a >> b on integer tensors, arithmetic: the floor of a / 2 ** b") \
    X(Atan2, "atan2", TrueDiv, None, "", "atan2(y, x): the angle of the point (x, y), in [-pi, pi]")          \
    X(Logaddexp, "logaddexp", TrueDiv, None, "", "log(exp(a) + exp(b)), computed without overflow")

// ---- unary: X(Kind, "name", class, "doc")
//   class (unary_signature):
//     Negate    same dtype, bool rejected; a weak operand stays weak
//     Invert    same dtype, floats rejected; a weak operand stays weak
//     Predicate the result is bool
//     FloatFn   floats keep their dtype, bool and integers give f32
//     Same      same dtype
#define TG_UNARY_OPS(X)                                                  \
    X(Neg, "neg", Negate, "-x")                                          \
    X(Invert, "invert", Invert, "~x: bitwise not (logical not for bool)") \
    X(LogicalNot, "logical_not", Predicate, "not x, element-wise: x == 0") \
    X(Abs, "abs", Same, "absolute value")                                \
    X(Exp, "exp", FloatFn, "e ** x")                                     \
    X(Expm1, "expm1", FloatFn, "exp(x) - 1, accurate for small x")       \
    X(Log, "log", FloatFn, "natural logarithm")                          \
    X(Log1p, "log1p", FloatFn, "log(1 + x), accurate for small x")       \
    X(Sqrt, "sqrt", FloatFn, "square root")                              \
    X(Rsqrt, "rsqrt", FloatFn, "1 / sqrt(x)")                            \
    X(Sin, "sin", FloatFn, "sine")                                       \
    X(Cos, "cos", FloatFn, "cosine")                                     \
    X(Tan, "tan", FloatFn, "tangent")                                    \
    X(Tanh, "tanh", FloatFn, "hyperbolic tangent")                       \
    X(Sigmoid, "sigmoid", FloatFn, "1 / (1 + exp(-x))")                  \
    X(Relu, "relu", Same, "maximum(x, 0)")                               \
    X(Floor, "floor", Same, "round toward -inf")                         \
    X(Ceil, "ceil", Same, "round toward +inf")                           \
    X(Round, "round", Same, "round half to even")                        \
    X(Sign, "sign", Same, "-1, 0 or 1 (NaN stays NaN)")                  \
    X(Square, "square", Same, "x * x")                                   \
    X(IsNan, "isnan", Predicate, "x is NaN")                             \
    X(IsFinite, "isfinite", Predicate, "x is neither inf nor NaN")                                       \
    X(IsInf, "isinf", Predicate, "x is inf or -inf")                                                     \
    X(Log2, "log2", FloatFn, "base-2 logarithm")                                                         \
    X(Log10, "log10", FloatFn, "base-10 logarithm")                                                      \
    X(Asin, "asin", FloatFn, "inverse sine (NaN outside [-1, 1])")                                       \
    X(Acos, "acos", FloatFn, "inverse cosine (NaN outside [-1, 1])")                                     \
    X(Atan, "atan", FloatFn, "inverse tangent")                                                          \
    X(Sinh, "sinh", FloatFn, "hyperbolic sine")                                                          \
    X(Cosh, "cosh", FloatFn, "hyperbolic cosine")                                                        \
    X(Erf, "erf", FloatFn, "the error function")                                                         \
    X(Gelu, "gelu", FloatFn, "0.5 * x * (1 + erf(x / sqrt(2))); gelu(x, approximate=True) is gelu_tanh") \
    X(GeluTanh, "gelu_tanh", FloatFn, "0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x ** 3)))")   \
    X(Softplus, "softplus", FloatFn, "log(1 + exp(x)), computed stably (NumPy's logaddexp(x, 0))")      \
    X(Trunc, "trunc", Same, "round toward zero")                                                         \
    X(Reciprocal, "reciprocal", FloatFn, "1 / x (integers give f32)")

// ---- reductions: X(Kind, "name", "doc") (kernels: stdlib/reduce.cpp)
#define TG_REDUCE_OPS(X)                                                                                    \
    X(Sum, "sum", "sum of the elements over the given axes (pairwise for floats; ints give i64)")            \
    X(Mean, "mean", "arithmetic mean over the given axes (ints give f32)")                                   \
    X(Max, "max", "largest element over the given axes (NaN propagates)")                                    \
    X(Min, "min", "smallest element over the given axes (NaN propagates)")                                   \
    X(Prod, "prod", "product of the elements over the given axes (ints give i64)")                          \
    X(Argmax, "argmax", "index (i64) of the first largest element, over all elements or one axis")          \
    X(Argmin, "argmin", "index (i64) of the first smallest element, over all elements or one axis")         \
    X(Any, "any", "True if any element over the given axes is nonzero")                                      \
    X(All, "all", "True if every element over the given axes is nonzero")                                    \
    X(Logsumexp, "logsumexp", "log(sum(exp(x))) over the given axes, computed stably")                     \
    X(Var, "var", "variance: the sum of squared deviations from the mean / (n - ddof) (ints give f32)") \
    X(Std, "std", "standard deviation over the given axes: sqrt(var(x, axis, keepdims, ddof))")           \
    X(Median, "median", "median over the given axes (NaN propagates; ints give f32)")

// ---- element-wise ops with a lowering of their own that are neither unary
// nor binary: X(Kind, "name") (registered in elementwise.cpp)
#define TG_ELEMENTWISE_OPS(X) \
    X(Where, "where")         \
    X(Clip, "clip")           \
    X(AsType, "astype")

// ---- every other op: X(Kind, "name"), registered with its parameters, rules
// and doc in its group's file (stdlib/op_registry.hpp lists them). Compiled
// code runs them through the runtime; the ONNX exporter maps them one by
// one (onnx_export/map_ops.cpp), and a switch over OtherKind with no
// `default:` makes a new row without its case a compile error.
#define TG_OTHER_OPS(X)                                                               \
    /* linear algebra: linalg.cpp, linalg_solve.cpp */                                \
    X(Matmul, "matmul") X(Dot, "dot") X(Outer, "outer")                              \
    X(Inv, "inv") X(Solve, "solve") X(Det, "det")                                    \
    /* decompositions: linalg_decomp.cpp, linalg_factor.cpp */                        \
    X(Svd, "_svd") X(Eigh, "_eigh") X(Eig, "_eig") X(Qr, "_qr")                      \
    X(Cholesky, "cholesky") X(Slogdet, "_slogdet") X(Pinv, "pinv")                   \
    /* shapes: shape_ops.cpp */                                                       \
    X(Transpose, "transpose") X(Reshape, "reshape") X(ExpandDims, "expand_dims")     \
    X(Squeeze, "squeeze") X(Flatten, "flatten") X(BroadcastTo, "broadcast_to")       \
    X(Concat, "concat") X(Stack, "stack") X(OneHot, "one_hot")                       \
    /* layout: shape_ops_layout.cpp */                                                \
    X(Flip, "flip") X(Roll, "roll") X(Tile, "tile") X(Repeat, "repeat")              \
    X(Pad, "pad") X(Diag, "diag") X(Tril, "tril") X(Triu, "triu")                    \
    /* selection: select_ops.cpp; integer-tensor indexing: index_gather.cpp */       \
    X(Take, "take") X(Sort, "sort") X(Argsort, "argsort")                            \
    X(Gather, "_gather") X(Scatter, "_scatter") X(ScatterAdd, "_scatter_add")        \
    /* creation: creation.cpp */                                                      \
    X(Tensor, "tensor") X(Zeros, "zeros") X(Ones, "ones") X(Full, "full")            \
    X(ZerosLike, "zeros_like") X(OnesLike, "ones_like") X(Arange, "arange")          \
    X(Linspace, "linspace") X(Eye, "eye")                                            \
    /* random: creation_random.cpp */                                                 \
    X(RandomUniform, "random_uniform") X(RandomNormal, "random_normal")              \
    X(RandomInt, "random_int")                                                       \
    /* nn: nn.cpp; scans: scan.cpp; norm.cpp */                                       \
    X(Softmax, "softmax") X(LogSoftmax, "log_softmax")                               \
    X(CrossEntropy, "cross_entropy") X(Mse, "mse")                                   \
    X(Cumsum, "cumsum") X(Cumprod, "cumprod") X(Norm, "norm")                        \
    /* convolution: conv_ops.cpp; pooling: pool.cpp */                               \
    X(Conv2d, "conv2d") X(ConvTranspose2d, "conv_transpose2d")                       \
    X(Conv2dWeightGrad, "_conv2d_weight_grad")                                       \
    X(MaxPool2d, "max_pool2d") X(MaxPool2dIndices, "_max_pool2d_indices")            \
    X(MaxPool2dBackward, "_max_pool2d_backward")                                     \
    /* median's gradient: reduce_ops.cpp; autodiff's saved values: saved_stack.cpp */ \
    X(MedianWeights, "_median_weights")                                              \
    X(StackPush, "_stack_push") X(StackPop, "_stack_pop") X(StackSize, "_stack_size")

#define TG_KIND_ENUM_(K, ...) K,
#define TG_KIND_COUNT_(K, ...) +1

enum class BinaryKind : uint8_t { TG_BINARY_OPS(TG_KIND_ENUM_) };
enum class UnaryKind : uint8_t { TG_UNARY_OPS(TG_KIND_ENUM_) };
enum class ReduceKind : uint8_t { TG_REDUCE_OPS(TG_KIND_ENUM_) };
enum class ElementwiseKind : uint8_t { TG_ELEMENTWISE_OPS(TG_KIND_ENUM_) };
enum class OtherKind : uint8_t { TG_OTHER_OPS(TG_KIND_ENUM_) };
inline constexpr int kNumBinaryKinds = 0 TG_BINARY_OPS(TG_KIND_COUNT_);
inline constexpr int kNumUnaryKinds = 0 TG_UNARY_OPS(TG_KIND_COUNT_);
inline constexpr int kNumReduceKinds = 0 TG_REDUCE_OPS(TG_KIND_COUNT_);
inline constexpr int kNumElementwiseKinds = 0 TG_ELEMENTWISE_OPS(TG_KIND_COUNT_);
inline constexpr int kNumOtherKinds = 0 TG_OTHER_OPS(TG_KIND_COUNT_);

#undef TG_KIND_ENUM_
#undef TG_KIND_COUNT_

enum class BinaryClass : uint8_t { Arith, NoBool, TrueDiv, Compare, Bitwise, Shift };
enum class UnaryClass : uint8_t { Negate, Invert, Predicate, FloatFn, Same };

// A value the right operand of an integer op must not have (and the error).
struct IntCheck {
    enum Kind : uint8_t { None, NonZero, NonNegative } kind = None;
    std::string_view message;
};

struct BinaryRow {
    std::string_view name;
    BinaryClass cls;
    IntCheck check;
    std::string_view doc;
};
struct UnaryRow {
    std::string_view name;
    UnaryClass cls;
    std::string_view doc;
};

inline constexpr BinaryRow kBinaryRows[] = {
#define TG_ROW_(K, NAME, CLS, CHECK, MSG, DOC) {NAME, BinaryClass::CLS, {IntCheck::CHECK, MSG}, DOC},
    TG_BINARY_OPS(TG_ROW_)
#undef TG_ROW_
};
inline constexpr UnaryRow kUnaryRows[] = {
#define TG_ROW_(K, NAME, CLS, DOC) {NAME, UnaryClass::CLS, DOC},
    TG_UNARY_OPS(TG_ROW_)
#undef TG_ROW_
};
inline constexpr std::string_view kReduceNames[] = {
#define TG_ROW_(K, NAME, DOC) NAME,
    TG_REDUCE_OPS(TG_ROW_)
#undef TG_ROW_
};
inline constexpr std::string_view kElementwiseNames[] = {
#define TG_ROW_(K, NAME) NAME,
    TG_ELEMENTWISE_OPS(TG_ROW_)
#undef TG_ROW_
};
inline constexpr std::string_view kOtherNames[] = {
#define TG_ROW_(K, NAME) NAME,
    TG_OTHER_OPS(TG_ROW_)
#undef TG_ROW_
};

constexpr const BinaryRow& binary_row(BinaryKind k) { return kBinaryRows[static_cast<int>(k)]; }
constexpr const UnaryRow& unary_row(UnaryKind k) { return kUnaryRows[static_cast<int>(k)]; }
// The check integer operands of k get (kind None: none).
constexpr const IntCheck& int_check(BinaryKind k) { return binary_row(k).check; }
constexpr bool is_comparison(BinaryKind k) { return binary_row(k).cls == BinaryClass::Compare; }
// logical_not, isnan, isfinite, isinf: the result is bool.
constexpr bool is_predicate(UnaryKind k) { return unary_row(k).cls == UnaryClass::Predicate; }

// The builtin name of each kind ("where", "broadcast_to", "_stack_push").
constexpr std::string_view elementwise_name(ElementwiseKind k) { return kElementwiseNames[static_cast<int>(k)]; }
constexpr std::string_view other_name(OtherKind k) { return kOtherNames[static_cast<int>(k)]; }

}  // namespace tg::stdlib
