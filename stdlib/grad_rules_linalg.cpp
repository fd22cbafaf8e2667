// Gradient rules of the decompositions (linalg_decomp.cpp,
// linalg_factor.cpp, linalg_pinv.cpp): JAX's rules (jax/_src/lax/linalg.py,
// jax/_src/numpy/linalg.py), which JAX states as JVPs, transposed here into
// VJPs and written in tg ops (stdlib/grad.hpp). The packed results are read
// through their layout (linalg_decomp.hpp): a cotangent of a packed result
// has the same layout.
//
// Where tg differs, and why:
// - eigh, cholesky and pinv(hermitian=True) read one triangle, as NumPy's;
//   their gradient is JAX's (and PyTorch's): symmetric, the derivative for
//   symmetric changes of the input — which is what reaches a symmetric
//   matrix built from parameters (B @ B.T, (X + X.T) / 2).
// - svd, eigh and eig divide by the gaps between singular values or
//   eigenvalues; where two are equal the gap's term is 0 instead of JAX's
//   inf or NaN. A cotangent of packed factors is dense (no symbolic zeros),
//   so the singular values of the identity would otherwise give NaN even
//   when only S is used; and for a loss that does not depend on the choice
//   of basis within equal values, 0 is the right limit.
// - svd with full_matrices=True of a non-square matrix has no gradient
//   (JAX's raises too).
#include <string>
#include <vector>

#include "stdlib/grad.hpp"
#include "stdlib/grad_ops.hpp"
#include "stdlib/linalg_decomp.hpp"
#include "stdlib/op_registry.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

namespace {

using grad_ops::want;
using Var = GradVar;

struct LinOps : GradOps {
    // the batch axes of a packed value
    Shape batch(Var packed) {
        Shape s = b.type(packed).shape, out;
        for (int d = 0; d < s.rank() - 1; ++d) out.push_back(s[d]);
        return out;
    }
    // x[..., lo:hi]
    Var last_slice(Var x, int64_t lo, int64_t hi) {
        IndexItem all;
        all.kind = IndexItem::Ellipsis;
        IndexItem range;
        range.kind = IndexItem::Slice;
        range.lo = lo;
        range.hi = hi;
        const IndexItem items[2] = {all, range};
        return b.index(x, items);
    }
    // x[..., lo:hi, :]
    Var row_slice(Var x, int64_t lo, int64_t hi) {
        IndexItem all;
        all.kind = IndexItem::Ellipsis;
        IndexItem range, cols;
        range.kind = IndexItem::Slice;
        range.lo = lo;
        range.hi = hi;
        cols.kind = IndexItem::Slice;
        const IndexItem items[3] = {all, range, cols};
        return b.index(x, items);
    }
    // a factor of a packed value, shaped batch + its dims
    Var piece(Var packed, const Piece& p) {
        Shape s = batch(packed);
        for (int64_t d : p.dims) s.push_back(d);
        return reshape(last_slice(packed, p.offset, p.offset + p.size()), s);
    }
    Var num(double v, DType d) { return b.constant(stdlib::cast(Tensor::scalar(v, DType::F64), d)); }
    Var where(Var c, Var x, Var y) {
        const Var in[3] = {c, x, y};
        return b.apply(op_of(ElementwiseKind::Where), in, {});
    }
    Var tril(Var x, int64_t k) { return apply1(op_of(OtherKind::Tril), x, {k}); }
    Var solve(Var a, Var x) { return apply2(op_of(OtherKind::Solve), a, x); }
    Var inv(Var a) { return apply1(op_of(OtherKind::Inv), a, {}); }
    // (..., k) as a row (..., 1, k) or a column (..., k, 1)
    Var row(Var v) { return apply1(op_of(OtherKind::ExpandDims), v, {int64_t{-2}}); }
    Var col(Var v) { return apply1(op_of(OtherKind::ExpandDims), v, {int64_t{-1}}); }
    Var eye(int64_t n, DType d) {
        Tensor t = Tensor::zeros(DType::F64, Shape{n, n});
        for (int64_t i = 0; i < n; ++i) t.data<double>()[i * n + i] = 1.0;
        return b.constant(stdlib::cast(t, d));
    }
    // v (..., k) on the diagonal of a (..., k, k) matrix
    Var diag_embed(Var v) {
        const TensorType t = b.type(v);
        return mul(row(v), eye(t.shape[t.shape.rank() - 1], t.dtype));
    }
    // (x + x^T) / 2
    Var sym(Var x) { return mul(add(x, swap_last(x)), num(0.5, b.type(x).dtype)); }
    // 1 / (v_j - v_i) at (i, j), 0 where v_i == v_j
    Var inverse_gaps(Var v) {
        const DType d = b.type(v).dtype;
        const Var gaps = sub(row(v), col(v));
        const Var same = bin(BinaryKind::Eq, gaps, num(0.0, d));
        return where(same, num(0.0, d), div(num(1.0, d), where(same, num(1.0, d), gaps)));
    }
    // 1 / v, 0 where v == 0
    Var safe_reciprocal(Var v) {
        const DType d = b.type(v).dtype;
        const Var zero = bin(BinaryKind::Eq, v, num(0.0, d));
        return where(zero, num(0.0, d), div(num(1.0, d), where(zero, num(1.0, d), v)));
    }
};

Shape shape_of(GradBuilder& b, Var v) { return b.type(v).shape; }
int64_t dim(const Shape& s, int from_end) { return s[s.rank() - from_end]; }

// ---- svd: A = U S V^T, dS = U^T dA V. JAX's JVP, transposed:
// gA = U (diag(gs) + (J + J^T) S + S (K + K^T)) V^T with J = F∘(U^T gU),
// K = F∘(V^T gV), F_ij = 1 / (s_j^2 - s_i^2); plus, for a tall A,
// (I - U U^T) gU S^-1 V^T and, for a wide one, U S^-1 gV^T (I - V V^T)
// (a zero singular value's 1 / s taken as 0, as its vectors are arbitrary).
Var svd_cotangent(LinOps& o, Var u, Var s, Var vh, Var gu, Var gs, Var gvh, int64_t m, int64_t n) {
    const Var v = o.swap_last(vh), gv = o.swap_last(gvh), ut = o.swap_last(u);
    const Var f = o.inverse_gaps(o.mul(s, s));
    const Var j = o.mul(f, o.matmul(ut, gu)), k = o.mul(f, o.matmul(vh, gv));
    Var inner = o.diag_embed(gs);
    inner = o.add(inner, o.mul(o.add(j, o.swap_last(j)), o.row(s)));
    inner = o.add(inner, o.mul(o.col(s), o.add(k, o.swap_last(k))));
    Var ga = o.matmul(o.matmul(u, inner), vh);
    const Var s_inv = o.safe_reciprocal(s);
    if (m > n) ga = o.add(ga, o.matmul(o.mul(o.sub(gu, o.matmul(u, o.matmul(ut, gu))), o.row(s_inv)), vh));
    if (n > m) ga = o.add(ga, o.matmul(u, o.mul(o.col(s_inv), o.sub(gvh, o.matmul(o.matmul(gvh, v), vh)))));
    return ga;
}

void vjp_svd(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    LinOps o{b};
    const Shape xs = shape_of(b, a.inputs[0]);
    const int64_t m = dim(xs, 2), n = dim(xs, 1);
    const bool full = kern::attr_bool("svd", "full_matrices", a.attrs[1]), uv = kern::attr_bool("svd", "compute_uv", a.attrs[2]);
    Var ga;
    if (!uv) {  // dS = diag(U^T dA V): gA = U diag(gs) V^T
        const SvdLayout l = svd_layout(m, n, false, true);
        const Var f = o.apply1(op_of(OtherKind::Svd), a.inputs[0], {false, true});
        ga = o.matmul(o.mul(o.piece(f, l.u()), o.row(a.cot)), o.piece(f, l.vh()));
    } else {
        if (full && m != n)
            kern::fail("svd", "the gradient of U and Vh with full_matrices=True is defined for square matrices only (as in "
                              "JAX); use full_matrices=False, or compute_uv=False / svdvals for the singular values alone");
        const SvdLayout l = svd_layout(m, n, full, true);
        ga = svd_cotangent(o, o.piece(a.out, l.u()), o.piece(a.out, l.s()), o.piece(a.out, l.vh()), o.piece(a.cot, l.u()),
                           o.piece(a.cot, l.s()), o.piece(a.cot, l.vh()), m, n);
    }
    a.cots[0] = o.cast(ga, b.type(a.inputs[0]).dtype);
}

// ---- eigh: dV = V (F∘(V^T dA V)), dw = diag(V^T dA V), F_ij = 1 / (w_j - w_i);
// transposed: gA = V (F∘(V^T gV) + diag(gw)) V^T, made symmetric
void vjp_eigh(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    LinOps o{b};
    const int64_t n = dim(shape_of(b, a.inputs[0]), 1);
    const bool vectors = kern::attr_bool("eigh", "vectors", a.attrs[2]);
    Var ga;
    if (vectors) {
        const Var w = o.piece(a.out, eig_values(n)), v = o.piece(a.out, eig_vectors(n));
        const Var gw = o.piece(a.cot, eig_values(n)), gv = o.piece(a.cot, eig_vectors(n));
        const Var inner = o.add(o.mul(o.inverse_gaps(w), o.matmul(o.swap_last(v), gv)), o.diag_embed(gw));
        ga = o.matmul(o.matmul(v, inner), o.swap_last(v));
    } else {
        const Var v = o.piece(o.apply1(op_of(OtherKind::Eigh), a.inputs[0], {a.attrs[1], true}), eig_vectors(n));
        ga = o.matmul(o.mul(v, o.row(a.cot)), o.swap_last(v));
    }
    a.cots[0] = o.cast(o.sym(ga), b.type(a.inputs[0]).dtype);
}

// ---- eig (real eigenvalues): P = V^-1 dA V, dw = diag(P), dV = V (F∘P) + V diag(c)
// with c_j = -v_j . (V (F∘P))_j keeping each column of unit norm (JAX's
// _eig_vec_jvp); transposed: gA = V^-T (diag(gw) + F∘(V^T G)) V^T with
// G = gV - V diag(diag(V^T gV))
void vjp_eig(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    LinOps o{b};
    const int64_t n = dim(shape_of(b, a.inputs[0]), 1);
    const bool vectors = kern::attr_bool("eig", "vectors", a.attrs[1]);
    Var v, inner;
    if (vectors) {
        v = o.piece(a.out, eig_vectors(n));
        const Var w = o.piece(a.out, eig_values(n));
        const Var gw = o.piece(a.cot, eig_values(n)), gv = o.piece(a.cot, eig_vectors(n));
        const Var g = o.sub(gv, o.mul(v, o.row(o.sum(o.mul(v, gv), -2))));
        inner = o.add(o.diag_embed(gw), o.mul(o.inverse_gaps(w), o.matmul(o.swap_last(v), g)));
    } else {
        v = o.piece(o.apply1(op_of(OtherKind::Eig), a.inputs[0], {true}), eig_vectors(n));
        inner = o.diag_embed(a.cot);
    }
    const Var vt = o.swap_last(v);
    a.cots[0] = o.cast(o.solve(vt, o.matmul(inner, vt)), b.type(a.inputs[0]).dtype);
}

// ---- qr (JAX's _thin_qr_jvp, m >= n): X = dA R^-1, C = Q^T X,
// W = tril(C, -1) - tril(C, -1)^T, dQ = Q (W - C) + X, dR = (C - W) R;
// transposed: M = Q^T gQ - gR R^T, gA = (gQ + Q (tril(M - M^T, -1) - M)) R^-T.
// gq may be kNoGrad (mode 'r').
Var thin_qr_cotangent(LinOps& o, Var q, Var r, Var gq, Var gr) {
    Var m = o.neg(o.matmul(gr, o.swap_last(r)));
    if (gq != kNoGrad) m = o.add(m, o.matmul(o.swap_last(q), gq));
    const Var lower = o.tril(o.sub(m, o.swap_last(m)), -1);
    Var bq = o.matmul(q, o.sub(lower, m));
    if (gq != kNoGrad) bq = o.add(bq, gq);
    return o.swap_last(o.solve(r, o.swap_last(bq)));  // B R^-T
}

// A wide A = [X1 X2] (m < n): Q R1 = X1 as above, R2 = Q^T X2 (JAX's wide case),
// so X2's cotangent is Q gR2 and Q's gains X2 gR2^T.
Var wide_qr_cotangent(LinOps& o, Var x, Var q, Var r, Var gq, Var gr, int64_t m, int64_t n) {
    const Var gr2 = o.last_slice(gr, m, n), x2 = o.cast(o.last_slice(x, m, n), o.b.type(gr2).dtype);
    const Var gq2 = o.matmul(x2, o.swap_last(gr2));
    gq = gq == kNoGrad ? gq2 : o.add(gq, gq2);
    const Var parts[2] = {thin_qr_cotangent(o, q, o.last_slice(r, 0, m), gq, o.last_slice(gr, 0, m)), o.matmul(q, gr2)};
    return o.b.apply(op_of(OtherKind::Concat), parts, {std::monostate{}, int64_t{-1}});
}

// The complete Q = [Q1 Q2] of a tall A (m > n, p = m - n): JAX's rule
// (arXiv:2409.13374, eqs. 32-33): with Q1 = [Qnn; Qpn] by rows and
// Z = Qpn (Qnn - I)^-1, dQ2 = dQ1 Z^T - (Q1 + Q2 Z)(dQpn - Z dQnn)^T;
// transposed, Q1's cotangent gains gQ2 Z and, with M = gQ2^T (Q1 + Q2 Z),
// Z^T M on its first n rows and -M on the others. R's last p rows are 0.
Var complete_qr_cotangent(LinOps& o, Var q, Var r, Var gq, Var gr, int64_t m, int64_t n) {
    const DType d = o.b.type(q).dtype;
    const Var q1 = o.last_slice(q, 0, n), q2 = o.last_slice(q, n, m), gq2 = o.last_slice(gq, n, m);
    const Var qnn = o.row_slice(q1, 0, n), qpn = o.row_slice(q1, n, m);
    const Var z = o.swap_last(o.solve(o.swap_last(o.sub(qnn, o.eye(n, d))), o.swap_last(qpn)));
    const Var mm = o.matmul(o.swap_last(gq2), o.add(q1, o.matmul(q2, z)));
    const Var rows[2] = {o.matmul(o.swap_last(z), mm), o.neg(mm)};
    const Var g1 = o.add(o.add(o.last_slice(gq, 0, n), o.matmul(gq2, z)),
                         o.b.apply(op_of(OtherKind::Concat), rows, {std::monostate{}, int64_t{-2}}));
    return thin_qr_cotangent(o, q1, o.row_slice(r, 0, n), g1, o.row_slice(gr, 0, n));
}

void vjp_qr(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    LinOps o{b};
    const Shape xs = shape_of(b, a.inputs[0]);
    const int64_t m = dim(xs, 2), n = dim(xs, 1);
    const auto mode = static_cast<QrMode>(kern::attr_int("qr", "mode", a.attrs[1]));
    const QrLayout l = qr_layout(m, n, mode);
    // mode 'r': Q from the reduced factors, and no cotangent of its own
    const Var f = mode == QrMode::R ? o.apply1(op_of(OtherKind::Qr), a.inputs[0], {int64_t{0}}) : a.out;
    const QrLayout lf = mode == QrMode::R ? qr_layout(m, n, QrMode::Reduced) : l;
    const Var q = o.piece(f, lf.qf()), r = o.piece(f, lf.r()), gr = o.piece(a.cot, l.r());
    const Var gq = mode == QrMode::R ? kNoGrad : o.piece(a.cot, l.qf());
    Var ga;
    if (m < n) ga = wide_qr_cotangent(o, a.inputs[0], q, r, gq, gr, m, n);
    else if (mode == QrMode::Complete && m > n) ga = complete_qr_cotangent(o, q, r, gq, gr, m, n);
    else ga = thin_qr_cotangent(o, q, r, gq, gr);
    a.cots[0] = o.cast(ga, b.type(a.inputs[0]).dtype);
}

// ---- cholesky (JAX's rule, arXiv:1602.07527): dL = L phi(L^-1 dA L^-T), phi
// the lower triangle with its diagonal halved; transposed:
// gA = L^-T phi(L^T gL) L^-1, made symmetric
void vjp_cholesky(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    LinOps o{b};
    const bool upper = kern::attr_bool("cholesky", "upper", a.attrs[1]);
    const Var l = upper ? o.swap_last(a.out) : a.out, gl = upper ? o.swap_last(a.cot) : a.cot;
    const Var lt = o.swap_last(l);
    const Var x = o.matmul(lt, gl);
    const DType d = b.type(x).dtype;
    const Var phi = o.sub(o.tril(x, 0), o.mul(o.mul(x, o.eye(dim(shape_of(b, x), 1), d)), o.num(0.5, d)));
    const Var left = o.solve(lt, phi);                               // L^-T phi
    const Var ga = o.swap_last(o.solve(lt, o.swap_last(left)));     // (L^-T phi) L^-1
    a.cots[0] = o.cast(o.sym(ga), b.type(a.inputs[0]).dtype);
}

// ---- slogdet: d log|det A| = tr(A^-1 dA), the sign's derivative 0: gA = g A^-T
void vjp_slogdet(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    LinOps o{b};
    const Var g = o.col(o.col(o.piece(a.cot, slogdet_logabs())));
    const Var x = o.cast(a.inputs[0], b.type(a.out).dtype);
    a.cots[0] = o.cast(o.mul(g, o.swap_last(o.inv(x))), b.type(a.inputs[0]).dtype);
}

// ---- pinv (JAX's _pinv_jvp, Golub and Pereyra 1973): with P = pinv(A),
// dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P; transposed:
// gA = -P^T G P^T + (I - A P) G^T P P^T + P^T P G^T (I - P A); made
// symmetric for hermitian=True (JAX symmetrizes A and dA there)
void vjp_pinv(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    LinOps o{b};
    const Var p = a.out, g = a.cot, pt = o.swap_last(p), gt = o.swap_last(g);
    const Var x = o.cast(a.inputs[0], b.type(p).dtype);
    const Var t1 = o.neg(o.matmul(o.matmul(pt, g), pt));
    const Var x2 = o.matmul(o.matmul(gt, p), pt);
    const Var t2 = o.sub(x2, o.matmul(x, o.matmul(p, x2)));
    const Var x3 = o.matmul(o.matmul(pt, p), gt);
    const Var t3 = o.sub(x3, o.matmul(o.matmul(x3, p), x));
    Var ga = o.add(o.add(t1, t2), t3);
    if (kern::attr_bool("pinv", "hermitian", a.attrs[2])) ga = o.sym(ga);
    a.cots[0] = o.cast(ga, b.type(a.inputs[0]).dtype);
}

}  // namespace

void attach_linalg_grad_rules(OpRegistry& r) {
    auto vjp = [&](std::string_view name, VjpFn fn) { r.set_grad(name, GradRule{GradRule::Vjp, fn}); };
    vjp("_svd", &vjp_svd);
    vjp("_eigh", &vjp_eigh);
    vjp("_eig", &vjp_eig);
    vjp("_qr", &vjp_qr);
    vjp("cholesky", &vjp_cholesky);
    vjp("_slogdet", &vjp_slogdet);
    vjp("pinv", &vjp_pinv);
}

}  // namespace tg::stdlib
