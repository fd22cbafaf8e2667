// Reductions fused with their producers: a group of element-wise nodes whose
// value only a reduction reads is computed inside the reduction, in exactly
// the stdlib's order (stdlib/reduce.cpp, stdlib/reduce_runs.hpp), so the
// result is bit-identical to eager's and no buffer holds the value.
#include <algorithm>
#include <array>
#include <limits>

#include "codegen/lowerer.hpp"
#include "codegen/native_ops.hpp"

namespace tg::codegen::detail {

// ---- which reductions fuse
// A reduction whose row (native_ops.cpp) says fused — sum, mean, max, min,
// prod, any, all — of a value of the open group that nothing else reads:
//   Full  over all elements (a 0-d result);
//   Rows  over the last axis: the stdlib reduces each contiguous row on its
//         own exactly as it reduces a whole 1-d tensor;
//   Cols  over axis 0 of a 2-d value [R, m] (R >= 2, 2 <= m <= kMaxColumns:
//         its accumulators live on the stack): the stdlib's loop order B,
//         rows added into m accumulators (run_reduce).
constexpr int64_t kMaxColumns = 4096;
// Ranges of columns on the thread pool start at multiples of this many
// columns (16 f32 lanes of a 512-bit vector): each row's part of a range is
// whole vectors, not a remainder loop.
constexpr int64_t kColumnAlign = 16;

Lowerer::ReduceSpan Lowerer::reduction_span(const Node& node, bool standalone) const {
    ReduceSpan none;
    if (node.op != Op::Apply) return none;
    const auto* kind = std::get_if<stdlib::ReduceKind>(&node.def->kind);
    if (!kind || !reduce_lowering(*kind) || !reduce_lowering(*kind)->fused) return none;
    if (!tensor(node.operands[0]) || (!standalone && users_[node.operands[0]].size() != 1) || node.attrs.size() < 3)
        return none;
    // a dynamic axis 0 at its planned size (then rows or all elements are counted at run time: `sym`)
    const Shape in = plan_shape(node.operands[0]);
    const int rank = in.rank();
    const int sym = g_.dim_symbol(node.operands[0], 0);
    if (in.numel() < 1) return none;
    const stdlib::Attr& axis = node.attrs[1];
    const bool all = std::holds_alternative<std::monostate>(axis);
    const bool one = std::holds_alternative<int64_t>(axis);
    const int64_t ax = one ? std::get<int64_t>(axis) : 0;
    const bool last = one && (ax == -1 || ax == rank - 1);
    if (scalar(node.results[0])) {
        if (all || (rank == 1 && last)) return {ReduceSpan::Full, 1, in.numel(), sym};
        return none;
    }
    if (standalone) return none;  // standalone: all elements of a static value only (below)
    if (rank >= 2 && last) return {ReduceSpan::Rows, in.numel() / in[rank - 1], in[rank - 1], sym};
    if (rank == 2 && one && (ax == 0 || ax == -2) && in[0] >= 2 && in[1] >= 2 && in[1] <= kMaxColumns)
        return {ReduceSpan::Cols, in[0], in[1], sym};
    return none;
}

// Element strides of each operand the group addresses (inputs, then
// outputs) over the 2-d loop [R, m] of a rank-2 value: broadcast dims have
// stride 0. Empty if some operand has a higher rank.
std::vector<std::array<int64_t, 2>> Lowerer::grid_strides(const GroupPlan& P, int64_t R, int64_t m) const {
    std::vector<std::array<int64_t, 2>> st;
    std::vector<ValueId> addressed = P.inputs;
    addressed.insert(addressed.end(), P.outputs.begin(), P.outputs.end());
    for (ValueId v : addressed) {
        const Shape s = plan_shape(v);
        if (s.rank() > 2) return {};
        const int64_t d1 = s.rank() >= 1 ? s[s.rank() - 1] : 1, d0 = s.rank() == 2 ? s[0] : 1;
        st.push_back({(d0 == 1 && R != 1) ? 0 : d1, (d1 == 1 && m != 1) ? 0 : 1});
    }
    return st;
}

// What the steps of one fused reduction share (emit_reduced_group): the
// reduction, how the helper addresses the group's elements, the types it
// accumulates in, and the helper's name and parameters.
struct Lowerer::FusedReduce {
    FusedReduce(const std::vector<NodeId>& group, ReduceSpan s, const Node& reduction, GroupPlan plan)
        : members(group),
          span(s),
          kind(std::get<stdlib::ReduceKind>(reduction.def->kind)),
          v(reduction.operands[0]),
          out(reduction.results[0]),
          P(std::move(plan)) {}

    const std::vector<NodeId>& members;
    ReduceSpan span;
    stdlib::ReduceKind kind;
    ValueId v, out;  // the reduced value; the reduction's result
    GroupPlan P;
    // Per addressed operand, element strides over v's rows and columns
    // (grid_strides); empty: a flat loop.
    std::vector<std::array<int64_t, 2>> grid;
    std::string cols;  // the length of v's rows (the divisor of a flat index)
    bool mean = false, extreme = false, prod = false, logical = false;
    Ty vt = Ty::F32, acc = Ty::F32, ot = Ty::F32;  // v's type, the helper's accumulating type, the result's
    std::string A;                                   // llvm_ty(acc)
    // Set as the reduction is emitted:
    std::vector<std::string> ptr;   // the group's pointers, in the caller
    std::vector<std::string> lptr;  // the same in the helper (%p0, %p1, ...)
    std::string dst;                // the result's buffer (not 0-d)
    Captures cap;
    std::string fn;       // the helper, @redN
    std::string params;   // its parameters before the span's, also its arguments when it calls itself
    std::string row_n;    // Full and Rows: the elements of one row (an i64 operand)
    std::string divisor;  // mean's

    int64_t per() const { return static_cast<int64_t>(members.size()) + 1; }  // element operations per element
    int64_t work() const { return P.numel * per(); }
    // the pointers of a range of rows or columns on the thread pool: the group's, then the result's
    std::vector<std::string> with_dst() const {
        std::vector<std::string> p = ptr;
        p.push_back(dst);
        return p;
    }
    // How a 0-d result splits over the thread pool (emit_scalar_reduction).
    bool sum_split() const { return !extreme && !prod && !logical; }
    bool fold_split() const { return logical || (prod && acc == Ty::I64) || (extreme && acc == Ty::B); }
    bool extreme_split() const { return extreme && acc != Ty::B; }
};

// Emits the group with `red` (a reduction of one of its results: `span`)
// computed inside it, in a helper function of its own. Full and Rows: the
// helper `@redN(ctx, pointers..., scalars..., i64 %a, i64 %n)` reduces the
// n elements from flat index a (emit_pairwise_sum / emit_extreme /
// emit_fold), called once per row. Cols: `@redN(..., ptr %dst[, i64 %R],
// i64 %clo, i64 %chi)` computes the results of the columns [clo, chi)
// (emit_columns). False (nothing emitted) when the group's
// operands cannot be addressed that way.
bool Lowerer::emit_reduced_group(const std::vector<NodeId>& members, NodeId red, ReduceSpan span) {
    std::optional<FusedReduce> planned = plan_reduced_group(members, red, span);
    if (!planned) return false;
    FusedReduce& r = *planned;
    count_group(members);
    ++stats_.native_nodes;
    ++stats_.fused_reductions;
    r.ptr = group_pointers(r.P);
    if (!scalar(r.out)) {  // the reduction's (fresh) buffer
        r.dst = b_.def("call ptr @tg_rt_out(ptr %ctx, i32 " + id(r.out) + ")");
        b_.fail_if(b_.def("icmp eq ptr " + r.dst + ", null"));
    }
    r.cap = captures(members, r.ptr);
    r.fn = "@red" + std::to_string(next_global_++);
    define_reduction_helper(r);
    if (span.kind == ReduceSpan::Cols) {
        emit_column_results(r);
        return true;
    }
    // The elements of one row (Full: of all; counted at run time when the value is dynamic)
    r.row_n = span.kind == ReduceSpan::Full ? extent(span.cols, span.sym) : std::to_string(span.cols);
    // mean's divisor: static_cast<double>(count), as the stdlib's MeanOp::finish
    if (r.mean)
        r.divisor = span.kind == ReduceSpan::Full && span.sym >= 0 ? b_.def("sitofp i64 " + r.row_n + " to double")
                                                                   : float_lit(static_cast<double>(span.cols));
    if (scalar(r.out))
        reg_[r.out] = finish_reduction(r, emit_scalar_reduction(r));
    else
        emit_row_results(r);
    return true;
}

// The reduction of `members` by `red` over `span`, if the helper can address
// the group's operands: Full needs a flat loop; Rows and Cols address a
// rank-2 value by row and column (any broadcasting), higher ranks only
// through a flat loop.
std::optional<Lowerer::FusedReduce> Lowerer::plan_reduced_group(const std::vector<NodeId>& members, NodeId red,
                                                                ReduceSpan span) const {
    using stdlib::ReduceKind;
    const Node& rnode = g_.node(red);
    FusedReduce r(members, span, rnode, plan_group(members, rnode.operands[0]));
    if (r.P.numel != span.rows * span.cols) return std::nullopt;
    const bool flat = r.P.dims.size() == 1;
    const Shape vshape = plan_shape(r.v);
    if (vshape.rank() == 2 && (span.kind != ReduceSpan::Full || !flat)) {
        r.grid = grid_strides(r.P, vshape[0], vshape[1]);
        if (r.grid.empty()) return std::nullopt;
    } else if (!flat || span.kind == ReduceSpan::Cols) {
        return std::nullopt;
    }
    r.cols = std::to_string(vshape.rank() == 2 ? vshape[1] : span.cols);
    r.mean = r.kind == ReduceKind::Mean;
    r.extreme = r.kind == ReduceKind::Max || r.kind == ReduceKind::Min;
    r.prod = r.kind == ReduceKind::Prod;
    r.logical = r.kind == ReduceKind::Any || r.kind == ReduceKind::All;
    r.vt = ty(r.v);
    r.acc = r.extreme ? r.vt
            : r.logical ? Ty::B
            : r.prod ? (is_float_ty(r.vt) ? r.vt : Ty::I64)
            : (r.mean || is_float_ty(r.vt)) ? Ty::F64
                                            : Ty::I64;
    r.A = llvm_ty(r.acc);
    r.ot = ty(r.out);
    return r;
}

// Defines the helper r.fn: `A @redN(ptr %ctx, ptr %p0..., T %s0..., i64 %a,
// i64 %n)` (Full, Rows) or `void @redN(..., ptr %dst[, i64 %R], i64 %clo,
// i64 %chi)` (Cols). While its body is written, the 0-d values the members
// read are its parameters %sK.
void Lowerer::define_reduction_helper(FusedReduce& r) {
    const std::vector<ValueId>& scalars = r.cap.scalars;
    r.params = "ptr %ctx";
    for (size_t k = 0; k < r.ptr.size(); ++k) {
        r.params += ", ptr %p" + std::to_string(k);
        r.lptr.push_back("%p" + std::to_string(k));
    }
    std::vector<std::string> saved(scalars.size());
    for (size_t k = 0; k < scalars.size(); ++k) {
        r.params += ", " + std::string(llvm_ty(ty(scalars[k]))) + " %s" + std::to_string(k);
        saved[k] = reg_[scalars[k]];
        reg_[scalars[k]] = "%s" + std::to_string(k);
    }
    IrBuilder h;
    std::swap(b_, h);  // element code goes into the helper
    emit_reduction_helper_body(r);
    std::swap(b_, h);
    for (size_t k = 0; k < scalars.size(); ++k) reg_[scalars[k]] = saved[k];
    const bool cols = r.span.kind == ReduceSpan::Cols, dyn_rows = cols && r.span.sym >= 0;
    define_helper((cols ? std::string("void") : r.A) + " " + r.fn + "(" + r.params +
                      (cols ? (dyn_rows ? ", ptr %dst, i64 %R, i64 %clo, i64 %chi" : ", ptr %dst, i64 %clo, i64 %chi")
                            : ", i64 %a, i64 %n") +
                      ")",
                  h);
}

// The helper's body: emit_columns (Cols); for Full and Rows, the stdlib's
// order for the kind (emit_extreme, emit_fold, emit_pairwise_sum) over the
// span's elements.
void Lowerer::emit_reduction_helper_body(const FusedReduce& r) {
    using stdlib::ReduceKind;
    if (r.span.kind == ReduceSpan::Cols) {
        // a dynamic number of rows is the helper's argument %R
        emit_columns(r.kind, r.vt, r.ot, r.span.sym < 0 ? std::to_string(r.span.rows) : "%R", r.span.cols, "%clo", "%chi",
                     [&](const std::string& t, const std::string& c) { return reduced_element(r, t, c, "0").first; });
        return;
    }
    auto elem_at = [&](const std::string& i) { return span_element(r, i); };
    if (r.extreme) {
        emit_extreme(r.A, r.acc, r.kind == ReduceKind::Max, elem_at);
    } else if (r.prod) {
        emit_fold(r.A, r.acc == Ty::I64 ? "1" : "1.0", r.acc == Ty::I64 ? "mul" : "fmul", elem_at);
    } else if (r.logical) {
        emit_fold(r.A, r.kind == ReduceKind::Any ? "false" : "true", r.kind == ReduceKind::Any ? "or" : "and", elem_at);
    } else {
        emit_pairwise_sum(r.A, r.acc, r.fn, r.params, elem_at);
    }
}

// In the helper: the element of v at row t, column c (grid), or at flat index f.
std::pair<std::string, Ty> Lowerer::reduced_element(const FusedReduce& r, const std::string& t, const std::string& c,
                                                    const std::string& f) {
    auto e = group_elements(r.members, r.P, r.lptr, [&](size_t k) -> std::string {
        if (r.grid.empty()) return r.P.strides[k][0] == 0 ? std::string("0") : f;  // flat: stride 1 or 0
        std::string off = "0";
        if (r.grid[k][0]) off = b_.def("mul i64 " + t + ", " + std::to_string(r.grid[k][0]));
        if (r.grid[k][1]) {
            const std::string cc = r.grid[k][1] == 1 ? c : b_.def("mul i64 " + c + ", " + std::to_string(r.grid[k][1]));
            off = off == "0" ? cc : b_.def("add i64 " + off + ", " + cc);
        }
        return off;
    });
    return e.at(r.v);
}

// In the helper (Full / Rows): the element at index a + i of its span, as
// the accumulating type.
std::string Lowerer::span_element(const FusedReduce& r, const std::string& i) {
    std::string t = "0", c = "0", f = "0";
    if (r.grid.empty()) {
        f = b_.def("add i64 %a, " + i);
    } else if (r.span.kind == ReduceSpan::Full) {  // a + i may cross rows
        const std::string g = b_.def("add i64 %a, " + i);
        t = b_.def("udiv i64 " + g + ", " + r.cols);
        c = b_.def("urem i64 " + g + ", " + r.cols);
    } else {  // a = t * m (+ an offset within the row, in a pairwise half)
        t = b_.def("udiv i64 %a, " + r.cols);
        c = b_.def("add i64 " + b_.def("urem i64 %a, " + r.cols) + ", " + i);
    }
    const auto [x, ty_x] = reduced_element(r, t, c, f);
    if (r.extreme) return x;
    if (r.logical) {  // x != 0 (NaN counts as true)
        if (ty_x == Ty::B) return x;
        return b_.def(is_float_ty(ty_x) ? std::string("fcmp une ") + llvm_ty(ty_x) + " " + x + ", 0.0"
                                        : std::string("icmp ne ") + llvm_ty(ty_x) + " " + x + ", 0");
    }
    if (r.prod && is_float_ty(ty_x)) return x;
    std::string y = b_.convert(x, ty_x, r.acc == Ty::F64 ? Ty::F64 : (ty_x == Ty::B ? Ty::B : Ty::I64));
    if (r.acc == Ty::I64 && r.vt == Ty::B) y = b_.def("zext i1 " + y + " to i64");  // static_cast<u64>(bool)
    return y;
}

// The helper's arguments before (a, n) / dst, in the caller or in an
// outlined function (where the 0-d values' registers are its loads).
std::string Lowerer::reduction_args(const FusedReduce& r, const std::string& ctx, const std::vector<std::string>& p) {
    std::string args = "ptr " + ctx;
    for (size_t k = 0; k < r.ptr.size(); ++k) args += ", ptr " + p[k];
    for (ValueId s : r.cap.scalars) args += std::string(", ") + llvm_ty(ty(s)) + " " + reg_[s];
    return args;
}

// `range(ctx, p, begin, end)` over [0, n) — independent rows or columns —
// outlined as `@redN<suffix>(env, begin, end)` and split over the thread pool
void Lowerer::emit_on_pool(const FusedReduce& r, const std::string& suffix, const std::string& n,
                           const std::string& grain, int64_t align, const RangeBody& range) {
    ++stats_.parallel_loops;
    Captures cap = r.cap;
    cap.ptrs = r.with_dst();
    const std::string part_fn = r.fn + suffix;
    const std::string env = outline("void " + part_fn + "(ptr %env, i64 %begin, i64 %end)", cap,
                                    [&](const std::string& ctx, const std::vector<std::string>& p) {
                                        range(ctx, p, "%begin", "%end");
                                        b_.emit("ret void");
                                    });
    b_.emit("call void @tg_rt_parallel(ptr %ctx, ptr " + part_fn + ", ptr " + env + ", i64 " + n + ", i64 " + grain +
            ", i64 " + std::to_string(align) + ")");
}

// Cols: the helper over all columns, or over ranges of columns on the
// thread pool — each column is reduced on its own, in the stdlib's order.
void Lowerer::emit_column_results(const FusedReduce& r) {
    const bool dyn_rows = r.span.sym >= 0;
    // the columns [lo, hi)
    auto columns = [&](const std::string& ctx, const std::vector<std::string>& p, const std::string& R,
                       const std::string& lo, const std::string& hi) {
        b_.emit("call void " + r.fn + "(" + reduction_args(r, ctx, p) + ", ptr " + p.back() +
                (dyn_rows ? ", i64 " + R : "") + ", i64 " + lo + ", i64 " + hi + ")");
    };
    const std::string R = extent(r.span.rows, r.span.sym);
    const std::string M = std::to_string(r.span.cols);
    // (a dynamic number of rows always goes through tg_rt_parallel, which runs few columns inline)
    if (!dyn_rows && r.work() < 2 * kChunkWork) {
        columns("%ctx", r.with_dst(), R, "0", M);
        return;
    }
    // many rows: ranges of columns on the thread pool, at least kChunkWork element operations each
    const std::string per_col = b_.def("mul i64 " + R + ", " + std::to_string(r.per()));
    const std::string grain = b_.def("udiv i64 " + b_.def("add i64 " + per_col + ", " + std::to_string(kChunkWork - 1)) +
                                     ", " + per_col);  // ceil(kChunkWork / per_col)
    emit_on_pool(r, "cols", M, grain, kColumnAlign,
                 [&](const std::string& ctx, const std::vector<std::string>& p, const std::string& lo, const std::string& hi) {
                     // a dynamic R (axis 0 of [R, m]: the symbol's size) is read again in the outlined function
                     columns(ctx, p,
                             dyn_rows ? b_.def("call i64 @tg_rt_dim(ptr " + ctx + ", i32 " + std::to_string(r.span.sym) + ")")
                                      : R,
                             lo, hi);
                 });
}

// The reduction's result from the helper's value x for one row.
std::string Lowerer::finish_reduction(const FusedReduce& r, const std::string& x) {
    if (r.extreme || r.prod || r.logical) return x;  // already the result (prod of ints: the u64 product is the i64 one)
    std::string total = b_.def((r.acc == Ty::F64 ? "fadd double 0.0, " : "add i64 0, ") + x);
    if (r.mean) total = b_.def("fdiv double " + total + ", " + r.divisor);
    return r.acc == Ty::F64 ? b_.convert(total, Ty::F64, r.ot) : total;
}

// A 0-d result (Full): the helper's value over all elements.
std::string Lowerer::emit_scalar_reduction(const FusedReduce& r) {
    // Large ones on the thread pool, where the split cannot change the
    // result: sums split the pairwise tree; exact associative folds (or,
    // and, wrapping integer products) split into chunks combined in
    // order; max / min of numbers split into chunks whose extremes combine
    // by eager's rule (tg_rt_extreme_*). Float products stay on one thread.
    auto direct = [&] {
        return b_.def("call " + r.A + " " + r.fn + "(" + reduction_args(r, "%ctx", r.ptr) + ", i64 0, i64 " + r.row_n + ")");
    };
    if (!r.sum_split() && !r.fold_split() && !r.extreme_split()) return direct();
    if (r.span.sym < 0) return r.work() >= 2 * kChunkWork ? emit_split_reduction(r) : direct();
    // known at run time: the same choice, made then
    const int64_t per = r.per();
    const std::string big = b_.def("icmp sge i64 " + r.row_n + ", " + std::to_string((2 * kChunkWork + per - 1) / per));
    const std::string lbig = b_.label("redbig"), lsmall = b_.label("redsmall"), lm = b_.label("redmerge");
    b_.emit("br i1 " + big + ", label %" + lbig + ", label %" + lsmall);
    b_.start(lbig);
    const std::string r1 = emit_split_reduction(r), e1 = b_.block;
    b_.emit("br label %" + lm);
    b_.start(lsmall);
    const std::string r2 = direct(), e2 = b_.block;
    b_.emit("br label %" + lm);
    b_.start(lm);
    return b_.def("phi " + r.A + " [" + r1 + ", %" + e1 + "], [" + r2 + ", %" + e2 + "]");
}

// A 0-d result computed on the thread pool: the helper over chunks of the
// elements, combined by the runtime (tg_rt_pairwise_*, tg_rt_extreme_*,
// tg_rt_fold).
std::string Lowerer::emit_split_reduction(const FusedReduce& r) {
    using stdlib::ReduceKind;
    ++stats_.parallel_loops;
    const std::string& A = r.A;
    const Ty acc = r.acc;
    std::string x;
    // `R @redNtask(env, a, n)`: the helper over [a, a + n), widened for the C runtime
    // (i1 to i64; an extreme's f32 to double and i32 to i64, both exact)
    const std::string R = acc == Ty::B ? "i64" : !r.extreme_split() ? A : is_float_ty(acc) ? "double" : "i64";
    const std::string task = r.fn + "task";
    auto widen = [&](const std::string& y) {
        if (R == A) return y;
        if (acc == Ty::B) return b_.def("zext " + A + " " + y + " to " + R);
        return b_.def((is_float_ty(acc) ? "fpext " : "sext ") + A + " " + y + " to " + R);
    };
    const std::string env = outline(R + " " + task + "(ptr %env, i64 %a, i64 %n)", r.cap,
                                    [&](const std::string& ctx, const std::vector<std::string>& p) {
                                        const std::string y = b_.def("call " + A + " " + r.fn + "(" +
                                                                     reduction_args(r, ctx, p) + ", i64 %a, i64 %n)");
                                        b_.emit("ret " + R + " " + widen(y));
                                    });
    const std::string call = "(ptr %ctx, ptr " + task + ", ptr " + env + ", i64 " + r.row_n + ", i64 ";
    const std::string grain = std::to_string((kChunkWork + r.members.size()) / (r.members.size() + 1));
    if (r.sum_split()) {
        x = b_.def("call " + A + " @tg_rt_pairwise_" + (acc == Ty::F64 ? "f64" : "i64") + call +
                   std::to_string(kPairwiseCutoff) + ")");
    } else if (r.extreme_split()) {
        x = b_.def("call " + R + " @tg_rt_extreme_" + (R == "double" ? "f64" : "i64") + call + grain + ", i32 " +
                   (r.kind == ReduceKind::Max ? "1" : "0") + ")");
        if (R != A) x = b_.def((is_float_ty(acc) ? "fptrunc " : "trunc ") + R + " " + x + " to " + A);
    } else {
        const bool is_or = (r.logical && r.kind == ReduceKind::Any) || (r.extreme && r.kind == ReduceKind::Max);
        const int op = r.prod ? 2 : is_or ? 0 : 1;  // tg_rt_fold's codes
        x = b_.def("call i64 @tg_rt_fold" + call + grain + ", i32 " + std::to_string(op) + ")");
        if (acc == Ty::B) x = b_.def("trunc i64 " + x + " to i1");
    }
    return x;
}

// Rows: one result per row, inline or ranges of rows on the thread pool.
void Lowerer::emit_row_results(const FusedReduce& r) {
    auto rows = [&](const std::string& ctx, const std::vector<std::string>& p, const std::string& begin,
                    const std::string& end) { emit_rows_range(r, ctx, p, begin, end); };
    // (a dynamic number of rows always goes through tg_rt_parallel, which runs few rows inline)
    if (r.span.sym < 0 && (r.span.rows < 2 || r.work() < 2 * kChunkWork)) {
        rows("%ctx", r.with_dst(), "0", std::to_string(r.span.rows));
        return;
    }
    // many rows: ranges of rows on the thread pool (each row is reduced on its own)
    const int64_t per_row = r.span.cols * r.per();
    emit_on_pool(r, "rows", extent(r.span.rows, r.span.sym), std::to_string((kChunkWork + per_row - 1) / per_row), 1,
                 rows);
}

// One result per row, for the rows [begin, end).
void Lowerer::emit_rows_range(const FusedReduce& r, const std::string& ctx, const std::vector<std::string>& p,
                              const std::string& begin, const std::string& end) {
    const std::string row = std::to_string(r.span.cols);
    const std::string pre = b_.block, head = b_.label("rows"), body = b_.label("row"), done = b_.label("rowsdone");
    const std::string t = b_.tmp(), t1 = b_.tmp();
    b_.emit("br label %" + head);
    b_.start(head);
    b_.emit(t + " = phi i64 [" + begin + ", %" + pre + "], [" + t1 + ", %" + body + "]");
    b_.emit("br i1 " + b_.def("icmp slt i64 " + t + ", " + end) + ", label %" + body + ", label %" + done);
    b_.start(body);
    const std::string a = b_.def("mul i64 " + t + ", " + row);
    const std::string y =
        b_.def("call " + r.A + " " + r.fn + "(" + reduction_args(r, ctx, p) + ", i64 " + a + ", i64 " + row + ")");
    std::string x = finish_reduction(r, y);
    if (r.ot == Ty::B) x = b_.def("zext i1 " + x + " to i8");
    b_.emit(std::string("store ") + mem_ty(r.ot) + " " + x + ", ptr " +
            b_.def(std::string("getelementptr ") + mem_ty(r.ot) + ", ptr " + p.back() + ", i64 " + t));
    b_.emit(t1 + " = add i64 " + t + ", 1");
    b_.emit("br label %" + head);
    b_.start(done);
}

namespace {

// An exact literal x of type t.
std::string literal(double x, Ty t) {
    if (is_float_ty(t)) return float_lit(t == Ty::F32 ? static_cast<double>(static_cast<float>(x)) : x);
    if (t == Ty::B) return std::string(x != 0 ? "true" : "false");
    return std::to_string(static_cast<int64_t>(x));
}

// base[i], a T held in memory as MT (i8 for i1).
std::string load_at(IrBuilder& b, const std::string& MT, const std::string& T, const std::string& base,
                    const std::string& i) {
    std::string x = b.def("load " + MT + ", ptr " + b.def("getelementptr " + MT + ", ptr " + base + ", i64 " + i));
    if (T == "i1") x = b.def("trunc i8 " + x + " to i1");
    return x;
}

// base[i] = x.
void store_at(IrBuilder& b, const std::string& MT, const std::string& T, const std::string& x, const std::string& base,
              const std::string& i) {
    const std::string y = T == "i1" ? b.def("zext i1 " + x + " to i8") : x;
    b.emit("store " + MT + " " + y + ", ptr " + b.def("getelementptr " + MT + ", ptr " + base + ", i64 " + i));
}

// %buf[i], an A.
std::string load_buf(IrBuilder& b, const std::string& A, const std::string& i) {
    return b.def("load " + A + ", ptr " + b.def("getelementptr " + A + ", ptr %buf, i64 " + i));
}

// The stdlib's Op (stdlib/reduce.cpp) of a reduction over columns, as IR
// written to b: its types, init and step, the casts of an element, and the
// helper's per-column accumulators (%blk, %tot).
struct ColumnOp {
    ColumnOp(IrBuilder& builder, stdlib::ReduceKind kind, Ty value_ty);

    IrBuilder& b;
    bool sum, mean, prod, is_max, extreme, any, logical, fl;
    Ty vt, acc, blk;  // the element's type; Acc: the total's type; Blk: the block accumulator's
    std::string A, B, AM, BM;
    std::string init, blk_init;  // Op::init(); the blocks' start

    // Op::step(a, x) on the accumulating type T of a (x already of type T for extreme)
    std::string step(const std::string& a, const std::string& x, Ty t) const {
        const std::string T = llvm_ty(t);
        if (sum || mean) return b.def((is_float_ty(t) ? "fadd " : "add ") + T + " " + a + ", " + x);
        if (prod) return b.def((is_float_ty(t) ? "fmul " : "mul ") + T + " " + a + ", " + x);
        if (logical) return b.def((any ? "or " : "and ") + T + " " + a + ", " + x);
        if (is_float_ty(t)) {  // (a != a || !(x <= a)) ? (a != a ? a : x) : a   (max; min with >=)
            const std::string a_nan = b.def("fcmp uno " + T + " " + a + ", 0.0");
            const std::string kept = b.def(std::string("fcmp ") + (is_max ? "ole " : "oge ") + T + " " + x + ", " + a);
            const std::string keep_a = b.def("or i1 " + a_nan + ", " + kept);
            return b.def("select i1 " + keep_a + ", " + T + " " + a + ", " + T + " " + x);
        }
        if (t == Ty::B) return b.def((is_max ? "or " : "and ") + T + " " + a + ", " + x);
        const std::string better = b.def(std::string("icmp ") + (is_max ? "sgt " : "slt ") + T + " " + x + ", " + a);
        return b.def("select i1 " + better + ", " + T + " " + x + ", " + T + " " + a);
    }
    // static_cast<Blk>(x) / static_cast<Acc>(x) of an element
    std::string element_as(const std::string& x, Ty t) const {
        if (logical) {
            if (vt == Ty::B) return x;
            return b.def(fl ? std::string("fcmp une ") + llvm_ty(vt) + " " + x + ", 0.0"
                            : std::string("icmp ne ") + llvm_ty(vt) + " " + x + ", 0");
        }
        if (extreme || t == vt) return x;
        if (t == Ty::I64 && vt == Ty::B) return b.def("zext i1 " + x + " to i64");
        return b.convert(x, vt, t);
    }
    // column c's block accumulator and total
    std::string block(const std::string& c) const { return load_at(b, BM, B, "%blk", c); }
    std::string total(const std::string& c) const { return load_at(b, AM, A, "%tot", c); }
    void set_block(const std::string& x, const std::string& c) const { store_at(b, BM, B, x, "%blk", c); }
    void set_total(const std::string& x, const std::string& c) const { store_at(b, AM, A, x, "%tot", c); }
    // Op::merge(total, static_cast<Acc>(block))
    std::string merged(const std::string& c) const {
        std::string bv = block(c);
        if (blk != acc) bv = b.convert(bv, blk, acc);
        return step(total(c), bv, acc);
    }
};

ColumnOp::ColumnOp(IrBuilder& builder, stdlib::ReduceKind kind, Ty value_ty) : b(builder), vt(value_ty) {
    using stdlib::ReduceKind;
    sum = kind == ReduceKind::Sum;
    mean = kind == ReduceKind::Mean;
    prod = kind == ReduceKind::Prod;
    is_max = kind == ReduceKind::Max;
    extreme = is_max || kind == ReduceKind::Min;
    any = kind == ReduceKind::Any;
    logical = any || kind == ReduceKind::All;
    fl = is_float_ty(vt);
    acc = extreme ? vt : logical ? Ty::B : (sum || prod) ? (fl ? (sum ? Ty::F64 : vt) : Ty::I64) : Ty::F64;
    blk = ((sum || mean) && vt == Ty::F32) ? Ty::F32 : acc;
    A = llvm_ty(acc);
    B = llvm_ty(blk);
    AM = mem_ty(acc);
    BM = mem_ty(blk);
    if (sum || mean) init = literal(0, acc);
    else if (prod) init = literal(1, acc);
    else if (logical) init = any ? "false" : "true";
    else if (fl) init = float_lit(is_max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    else if (vt == Ty::B) init = is_max ? "false" : "true";
    else if (vt == Ty::I32) init = std::to_string(is_max ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max());
    else init = std::to_string(is_max ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max());
    blk_init = blk == acc ? init : literal(0, blk);
}

}  // namespace

// The helper's body for a reduction over axis 0 of [R, m], the stdlib's loop
// order B (stdlib/reduce.cpp run_reduce): m block accumulators (Blk) and m
// totals (Acc); each row adds into the blocks (`acc += (Blk)x` for sums and
// means, whose Blk is f32 for f32 input, else Op::step), every 16 rows the
// blocks merge into the totals and restart; at the end each result is
// finish(merge(total, block)). The accumulators live on the stack (m is at
// most kMaxColumns).
void Lowerer::emit_columns(stdlib::ReduceKind kind, Ty vt, Ty ot, const std::string& R, int64_t m, const std::string& lo,
                           const std::string& hi, const std::function<std::string(const std::string&, const std::string&)>& elem) {
    const ColumnOp op(b_, kind, vt);
    const std::string M = std::to_string(m);
    b_.emit("%blk = alloca [" + M + " x " + op.BM + "]");
    b_.emit("%tot = alloca [" + M + " x " + op.AM + "]");
    emit_column_loop(0, lo, hi, [&](const std::string& c) {
        op.set_total(op.init, c);
        op.set_block(op.blk_init, c);
    });
    const std::string pre = b_.block;
    b_.emit("br label %rhead");
    b_.start("rhead");
    b_.emit("%row = phi i64 [0, %" + pre + "], [%row1, %rlatch]");
    b_.emit("%inblk = phi i64 [0, %" + pre + "], [%inblk2, %rlatch]");  // rows in the blocks
    b_.emit("br i1 " + b_.def("icmp slt i64 %row, " + R) + ", label %rbody, label %rdone");
    b_.start("rbody");
    emit_column_loop(1, lo, hi, [&](const std::string& c) {
        const std::string x = op.element_as(elem("%row", c), op.blk);
        op.set_block(op.step(op.block(c), x, op.blk), c);
    });
    b_.emit("%inblk1 = add i64 %inblk, 1");
    b_.emit("br i1 " + b_.def("icmp eq i64 %inblk1, 16") + ", label %flush, label %rlatch0");
    b_.start("flush");
    emit_column_loop(2, lo, hi, [&](const std::string& c) {
        op.set_total(op.merged(c), c);
        op.set_block(op.blk_init, c);
    });
    b_.emit("br label %rlatch");
    b_.start("rlatch0");
    b_.emit("br label %rlatch");
    b_.start("rlatch");
    b_.emit("%inblk2 = phi i64 [0, %cd2], [%inblk1, %rlatch0]");  // cd2: where the flush's loop ends
    b_.emit("%row1 = add i64 %row, 1");
    b_.emit("br label %rhead");
    b_.start("rdone");
    emit_column_loop(3, lo, hi, [&](const std::string& c) {  // out = Op::finish(merge(total, block), R)
        std::string r = op.merged(c);
        if (op.mean) r = b_.def("fdiv double " + r + ", " + b_.def("sitofp i64 " + R + " to double"));  // exact, as (double)R
        if (!op.extreme && !op.logical && ot != op.acc) r = b_.convert(r, op.acc, ot);  // sum of f32: (float)total; mean: to Out
        store_at(b_, mem_ty(ot), llvm_ty(ot), r, "%dst", c);
    });
    b_.emit("ret void");
}

// In emit_columns: for c in [lo, hi): body(c), as loop k of the helper (its
// blocks chK, cbK, clK and cdK).
void Lowerer::emit_column_loop(int k, const std::string& lo, const std::string& hi,
                               const std::function<void(const std::string&)>& body) {
    const std::string K = std::to_string(k);
    const std::string pre = b_.block, head = "ch" + K, bodyl = "cb" + K, latch = "cl" + K, done = "cd" + K;
    const std::string c = "%col" + K, c1 = "%col" + K + "n";
    b_.emit("br label %" + head);
    b_.start(head);
    b_.emit(c + " = phi i64 [" + lo + ", %" + pre + "], [" + c1 + ", %" + latch + "]");
    b_.emit("br i1 " + b_.def("icmp slt i64 " + c + ", " + hi) + ", label %" + bodyl + ", label %" + done);
    b_.start(bodyl);
    body(c);
    b_.emit(c1 + " = add i64 " + c + ", 1");
    b_.emit("br label %" + latch);
    b_.start(latch);
    b_.emit("br label %" + head + ", !llvm.loop " + loop_metadata());
    b_.start(done);
}

// In a reduction helper: %buf[e] = the element at base + e for e in [0,
// count) — one vectorized copy of the element code — then block `done`.
void Lowerer::emit_fill_buffer(const std::string& A, const std::string& base, const std::string& count,
                               const std::string& done, const std::function<std::string(const std::string&)>& elem_at) {
    const std::string pre = b_.block;
    b_.emit("br label %fhead");
    b_.start("fhead");
    b_.emit("%e = phi i64 [0, %" + pre + "], [%e1, %flatch]");
    b_.emit("%fmore = icmp slt i64 %e, " + count);
    b_.emit("br i1 %fmore, label %fbody, label %" + done);
    b_.start("fbody");
    const std::string x = elem_at(base == "0" ? std::string("%e") : b_.def("add i64 " + base + ", %e"));
    b_.emit("store " + A + " " + x + ", ptr " + b_.def("getelementptr " + A + ", ptr %buf, i64 %e"));
    b_.emit("%e1 = add i64 %e, 1");
    b_.emit("br label %flatch");
    b_.start("flatch");
    b_.emit("br label %fhead, !llvm.loop " + loop_metadata());
    b_.start(done);
}

// The helper's body for sum / mean: the stdlib's pairwise_sum
// (stdlib/reduce_runs.hpp): halves down to leaves of <= 256 elements, 8
// accumulators per leaf, in f64 for floats and wrapping u64 for integers.
// The caller adds the result to 0 (the reduction's init).
void Lowerer::emit_pairwise_sum(const std::string& A, Ty acc, const std::string& fn, const std::string& rec,
                                const std::function<std::string(const std::string&)>& elem_at) {
    const std::string add = acc == Ty::F64 ? "fadd double " : "add i64 ";
    b_.emit("%buf = alloca [256 x " + A + "]");
    b_.emit("%big = icmp sgt i64 %n, 256");
    b_.emit("br i1 %big, label %split, label %leaf");
    b_.start("split");
    b_.emit("%h0 = sdiv i64 %n, 2");
    b_.emit("%hr = srem i64 %h0, 8");
    b_.emit("%h = sub i64 %h0, %hr");
    b_.emit("%l = call " + A + " " + fn + "(" + rec + ", i64 %a, i64 %h)");
    b_.emit("%a2 = add i64 %a, %h");
    b_.emit("%n2 = sub i64 %n, %h");
    b_.emit("%r = call " + A + " " + fn + "(" + rec + ", i64 %a2, i64 %n2)");
    b_.emit("%lr = " + add + "%l, %r");
    b_.emit("ret " + A + " %lr");
    const std::string zero = acc == Ty::F64 ? "0.0" : "0";
    auto at = [&](const std::string& i) { return load_buf(b_, A, i); };
    b_.start("leaf");
    emit_fill_buffer(A, "0", "%n", "sums", elem_at);
    b_.emit("br label %lhead");
    b_.start("lhead");
    b_.emit("%i = phi i64 [0, %sums], [%i8, %llatch]");
    for (int k = 0; k < 8; ++k)
        b_.emit("%s" + std::to_string(k) + "acc = phi " + A + " [" + zero + ", %sums], [%s" + std::to_string(k) +
                "next, %llatch]");
    b_.emit("%i8 = add i64 %i, 8");
    b_.emit("%more = icmp sle i64 %i8, %n");
    b_.emit("br i1 %more, label %lbody, label %ltail");
    b_.start("lbody");
    for (int k = 0; k < 8; ++k)  // s[k] += p[i + k]
        b_.emit("%s" + std::to_string(k) + "next = " + add + "%s" + std::to_string(k) + "acc, " +
                at(b_.def("add i64 %i, " + std::to_string(k))));
    b_.emit("br label %llatch");
    b_.start("llatch");
    b_.emit("br label %lhead");
    b_.start("ltail");
    auto sum2 = [&](const std::string& p, const std::string& q) { return b_.def(add + p + ", " + q); };
    std::string r0 = sum2(sum2(sum2("%s0acc", "%s1acc"), sum2("%s2acc", "%s3acc")),
                          sum2(sum2("%s4acc", "%s5acc"), sum2("%s6acc", "%s7acc")));
    b_.emit("br label %thead");
    b_.start("thead");
    b_.emit("%j = phi i64 [%i, %ltail], [%j1, %tlatch]");
    b_.emit("%racc = phi " + A + " [" + r0 + ", %ltail], [%r1, %tlatch]");
    b_.emit("%tmore = icmp slt i64 %j, %n");
    b_.emit("br i1 %tmore, label %tbody, label %tdone");
    b_.start("tbody");
    b_.emit("%r1 = " + add + "%racc, " + at("%j"));
    b_.emit("%j1 = add i64 %j, 1");
    b_.emit("br label %tlatch");
    b_.start("tlatch");
    b_.emit("br label %thead");
    b_.start("tdone");
    b_.emit("ret " + A + " %racc");
}

// The helper's body for a plain left fold: r = init; r = r OP element, for
// every element in order (prod: the stdlib's FoldRun, in T for floats and
// wrapping 64-bit integers otherwise; any / all; max / min of booleans).
void Lowerer::emit_fold(const std::string& A, const std::string& init, const std::string& op,
                        const std::function<std::string(const std::string&)>& elem_at) {
    const std::string pre = b_.block;
    b_.emit("br label %head");
    b_.start("head");
    b_.emit("%e = phi i64 [0, %" + pre + "], [%e1, %latch]");
    b_.emit("%r = phi " + A + " [" + init + ", %" + pre + "], [%r1, %latch]");
    b_.emit("%more = icmp slt i64 %e, %n");
    b_.emit("br i1 %more, label %body, label %done");
    b_.start("body");
    const std::string x = elem_at("%e");
    b_.emit("%r1 = " + op + " " + A + " %r, " + x);
    b_.emit("%e1 = add i64 %e, 1");
    b_.emit("br label %latch");
    b_.start("latch");
    b_.emit("br label %head, !llvm.loop " + loop_metadata());
    b_.start("done");
    b_.emit("ret " + A + " %r");
}

namespace {

// The compares of max / min of numbers of type A (emit_extreme).
struct ExtremeCompare {
    IrBuilder& b;
    const std::string& A;
    bool fl, is_max;

    // `better(x, y)`: x replaces y (v > lane for max, v < lane for min)
    std::string better(const std::string& x, const std::string& y) const {
        return b.def(fl ? std::string("fcmp ") + (is_max ? "ogt " : "olt ") + A + " " + x + ", " + y
                        : std::string("icmp ") + (is_max ? "sgt " : "slt ") + A + " " + x + ", " + y);
    }
    std::string pick(const std::string& x, const std::string& y) const {
        return b.def("select i1 " + better(x, y) + ", " + A + " " + x + ", " + A + " " + y);
    }
    std::string is_nan(const std::string& x) const { return b.def("fcmp uno " + A + " " + x + ", 0.0"); }
};

}  // namespace

// The helper's body for max / min, in the order of the stdlib's
// runs::extreme (stdlib/reduce_runs.hpp) — which matters only for the sign
// of a zero result, since +0 and -0 compare equal: 16 lanes that start at
// element 0; block i of 16 elements updates lane k with element 16i + k
// (`v > lane ? v : lane`); then r = lane 0, folded with lanes 0..15, then
// with the last n % 16 elements in order; NaN if any element was NaN. The
// elements are computed chunk by chunk (256 at a time, a multiple of 16)
// into a buffer, so lane k still sees exactly the elements = k (mod 16).
// Booleans: any (max) / all (min). n >= 1; elem_at(i) is the element a + i.
void Lowerer::emit_extreme(const std::string& A, Ty t, bool is_max,
                           const std::function<std::string(const std::string&)>& elem_at) {
    const bool fl = is_float_ty(t);
    if (t == Ty::B) {  // r = !Max; r = Max ? r || x : r && x
        emit_fold(A, is_max ? "false" : "true", is_max ? "or" : "and", elem_at);
        return;
    }
    const ExtremeCompare cmp{b_, A, fl, is_max};
    b_.emit("%buf = alloca [256 x " + A + "]");
    const std::string first = elem_at("0");
    b_.emit("%full = and i64 %n, -16");  // elements that go to the lanes
    emit_extreme_lanes(A, t, is_max, first, elem_at);
    // r = lane 0, then every lane, then the last n % 16 elements
    b_.start("combine");
    std::string r = "%lane0";
    for (int k = 0; k < 16; ++k) r = cmp.pick("%lane" + std::to_string(k), r);
    b_.emit("%r0 = select i1 true, " + A + " " + r + ", " + A + " " + r);
    b_.emit("br label %thead");
    b_.start("thead");
    b_.emit("%j = phi i64 [%full, %combine], [%j1, %tlatch]");
    b_.emit("%r = phi " + A + " [%r0, %combine], [%r1, %tlatch]");
    if (fl) b_.emit("%tnan = phi i1 [%nan, %combine], [%tnan1, %tlatch]");
    b_.emit("%tmore = icmp slt i64 %j, %n");
    b_.emit("br i1 %tmore, label %tbody, label %tdone");
    b_.start("tbody");
    const std::string y = elem_at("%j");
    b_.emit("%r1 = select i1 " + cmp.better(y, "%r") + ", " + A + " " + y + ", " + A + " %r");
    if (fl) b_.emit("%tnan1 = or i1 %tnan, " + cmp.is_nan(y));
    b_.emit("%j1 = add i64 %j, 1");
    b_.emit("br label %tlatch");
    b_.start("tlatch");
    b_.emit("br label %thead");
    b_.start("tdone");
    if (fl) {
        const std::string bad = b_.def("or i1 %tnan, " + cmp.is_nan("%r"));
        b_.emit("%res = select i1 " + bad + ", " + A + " " + float_lit(std::numeric_limits<double>::quiet_NaN()) +
                ", " + A + " %r");
        b_.emit("ret " + A + " %res");
    } else {
        b_.emit("ret " + A + " %r");
    }
}

// emit_extreme's lanes: the chunks of 256 elements of [0, %full), each
// filled into %buf and read in blocks of 16 (block i updates lane k with
// element 16i + k), to block `combine` with the lanes in %lane0..15 (and
// floats' NaN flag in %nan).
void Lowerer::emit_extreme_lanes(const std::string& A, Ty t, bool is_max, const std::string& first,
                                 const std::function<std::string(const std::string&)>& elem_at) {
    const bool fl = is_float_ty(t);
    const ExtremeCompare cmp{b_, A, fl, is_max};
    const std::string pre = b_.block;
    b_.emit("br label %chead");
    b_.start("chead");
    b_.emit("%c = phi i64 [0, %" + pre + "], [%c1, %cdone]");
    for (int k = 0; k < 16; ++k)
        b_.emit("%lane" + std::to_string(k) + " = phi " + A + " [" + first + ", %" + pre + "], [%lout" +
                std::to_string(k) + ", %cdone]");
    if (fl) b_.emit("%nan = phi i1 [false, %" + pre + "], [%nout, %cdone]");  // element 0 is checked in a block or the tail
    b_.emit("%cmore = icmp slt i64 %c, %full");
    b_.emit("br i1 %cmore, label %cbody, label %combine");
    b_.start("cbody");
    b_.emit("%rest = sub i64 %full, %c");
    b_.emit("%small = icmp slt i64 %rest, 256");
    b_.emit("%m = select i1 %small, i64 %rest, i64 256");
    emit_fill_buffer(A, "%c", "%m", "lstart", elem_at);
    b_.emit("br label %lhead");
    b_.start("lhead");  // blocks of 16 in the buffer
    b_.emit("%i = phi i64 [0, %lstart], [%i16, %lbody]");
    for (int k = 0; k < 16; ++k)
        b_.emit("%acc" + std::to_string(k) + " = phi " + A + " [%lane" + std::to_string(k) + ", %lstart], [%next" +
                std::to_string(k) + ", %lbody]");
    if (fl) b_.emit("%bnan = phi i1 [%nan, %lstart], [%bnan1, %lbody]");
    b_.emit("%lmore = icmp slt i64 %i, %m");
    b_.emit("br i1 %lmore, label %lbody, label %cdone");
    b_.start("lbody");
    std::string nan_acc = "%bnan";
    for (int k = 0; k < 16; ++k) {
        const std::string vk = load_buf(b_, A, b_.def("add i64 %i, " + std::to_string(k)));
        b_.emit("%next" + std::to_string(k) + " = select i1 " + cmp.better(vk, "%acc" + std::to_string(k)) + ", " + A +
                " " + vk + ", " + A + " %acc" + std::to_string(k));
        if (fl) nan_acc = b_.def("or i1 " + nan_acc + ", " + cmp.is_nan(vk));
    }
    if (fl) b_.emit("%bnan1 = or i1 " + nan_acc + ", false");
    b_.emit("%i16 = add i64 %i, 16");
    b_.emit("br label %lhead");
    b_.start("cdone");
    for (int k = 0; k < 16; ++k)
        b_.emit("%lout" + std::to_string(k) + " = select i1 true, " + A + " %acc" + std::to_string(k) + ", " + A +
                " %acc" + std::to_string(k));
    if (fl) b_.emit("%nout = or i1 %bnan, false");
    b_.emit("%c1 = add i64 %c, 256");
    b_.emit("br label %chead");
}

}  // namespace tg::codegen::detail
