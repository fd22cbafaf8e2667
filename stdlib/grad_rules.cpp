// The gradient rule of every op (JAX's defvjp): each rule builds the
// cotangents of an op's inputs from the cotangent of its result with tg ops,
// through the GradBuilder, so gradients trace, fuse and compile like any
// other code and can be differentiated again. Rules are attached to the op
// table by kind (element-wise ops and reductions) or by name (the others) in
// attach_grad_rules at the end; docs/training.md lists the conventions
// (relu'(0) = 0, ties of max/min split evenly, integer results carry none).
#include "stdlib/grad.hpp"

#include <numeric>
#include <string>

#include "stdlib/errors.hpp"
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

namespace {

using B = BinaryKind;
using U = UnaryKind;
using Var = GradVar;

std::vector<int64_t> dims(const Shape& s) { return {s.begin(), s.end()}; }

// A small vocabulary over the builder, so that rules read like the math.
struct Ops {
    GradBuilder& b;

    TensorType type(Var v) const { return b.type(v); }
    Var bin(BinaryKind k, Var x, Var y) {
        Var in[2] = {x, y};
        return b.apply(binary_op(k), in, {});
    }
    Var add(Var x, Var y) { return bin(B::Add, x, y); }
    Var sub(Var x, Var y) { return bin(B::Sub, x, y); }
    Var mul(Var x, Var y) { return bin(B::Mul, x, y); }
    Var div(Var x, Var y) { return bin(B::Div, x, y); }
    Var un(UnaryKind k, Var x) { return b.apply(op_of(k), std::span<const Var>(&x, 1), {}); }
    Var neg(Var x) { return un(U::Neg, x); }
    // A 0-d constant of v's dtype (weak, so it never changes a result's dtype).
    Var scalar(double value, Var like) {
        const DType d = type(like).dtype;
        return b.constant(is_float(d) ? Tensor::weak_float(value) : Tensor::weak_int(int64_t(value)));
    }
    Var where(Var c, Var x, Var y) {
        Var in[3] = {c, x, y};
        return b.apply(op_of(ElementwiseKind::Where), in, {});
    }
    Var cast(Var x, DType d) {
        if (type(x).dtype == d && !type(x).weak) return x;
        return b.apply(op_of(ElementwiseKind::AsType), std::span<const Var>(&x, 1), {std::monostate{}, d});
    }
    Var like_dtype(Var x, Var of) { return cast(x, type(of).dtype); }
    Var reshape(Var x, const Shape& s) {
        if (type(x).shape == s) return x;
        return b.apply(op_of(OtherKind::Reshape), std::span<const Var>(&x, 1), {std::monostate{}, dims(s)});
    }
    Var broadcast_to(Var x, const Shape& s) {
        if (type(x).shape == s) return x;
        return b.apply(op_of(OtherKind::BroadcastTo), std::span<const Var>(&x, 1), {std::monostate{}, dims(s)});
    }
    Var reduce(const OpDef& op, Var x, std::vector<int64_t> axes, bool keepdims) {
        return b.apply(op, std::span<const Var>(&x, 1), {std::monostate{}, std::move(axes), keepdims});
    }
    Var transpose(Var x, std::vector<int64_t> perm) {
        return b.apply(op_of(OtherKind::Transpose), std::span<const Var>(&x, 1), {std::monostate{}, std::move(perm)});
    }
    Var matmul(Var x, Var y) {
        Var in[2] = {x, y};
        return b.apply(op_of(OtherKind::Matmul), in, {});
    }
    // n / d, and 0 where d is 0 (a subgradient where the derivative is 0 / 0).
    Var div_or_zero(Var n, Var d) {
        Var zero = bin(B::Eq, d, scalar(0, d));
        Var safe = where(zero, add(mul(d, scalar(0, d)), scalar(1, d)), d);
        return where(zero, mul(n, scalar(0, n)), div(n, safe));
    }
    // 1.0 where m (bool) is true, else 0.0, in v's dtype.
    Var mask(Var m, Var like) { return cast(m, type(like).dtype); }
};

// ---- which axes a reduction removed (its Axis attr against x's rank)
std::vector<bool> reduced(const Attr& axis, int rank) {
    std::vector<bool> out(static_cast<size_t>(rank), false);
    auto mark = [&](int64_t a) {
        if (a < 0) a += rank;
        if (a >= 0 && a < rank) out[static_cast<size_t>(a)] = true;
    };
    if (std::holds_alternative<std::monostate>(axis)) out.assign(out.size(), true);
    else if (auto* i = std::get_if<int64_t>(&axis)) mark(*i);
    else if (auto* v = std::get_if<std::vector<int64_t>>(&axis))
        for (int64_t a : *v) mark(a);
    return out;
}

// g of a reduction over `axes` of x, broadcast back to x's shape.
Var expand_reduced(Ops& o, Var g, const TensorType& x, const std::vector<bool>& axes) {
    Shape kept;
    for (int i = 0; i < x.shape.rank(); ++i) kept.push_back(axes[static_cast<size_t>(i)] ? 1 : x.shape[i]);
    return o.broadcast_to(o.reshape(g, kept), x.shape);
}

bool want(const VjpArgs& a, size_t i) { return i < a.wanted.size() && a.wanted[i]; }

// gelu'(x) = Phi(x) + x * phi(x)
Var gelu_grad(Ops& o, Var x) {
    Var cdf = o.mul(o.scalar(0.5, x), o.add(o.scalar(1, x), o.un(U::Erf, o.mul(x, o.scalar(0.70710678118654752440, x)))));
    Var pdf = o.mul(o.scalar(0.39894228040143267794, x), o.un(U::Exp, o.mul(o.scalar(-0.5, x), o.mul(x, x))));
    return o.add(cdf, o.mul(x, pdf));
}

// gelu_tanh'(x) = 0.5 (1 + t) + 0.5 x (1 - t^2) c (1 + 3 * 0.044715 x^2), t = tanh(c (x + 0.044715 x^3))
Var gelu_tanh_grad(Ops& o, Var x) {
    Var x2 = o.mul(x, x);
    Var u = o.mul(o.scalar(0.79788456080286535588, x), o.add(x, o.mul(o.scalar(0.044715, x), o.mul(x2, x))));
    Var t = o.un(U::Tanh, u);
    Var du = o.mul(o.scalar(0.79788456080286535588, x), o.add(o.scalar(1, x), o.mul(o.scalar(3 * 0.044715, x), x2)));
    return o.add(o.mul(o.scalar(0.5, x), o.add(o.scalar(1, t), t)),
                 o.mul(o.mul(o.scalar(0.5, x), x), o.mul(o.sub(o.scalar(1, t), o.mul(t, t)), du)));
}

// ---- element-wise unary: cotangent of x from g, x and the result y. Every
// kind is named (no `default:`): a new one is a compile error (-Wswitch)
// until its rule, or its NoGradient, is written here.
Var unary_vjp(Ops& o, UnaryKind k, Var g, Var x, Var y) {
    auto one_minus_sq = [&] { return o.sub(o.scalar(1, x), o.mul(x, x)); };
    switch (k) {
    case U::Neg: return o.neg(g);
    case U::Abs: return o.mul(g, o.un(U::Sign, x));
    case U::Exp: return o.mul(g, y);
    case U::Expm1: return o.mul(g, o.add(y, o.scalar(1, y)));
    case U::Log: return o.div(g, x);
    case U::Log1p: return o.div(g, o.add(x, o.scalar(1, x)));
    case U::Sqrt: return o.div(g, o.mul(o.scalar(2, y), y));
    case U::Rsqrt: return o.mul(g, o.div(o.mul(o.scalar(-0.5, y), y), x));
    case U::Sin: return o.mul(g, o.un(U::Cos, x));
    case U::Cos: return o.neg(o.mul(g, o.un(U::Sin, x)));
    case U::Tan: return o.mul(g, o.add(o.scalar(1, y), o.mul(y, y)));
    case U::Tanh: return o.mul(g, o.sub(o.scalar(1, y), o.mul(y, y)));
    case U::Sigmoid: return o.mul(g, o.mul(y, o.sub(o.scalar(1, y), y)));
    case U::Relu: return o.mul(g, o.mask(o.bin(B::Gt, x, o.scalar(0, x)), g));  // relu'(0) = 0
    case U::Square: return o.mul(g, o.mul(o.scalar(2, x), x));
    case U::Log2: return o.div(g, o.mul(x, o.scalar(0.69314718055994530942, x)));
    case U::Log10: return o.div(g, o.mul(x, o.scalar(2.30258509299404568402, x)));
    case U::Asin: return o.mul(g, o.un(U::Rsqrt, one_minus_sq()));
    case U::Acos: return o.neg(o.mul(g, o.un(U::Rsqrt, one_minus_sq())));
    case U::Atan: return o.div(g, o.add(o.scalar(1, x), o.mul(x, x)));
    case U::Sinh: return o.mul(g, o.un(U::Cosh, x));
    case U::Cosh: return o.mul(g, o.un(U::Sinh, x));
    case U::Erf:  // 2 / sqrt(pi) * exp(-x^2)
        return o.mul(g, o.mul(o.scalar(1.12837916709551257390, x), o.un(U::Exp, o.neg(o.mul(x, x)))));
    case U::Gelu: return o.mul(g, gelu_grad(o, x));
    case U::GeluTanh: return o.mul(g, gelu_tanh_grad(o, x));
    case U::Softplus: return o.mul(g, o.un(U::Sigmoid, x));
    case U::Reciprocal: return o.neg(o.mul(g, o.mul(y, y)));
    case U::Floor: case U::Ceil: case U::Round: case U::Sign: case U::Trunc:
        return o.mul(g, o.scalar(0, g));  // piecewise constant
    case U::Invert: case U::LogicalNot: case U::IsNan: case U::IsFinite: case U::IsInf:
        return kNoGrad;  // NoGradient (attach_grad_rules)
    }
    return kNoGrad;  // not a kind
}

template <UnaryKind K>
void vjp_unary(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    if (want(a, 0)) a.cots[0] = o.like_dtype(unary_vjp(o, K, a.cot, a.inputs[0], a.out), a.inputs[0]);
}

// ---- element-wise binary: cotangents before unbroadcasting (every kind
// named, as in unary_vjp)
void binary_vjp(Ops& o, BinaryKind k, Var g, Var x, Var y, Var out, Var& gx, Var& gy, bool wx, bool wy) {
    switch (k) {
    case B::Add: gx = g; gy = g; return;
    case B::Sub: gx = g; if (wy) gy = o.neg(g); return;
    case B::Mul:
        if (wx) gx = o.mul(g, y);
        if (wy) gy = o.mul(g, x);
        return;
    case B::Div:
        if (wx) gx = o.div(g, y);
        if (wy) gy = o.neg(o.div(o.mul(g, out), y));
        return;
    case B::FloorDiv: gx = o.mul(g, o.scalar(0, g)); gy = gx; return;
    case B::Mod:  // a - b * floor(a / b)
        gx = g;
        if (wy) gy = o.neg(o.mul(g, o.bin(B::FloorDiv, x, y)));
        return;
    case B::Pow: {
        if (wx && o.b.known_scalar(y)) {
            const double e = *o.b.known_scalar(y);
            const bool integral = !is_float(o.type(y).dtype);
            if (e == 0) gx = o.mul(g, o.scalar(0, g));
            else if (e == 1) gx = g;
            else if (e == 2) gx = o.mul(g, o.mul(o.scalar(2, x), x));
            else {
                Var em1 = o.b.constant(integral ? Tensor::weak_int(int64_t(e) - 1) : Tensor::weak_float(e - 1));
                gx = o.mul(g, o.mul(o.scalar(e, x), o.bin(B::Pow, x, em1)));
            }
        } else if (wx) {
            // b * a ** (b - 1); b == 0 gives 0 also where a == 0
            Var bm1 = o.sub(y, o.scalar(1, y));
            gx = o.mul(g, o.mul(y, o.bin(B::Pow, x, bm1)));
            gx = o.where(o.bin(B::Eq, y, o.scalar(0, y)), o.mul(g, o.scalar(0, g)), gx);
        }
        if (wy) {
            // out * log(a), 0 where a <= 0 (no real derivative there); log
            // in out's dtype: a weak literal base (2.5 ** t) is f32 by
            // itself, and its f32 log would round an f64 gradient
            Var xa = o.like_dtype(x, out);
            Var pos = o.bin(B::Gt, xa, o.scalar(0, xa));
            Var safe = o.where(pos, xa, o.add(o.mul(xa, o.scalar(0, xa)), o.scalar(1, xa)));
            gy = o.where(pos, o.mul(g, o.mul(out, o.un(U::Log, safe))), o.mul(g, o.scalar(0, g)));
        }
        return;
    }
    case B::Maximum: case B::Minimum: {
        // x's share: 1 where x wins, 1/2 at ties (JAX's convention)
        Var wins = o.bin(k == B::Maximum ? B::Gt : B::Lt, x, y);
        Var tie = o.bin(B::Eq, x, y);
        Var share = o.add(o.mask(wins, g), o.mul(o.mask(tie, g), o.scalar(0.5, g)));
        if (wx) gx = o.mul(g, share);
        if (wy) gy = o.mul(g, o.sub(o.scalar(1, share), share));
        return;
    }
    case B::Atan2: {  // atan2(y, x): d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2)
        Var r2 = o.add(o.mul(x, x), o.mul(y, y));
        if (wx) gx = o.div(o.mul(g, y), r2);
        if (wy) gy = o.neg(o.div(o.mul(g, x), r2));
        return;
    }
    case B::Logaddexp:  // d/dx = exp(x - out), d/dy = exp(y - out) (PyTorch's form)
        if (wx) gx = o.mul(g, o.un(U::Exp, o.sub(x, out)));
        if (wy) gy = o.mul(g, o.un(U::Exp, o.sub(y, out)));
        return;
    case B::Eq: case B::Ne: case B::Lt: case B::Le: case B::Gt: case B::Ge:
    case B::BitAnd: case B::BitOr: case B::BitXor: case B::LeftShift: case B::RightShift:
        return;  // comparisons and bitwise ops: NoGradient (attach_grad_rules)
    }
}

template <BinaryKind K>
void vjp_binary(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    Var gx = kNoGrad, gy = kNoGrad;
    binary_vjp(o, K, a.cot, a.inputs[0], a.inputs[1], a.out, gx, gy, want(a, 0), want(a, 1));
    if (want(a, 0) && gx != kNoGrad) a.cots[0] = unbroadcast(b, gx, b.type(a.inputs[0]));
    if (want(a, 1) && gy != kNoGrad) a.cots[1] = unbroadcast(b, gy, b.type(a.inputs[1]));
}

// ---- var, std, median: g and y are already broadcast to x's shape
Var stat_vjp(Ops& o, ReduceKind k, const VjpArgs& a, Var g, Var y, const std::vector<bool>& axes) {
    const Var x = a.inputs[0];
    const TensorType xt = o.type(x);
    std::vector<int64_t> ax;
    int64_t n = 1;
    for (int i = 0; i < xt.shape.rank(); ++i)
        if (axes[static_cast<size_t>(i)]) {
            ax.push_back(i);
            n *= xt.shape[i];
        }
    if (k == ReduceKind::Median) {  // to the middle element(s), split evenly
        Var w = o.b.apply(op_of(OtherKind::MedianWeights), std::span<const Var>(&x, 1), {std::monostate{}, ax});
        return o.mul(g, w);
    }
    // var: 2 (x - mean) / (n - ddof); std: (x - mean) / ((n - ddof) std)
    double ddof = 0;
    if (auto* i = std::get_if<int64_t>(&a.attrs[3])) ddof = double(*i);
    else if (auto* d = std::get_if<double>(&a.attrs[3])) ddof = *d;
    Var dev = o.sub(x, o.reduce(op_of(ReduceKind::Mean), x, ax, true));
    Var gd = o.mul(g, dev);
    if (k == ReduceKind::Var) return o.div(o.mul(gd, o.scalar(2, gd)), o.scalar(double(n) - ddof, gd));
    // std 0 (all equal): 0, the subgradient (as norm's at 0), not 0 / 0
    return o.div_or_zero(gd, o.mul(y, o.scalar(double(n) - ddof, y)));
}

// ---- reductions
template <ReduceKind K>
void vjp_reduce(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Var x = a.inputs[0];
    const TensorType xt = b.type(x);
    const std::vector<bool> axes = reduced(a.attrs[1], xt.shape.rank());
    Var gx = kNoGrad;
    if constexpr (K == ReduceKind::Sum) {
        gx = expand_reduced(o, a.cot, xt, axes);
    } else if constexpr (K == ReduceKind::Mean) {
        // divided before it is broadcast: one division per result, not per element
        int64_t n = 1;
        for (int i = 0; i < xt.shape.rank(); ++i)
            if (axes[static_cast<size_t>(i)]) n *= xt.shape[i];
        gx = expand_reduced(o, o.div(a.cot, o.scalar(double(n), a.cot)), xt, axes);
    } else if constexpr (K == ReduceKind::Max || K == ReduceKind::Min) {
        // split evenly among the elements equal to the result
        Var g = expand_reduced(o, a.cot, xt, axes), y = expand_reduced(o, a.out, xt, axes);
        std::vector<int64_t> ax;
        for (int i = 0; i < xt.shape.rank(); ++i)
            if (axes[static_cast<size_t>(i)]) ax.push_back(i);
        Var hit = o.mask(o.bin(B::Eq, x, y), g);
        Var count = expand_reduced(o, o.reduce(op_of(ReduceKind::Sum), hit, ax, false), xt, axes);
        gx = o.div(o.mul(g, hit), count);
    } else if constexpr (K == ReduceKind::Prod) {
        // the product of the others, also where x has zeros
        Var g = expand_reduced(o, a.cot, xt, axes);
        std::vector<int64_t> ax;
        for (int i = 0; i < xt.shape.rank(); ++i)
            if (axes[static_cast<size_t>(i)]) ax.push_back(i);
        Var zero = o.bin(B::Eq, x, o.scalar(0, x));
        Var nz = o.where(zero, o.add(o.mul(x, o.scalar(0, x)), o.scalar(1, x)), x);
        Var p = expand_reduced(o, o.reduce(op_of(ReduceKind::Prod), nz, ax, false), xt, axes);
        Var zc = expand_reduced(o, o.reduce(op_of(ReduceKind::Sum), o.mask(zero, x), ax, false), xt, axes);
        Var none = o.bin(B::Eq, zc, o.scalar(0, zc));
        Var one = o.bin(B::BitAnd, o.bin(B::Eq, zc, o.scalar(1, zc)), zero);
        Var others = o.where(none, o.div(p, nz), o.where(one, p, o.mul(p, o.scalar(0, p))));
        gx = o.mul(g, others);
    } else if constexpr (K == ReduceKind::Logsumexp) {
        Var g = expand_reduced(o, a.cot, xt, axes), y = expand_reduced(o, a.out, xt, axes);
        gx = o.mul(g, o.un(U::Exp, o.sub(x, y)));
    } else if constexpr (K == ReduceKind::Var || K == ReduceKind::Std || K == ReduceKind::Median) {
        Var g = expand_reduced(o, a.cot, xt, axes), y = expand_reduced(o, a.out, xt, axes);
        gx = stat_vjp(o, K, a, g, y, axes);
    } else {
        // Every reduction is instantiated (attach_grad_rules): a new one is
        // a compile error here until it has a rule above or is NoGradient.
        static_assert(K == ReduceKind::Argmax || K == ReduceKind::Argmin || K == ReduceKind::Any ||
                          K == ReduceKind::All,
                      "a reduction without a gradient rule: write it above, or make it NoGradient");
    }
    if (gx != kNoGrad) a.cots[0] = o.like_dtype(gx, x);
}

// ---- the others, by name
void vjp_where(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    Var zero = o.mul(a.cot, o.scalar(0, a.cot));
    if (want(a, 1)) a.cots[1] = unbroadcast(b, o.where(a.inputs[0], a.cot, zero), b.type(a.inputs[1]));
    if (want(a, 2)) a.cots[2] = unbroadcast(b, o.where(a.inputs[0], zero, a.cot), b.type(a.inputs[2]));
}

void vjp_clip(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    const Var x = a.inputs[0], lo = a.inputs[1], hi = a.inputs[2], g = a.cot;
    Var below = o.bin(B::Lt, x, lo), above = o.bin(B::Gt, x, hi);
    Var zero = o.mul(g, o.scalar(0, g));
    if (want(a, 0))
        a.cots[0] = unbroadcast(b, o.where(o.bin(B::BitOr, below, above), zero, g), b.type(x));
    if (want(a, 1)) a.cots[1] = unbroadcast(b, o.where(below, g, zero), b.type(lo));
    if (want(a, 2)) a.cots[2] = unbroadcast(b, o.where(above, g, zero), b.type(hi));
}

void vjp_astype(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    if (want(a, 0) && is_float(b.type(a.inputs[0]).dtype)) a.cots[0] = o.like_dtype(a.cot, a.inputs[0]);
}

// matmul with NumPy's 1-d rules: 1-d operands are made (1, k) / (k, 1), the
// products of the 2-d rule taken, and the batch axes summed (unbroadcast).
void vjp_matmul(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    const Var x = a.inputs[0], y = a.inputs[1];
    const TensorType xt = b.type(x), yt = b.type(y), gt = b.type(a.cot);
    if (xt.shape.rank() == 1 && yt.shape.rank() == 1) {
        if (want(a, 0)) a.cots[0] = o.like_dtype(o.mul(a.cot, y), x);
        if (want(a, 1)) a.cots[1] = o.like_dtype(o.mul(a.cot, x), y);
        return;
    }
    Var X = x, Y = y;
    Shape gfull = gt.shape;
    if (xt.shape.rank() == 1) X = o.reshape(x, Shape{1, xt.shape[0]});
    if (yt.shape.rank() == 1) Y = o.reshape(y, Shape{yt.shape[0], 1});
    if (xt.shape.rank() == 1 || yt.shape.rank() == 1) {
        // g with the axes NumPy removed put back: batch..., m, n
        Shape full;
        const int keep = gt.shape.rank() - (xt.shape.rank() == 1 ? 0 : 1) - (yt.shape.rank() == 1 ? 0 : 1);
        for (int i = 0; i < keep; ++i) full.push_back(gt.shape[i]);
        full.push_back(xt.shape.rank() == 1 ? 1 : gt.shape[keep]);
        full.push_back(yt.shape.rank() == 1 ? 1 : gt.shape[gt.shape.rank() - 1]);
        gfull = full;
    }
    Var G = o.reshape(a.cot, gfull);
    auto swap_last = [&](Var v) {
        const int r = b.type(v).shape.rank();
        std::vector<int64_t> perm(static_cast<size_t>(r));
        std::iota(perm.begin(), perm.end(), 0);
        std::swap(perm[static_cast<size_t>(r - 1)], perm[static_cast<size_t>(r - 2)]);
        return o.transpose(v, perm);
    };
    // (reduced to the 2-d operands' shapes first: a 1-d operand's added axis
    // is not a leading one)
    if (want(a, 0)) a.cots[0] = o.reshape(unbroadcast(b, o.matmul(G, swap_last(Y)), b.type(X)), xt.shape);
    if (want(a, 1)) a.cots[1] = o.reshape(unbroadcast(b, o.matmul(swap_last(X), G), b.type(Y)), yt.shape);
}

void vjp_dot(GradBuilder& b, const VjpArgs& a) {
    if (b.type(a.inputs[0]).shape.rank() > 2 || b.type(a.inputs[1]).shape.rank() > 2)
        throw OpError("dot: the gradient of dot on operands of rank > 2 is not supported; use matmul");
    if (b.type(a.inputs[0]).shape.rank() == 0 || b.type(a.inputs[1]).shape.rank() == 0) {
        // a scalar operand: dot is multiplication
        Ops o{b};
        Var gx = kNoGrad, gy = kNoGrad;
        binary_vjp(o, B::Mul, a.cot, a.inputs[0], a.inputs[1], a.out, gx, gy, want(a, 0), want(a, 1));
        if (want(a, 0)) a.cots[0] = unbroadcast(b, gx, b.type(a.inputs[0]));
        if (want(a, 1)) a.cots[1] = unbroadcast(b, gy, b.type(a.inputs[1]));
        return;
    }
    vjp_matmul(b, a);
}

void vjp_outer(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    const Var x = a.inputs[0], y = a.inputs[1];
    const TensorType xt = b.type(x), yt = b.type(y);
    Var fx = o.reshape(x, Shape{xt.shape.numel()}), fy = o.reshape(y, Shape{yt.shape.numel()});
    if (want(a, 0)) a.cots[0] = o.like_dtype(o.reshape(o.matmul(a.cot, fy), xt.shape), x);
    if (want(a, 1)) a.cots[1] = o.like_dtype(o.reshape(o.matmul(fx, a.cot), yt.shape), y);
}

int64_t attr_int(const Attr& a, int64_t otherwise) {
    if (auto* i = std::get_if<int64_t>(&a)) return *i;
    return otherwise;
}

void vjp_softmax(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Var y = a.out, g = a.cot;
    std::vector<int64_t> ax{attr_int(a.attrs[1], -1)};
    Var s = o.reduce(op_of(ReduceKind::Sum), o.mul(g, y), ax, true);
    a.cots[0] = o.like_dtype(o.mul(y, o.sub(g, s)), a.inputs[0]);
}

void vjp_log_softmax(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    std::vector<int64_t> ax{attr_int(a.attrs[1], -1)};
    Var s = o.reduce(op_of(ReduceKind::Sum), a.cot, ax, true);
    a.cots[0] = o.like_dtype(o.sub(a.cot, o.mul(o.un(U::Exp, a.out), s)), a.inputs[0]);
}

// mean over the labels of -log_softmax(logits)[label]: (softmax - one_hot) / n
void vjp_cross_entropy(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Var logits = a.inputs[0], labels = a.inputs[1];
    const TensorType lt = b.type(logits);
    const int64_t classes = lt.shape[lt.shape.rank() - 1];
    const int64_t n = b.type(labels).shape.numel();
    Var p = b.apply(op_of(OtherKind::Softmax), std::span<const Var>(&logits, 1), {std::monostate{}, int64_t{-1}});
    Var hot = b.apply(op_of(OtherKind::OneHot), std::span<const Var>(&labels, 1), {std::monostate{}, classes, lt.dtype});
    Var scale = o.div(a.cot, o.scalar(double(n > 0 ? n : 1), a.cot));
    a.cots[0] = o.like_dtype(o.mul(o.sub(p, hot), scale), logits);
}

void vjp_mse(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    const Var x = a.inputs[0], y = a.inputs[1];
    Var d = o.sub(x, y);
    const int64_t n = b.type(d).shape.numel();
    Var gd = o.mul(d, o.div(o.mul(a.cot, o.scalar(2, a.cot)), o.scalar(double(n > 0 ? n : 1), a.cot)));
    if (want(a, 0)) a.cots[0] = unbroadcast(b, gd, b.type(x));
    if (want(a, 1)) a.cots[1] = unbroadcast(b, o.neg(gd), b.type(y));
}

void vjp_reshape_like(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    if (want(a, 0)) a.cots[0] = o.like_dtype(o.reshape(a.cot, b.type(a.inputs[0]).shape), a.inputs[0]);
}

void vjp_broadcast_to(GradBuilder& b, const VjpArgs& a) {
    if (want(a, 0)) a.cots[0] = unbroadcast(b, a.cot, b.type(a.inputs[0]));
}

void vjp_transpose(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const int r = b.type(a.inputs[0]).shape.rank();
    std::vector<int64_t> perm(static_cast<size_t>(r));
    if (auto* v = std::get_if<std::vector<int64_t>>(&a.attrs[1])) perm = *v;
    else if (auto* i = std::get_if<int64_t>(&a.attrs[1])) perm = {*i};
    else for (int k = 0; k < r; ++k) perm[static_cast<size_t>(k)] = r - 1 - k;
    std::vector<int64_t> inv(perm.size());
    for (size_t k = 0; k < perm.size(); ++k) inv[static_cast<size_t>(perm[k] < 0 ? perm[k] + r : perm[k])] = int64_t(k);
    a.cots[0] = o.transpose(a.cot, inv);
}

// concat / stack: each input's cotangent is its part of g (slices along axis)
void vjp_concat_stack(GradBuilder& b, const VjpArgs& a, bool stack) {
    const TensorType gt = b.type(a.cot);
    int64_t axis = attr_int(a.attrs[1], 0);
    if (axis < 0) axis += gt.shape.rank();
    int64_t at = 0;
    for (size_t i = 0; i < a.inputs.size(); ++i) {
        const TensorType it = b.type(a.inputs[i]);
        const int64_t len = stack ? 1 : it.shape[static_cast<int>(axis)];
        if (want(a, i)) {
            std::vector<IndexItem> items(static_cast<size_t>(axis) + 1);
            for (int64_t k = 0; k < axis; ++k) items[static_cast<size_t>(k)].kind = IndexItem::Slice;
            IndexItem& last = items.back();
            if (stack) {
                last.kind = IndexItem::Int;
                last.index = at;
            } else {
                last.kind = IndexItem::Slice;
                last.lo = at;
                last.hi = at + len;
            }
            Ops o{b};
            a.cots[i] = o.like_dtype(b.index(a.cot, items), a.inputs[i]);
        }
        at += len;
    }
}
void vjp_concat(GradBuilder& b, const VjpArgs& a) { vjp_concat_stack(b, a, false); }
void vjp_stack(GradBuilder& b, const VjpArgs& a) { vjp_concat_stack(b, a, true); }

// tensor(x) of a tensor: the identity (cast to the result's dtype)
void vjp_tensor(GradBuilder& b, const VjpArgs& a) {
    Ops o{b};
    if (want(a, 0) && is_float(b.type(a.inputs[0]).dtype)) a.cots[0] = o.like_dtype(a.cot, a.inputs[0]);
}

// ---- norm and the scans
// norm: x / norm (0 where the norm is 0) for ord None / 2, sign(x) for 1,
// and for inf sign(x) split evenly among the elements of largest |x|.
void vjp_norm(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Var x0 = a.inputs[0];
    const TensorType x0t = b.type(x0);
    const Var x = o.cast(x0, b.type(a.out).dtype);
    const std::vector<bool> axes = reduced(a.attrs[2], x0t.shape.rank());
    std::vector<int64_t> ax;
    for (int i = 0; i < x0t.shape.rank(); ++i)
        if (axes[static_cast<size_t>(i)]) ax.push_back(i);
    Var g = expand_reduced(o, a.cot, x0t, axes);
    Var y = expand_reduced(o, a.out, x0t, axes);
    double ord = 2;
    if (auto* i = std::get_if<int64_t>(&a.attrs[1])) ord = double(*i);
    else if (auto* d = std::get_if<double>(&a.attrs[1])) ord = *d;
    Var gx;
    if (ord == 1) {
        gx = o.mul(g, o.un(U::Sign, x));
    } else if (ord == 2) {
        gx = o.div_or_zero(o.mul(g, x), y);
    } else {
        Var hit = o.mask(o.bin(B::Eq, o.un(U::Abs, x), y), g);
        Var count = expand_reduced(o, o.reduce(op_of(ReduceKind::Sum), hit, ax, false), x0t, axes);
        gx = o.div(o.mul(o.mul(g, hit), o.un(U::Sign, x)), count);
    }
    a.cots[0] = o.like_dtype(gx, x0);
}

// A scan's axis attr as one the cotangent (the result's shape) takes: None
// flattened x, so its result is 1-d: axis 0. (A 0-d x gives a 1-d result too.)
Attr kern_axis_or_zero(const Attr& axis) {
    if (auto* i = std::get_if<int64_t>(&axis)) return *i;
    return int64_t{0};
}

Var scan(Ops& o, const OpDef& op, Var x, const Attr& axis) {
    return o.b.apply(op, std::span<const Var>(&x, 1), {std::monostate{}, axis});
}

// The sum of g[j] for j >= i along axis (g's own shape; axis None: g is 1-d).
Var reverse_cumsum(Ops& o, Var g, const Attr& axis) {
    const Attr ax = kern_axis_or_zero(axis);
    std::vector<int64_t> red{std::get<int64_t>(ax)};
    return o.add(o.sub(o.reduce(op_of(ReduceKind::Sum), g, red, true), scan(o, op_of(OtherKind::Cumsum), g, ax)), g);
}

// cumsum: the reverse cumulative sum of g, reshaped to x's shape.
void vjp_cumsum(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Var x = a.inputs[0];
    a.cots[0] = o.like_dtype(o.reshape(reverse_cumsum(o, a.cot, a.attrs[1]), b.type(x).shape), x);
}

// cumprod, exact also where x has zeros: before the first zero of a lane,
// revcumsum(g * y) / x; at the first zero, revcumsum(g * y') with y' the
// cumprod of x with that zero replaced by 1; after it, 0.
void vjp_cumprod(GradBuilder& b, const VjpArgs& a) {
    if (!want(a, 0)) return;
    Ops o{b};
    const Var x0 = a.inputs[0];
    const TensorType xt = b.type(x0);
    const Attr ax = kern_axis_or_zero(a.attrs[1]);
    Var x = o.cast(o.reshape(x0, b.type(a.out).shape), b.type(a.out).dtype);
    Var g = a.cot, y = a.out;
    Var zero = o.bin(B::Eq, x, o.scalar(0, x));
    Var zeros_so_far = scan(o, op_of(OtherKind::Cumsum), zero, ax);
    Var before = o.bin(B::Eq, zeros_so_far, o.scalar(0, zeros_so_far));
    Var first = o.bin(B::BitAnd, zero, o.bin(B::Eq, zeros_so_far, o.scalar(1, zeros_so_far)));
    Var one = o.add(o.mul(x, o.scalar(0, x)), o.scalar(1, x));
    Var x_safe = o.where(before, x, one);
    Var y1 = scan(o, op_of(OtherKind::Cumprod), o.where(first, one, x), ax);
    Var at_before = o.div(reverse_cumsum(o, o.mul(g, y), a.attrs[1]), x_safe);
    Var at_first = reverse_cumsum(o, o.mul(g, y1), a.attrs[1]);
    Var gx = o.where(before, at_before, o.where(first, at_first, o.mul(g, o.scalar(0, g))));
    a.cots[0] = o.like_dtype(o.reshape(gx, xt.shape), x0);
}

}  // namespace

Var zeros_of(GradBuilder& b, const TensorType& t) {
    const DType d = t.dtype;
    return b.apply(op_of(OtherKind::Zeros), {}, {dims(t.shape), d});
}

Var unbroadcast(GradBuilder& b, Var g, const TensorType& to) {
    Ops o{b};
    const TensorType gt = b.type(g);
    if (!(gt.shape == to.shape)) {
        const int extra = gt.shape.rank() - to.shape.rank();
        std::vector<int64_t> axes;
        for (int i = 0; i < gt.shape.rank(); ++i)
            if (i < extra || (to.shape[i - extra] == 1 && gt.shape[i] != 1)) axes.push_back(i);
        // Summing only leading axes gives `to`'s shape directly; otherwise keep
        // the summed axes as 1s and reshape away the leading ones.
        const bool leading_only = !axes.empty() && axes.back() < extra;
        if (!axes.empty()) g = o.reduce(op_of(ReduceKind::Sum), g, axes, !leading_only);
        g = o.reshape(g, to.shape);
    }
    return o.cast(g, to.dtype);
}

void attach_grad_rules(OpRegistry& r) {
    auto vjp = [&](std::string_view name, VjpFn fn) { r.set_grad(name, GradRule{GradRule::Vjp, fn}); };
    auto none = [&](std::string_view name) { r.set_grad(name, GradRule{GradRule::NoGradient, nullptr}); };
#define TG_UNARY_(K, NAME, CLS, DOC)                                              \
    if (UnaryClass::CLS == UnaryClass::Predicate || UnaryKind::K == U::Invert) \
        none(NAME);                                                           \
    else                                                                      \
        vjp(NAME, &vjp_unary<UnaryKind::K>);
    TG_UNARY_OPS(TG_UNARY_)
#undef TG_UNARY_
#define TG_BINARY_(K, NAME, CLS, CHECK, MSG, DOC)                                          \
    if (BinaryClass::CLS == BinaryClass::Compare || BinaryClass::CLS == BinaryClass::Bitwise || BinaryClass::CLS == BinaryClass::Shift) \
        none(NAME);                                                                        \
    else                                                                                   \
        vjp(NAME, &vjp_binary<BinaryKind::K>);
    TG_BINARY_OPS(TG_BINARY_)
#undef TG_BINARY_
#define TG_REDUCE_(K, NAME, DOC)                                                                  \
    if (ReduceKind::K == ReduceKind::Argmax || ReduceKind::K == ReduceKind::Argmin ||             \
        ReduceKind::K == ReduceKind::Any || ReduceKind::K == ReduceKind::All)                     \
        none(NAME);                                                                               \
    else                                                                                          \
        vjp(NAME, &vjp_reduce<ReduceKind::K>);
    TG_REDUCE_OPS(TG_REDUCE_)
#undef TG_REDUCE_
    vjp("where", &vjp_where);
    vjp("clip", &vjp_clip);
    vjp("astype", &vjp_astype);
    vjp("matmul", &vjp_matmul);
    vjp("dot", &vjp_dot);
    vjp("outer", &vjp_outer);
    vjp("softmax", &vjp_softmax);
    vjp("log_softmax", &vjp_log_softmax);
    vjp("cross_entropy", &vjp_cross_entropy);
    vjp("mse", &vjp_mse);
    for (const char* n : {"reshape", "expand_dims", "squeeze", "flatten"}) vjp(n, &vjp_reshape_like);
    vjp("broadcast_to", &vjp_broadcast_to);
    vjp("transpose", &vjp_transpose);
    vjp("concat", &vjp_concat);
    vjp("stack", &vjp_stack);
    vjp("tensor", &vjp_tensor);
    attach_shape_grad_rules(r);
    attach_linalg_grad_rules(r);
    // norm and the scans
    vjp("norm", &vjp_norm);
    vjp("cumsum", &vjp_cumsum);
    vjp("cumprod", &vjp_cumprod);
    // Results that never carry a gradient: made from shapes and numbers,
    // drawn at random, or of integer type whatever the inputs.
    for (const char* n : {"zeros", "ones", "full", "zeros_like", "ones_like", "arange", "linspace", "eye",
                          "random_uniform", "random_normal", "random_int", "one_hot", "_stack_push", "_stack_pop",
                          "_stack_size", "_median_weights"})
        none(n);
}

}  // namespace tg::stdlib
