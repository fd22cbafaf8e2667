// The lowering's internals (codegen/lower.hpp is the interface): one
// Lowerer writes the LLVM function of one graph. Its parts:
//   lower.cpp        regions, control flow, values, single nodes
//   lower_fused.cpp  fused element-wise loop nests and fused reductions
//   lower_dynamic.cpp  dynamic dimensions: planned shapes, run-time extents
//   native_ops.cpp   which ops compiled code computes itself: one row per op
//                    (codegen/native_ops.hpp), keyed by the op's kind
//   ir_element.cpp   the per-element semantics of those ops
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "codegen/ir_builder.hpp"
#include "codegen/lower.hpp"
#include "stdlib/elementwise.hpp"
#include "tracer/graph.hpp"

namespace tg::codegen::detail {

using stdlib::BinaryKind;
using stdlib::DType;
using stdlib::Shape;
using stdlib::TensorType;
using stdlib::UnaryKind;
using tracer::Graph;
using tracer::Node;
using tracer::NodeId;
using tracer::Op;
using tracer::RegionId;
using tracer::ValueId;

inline constexpr int64_t kTickBatch = 1024;  // while-loop iterations reported to the host at once

// Fused loops and reductions doing at least 2 * kChunkWork element
// operations (elements x fused ops) are split over the thread pool
// (tg_rt_parallel), in chunks of at least kChunkWork; smaller ones are
// inline loops, exactly as without the pool. Waking a worker costs a few
// microseconds; kChunkWork element operations take ~50-100 us.
inline constexpr int64_t kChunkWork = int64_t{1} << 17;
// Fused sums over all elements split the stdlib's pairwise tree at subtrees
// of at most this many elements (tg_rt_pairwise_*). Any value >= 256 (the
// tree's leaf size) gives the same result; this one sets the task size.
inline constexpr int64_t kPairwiseCutoff = int64_t{1} << 15;

// An element-wise op compiled code computes itself.
struct NativeOp {
    enum Kind { Binary, Unary, AsType, Where, Clip } kind = Binary;
    BinaryKind bk = BinaryKind::Add;
    UnaryKind uk = UnaryKind::Neg;
    Ty compute = Ty::F32;                    // binary / unary; clip: the maximum
    Ty mid = Ty::F32, compute2 = Ty::F32;    // clip: maximum's result, minimum's compute type
    bool may_raise = false;                  // integer floordiv / mod / pow
};

// The native form of node n, if compiled code computes it itself.
std::optional<NativeOp> native_of(const Graph& g, const Node& n);

class Lowerer {
public:
    Lowerer(const Graph& g, bool ticks)
        : g_(g), ticks_(ticks), reg_(g.num_values()), users_(g.num_values()), plan_sizes_(plan_sizes(g)) {
        g.walk(Graph::kBody, [&](NodeId n) {
            for (ValueId v : g.node(n).operands) users_[v].push_back(n);
        });
    }

    Lowered run(const std::string& entry);

private:
    // ---- values
    bool scalar(ValueId v) const { return !g_.type(v).token && g_.tensor_type(v).shape.rank() == 0; }
    bool tensor(ValueId v) const { return !g_.type(v).token && g_.tensor_type(v).shape.rank() > 0; }
    Ty ty(ValueId v) const {
        const TensorType& t = g_.tensor_type(v);
        return storage_ty(t.dtype, t.weak);
    }
    static std::string id(uint32_t v) { return std::to_string(v); }

    const std::string& value(ValueId v) {
        if (reg_[v].empty()) throw std::logic_error("codegen: 0-d value %" + id(v) + " has no register");
        return reg_[v];
    }
    void load(ValueId v);
    void spill(ValueId v);
    // Loop metadata: no unrolling or interleaving; no vectorizing either when
    // !vectorize (a `while`). See lower.cpp.
    std::string loop_metadata(bool vectorize = true);

    // A constant array of value ids (a module global); its name.
    std::string id_array(const std::vector<ValueId>& xs);
    // slots[dst[i]] = slots[src[i]] for the tensor pairs (a parallel assignment).
    // Sources defined in region `dying` (which is being left) are dead
    // afterwards: their slots are released, so the destinations can own
    // their buffers alone (and update them in place, see emit_element_store).
    void copies(std::span<const ValueId> dst, std::span<const ValueId> src, RegionId dying = tracer::kNoId);
    bool defined_in(ValueId v, RegionId r) const;

    // ---- dynamic dimensions (lower_dynamic.cpp; docs/codegen.md "Dynamic
    // dimensions"). A value whose only dynamic dimension is axis 0 (the
    // batch) has static strides: its loops are the static ones but for the
    // outer bound, which is read at run time (extent). Any other dynamic
    // value is computed by the runtime (emit_runtime), on real tensors.
    //
    // The sizes the lowering plans dynamic dimensions at: each symbol's traced
    // size (from its source input), at least 2 — as at run time, so that a
    // dynamic dimension is never mistaken for a broadcast one.
    static std::vector<int64_t> plan_sizes(const Graph& g);
    // v's shape with its dynamic dimensions at their planned sizes.
    Shape plan_shape(ValueId v) const { return g_.shape_at(v, plan_sizes_); }
    bool dynamic(ValueId v) const { return !g_.type(v).token && g_.has_dynamic_dims(v); }
    // No dynamic dimension but (perhaps) axis 0.
    bool batch_only(ValueId v) const;
    // Whether native element-wise node `node` on tensors can join a fused
    // loop: all its values static; or its result batch_only and each tensor
    // operand either batch_only with the result's rank and axis-0 symbol, or
    // static and broadcast along axis 0 (lower rank, or size 1 there).
    bool fusable_dims(const Node& node) const;
    // The key of a fused group: the same planned shape and the same symbol
    // on every axis (a [?0,4] and a static [8,4] are different loops).
    bool same_dims(ValueId a, ValueId b) const;
    // The run-time value (an i64 operand) of an extent planned as `planned`
    // = plan size of `sym` x a static factor: the literal when sym < 0, else
    // `%dimK` x the factor. Only in the graph's own function, whose entry
    // loads the sizes (%dimK); helpers take extents as arguments.
    std::string extent(int64_t planned, int sym);
    // Loads every symbol's size at the function's entry (%dim0, %dim1, ...).
    void load_dims();

    // ---- regions
    // Emits the nodes of region r (its arguments bound) and returns its yield.
    // Element-wise nodes on tensors of one shape that follow each other are
    // collected into `open` and emitted as one loop nest when something else
    // needs their results; 0-d native nodes in between are emitted at once
    // (they cannot read the open group's tensors).
    //
    // Liveness: a tensor defined in r is released (its slot emptied, so its
    // buffer goes back to the allocator's caches for the next allocation of
    // that size) right after the last node of r that reads it, directly or
    // inside a nested region; while a fused group is open, releases wait
    // until it is emitted.
    const Node& emit_region(RegionId r);

    // For each node of r (by position): the tensors defined in r whose last
    // reader in r is that node.
    std::vector<std::vector<ValueId>> last_uses(RegionId r) const;

    bool is_native_scalar_node(const Node& node) const;

    void emit_simple_scalar(const Node& node);

    // One element of a native op, from operand elements (value, storage type),
    // in the result's storage type.
    std::string element(const NativeOp& op, NodeId n, const std::vector<std::pair<std::string, Ty>>& x, Ty result);

    void emit_native_scalar(NodeId n, const NativeOp& op);

    // ---- fused element-wise loop nests
    // What a fused group reads and writes, and its loop nest.
    struct GroupPlan {
        std::vector<ValueId> inputs;   // tensors from outside the group
        std::vector<ValueId> outputs;  // results read outside the group
        std::vector<int64_t> dims;     // the loop nest (size-1 dims dropped, contiguous neighbours merged)
        std::vector<std::vector<int64_t>> strides;  // per input, then per output: element stride per dim
        int64_t numel = 0;
        // The symbol of the group's axis 0 when it is dynamic (else -1): then
        // dims[0] and numel are planned (plan_sizes_) and only known at run time.
        int sym = -1;
    };

    struct GroupScopes {
        std::string loads;                // ", !noalias !N" for the group's loads
        std::vector<std::string> stores;  // per output: ", !alias.scope !N[, !noalias !M]"
    };
    GroupScopes group_scopes(size_t outputs);
    std::string metadata_node(const std::string& text);

    // `reduced`: a result whose only reader is a fused reduction (no buffer).
    GroupPlan plan_group(const std::vector<NodeId>& members, ValueId reduced = tracer::kNoId) const;

    // Pointers to the elements of the group's inputs and (fresh) outputs.
    std::vector<std::string> group_pointers(const GroupPlan& P);

    // The group's element code at the element whose offset in addressed
    // operand k is offset(k): loads, the members' element functions, stores.
    // Returns the elements of every member result.
    std::unordered_map<ValueId, std::pair<std::string, Ty>> group_elements(
        const std::vector<NodeId>& members, const GroupPlan& P, const std::vector<std::string>& ptr,
        const std::function<std::string(size_t)>& offset);

    void count_group(const std::vector<NodeId>& members);

    // ---- fused element-wise loop nests
    // Inline when small; over the thread pool when large (an outlined loop
    // nest and tg_rt_parallel).
    void emit_group(const std::vector<NodeId>& members);
    // The loop nest over [begin, end) of the outer loop (all of the inner ones).
    void emit_loop_nest(const std::vector<NodeId>& members, const GroupPlan& P, const std::vector<std::string>& ptr,
                        const std::string& begin, const std::string& end);

    // ---- outlined helpers: code that runs in a function of its own (on the
    // thread pool), reading what it needs from an environment the caller fills.
    struct Captures {
        std::vector<std::string> ptrs;  // the group's pointers (caller's names)
        std::vector<ValueId> scalars;   // 0-d values the members read from registers
    };
    Captures captures(const std::vector<NodeId>& members, const std::vector<std::string>& ptr) const;
    // Defines `define internal <signature>` (whose parameters include `ptr
    // %env`): body(ctx, pointers) writes its code with %ctx, the pointers and
    // the captured 0-d values loaded from %env. In the caller: stores them
    // into a fresh environment (an entry-block alloca); returns its name.
    std::string outline(const std::string& signature, const Captures& c,
                        const std::function<void(const std::string& ctx, const std::vector<std::string>& lptr)>& body);
    void define_helper(const std::string& signature, const IrBuilder& h);

    // ---- reductions fused with their producers (lower_reduce.cpp)
    struct ReduceSpan {
        enum Kind { None, Full, Rows, Cols } kind = None;
        int64_t rows = 0, cols = 0;  // Full: 1 x numel; Rows: one result per row; Cols: one per column
        // The reduced value's axis-0 symbol (-1: static): then Full's cols and
        // Rows' and Cols' rows are planned, known at run time (extent).
        int sym = -1;
    };
    // `standalone`: a reduction of a value no open group produces (read from
    // its buffer, which other nodes may read too), as a group of no members.
    ReduceSpan reduction_span(const Node& node, bool standalone = false) const;
    std::vector<std::array<int64_t, 2>> grid_strides(const GroupPlan& P, int64_t R, int64_t m) const;
    bool emit_reduced_group(const std::vector<NodeId>& members, NodeId red, ReduceSpan span);
    // The steps of emit_reduced_group and the state they share (lower_reduce.cpp).
    struct FusedReduce;
    std::optional<FusedReduce> plan_reduced_group(const std::vector<NodeId>& members, NodeId red, ReduceSpan span) const;
    void define_reduction_helper(FusedReduce& r);
    void emit_reduction_helper_body(const FusedReduce& r);
    std::pair<std::string, Ty> reduced_element(const FusedReduce& r, const std::string& t, const std::string& c,
                                               const std::string& f);
    std::string span_element(const FusedReduce& r, const std::string& i);
    std::string reduction_args(const FusedReduce& r, const std::string& ctx, const std::vector<std::string>& p);
    using RangeBody = std::function<void(const std::string& ctx, const std::vector<std::string>& p,
                                         const std::string& begin, const std::string& end)>;
    void emit_on_pool(const FusedReduce& r, const std::string& suffix, const std::string& n, const std::string& grain,
                      int64_t align, const RangeBody& range);
    void emit_column_results(const FusedReduce& r);
    std::string finish_reduction(const FusedReduce& r, const std::string& x);
    std::string emit_scalar_reduction(const FusedReduce& r);
    std::string emit_split_reduction(const FusedReduce& r);
    void emit_row_results(const FusedReduce& r);
    void emit_rows_range(const FusedReduce& r, const std::string& ctx, const std::vector<std::string>& p,
                         const std::string& begin, const std::string& end);
    // The helpers' bodies. R: the number of rows, an i64 operand (a literal, or the helper's %R).
    void emit_columns(stdlib::ReduceKind kind, Ty vt, Ty ot, const std::string& R, int64_t m, const std::string& lo,
                      const std::string& hi, const std::function<std::string(const std::string&, const std::string&)>& elem);
    void emit_column_loop(int k, const std::string& lo, const std::string& hi,
                          const std::function<void(const std::string&)>& body);
    void emit_fill_buffer(const std::string& A, const std::string& base, const std::string& count,
                          const std::string& done, const std::function<std::string(const std::string&)>& elem_at);
    void emit_fold(const std::string& A, const std::string& init, const std::string& op,
                   const std::function<std::string(const std::string&)>& elem_at);
    void emit_pairwise_sum(const std::string& A, Ty acc, const std::string& fn, const std::string& rec,
                           const std::function<std::string(const std::string&)>& elem_at);
    void emit_extreme(const std::string& A, Ty t, bool is_max,
                      const std::function<std::string(const std::string&)>& elem_at);
    void emit_extreme_lanes(const std::string& A, Ty t, bool is_max, const std::string& first,
                            const std::function<std::string(const std::string&)>& elem_at);

    // ---- other nodes
    void emit_node(NodeId n);

    // x[i, j, ...] reading one element (an int per axis, static or dynamic):
    // a bounds check and a load. Negative indices count from the end; out
    // of range, the node runs in the runtime, which raises eager's error.
    bool emit_element_index(NodeId n);
    // x[i, j] = v for one element: x's buffer taken over (moved when x dies
    // here, copied only if shared), the element stored in place.
    bool emit_element_store(NodeId n, bool x_dies);
    // The offset of the element x[items] (row-major), with a bounds check that
    // runs node n in the runtime (eager's error) when an index is out of
    // range; nullopt when the items are not one int per axis.
    std::optional<std::string> element_offset(NodeId n, ValueId x, size_t first_dynamic);

    void emit_runtime(NodeId n);

    void emit_assert(NodeId n);

    // Binds region r's arguments to `from` (0-d: the same registers; tensors: slot copies).
    void bind(RegionId r, std::span<const ValueId> from, RegionId dying = tracer::kNoId);

    void emit_cond(NodeId n);

    // One loop iteration for the host's limits (steps, interrupts), reported
    // every kTickBatch iterations.
    void tick(NodeId loop);

    void emit_while(NodeId n);

    const Graph& g_;
    const bool ticks_;  // loops count iterations for the host
    IrBuilder b_;
    std::vector<std::string> reg_;               // 0-d values: their LLVM operand
    std::vector<std::vector<NodeId>> users_;     // per value: the nodes reading it
    const std::vector<int64_t> plan_sizes_;      // per dimension symbol (plan_sizes)
    std::string globals_;
    std::string helpers_;  // functions of fused reductions and parallel loops
    std::vector<std::string> entry_allocas_;  // environments of outlined helpers (allocated once per call)
    std::string metadata_;  // loop metadata nodes
    int next_metadata_ = 0;
    int next_global_ = 0;
    LoweringStats stats_;
};

}  // namespace tg::codegen::detail
