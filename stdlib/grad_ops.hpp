// The ops gradient rules are written in (stdlib/grad.hpp), applied through a
// GradBuilder by kind, with the attributes each takes: shared by
// grad_rules_shape.cpp and grad_rules_linalg.cpp.
#pragma once

#include <array>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "stdlib/grad.hpp"

namespace tg::stdlib {

namespace grad_ops {
inline std::vector<int64_t> dims(const Shape& s) { return {s.begin(), s.end()}; }
inline bool want(const VjpArgs& a, size_t i) { return i < a.wanted.size() && a.wanted[i]; }
}  // namespace grad_ops

struct GradOps {
    using Var = GradVar;
    GradBuilder& b;

    Var apply1(const OpDef& op, Var x, std::vector<Attr> attrs) {
        attrs.insert(attrs.begin(), std::monostate{});
        return b.apply(op, std::span<const Var>(&x, 1), std::move(attrs));
    }
    Var apply2(const OpDef& op, Var x, Var y, std::vector<Attr> attrs = {}) {
        Var in[2] = {x, y};
        attrs.insert(attrs.begin(), 2, std::monostate{});
        return b.apply(op, in, std::move(attrs));
    }
    Var bin(BinaryKind k, Var x, Var y) { return b.apply(binary_op(k), std::array<Var, 2>{x, y}, {}); }
    Var add(Var x, Var y) { return bin(BinaryKind::Add, x, y); }
    Var sub(Var x, Var y) { return bin(BinaryKind::Sub, x, y); }
    Var mul(Var x, Var y) { return bin(BinaryKind::Mul, x, y); }
    Var div(Var x, Var y) { return bin(BinaryKind::Div, x, y); }
    Var neg(Var x) { return apply1(op_of(UnaryKind::Neg), x, {}); }
    Var reshape(Var x, const Shape& s) {
        if (b.type(x).shape == s) return x;
        return apply1(op_of(OtherKind::Reshape), x, {grad_ops::dims(s)});
    }
    Var sum(Var x, int64_t axis) { return apply1(op_of(ReduceKind::Sum), x, {std::vector<int64_t>{axis}, false}); }
    Var cast(Var x, DType d) {
        if (b.type(x).dtype == d && !b.type(x).weak) return x;
        return apply1(op_of(ElementwiseKind::AsType), x, {d});
    }
    Var matmul(Var x, Var y) { return apply2(op_of(OtherKind::Matmul), x, y); }
    // take's transpose: g's idx-shaped block at `axis` summed into n positions
    Var take_adjoint(Var g, Var idx, int64_t n, int axis) {
        const TensorType gt = b.type(g);
        Shape out;
        for (int d = 0; d < axis; ++d) out.push_back(gt.shape[d]);
        out.push_back(n);
        for (int d = axis + b.type(idx).shape.rank(); d < gt.shape.rank(); ++d) out.push_back(gt.shape[d]);
        Var in[3] = {zeros_of(b, TensorType{gt.dtype, out, false}), idx, g};
        return b.apply(op_of(OtherKind::ScatterAdd), in, {std::monostate{}, std::monostate{}, std::monostate{}, int64_t{axis}});
    }
    // x with its last two axes swapped
    Var swap_last(Var x) {
        const int r = b.type(x).shape.rank();
        std::vector<int64_t> perm(static_cast<size_t>(r));
        std::iota(perm.begin(), perm.end(), 0);
        std::swap(perm[size_t(r - 1)], perm[size_t(r - 2)]);
        return apply1(op_of(OtherKind::Transpose), x, {perm});
    }
};

}  // namespace tg::stdlib
