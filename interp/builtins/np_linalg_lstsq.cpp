// lstsq and matrix_rank (docs/numpy.md, "Linear algebra"), made of the SVD
// op as JAX's are (NumPy's lstsq calls LAPACK's ?gelsd, itself SVD-based:
// the same solution, to rounding), so they trace and differentiate as
// svd does.
#include <string>

#include "interp/builtins/np_linalg.hpp"
#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using np::piece;
using np::rank_of;
using np::shape_of;
using stdlib::BinaryKind;
using stdlib::DType;
using stdlib::OtherKind;
using stdlib::ReduceKind;
using stdlib::Shape;

Value sum_last(Compose& c, const Value& x) { return np::reduce(c, ReduceKind::Sum, x, -1); }

struct LstsqArgs {
    Value a, b;  // a (m, n), b (m, k) in their common float dtype
    bool vector = false;  // b was (m,)
    int64_t m = 0, n = 0;
    DType dtype = DType::F32;
};

LstsqArgs lstsq_args(Compose& c, const Value& av, const Value& bv) {
    const std::string fn = "lstsq";
    LstsqArgs r;
    r.a = tensor_operand(av, arg(fn, "a"));
    r.b = tensor_operand(bv, arg(fn, "b"));
    const Shape as = shape_of(r.a), bs = shape_of(r.b);
    if (as.rank() != 2) throw Error(fn + ": argument `a` must be a matrix (2-d), got shape " + as.to_string());
    if (bs.rank() != 1 && bs.rank() != 2)
        throw Error(fn + ": argument `b` must be 1-d or 2-d, got shape " + bs.to_string());
    r.m = as[0];
    r.n = as[1];
    if (bs[0] != r.m)
        throw Error(fn + ": argument `b` of shape " + bs.to_string() + " does not match `a` of shape " + as.to_string() +
                    ": it needs " + std::to_string(r.m) + " rows");
    r.vector = bs.rank() == 1;
    r.dtype = np::float_dtype(r.a) == DType::F64 || np::float_dtype(r.b) == DType::F64 ? DType::F64 : DType::F32;
    r.a = np::astype(c, r.a, r.dtype);
    r.b = np::astype(c, r.b, r.dtype);
    if (r.vector) r.b = c.reshape(r.b, Shape{r.m, 1});
    return r;
}

// NumPy returns the residuals only for a full-rank a with more rows than
// columns, so their shape depends on the rank: known in eager code only.
bool has_residuals(const Value& rank, const LstsqArgs& l) {
    if (l.m <= l.n) return false;
    if (rank.is_symbolic())
        unsupported_in_graph("lstsq of a matrix with more rows than columns: whether NumPy's residuals are returned "
                             "depends on its rank");
    if (rank.batched()) throw Error("lstsq: under vmap, whether the residuals are returned depends on each rank");
    return static_cast<int64_t>(static_number(rank, "lstsq: the rank")) == l.n;
}

// lstsq(a, b, rcond=None) -> (x, residuals, rank, s): x = V S^+ U^T b with
// singular values <= rcond * the largest dropped; rcond None is NumPy 2's
// eps * max(m, n), a negative rcond eps (LAPACK's)
Value lstsq(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "lstsq";
    const auto args = bind_args(fn, ca, {"a", "b", "rcond"}, 2);
    Compose c{rt};
    const LstsqArgs l = lstsq_args(c, *args[0], *args[1]);
    const double eps = np::eps_of(l.dtype);
    double rcond = is_none(args[2]) ? eps * static_cast<double>(std::max(l.m, l.n)) : static_number(*args[2], arg(fn, "rcond"));
    if (rcond < 0) rcond = eps;
    const stdlib::SvdLayout lay = stdlib::svd_layout(l.m, l.n, false, true);
    const Value packed = c.op(stdlib::op_of(OtherKind::Svd), {l.a}, {false, true});
    const Value u = piece(c, packed, lay.u()), s = piece(c, packed, lay.s()), vh = piece(c, packed, lay.vh());
    Value keep = c.bin(BinaryKind::Gt, s, Compose::num(0.0));
    if (lay.k > 0) keep = c.bin(BinaryKind::Gt, s, c.mul(np::at(c, s, 0, 0), Compose::num(rcond)));
    const Value s_inv = c.where(keep, c.div(Compose::num(1.0), c.where(keep, s, Compose::num(1.0))), Compose::num(0.0));
    const Value ub = c.mul(c.op(stdlib::op_of(OtherKind::ExpandDims), {s_inv}, {int64_t{-1}}),
                           np::matmul(c, np::swap_last(c, u), l.b));
    Value x = np::matmul(c, np::swap_last(c, vh), ub);
    const Value rank = np::astype(c, np::reduce(c, ReduceKind::Sum, keep, std::nullopt), DType::I64);
    Value residuals(stdlib::Tensor::zeros(l.dtype, Shape{0}));
    if (has_residuals(rank, l)) {
        const Value r = c.sub(l.b, np::matmul(c, l.a, x));
        residuals = np::reduce(c, ReduceKind::Sum, c.mul(r, r), 0);
    }
    if (l.vector) x = c.reshape(x, Shape{l.n});
    return Value::tuple({x, residuals, rank, s});
}

// matrix_rank(A, tol=None, hermitian=False, rtol=None): the singular
// values above tol (default: the largest * rtol, rtol default max(m, n) * eps)
Value matrix_rank(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "matrix_rank";
    const auto args = bind_args(fn, ca, {"A", "tol", "hermitian", "rtol"}, 1);
    Compose c{rt};
    const Value a = tensor_operand(*args[0], arg(fn, "A"));
    if (rank_of(a) < 2)  // NumPy: 1 unless every element is 0
        return np::astype(c, np::reduce(c, ReduceKind::Any, a, std::nullopt), DType::I64);
    if (!is_none(args[1]) && !is_none(args[3])) throw Error(fn + ": give `tol` or `rtol`, not both");
    const bool hermitian = args[2] && static_bool(*args[2], arg(fn, "hermitian"));
    const Value s = np::singular_values(c, a, hermitian);
    const DType d = s.tensor_type().dtype;
    auto per_matrix = [&](const Value* v, const char* name) {  // a number, or one per matrix of the batch
        return c.op(stdlib::op_of(OtherKind::ExpandDims), {np::astype(c, tensor_operand(*v, arg(fn, name)), d)}, {int64_t{-1}});
    };
    const Shape as = shape_of(a);
    Value tol;
    if (!is_none(args[1])) {
        tol = per_matrix(args[1], "tol");
    } else {
        const Value rtol = !is_none(args[3]) ? per_matrix(args[3], "rtol")
                                              : Compose::num(np::eps_of(d) * static_cast<double>(std::max(as[as.rank() - 1], as[as.rank() - 2])));
        tol = c.mul(np::reduce(c, ReduceKind::Max, s, -1, true), rtol);
    }
    return np::astype(c, sum_last(c, c.bin(BinaryKind::Gt, s, tol)), DType::I64);
}

}  // namespace

void add_np_lstsq_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add(out, "lstsq", lstsq);
    np::add(out, "matrix_rank", matrix_rank);
}

}  // namespace tg::interp
