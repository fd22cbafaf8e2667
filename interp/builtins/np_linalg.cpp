// NumPy's np.linalg decompositions as builtins (docs/numpy.md, "Linear
// algebra"), named as tg names inv, solve and det: without the `linalg.`
// prefix. svd, eigh, eigvalsh, eig, eigvals, qr and slogdet unpack the
// packed result of one op of the table (stdlib/linalg_decomp.hpp) with
// slices, so they trace, batch and differentiate as that op; cholesky and
// pinv are ops of the table themselves. lstsq and matrix_rank are made of
// svd (as JAX's are); the matrix norms are in np_linalg_norm.cpp.
#include <limits>
#include <string>

#include "interp/builtins/np_linalg.hpp"
#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/linalg_decomp.hpp"

namespace tg::interp {

namespace np {

using stdlib::Shape;

Value piece(Compose& c, const Value& packed, const stdlib::Piece& p) {
    const Shape s = shape_of(packed);
    Shape out;
    for (int d = 0; d < s.rank() - 1; ++d) out.push_back(s[d]);
    for (int64_t d : p.dims) out.push_back(d);
    return c.reshape(slice(c, packed, s.rank() - 1, p.offset, p.offset + p.size()), out);
}

Value swap_last(Compose& c, const Value& x) {
    std::vector<int64_t> perm;
    for (int64_t d = 0; d < rank_of(x); ++d) perm.push_back(d);
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    return transpose(c, x, perm);
}

Value singular_values(Compose& c, const Value& a, bool hermitian) {
    if (!hermitian) return c.op(stdlib::op_of(stdlib::OtherKind::Svd), {a}, {false, false});
    // NumPy's svd(hermitian=True): |eigenvalues|, largest first
    const Value s = c.un(stdlib::UnaryKind::Abs, c.op(stdlib::op_of(stdlib::OtherKind::Eigh), {a}, {true, false}));
    return c.op(stdlib::op_of(stdlib::OtherKind::Flip), {c.op(stdlib::op_of(stdlib::OtherKind::Sort), {s}, {int64_t{-1}})},
                {int64_t{-1}});
}

double eps_of(stdlib::DType d) {
    return d == stdlib::DType::F64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
}

}  // namespace np

namespace {

using np::arg;
using np::piece;
using np::rank_of;
using np::shape_of;
using stdlib::DType;
using stdlib::OtherKind;
using stdlib::ReduceKind;
using stdlib::Shape;
using stdlib::UnaryKind;

bool flag(const Value* v, const std::string& fn, const char* name, bool dflt) {
    return v ? static_bool(*v, arg(fn, name)) : dflt;
}

Value op(Compose& c, OtherKind k, const Value& a, std::vector<stdlib::Attr> attrs) {
    return c.op(stdlib::op_of(k), {a}, std::move(attrs));
}

// m and n of a (..., m, n) operand; `square`: m == n too
std::pair<int64_t, int64_t> matrix_dims(const Value& a, const std::string& fn, bool square) {
    const Shape s = shape_of(a);
    if (s.rank() < 2 || (square && s[s.rank() - 1] != s[s.rank() - 2]))
        throw Error(fn + ": argument `a` must be a " + (square ? "square " : "") +
                    "matrix or a batch of them (shape (..., m, " + (square ? "m" : "n") + ")), got shape " + s.to_string());
    return {s[s.rank() - 2], s[s.rank() - 1]};
}

// NumPy's svd(hermitian=True) from eigh: |w| largest first, U the
// eigenvectors in that order, Vh = (U * sign(w))^T
Value hermitian_svd(Compose& c, const Value& a, bool uv) {
    const int64_t n = matrix_dims(a, "svd", true).second;
    if (!uv) return np::singular_values(c, a, true);
    const Value packed = op(c, OtherKind::Eigh, a, {true, true});
    const Value w = piece(c, packed, stdlib::eig_values(n)), v = piece(c, packed, stdlib::eig_vectors(n));
    const Value order = op(c, OtherKind::Flip, op(c, OtherKind::Argsort, c.un(UnaryKind::Abs, w), {int64_t{-1}}), {int64_t{-1}});
    const int64_t last = rank_of(w) - 1;
    const Value s = np::take_along(c, c.un(UnaryKind::Abs, w), order, last);
    const Value sign = np::take_along(c, c.un(UnaryKind::Sign, w), order, last);
    const Value cols = op(c, OtherKind::ExpandDims, order, {int64_t{-2}});
    const Value u = np::take_along(c, v, np::broadcast(c, cols, shape_of(v)), last + 1);
    const Value vh = np::swap_last(c, c.mul(u, op(c, OtherKind::ExpandDims, sign, {int64_t{-2}})));
    return Value::tuple({u, s, vh});
}

// svd(a, full_matrices=True, compute_uv=True, hermitian=False) -> (U, S, Vh), or S
Value svd(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "svd";
    const auto args = bind_args(fn, ca, {"a", "full_matrices", "compute_uv", "hermitian"}, 1);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "a"));
    const bool full = flag(args[1], fn, "full_matrices", true), uv = flag(args[2], fn, "compute_uv", true);
    if (flag(args[3], fn, "hermitian", false)) return hermitian_svd(c, a, uv);
    const Value packed = op(c, OtherKind::Svd, a, {full, uv});
    if (!uv) return packed;
    const auto [m, n] = matrix_dims(a, fn, false);
    const stdlib::SvdLayout l = stdlib::svd_layout(m, n, full, true);
    return Value::tuple({piece(c, packed, l.u()), piece(c, packed, l.s()), piece(c, packed, l.vh())});
}

// UPLO: "L" or "U" (either case, as NumPy) -> lower
bool lower_arg(const Value* v, const std::string& fn) {
    if (!v) return true;
    const std::optional<std::string> s = string_arg(*v);
    if (s && (*s == "L" || *s == "l")) return true;
    if (s && (*s == "U" || *s == "u")) return false;
    throw Error(fn + ": argument `UPLO` must be \"L\" or \"U\"");
}

// eigh(a, UPLO="L") -> (w, v); eigvalsh(a, UPLO="L") -> w
Value eigh(Runtime& rt, const CallArgs& ca, bool vectors) {
    const std::string fn = vectors ? "eigh" : "eigvalsh";
    const auto args = bind_args(fn, ca, {"a", "UPLO"}, 1);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "a"));
    const bool lower = lower_arg(args[1], fn);
    const int64_t n = matrix_dims(a, fn, true).second;
    const Value packed = op(c, OtherKind::Eigh, a, {lower, vectors});
    if (!vectors) return packed;
    return Value::tuple({piece(c, packed, stdlib::eig_values(n)), piece(c, packed, stdlib::eig_vectors(n))});
}

// eig(a) -> (w, v); eigvals(a) -> w: real eigenvalues only (tg has no complex dtypes)
Value eig(Runtime& rt, const CallArgs& ca, bool vectors) {
    const std::string fn = vectors ? "eig" : "eigvals";
    const auto args = bind_args(fn, ca, {"a"}, 1);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "a"));
    const int64_t n = matrix_dims(a, fn, true).second;
    const Value packed = op(c, OtherKind::Eig, a, {vectors});
    if (!vectors) return packed;
    return Value::tuple({piece(c, packed, stdlib::eig_values(n)), piece(c, packed, stdlib::eig_vectors(n))});
}

// qr(a, mode="reduced") -> (Q, R), or R for mode="r"
Value qr(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "qr";
    const auto args = bind_args(fn, ca, {"a", "mode"}, 1);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "a"));
    const std::optional<std::string> name = args[1] ? string_arg(*args[1]) : std::optional<std::string>("reduced");
    stdlib::QrMode mode;
    if (name == "reduced") mode = stdlib::QrMode::Reduced;
    else if (name == "complete") mode = stdlib::QrMode::Complete;
    else if (name == "r") mode = stdlib::QrMode::R;
    else if (name == "raw")
        throw Error(fn + ": mode \"raw\" (LAPACK's Householder reflectors) is not supported; use \"reduced\", \"complete\" or \"r\"");
    else throw Error(fn + ": argument `mode` must be \"reduced\", \"complete\" or \"r\"");
    const auto [m, n] = matrix_dims(a, fn, false);
    const Value packed = op(c, OtherKind::Qr, a, {static_cast<int64_t>(mode)});
    const stdlib::QrLayout l = stdlib::qr_layout(m, n, mode);
    if (!l.q) return piece(c, packed, l.r());
    return Value::tuple({piece(c, packed, l.qf()), piece(c, packed, l.r())});
}

// slogdet(a) -> (sign, logabsdet)
Value slogdet(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "slogdet";
    const auto args = bind_args(fn, ca, {"a"}, 1);
    Compose c{rt};
    const Value packed = op(c, OtherKind::Slogdet, tensor_operand(*args[0], arg(fn, "a")), {});
    return Value::tuple({piece(c, packed, stdlib::slogdet_sign()), piece(c, packed, stdlib::slogdet_logabs())});
}

// svdvals(x): the singular values, largest first (NumPy 2's np.linalg.svdvals)
Value svdvals(Runtime& rt, const CallArgs& ca) {
    const auto args = bind_args("svdvals", ca, {"x"}, 1);
    Compose c{rt};
    return op(c, OtherKind::Svd, tensor_operand(*args[0], arg("svdvals", "x")), {false, false});
}

}  // namespace

void add_np_linalg_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add(out, "svd", svd);
    np::add(out, "svdvals", svdvals);
    np::add(out, "eigh", [](Runtime& rt, const CallArgs& a) { return eigh(rt, a, true); });
    np::add(out, "eigvalsh", [](Runtime& rt, const CallArgs& a) { return eigh(rt, a, false); });
    np::add(out, "eig", [](Runtime& rt, const CallArgs& a) { return eig(rt, a, true); });
    np::add(out, "eigvals", [](Runtime& rt, const CallArgs& a) { return eig(rt, a, false); });
    np::add(out, "qr", qr);
    np::add(out, "slogdet", slogdet);
    add_np_lstsq_builtins(out);
    add_np_norm_builtins(out);
}

}  // namespace tg::interp
