// The reduction engine. A reduction is planned as "kept" dims (the output,
// row-major) and "reduced" dims; then one of two loop orders runs:
//   A. per output element, over runs of the innermost reduced dim (pairwise
//      summation when that run is contiguous);
//   B. when the innermost kept dim is the contiguous one (sum(axis=0) of a
//      row-major matrix), whole rows are accumulated into a row of
//      accumulators, flushed into f64 every kBlock rows so float error stays blocked.
#include "stdlib/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "stdlib/fastmath.hpp"
#include "stdlib/reduce_runs.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib {

using kern::fail;
using kern::for_each_run;
using kern::visit_dtype;

namespace {

struct Dim {
    int64_t size, stride;
};

// Rows per partial sum in loop order B. f32 sums add this many rows in f32
// (relative error below kBlock * 2^-24 / 2 = 5e-7), then flush into f64.
constexpr int64_t kBlock = 16;
using runs::pairwise_sum;

template <class T> constexpr bool kFloat = std::is_floating_point_v<T>;

// ---- the reduction operators: init, step (fold one element), merge (two
// partial results), run (fold a strided run), finish (to the output dtype).
template <class T, class Self, class AccT>
struct FoldRun {
    using Acc = AccT;
    static Acc run(Acc a, const T* p, int64_t n, int64_t st) {
        for (int64_t i = 0; i < n; ++i) a = Self::step(a, p[i * st]);
        return a;
    }
};

// Float sums accumulate in f64 (f32 inputs too: as fast here, since sums are
// memory bound, and exact enough that the loop order does not show).
template <class T>
using SumAcc = std::conditional_t<kFloat<T>, double, uint64_t>;  // ints wrap

template <class T>
struct SumOp : FoldRun<T, SumOp<T>, SumAcc<T>> {
    using Acc = SumAcc<T>;
    // Loop order B adds kBlock rows in the input's own precision, then into Acc.
    using Block = std::conditional_t<std::is_same_v<T, float>, float, Acc>;
    using Out = std::conditional_t<kFloat<T>, T, int64_t>;
    static Acc init() { return Acc{0}; }
    static Acc step(Acc a, T x) { return a + static_cast<Acc>(x); }
    static Acc merge(Acc a, Acc b) { return a + b; }
    static Acc run(Acc a, const T* p, int64_t n, int64_t st) {
        if (st == 1) return a + pairwise_sum<Acc>(p, n);
        return FoldRun<T, SumOp, Acc>::run(a, p, n, st);
    }
    static Out finish(Acc a, int64_t) { return static_cast<Out>(a); }
};

template <class T>
struct MeanOp {
    using Acc = double;
    using Block = std::conditional_t<std::is_same_v<T, float>, float, Acc>;
    using Out = std::conditional_t<kFloat<T>, T, float>;
    static Acc init() { return Acc{0}; }
    static Acc step(Acc a, T x) { return a + static_cast<Acc>(x); }
    static Acc merge(Acc a, Acc b) { return a + b; }
    static Acc run(Acc a, const T* p, int64_t n, int64_t st) {
        if (st == 1) return a + pairwise_sum<Acc>(p, n);
        for (int64_t i = 0; i < n; ++i) a += static_cast<Acc>(p[i * st]);
        return a;
    }
    static Out finish(Acc a, int64_t count) {
        if (count == 0) return std::numeric_limits<Out>::quiet_NaN();
        return static_cast<Out>(a / static_cast<Acc>(count));
    }
};

template <class T>
struct ProdOp : FoldRun<T, ProdOp<T>, std::conditional_t<kFloat<T>, T, uint64_t>> {
    using Acc = std::conditional_t<kFloat<T>, T, uint64_t>;
    using Out = std::conditional_t<kFloat<T>, T, int64_t>;
    static Acc init() { return Acc{1}; }
    static Acc step(Acc a, T x) { return a * static_cast<Acc>(x); }
    static Acc merge(Acc a, Acc b) { return a * b; }
    static Out finish(Acc a, int64_t) { return static_cast<Out>(a); }
};

// max/min propagate NaN: once the accumulator is NaN it stays NaN.
template <class T>
struct MaxOp : FoldRun<T, MaxOp<T>, T> {
    using Acc = T;
    using Out = T;
    static Acc init() {
        if constexpr (kFloat<T>) return -std::numeric_limits<T>::infinity();
        else if constexpr (std::is_same_v<T, bool>) return false;
        else return std::numeric_limits<T>::lowest();
    }
    static Acc step(Acc a, T x) {
        if constexpr (kFloat<T>) return (a != a || !(x <= a)) ? (a != a ? a : x) : a;
        else return x > a ? x : a;
    }
    static Acc merge(Acc a, Acc b) { return step(a, b); }
    static Acc run(Acc a, const T* p, int64_t n, int64_t st) {
        if (st == 1 && n > 0) return step(a, runs::extreme<true>(p, n));
        return FoldRun<T, MaxOp, Acc>::run(a, p, n, st);
    }
    static Out finish(Acc a, int64_t) { return a; }
};

template <class T>
struct MinOp : FoldRun<T, MinOp<T>, T> {
    using Acc = T;
    using Out = T;
    static Acc init() {
        if constexpr (kFloat<T>) return std::numeric_limits<T>::infinity();
        else if constexpr (std::is_same_v<T, bool>) return true;
        else return std::numeric_limits<T>::max();
    }
    static Acc step(Acc a, T x) {
        if constexpr (kFloat<T>) return (a != a || !(x >= a)) ? (a != a ? a : x) : a;
        else return x < a ? x : a;
    }
    static Acc merge(Acc a, Acc b) { return step(a, b); }
    static Acc run(Acc a, const T* p, int64_t n, int64_t st) {
        if (st == 1 && n > 0) return step(a, runs::extreme<false>(p, n));
        return FoldRun<T, MinOp, Acc>::run(a, p, n, st);
    }
    static Out finish(Acc a, int64_t) { return a; }
};

template <class T>
struct AnyOp : FoldRun<T, AnyOp<T>, bool> {
    using Acc = bool;
    using Out = bool;
    static Acc init() { return false; }
    static Acc step(Acc a, T x) { return a || x != T{}; }
    static Acc merge(Acc a, Acc b) { return a || b; }
    static Out finish(Acc a, int64_t) { return a; }
};

template <class T>
struct AllOp : FoldRun<T, AllOp<T>, bool> {
    using Acc = bool;
    using Out = bool;
    static Acc init() { return true; }
    static Acc step(Acc a, T x) { return a && x != T{}; }
    static Acc merge(Acc a, Acc b) { return a && b; }
    static Out finish(Acc a, int64_t) { return a; }
};

// ---- planning

Shape out_shape(const Shape& in, const std::vector<int>& axes, bool keepdims) {
    Shape s;
    for (int d = 0; d < in.rank(); ++d) {
        bool red = std::find(axes.begin(), axes.end(), d) != axes.end();
        if (!red) s.push_back(in[d]);
        else if (keepdims) s.push_back(1);
    }
    return s;
}

int64_t reduced_count(const Shape& in, const std::vector<int>& axes) {
    int64_t c = 1;
    for (int d : axes) c *= in[d];
    return c;
}

bool needs_elements(ReduceKind k) {
    return k == ReduceKind::Max || k == ReduceKind::Min || k == ReduceKind::Argmax || k == ReduceKind::Argmin;
}

DType result_dtype(ReduceKind k, DType x) {
    switch (k) {
        case ReduceKind::Sum:
        case ReduceKind::Prod: return is_float(x) ? x : DType::I64;
        case ReduceKind::Mean:
        case ReduceKind::Logsumexp:
        case ReduceKind::Var:
        case ReduceKind::Std:
        case ReduceKind::Median: return is_float(x) ? x : DType::F32;
        case ReduceKind::Max:
        case ReduceKind::Min: return x;
        case ReduceKind::Argmax:
        case ReduceKind::Argmin: return DType::I64;
        case ReduceKind::Any:
        case ReduceKind::All: return DType::Bool;
    }
    return x;
}

std::vector<int> axes_for(ReduceKind k, const Attr& axis, int rank) {
    std::string_view fn = reduce_name(k);
    if (k == ReduceKind::Argmax || k == ReduceKind::Argmin) kern::check_one_axis(fn, axis);
    return kern::attr_axes(fn, axis, rank);
}

void check_nonempty(ReduceKind k, const Shape& in, const std::vector<int>& axes) {
    if (!needs_elements(k) || reduced_count(in, axes) != 0) return;
    std::string where = axes.size() == static_cast<size_t>(in.rank()) ? std::string("a tensor")
                                                                        : "axis " + std::to_string(axes[0]) + " of a tensor";
    for (int d : axes)
        if (in[d] == 0 && axes.size() != static_cast<size_t>(in.rank())) where = "axis " + std::to_string(d) + " of a tensor";
    fail(reduce_name(k), "cannot reduce " + where + " of shape " + in.to_string() +
                             " with no elements (there is no identity)");
}

struct Plan {
    std::vector<Dim> kept;     // logical order, size-1 dims dropped
    std::vector<Dim> reduced;  // innermost (smallest stride) last, coalesced
    int64_t count = 1;
};

Plan make_plan(const Tensor& x, const std::vector<int>& axes) {
    Plan p;
    for (int d = 0; d < x.rank(); ++d) {
        bool red = std::find(axes.begin(), axes.end(), d) != axes.end();
        Dim dim{x.shape()[d], x.strides()[d]};
        if (red) p.count *= dim.size;
        if (dim.size == 1) continue;
        (red ? p.reduced : p.kept).push_back(dim);
    }
    std::stable_sort(p.reduced.begin(), p.reduced.end(), [](const Dim& a, const Dim& b) {
        return std::abs(a.stride) > std::abs(b.stride);
    });
    std::vector<Dim> merged;
    for (const Dim& d : p.reduced) {
        if (!merged.empty() && merged.back().stride == d.stride * d.size) {
            merged.back() = {merged.back().size * d.size, d.stride};
        } else {
            merged.push_back(d);
        }
    }
    p.reduced = merged;
    return p;
}

void to_shape(const std::vector<Dim>& dims, size_t n, Shape& shape, Strides& strides) {
    for (size_t i = 0; i < n; ++i) {
        shape.push_back(dims[i].size);
        strides.push_back(dims[i].stride);
    }
}

template <class Op>
struct BlockOf {
    using type = typename Op::Acc;
};
template <class Op>
    requires requires { typename Op::Block; }
struct BlockOf<Op> {
    using type = typename Op::Block;
};

template <class T, class Op>
void run_reduce(const Tensor& x, const Plan& plan, typename Op::Out* out) {
    using Acc = typename Op::Acc;
    const T* px = x.data<T>();
    Shape rshape, rstrides;
    to_shape(plan.reduced, plan.reduced.size(), rshape, rstrides);
    const bool rows = !plan.kept.empty() && plan.kept.back().stride == 1 && !plan.reduced.empty() &&
                      plan.reduced.back().stride != 1;
    Shape kshape, kstrides;
    to_shape(plan.kept, rows ? plan.kept.size() - 1 : plan.kept.size(), kshape, kstrides);
    int64_t o = 0;
    if (!rows) {  // A
        for_each_run(kshape, kstrides, [&](int64_t off, int64_t n, int64_t st) {
            for (int64_t j = 0; j < n; ++j) {
                const T* base = px + off + j * st;
                Acc acc = Op::init();
                for_each_run(rshape, rstrides, [&](int64_t roff, int64_t rn, int64_t rst) {
                    acc = Op::run(acc, base + roff, rn, rst);
                });
                out[o++] = Op::finish(acc, plan.count);
            }
        });
        return;
    }
    // B: accumulate rows of m contiguous elements; sums add kBlock rows in a
    // Block accumulator (f32 for f32 sums: half the memory traffic), then
    // flush into the Acc totals.
    using Blk = typename BlockOf<Op>::type;
    const int64_t m = plan.kept.back().size;
    std::unique_ptr<Blk[]> acc_buf(new Blk[m]);  // (not std::vector: vector<bool> has no data())
    std::unique_ptr<Acc[]> total_buf(new Acc[m]);
    Blk* acc = acc_buf.get();
    Acc* total = total_buf.get();
    const Blk blk_init = static_cast<Blk>(Op::init());
    for_each_run(kshape, kstrides, [&](int64_t off, int64_t n, int64_t st) {
        for (int64_t j = 0; j < n; ++j) {
            const T* base = px + off + j * st;
            std::fill(total, total + m, Op::init());
            std::fill(acc, acc + m, blk_init);
            int64_t k = 0;
            for_each_run(rshape, rstrides, [&](int64_t roff, int64_t rn, int64_t rst) {
                for (int64_t t = 0; t < rn; ++t) {
                    const T* q = base + roff + t * rst;
                    if constexpr (std::is_same_v<Blk, Acc>) {
                        for (int64_t c = 0; c < m; ++c) acc[c] = Op::step(acc[c], q[c]);
                    } else {
                        for (int64_t c = 0; c < m; ++c) acc[c] += static_cast<Blk>(q[c]);
                    }
                    if (++k == kBlock) {
                        for (int64_t c = 0; c < m; ++c) total[c] = Op::merge(total[c], static_cast<Acc>(acc[c]));
                        std::fill(acc, acc + m, blk_init);
                        k = 0;
                    }
                }
            });
            for (int64_t c = 0; c < m; ++c)
                out[o++] = Op::finish(Op::merge(total[c], static_cast<Acc>(acc[c])), plan.count);
        }
    });
}

template <template <class> class OpT>
Tensor reduce_with(const Tensor& x, const std::vector<int>& axes, bool keepdims, DType out_dtype) {
    Tensor out = Tensor::empty(out_dtype, out_shape(x.shape(), axes, keepdims));
    if (out.numel() == 0) return out;
    Plan plan = make_plan(x, axes);
    visit_dtype(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        using Op = OpT<T>;
        run_reduce<T, Op>(x, plan, out.data<typename Op::Out>());
    });
    return out;
}

// argmax / argmin: index of the first extreme in row-major order over the
// reduced dims (logical order, not memory order); the first NaN wins.
template <class T, bool Max>
bool better(T x, T best) {
    if constexpr (kFloat<T>) {
        if (best != best) return false;
        if (x != x) return true;
    }
    if constexpr (Max) return x > best;
    else return x < best;
}

template <bool Max>
Tensor arg_reduce(const Tensor& x, const std::vector<int>& axes, bool keepdims) {
    Tensor out = Tensor::empty(DType::I64, out_shape(x.shape(), axes, keepdims));
    if (out.numel() == 0) return out;
    Shape kshape, kstrides, rshape, rstrides;
    for (int d = 0; d < x.rank(); ++d) {
        bool red = std::find(axes.begin(), axes.end(), d) != axes.end();
        (red ? rshape : kshape).push_back(x.shape()[d]);
        (red ? rstrides : kstrides).push_back(x.strides()[d]);
    }
    if (kshape.rank() == 0 && x.is_contiguous()) {  // all axes of a contiguous tensor: one run
        rshape = Shape{x.numel()};
        rstrides = Strides{1};
    }
    int64_t* po = out.data<int64_t>();
    visit_dtype(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* px = x.data<T>();
        int64_t o = 0;
        for_each_run(kshape, kstrides, [&](int64_t off, int64_t n, int64_t st) {
            for (int64_t j = 0; j < n; ++j) {
                const T* base = px + off + j * st;
                if (rshape.rank() == 1 && rstrides[0] == 1) {
                    // Contiguous: the extreme (vectorized), then its first occurrence.
                    const int64_t len = rshape[0];
                    const T m = runs::extreme<Max>(base, len);
                    int64_t i = 0;
                    if constexpr (kFloat<T>) {
                        if (m != m) {
                            while (base[i] == base[i]) ++i;
                            po[o++] = i;
                            continue;
                        }
                    }
                    while (base[i] != m) ++i;
                    po[o++] = i;
                    continue;
                }
                int64_t idx = 0, best_idx = -1;
                T best{};
                for_each_run(rshape, rstrides, [&](int64_t roff, int64_t rn, int64_t rst) {
                    for (int64_t t = 0; t < rn; ++t, ++idx) {
                        T v = base[roff + t * rst];
                        if (best_idx < 0 || better<T, Max>(v, best)) {
                            best = v;
                            best_idx = idx;
                        }
                    }
                });
                po[o++] = best_idx;
            }
        });
    });
    return out;
}

// logsumexp, as scipy.special.logsumexp: m = max (0 where not finite),
// log(sum(exp(x - m))) + m.
template <class T>
Tensor logsumexp_float(const Tensor& x, const std::vector<int>& axes, bool keepdims) {
    Tensor out = Tensor::empty(x.dtype(), out_shape(x.shape(), axes, keepdims));
    if (out.numel() == 0) return out;
    T* po = out.data<T>();
    if (reduced_count(x.shape(), axes) == 0) {
        for (int64_t i = 0; i < out.numel(); ++i) po[i] = -std::numeric_limits<T>::infinity();
        return out;
    }
    // Fast path: trailing axes of a contiguous tensor are contiguous lanes.
    bool trailing = x.is_contiguous();
    for (size_t i = 0; i < axes.size(); ++i)
        trailing = trailing && axes[axes.size() - 1 - i] == x.rank() - 1 - static_cast<int>(i);
    if (trailing) {
        const int64_t len = reduced_count(x.shape(), axes), lanes = out.numel();
        const T* px = x.data<T>();
        std::vector<T> buf(static_cast<size_t>(len));
        for (int64_t o = 0; o < lanes; ++o) {
            const T* lane = px + o * len;
            T m = runs::extreme<true>(lane, len);
            if (!std::isfinite(m)) m = T{0};
            for (int64_t j = 0; j < len; ++j) buf[j] = fastmath::exp(lane[j] - m);
            po[o] = fastmath::log(static_cast<T>(runs::pairwise_sum<double>(buf.data(), len))) + m;
        }
        return out;
    }
    Tensor m = reduce_with<MaxOp>(x, axes, true, x.dtype());
    T* pm = m.data<T>();
    for (int64_t i = 0; i < m.numel(); ++i)
        if (!std::isfinite(pm[i])) pm[i] = T{0};
    Tensor mb = kern::broadcast_view("logsumexp", m, x.shape());
    Tensor e = Tensor::empty(x.dtype(), x.shape());
    T* pe = e.data<T>();
    const T* px = x.data<T>();
    const T* pmb = mb.data<T>();
    // Walk x and the broadcast max together, writing e contiguously.
    Shape shape = x.shape();
    Strides xs = x.strides(), ms = mb.strides();
    int64_t idx[kMaxRank] = {};
    int r = shape.rank();
    int64_t xo = 0, mo = 0, total = x.numel();
    for (int64_t i = 0; i < total; ++i) {
        pe[i] = fastmath::exp(px[xo] - pmb[mo]);
        for (int d = r - 1; d >= 0; --d) {
            xo += xs[d];
            mo += ms[d];
            if (++idx[d] < shape[d]) break;
            xo -= xs[d] * shape[d];
            mo -= ms[d] * shape[d];
            idx[d] = 0;
        }
    }
    Tensor s = reduce_with<SumOp>(e, axes, keepdims, x.dtype());
    const T* ps = s.data<T>();
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = fastmath::log(ps[i]) + pm[i];
    return out;
}

}  // namespace

std::string_view reduce_name(ReduceKind k) { return kReduceNames[static_cast<int>(k)]; }

TensorType reduce_type(ReduceKind k, const TensorType& x, const Attr& axis, bool keepdims) {
    std::vector<int> axes = axes_for(k, axis, x.shape.rank());
    check_nonempty(k, x.shape, axes);
    return {result_dtype(k, x.dtype), out_shape(x.shape, axes, keepdims), false};
}

Tensor reduce(ReduceKind k, const Tensor& x0, const Attr& axis, bool keepdims, double ddof) {
    Tensor x = kern::strong(x0);
    std::vector<int> axes = axes_for(k, axis, x.rank());
    check_nonempty(k, x.shape(), axes);
    DType out = result_dtype(k, x.dtype());
    switch (k) {
        case ReduceKind::Sum: return reduce_with<SumOp>(x, axes, keepdims, out);
        case ReduceKind::Mean: return reduce_with<MeanOp>(x, axes, keepdims, out);
        case ReduceKind::Max: return reduce_with<MaxOp>(x, axes, keepdims, out);
        case ReduceKind::Min: return reduce_with<MinOp>(x, axes, keepdims, out);
        case ReduceKind::Prod: return reduce_with<ProdOp>(x, axes, keepdims, out);
        case ReduceKind::Any: return reduce_with<AnyOp>(x, axes, keepdims, out);
        case ReduceKind::All: return reduce_with<AllOp>(x, axes, keepdims, out);
        case ReduceKind::Argmax: return arg_reduce<true>(x, axes, keepdims);
        case ReduceKind::Argmin: return arg_reduce<false>(x, axes, keepdims);
        case ReduceKind::Logsumexp: {
            Tensor xf = cast(x, out);
            if (out == DType::F64) return logsumexp_float<double>(xf, axes, keepdims);
            return logsumexp_float<float>(xf, axes, keepdims);
        }
        case ReduceKind::Var:
        case ReduceKind::Std:
        case ReduceKind::Median: return reduce_stat(k, x, axes, keepdims, ddof);
    }
    fail("reduce", "unknown reduction");
}

}  // namespace tg::stdlib
