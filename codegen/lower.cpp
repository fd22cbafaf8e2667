// Graph -> LLVM IR text (codegen/lower.hpp). One pass over the regions in
// program order; element-wise nodes on tensors are grouped into fused loop
// nests as they are met (see emit_region).
#include "codegen/lower.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "codegen/ir_builder.hpp"
#include "stdlib/elementwise.hpp"

namespace tg::codegen {

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

namespace {

constexpr int64_t kTickBatch = 1024;  // while-loop iterations reported to the host at once

// An element-wise op compiled code computes itself.
struct NativeOp {
    enum Kind { Binary, Unary, AsType, Where, Clip } kind = Binary;
    BinaryKind bk = BinaryKind::Add;
    UnaryKind uk = UnaryKind::Neg;
    Ty compute = Ty::F32;                    // binary / unary; clip: the maximum
    Ty mid = Ty::F32, compute2 = Ty::F32;    // clip: maximum's result, minimum's compute type
    bool may_raise = false;                  // integer floordiv / mod / pow
};

std::optional<NativeOp> native_of(const Graph& g, const Node& n) {
    if (n.op != Op::Apply || !(n.def->flags & stdlib::kElementwise) || (n.def->flags & stdlib::kRandom)) return {};
    auto in = [&](size_t i) -> const TensorType& { return g.tensor_type(n.operands[i]); };
    NativeOp op;
    try {
        for (int k = 0; k < 18; ++k) {
            auto bk = static_cast<BinaryKind>(k);
            if (n.def->name != stdlib::binary_name(bk)) continue;
            const stdlib::OpSignature s = stdlib::binary_signature(bk, in(0).dtype, in(0).weak, in(1).dtype, in(1).weak);
            op.kind = NativeOp::Binary;
            op.bk = bk;
            op.compute = ty_of(s.compute);
            if (op.compute == Ty::B && (bk == BinaryKind::Sub || bk == BinaryKind::Div || bk == BinaryKind::FloorDiv ||
                                        bk == BinaryKind::Mod || bk == BinaryKind::Pow))
                return {};
            op.may_raise = is_int_ty(op.compute) &&
                           (bk == BinaryKind::FloorDiv || bk == BinaryKind::Mod || bk == BinaryKind::Pow);
            return op;
        }
        for (int k = 0; k < stdlib::kNumUnaryKinds; ++k) {
            auto uk = static_cast<UnaryKind>(k);
            if (n.def->name != stdlib::unary_name(uk)) continue;
            const stdlib::OpSignature s = stdlib::unary_signature(uk, in(0).dtype, in(0).weak);
            op.kind = NativeOp::Unary;
            op.uk = uk;
            op.compute = ty_of(s.compute);
            if (op.compute == Ty::B && uk == UnaryKind::Neg) return {};
            if (is_float_ty(op.compute) && uk == UnaryKind::Invert) return {};
            return op;
        }
        if (n.def->name == "astype") {
            op.kind = NativeOp::AsType;
            return op;
        }
        if (n.def->name == "where") {
            op.kind = NativeOp::Where;
            return op;
        }
        if (n.def->name == "clip") {
            const stdlib::OpSignature s1 =
                stdlib::binary_signature(BinaryKind::Maximum, in(0).dtype, in(0).weak, in(1).dtype, in(1).weak);
            const stdlib::OpSignature s2 =
                stdlib::binary_signature(BinaryKind::Minimum, s1.result, s1.weak, in(2).dtype, in(2).weak);
            op.kind = NativeOp::Clip;
            op.compute = ty_of(s1.compute);
            op.mid = storage_ty(s1.result, s1.weak);
            op.compute2 = ty_of(s2.compute);
            return op;
        }
    } catch (const std::exception&) {
        return {};  // the kernel rejects these dtypes: leave the error to the runtime
    }
    return {};
}

bool is_bool_result(UnaryKind k) {
    return k == UnaryKind::LogicalNot || k == UnaryKind::IsNan || k == UnaryKind::IsFinite;
}

class Lowerer {
public:
    Lowerer(const Graph& g, bool ticks) : g_(g), ticks_(ticks), reg_(g.num_values()), users_(g.num_values()) {
        g.walk(Graph::kBody, [&](NodeId n) {
            for (ValueId v : g.node(n).operands) users_[v].push_back(n);
        });
    }

    Lowered run(const std::string& entry) {
        b_.lines.push_back("define i32 @" + entry + "(ptr %ctx) {");
        b_.start("entry");
        b_.emit("%cnt = alloca i64");
        b_.emit("store i64 " + std::to_string(kTickBatch) + ", ptr %cnt");
        const tracer::Region& body = g_.region(Graph::kBody);
        for (ValueId a : body.args)
            if (scalar(a)) load(a);
        const Node& y = emit_region(Graph::kBody);
        for (ValueId v : y.operands)
            if (scalar(v)) spill(v);
        if (ticks_) {  // report the iterations not reported yet
            std::string left = b_.def("load i64, ptr %cnt");
            std::string done = b_.def("sub i64 " + std::to_string(kTickBatch) + ", " + left);
            b_.check_status(b_.def("call i32 @tg_rt_tick(ptr %ctx, i64 " + done + ")"));
        }
        b_.emit("ret i32 0");
        b_.start("fail");
        b_.emit("ret i32 1");
        b_.lines.push_back("}");
        Lowered out;
        out.entry = entry;
        std::string code = globals_ + helpers_;
        for (const std::string& l : b_.lines) code += l + "\n";
        code += metadata_;
        out.ir = module_prelude_for(code) + code;
        out.stats = stats_;
        return out;
    }

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
    void load(ValueId v) {
        const Ty t = ty(v);
        std::string call = std::string("call ") + (t == Ty::B ? "i32" : llvm_ty(t)) + " @tg_rt_get_" + ty_suffix(t) +
                           "(ptr %ctx, i32 " + id(v) + ")";
        std::string x = b_.def(call);
        reg_[v] = t == Ty::B ? b_.def("icmp ne i32 " + x + ", 0") : x;
    }
    void spill(ValueId v) {
        const Ty t = ty(v);
        std::string x = value(v);
        if (t == Ty::B) x = b_.def("zext i1 " + x + " to i32");
        b_.emit(std::string("call void @tg_rt_set_") + ty_suffix(t) + "(ptr %ctx, i32 " + id(v) + ", " +
                (t == Ty::B ? "i32" : llvm_ty(t)) + " " + x + ")");
    }
    // Metadata of a fused loop: no interleaving (see emit_group).
    std::string loop_metadata() {
        const std::string id = "!" + std::to_string(next_metadata_);
        metadata_ += id + " = distinct !{" + id + ", !" + std::to_string(next_metadata_ + 1) + "}\n!" +
                     std::to_string(next_metadata_ + 1) + " = !{!\"llvm.loop.interleave.count\", i32 1}\n";
        next_metadata_ += 2;
        return id;
    }

    // A constant array of value ids (a module global); its name.
    std::string id_array(const std::vector<ValueId>& xs) {
        std::string name = "@ids" + std::to_string(next_global_++);
        globals_ += name + " = private unnamed_addr constant [" + std::to_string(xs.size()) + " x i32] [";
        for (size_t i = 0; i < xs.size(); ++i) globals_ += (i ? ", i32 " : "i32 ") + id(xs[i]);
        globals_ += "]\n";
        return name;
    }
    // slots[dst[i]] = slots[src[i]] for the tensor pairs (a parallel assignment).
    void copies(std::span<const ValueId> dst, std::span<const ValueId> src) {
        std::vector<ValueId> d, s;
        for (size_t i = 0; i < dst.size(); ++i)
            if (tensor(dst[i]) && dst[i] != src[i]) {
                d.push_back(dst[i]);
                s.push_back(src[i]);
            }
        if (d.empty()) return;
        std::string dn = id_array(d), sn = id_array(s);
        b_.emit("call void @tg_rt_copies(ptr %ctx, ptr " + dn + ", ptr " + sn + ", i32 " + std::to_string(d.size()) + ")");
    }

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
    const Node& emit_region(RegionId r) {
        std::vector<NodeId> open;
        Shape open_shape;
        const std::vector<std::vector<ValueId>> dying = last_uses(r);
        std::vector<ValueId> pending;
        auto release = [&] {
            if (open.empty() && !pending.empty()) {
                b_.emit("call void @tg_rt_release(ptr %ctx, ptr " + id_array(pending) + ", i32 " +
                        std::to_string(pending.size()) + ")");
                stats_.released += static_cast<int>(pending.size());
                pending.clear();
            }
        };
        auto flush = [&] {
            if (!open.empty()) emit_group(open);
            open.clear();
            release();
        };
        const auto& nodes = g_.region(r).nodes;
        for (size_t k = 0; k < nodes.size(); ++k) {
            if (k > 0) {
                pending.insert(pending.end(), dying[k - 1].begin(), dying[k - 1].end());
                release();
            }
            const NodeId n = nodes[k];
            const Node& node = g_.node(n);
            if (node.op == Op::Yield) {
                flush();
                return node;
            }
            std::optional<NativeOp> nat = native_of(g_, node);
            if (nat && tensor(node.results[0])) {
                const Shape& s = g_.tensor_type(node.results[0]).shape;
                if (!open.empty() && (!(s == open_shape) || nat->may_raise)) flush();
                open.push_back(n);
                open_shape = s;
                if (nat->may_raise) flush();  // alone: its error must come first, as in eager
                continue;
            }
            if (nat && !nat->may_raise && is_native_scalar_node(node)) {
                emit_native_scalar(n, *nat);
                continue;
            }
            if (!nat && (node.op == Op::Constant || node.op == Op::Undef || node.op == Op::Truth) &&
                scalar(node.results[0]) && (node.op != Op::Truth || scalar(node.operands[0]))) {
                emit_simple_scalar(node);
                continue;
            }
            if (!open.empty() && is_full_reduction(node) &&
                std::find_if(open.begin(), open.end(),
                             [&](NodeId m) { return g_.node(m).results[0] == node.operands[0]; }) != open.end() &&
                emit_reduced_group(open, n)) {
                open.clear();
                release();
                continue;
            }
            flush();
            if (nat) emit_native_scalar(n, *nat);
            else emit_node(n);
        }
        throw std::logic_error("codegen: region without a yield");
    }

    // For each node of r (by position): the tensors defined in r whose last
    // reader in r is that node.
    std::vector<std::vector<ValueId>> last_uses(RegionId r) const {
        const auto& nodes = g_.region(r).nodes;
        std::unordered_map<ValueId, size_t> last;
        for (size_t k = 0; k < nodes.size(); ++k) {
            auto note = [&](NodeId n) {
                for (ValueId v : g_.node(n).operands)
                    if (tensor(v)) last[v] = k;
            };
            note(nodes[k]);
            for (RegionId sub : g_.node(nodes[k]).regions) g_.walk(sub, note);
        }
        std::vector<std::vector<ValueId>> out(nodes.size());
        for (const auto& [v, k] : last) {
            const tracer::ValueInfo& info = g_.value(v);
            const bool here = info.def == tracer::kNoId ? info.region == r : g_.node(info.def).parent == r;
            if (here && g_.node(nodes[k]).op != Op::Yield) out[k].push_back(v);
        }
        for (auto& vs : out) std::sort(vs.begin(), vs.end());  // deterministic IR (the cache key)
        return out;
    }

    bool is_native_scalar_node(const Node& node) const {
        for (ValueId v : node.operands)
            if (!scalar(v)) return false;
        return scalar(node.results[0]);
    }

    void emit_simple_scalar(const Node& node) {
        const ValueId r = node.results[0];
        const Ty t = ty(r);
        ++stats_.native_nodes;
        if (node.op == Op::Truth) {
            reg_[r] = b_.convert(value(node.operands[0]), ty(node.operands[0]), Ty::B);
            return;
        }
        if (node.op == Op::Undef) {
            reg_[r] = t == Ty::B ? "false" : (is_float_ty(t) ? "0.0" : "0");
            return;
        }
        const stdlib::Tensor& c = std::get<stdlib::Tensor>(node.payload);
        switch (t) {
            case Ty::B: reg_[r] = c.item_bool() ? "true" : "false"; break;
            case Ty::I32:
            case Ty::I64: reg_[r] = int_lit(c.item_i64()); break;
            case Ty::F32: reg_[r] = float_lit(static_cast<float>(c.item_f64())); break;
            case Ty::F64: reg_[r] = float_lit(c.item_f64()); break;
        }
    }

    // One element of a native op, from operand elements (value, storage type),
    // in the result's storage type.
    std::string element(const NativeOp& op, NodeId n, const std::vector<std::pair<std::string, Ty>>& x, Ty result) {
        auto cv = [&](size_t i, Ty to) { return b_.convert(x[i].first, x[i].second, to); };
        switch (op.kind) {
            case NativeOp::Binary: {
                std::string r = b_.binary(op.bk, op.compute, cv(0, op.compute), cv(1, op.compute), n);
                return b_.convert(r, stdlib::is_comparison(op.bk) ? Ty::B : op.compute, result);
            }
            case NativeOp::Unary: {
                std::string r = b_.unary(op.uk, op.compute, cv(0, op.compute));
                return b_.convert(r, is_bool_result(op.uk) ? Ty::B : op.compute, result);
            }
            case NativeOp::AsType: return cv(0, result);
            case NativeOp::Where: {
                std::string c = cv(0, Ty::B), a = cv(1, result), b = cv(2, result);
                return b_.def(std::string("select i1 ") + c + ", " + llvm_ty(result) + " " + a + ", " + llvm_ty(result) +
                              " " + b);
            }
            case NativeOp::Clip: {
                std::string m = b_.binary(BinaryKind::Maximum, op.compute, cv(0, op.compute), cv(1, op.compute), n);
                m = b_.convert(b_.convert(m, op.compute, op.mid), op.mid, op.compute2);
                std::string r = b_.binary(BinaryKind::Minimum, op.compute2, m, cv(2, op.compute2), n);
                return b_.convert(r, op.compute2, result);
            }
        }
        throw std::logic_error("codegen: unknown native op");
    }

    void emit_native_scalar(NodeId n, const NativeOp& op) {
        const Node& node = g_.node(n);
        std::vector<std::pair<std::string, Ty>> x;
        for (ValueId v : node.operands) x.emplace_back(value(v), ty(v));
        reg_[node.results[0]] = element(op, n, x, ty(node.results[0]));
        ++stats_.native_nodes;
    }

    // ---- fused element-wise loop nests
    // What a fused group reads and writes, and its loop nest.
    struct GroupPlan {
        std::vector<ValueId> inputs;   // tensors from outside the group
        std::vector<ValueId> outputs;  // results read outside the group
        std::vector<int64_t> dims;     // the loop nest (size-1 dims dropped, contiguous neighbours merged)
        std::vector<std::vector<int64_t>> strides;  // per input, then per output: element stride per dim
        int64_t numel = 0;
    };

    // `reduced`: a result whose only reader is a fused reduction (no buffer).
    GroupPlan plan_group(const std::vector<NodeId>& members, ValueId reduced = tracer::kNoId) const {
        GroupPlan P;
        const Shape shape = g_.tensor_type(g_.node(members.back()).results[0]).shape;
        P.numel = shape.numel();
        std::unordered_set<NodeId> in_group(members.begin(), members.end());
        std::unordered_set<ValueId> produced;
        for (NodeId n : members) produced.insert(g_.node(n).results[0]);
        for (NodeId n : members) {
            ValueId r = g_.node(n).results[0];
            if (r == reduced) continue;
            for (NodeId u : users_[r])
                if (!in_group.count(u)) {
                    P.outputs.push_back(r);
                    break;
                }
        }
        for (NodeId n : members)
            for (ValueId v : g_.node(n).operands)
                if (tensor(v) && !produced.count(v) && std::find(P.inputs.begin(), P.inputs.end(), v) == P.inputs.end())
                    P.inputs.push_back(v);
        // Strides (in elements) of each operand over the output's dims;
        // broadcast dims have stride 0.
        const int rank = shape.rank();
        auto strides_of = [&](const Shape& s) {
            std::vector<int64_t> st(rank, 0);
            int64_t step = 1;
            for (int d = s.rank() - 1; d >= 0; --d) {
                int od = d + rank - s.rank();
                st[od] = (s[d] == 1 && shape[od] != 1) ? 0 : step;
                step *= s[d];
            }
            return st;
        };
        std::vector<ValueId> addressed = P.inputs;
        addressed.insert(addressed.end(), P.outputs.begin(), P.outputs.end());
        std::vector<std::vector<int64_t>> st;
        for (ValueId v : addressed) st.push_back(strides_of(g_.tensor_type(v).shape));
        std::vector<std::vector<int64_t>>& cst = P.strides;
        cst.resize(addressed.size());
        for (int d = 0; d < rank; ++d) {
            if (shape[d] == 1) continue;
            bool merge = !P.dims.empty();
            for (size_t k = 0; merge && k < addressed.size(); ++k)
                if (cst[k].back() != st[k][d] * shape[d]) merge = false;
            if (merge) {
                P.dims.back() *= shape[d];
                for (size_t k = 0; k < addressed.size(); ++k) cst[k].back() = st[k][d];
            } else {
                P.dims.push_back(shape[d]);
                for (size_t k = 0; k < addressed.size(); ++k) cst[k].push_back(st[k][d]);
            }
        }
        if (P.dims.empty()) {
            P.dims.push_back(1);
            for (auto& c : cst) c.push_back(0);
        }
        return P;
    }

    // Pointers to the elements of the group's inputs and (fresh) outputs.
    std::vector<std::string> group_pointers(const GroupPlan& P) {
        std::vector<std::string> ptr;
        for (ValueId v : P.inputs) ptr.push_back(b_.def("call ptr @tg_rt_in(ptr %ctx, i32 " + id(v) + ")"));
        for (ValueId v : P.outputs) {
            ptr.push_back(b_.def("call ptr @tg_rt_out(ptr %ctx, i32 " + id(v) + ")"));
            b_.fail_if(b_.def("icmp eq ptr " + ptr.back() + ", null"));
        }
        return ptr;
    }

    // The group's element code at the element whose offset in addressed
    // operand k is offset(k): loads, the members' element functions, stores.
    // Returns the elements of every member result.
    std::unordered_map<ValueId, std::pair<std::string, Ty>> group_elements(
        const std::vector<NodeId>& members, const GroupPlan& P, const std::vector<std::string>& ptr,
        const std::function<std::string(size_t)>& offset) {
        std::unordered_map<ValueId, std::pair<std::string, Ty>> elem;
        for (size_t k = 0; k < P.inputs.size(); ++k) {
            const ValueId v = P.inputs[k];
            const Ty t = ty(v);
            std::string p = b_.def(std::string("getelementptr ") + mem_ty(t) + ", ptr " + ptr[k] + ", i64 " + offset(k));
            std::string x = b_.def(std::string("load ") + mem_ty(t) + ", ptr " + p);
            if (t == Ty::B) x = b_.def("trunc i8 " + x + " to i1");
            elem[v] = {x, t};
        }
        for (NodeId n : members) {
            const Node& node = g_.node(n);
            std::vector<std::pair<std::string, Ty>> x;
            for (ValueId v : node.operands) {
                if (scalar(v)) x.emplace_back(value(v), ty(v));
                else x.push_back(elem.at(v));
            }
            const ValueId r = node.results[0];
            elem[r] = {element(*native_of(g_, node), n, x, ty(r)), ty(r)};
        }
        for (size_t j = 0; j < P.outputs.size(); ++j) {
            const size_t k = P.inputs.size() + j;
            const ValueId v = P.outputs[j];
            const Ty t = ty(v);
            std::string p = b_.def(std::string("getelementptr ") + mem_ty(t) + ", ptr " + ptr[k] + ", i64 " + offset(k));
            std::string x = elem.at(v).first;
            if (t == Ty::B) x = b_.def("zext i1 " + x + " to i8");
            b_.emit(std::string("store ") + mem_ty(t) + " " + x + ", ptr " + p);
        }
        return elem;
    }

    void count_group(const std::vector<NodeId>& members) {
        ++stats_.fused_groups;
        stats_.fused_nodes += static_cast<int>(members.size());
        stats_.native_nodes += static_cast<int>(members.size());
    }

    // ---- fused element-wise loop nests
    void emit_group(const std::vector<NodeId>& members) {
        const GroupPlan P = plan_group(members);
        count_group(members);
        const std::vector<std::string> ptr = group_pointers(P);
        if (P.numel == 0) return;
        const std::vector<int64_t>& dims = P.dims;
        // the loop nest (do-while form: every dim is >= 1)
        struct Level {
            std::string pre, head, latch, exit, i, next;
        };
        std::vector<Level> levels(dims.size());
        for (size_t k = 0; k < dims.size(); ++k) {
            Level& L = levels[k];
            L.pre = b_.block;
            L.head = b_.label("loop");
            L.latch = b_.label("latch");
            L.exit = b_.label("done");
            L.i = b_.tmp();
            L.next = b_.tmp();
            b_.emit("br label %" + L.head);
            b_.start(L.head);
            b_.emit(L.i + " = phi i64 [0, %" + L.pre + "], [" + L.next + ", %" + L.latch + "]");
        }
        group_elements(members, P, ptr, [&](size_t k) {
            std::string off = "0";
            for (size_t d = 0; d < dims.size(); ++d) {
                const int64_t s = P.strides[k][d];
                if (s == 0) continue;
                std::string term = s == 1 ? levels[d].i : b_.def("mul i64 " + levels[d].i + ", " + std::to_string(s));
                off = off == "0" ? term : b_.def("add i64 " + off + ", " + term);
            }
            return off;
        });
        for (size_t k = dims.size(); k-- > 0;) {
            Level& L = levels[k];
            b_.emit("br label %" + L.latch);
            b_.start(L.latch);
            b_.emit(L.next + " = add i64 " + L.i + ", 1");
            std::string end = b_.def("icmp eq i64 " + L.next + ", " + std::to_string(dims[k]));
            // vectorized, not interleaved: interleaving copies the (often
            // large) body several times for little gain on loops that are
            // compute- or memory-bound, and costs compile time
            b_.emit("br i1 " + end + ", label %" + L.exit + ", label %" + L.head + ", !llvm.loop " + loop_metadata());
            b_.start(L.exit);
        }
    }

    // ---- reductions fused with their producers
    // `sum` / `mean` over all elements (a 0-d result) of a value of the open
    // group that nothing else reads.
    bool is_full_reduction(const Node& node) const {
        if (node.op != Op::Apply || (node.def->name != "sum" && node.def->name != "mean")) return false;
        if (!scalar(node.results[0]) || !tensor(node.operands[0]) || users_[node.operands[0]].size() != 1) return false;
        if (node.attrs.size() < 3) return false;
        const stdlib::Attr& axis = node.attrs[1];
        if (!std::holds_alternative<std::monostate>(axis)) {
            const int rank = g_.tensor_type(node.operands[0]).shape.rank();
            if (!(rank == 1 && std::holds_alternative<int64_t>(axis) &&
                  (std::get<int64_t>(axis) == 0 || std::get<int64_t>(axis) == -1)))
                return false;
        }
        return true;
    }

    // Emits the group with `red` (a full sum/mean of one of its results)
    // computed inside it, in exactly the stdlib's summation order: 0 +
    // pairwise_sum (stdlib/reduce_runs.hpp: halves down to leaves of <= 256
    // elements, 8 accumulators per leaf) in f64 for floats, wrapping u64 for
    // integers. Only for groups whose loop is flat (one dim); false otherwise
    // (nothing emitted).
    bool emit_reduced_group(const std::vector<NodeId>& members, NodeId red) {
        const Node& rnode = g_.node(red);
        const ValueId v = rnode.operands[0];
        const GroupPlan P = plan_group(members, v);
        if (P.dims.size() != 1 || P.numel < 1) return false;
        const bool mean = rnode.def->name == "mean";
        const Ty vt = ty(v);
        const Ty acc = (mean || is_float_ty(vt)) ? Ty::F64 : Ty::I64;
        const std::string A = llvm_ty(acc);
        const std::string add = acc == Ty::F64 ? "fadd double " : "add i64 ";
        count_group(members);
        ++stats_.native_nodes;
        ++stats_.fused_reductions;
        const std::vector<std::string> ptr = group_pointers(P);

        // the helper: <A> @red(ctx, ptrs..., scalars..., i64 a, i64 n), recursive
        std::vector<ValueId> scalars;
        for (NodeId n : members)
            for (ValueId o : g_.node(n).operands)
                if (scalar(o) && std::find(scalars.begin(), scalars.end(), o) == scalars.end() && !reg_[o].empty() &&
                    reg_[o][0] == '%')
                    scalars.push_back(o);
        const std::string fn = "@red" + std::to_string(next_global_++);
        std::string params = "ptr %ctx", args = "ptr %ctx";
        for (size_t k = 0; k < ptr.size(); ++k) {
            params += ", ptr %p" + std::to_string(k);
            args += ", ptr " + ptr[k];
        }
        std::vector<std::string> saved(scalars.size());
        for (size_t k = 0; k < scalars.size(); ++k) {
            const std::string T = llvm_ty(ty(scalars[k]));
            params += ", " + T + " %s" + std::to_string(k);
            args += ", " + T + " " + reg_[scalars[k]];
            saved[k] = reg_[scalars[k]];
            reg_[scalars[k]] = "%s" + std::to_string(k);
        }
        IrBuilder h;
        std::swap(b_, h);  // element code goes into the helper
        std::vector<std::string> lptr;
        for (size_t k = 0; k < ptr.size(); ++k) lptr.push_back("%p" + std::to_string(k));
        auto elem_at = [&](const std::string& idx) {
            auto e = group_elements(members, P, lptr, [&](size_t k) {
                return P.strides[k][0] == 0 ? std::string("0") : idx;  // flat: stride 1 or 0
            });
            const auto& [x, t] = e.at(v);
            return b_.convert(x, t, acc == Ty::F64 ? Ty::F64 : (t == Ty::B ? Ty::B : Ty::I64)) ;
        };
        auto widen = [&](const std::string& x) {  // static_cast<Acc>(element)
            if (acc == Ty::F64) return x;
            if (vt == Ty::B) return b_.def("zext i1 " + x + " to i64");
            return x;  // already i64 (i32 sign-extended by convert)
        };
        const std::string pargs = args;
        b_.emit("%buf = alloca [256 x " + A + "]");
        b_.emit("%big = icmp sgt i64 %n, 256");
        b_.emit("br i1 %big, label %split, label %leaf");
        b_.start("split");
        b_.emit("%h0 = sdiv i64 %n, 2");
        b_.emit("%hr = srem i64 %h0, 8");
        b_.emit("%h = sub i64 %h0, %hr");
        std::string rec = "ptr %ctx";
        for (size_t k = 0; k < ptr.size(); ++k) rec += ", ptr %p" + std::to_string(k);
        for (size_t k = 0; k < scalars.size(); ++k) rec += ", " + std::string(llvm_ty(ty(scalars[k]))) + " %s" + std::to_string(k);
        b_.emit("%l = call " + A + " " + fn + "(" + rec + ", i64 %a, i64 %h)");
        b_.emit("%a2 = add i64 %a, %h");
        b_.emit("%n2 = sub i64 %n, %h");
        b_.emit("%r = call " + A + " " + fn + "(" + rec + ", i64 %a2, i64 %n2)");
        b_.emit("%lr = " + add + "%l, %r");
        b_.emit("ret " + A + " %lr");
        // leaf: the elements into a buffer (one copy of the element code, a
        // loop that vectorizes), then 8 accumulators over groups of 8, then the tail
        const std::string zero = acc == Ty::F64 ? "0.0" : "0";
        auto at = [&](const std::string& i) {
            return b_.def("load " + A + ", ptr " + b_.def("getelementptr " + A + ", ptr %buf, i64 " + i));
        };
        b_.start("leaf");
        b_.emit("br label %fhead");
        b_.start("fhead");
        b_.emit("%e = phi i64 [0, %leaf], [%e1, %flatch]");
        b_.emit("%fmore = icmp slt i64 %e, %n");
        b_.emit("br i1 %fmore, label %fbody, label %sums");
        b_.start("fbody");
        std::string x = widen(elem_at(b_.def("add i64 %a, %e")));
        b_.emit("store " + A + " " + x + ", ptr " + b_.def("getelementptr " + A + ", ptr %buf, i64 %e"));
        b_.emit("%e1 = add i64 %e, 1");
        b_.emit("br label %flatch");
        b_.start("flatch");
        b_.emit("br label %fhead, !llvm.loop " + loop_metadata());
        b_.start("sums");
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
        std::swap(b_, h);
        for (size_t k = 0; k < scalars.size(); ++k) reg_[scalars[k]] = saved[k];

        std::string text = "define internal " + A + " " + fn + "(" + params + ", i64 %a, i64 %n) {\nentry:\n";
        for (const std::string& l : h.lines)
            if (l != "entry:") text += l + "\n";
        text += "}\n";
        helpers_ += text;

        // the call: 0 + pairwise_sum, then Op::finish
        std::string total = b_.def("call " + A + " " + fn + "(" + pargs + ", i64 0, i64 " + std::to_string(P.numel) + ")");
        total = b_.def(add + zero + ", " + total);
        const ValueId out = rnode.results[0];
        const Ty ot = ty(out);
        if (mean) total = b_.def("fdiv double " + total + ", " + float_lit(static_cast<double>(P.numel)));
        reg_[out] = acc == Ty::F64 ? b_.convert(total, Ty::F64, ot) : total;
        return true;
    }

    // ---- other nodes
    void emit_node(NodeId n) {
        const Node& node = g_.node(n);
        switch (node.op) {
            case Op::Cond: emit_cond(n); return;
            case Op::While: emit_while(n); return;
            case Op::Assert:
                if (scalar(node.operands[1])) {
                    emit_assert(n);
                    return;
                }
                break;
            case Op::Index:
                if (emit_element_index(n)) return;
                break;
            default: break;
        }
        emit_runtime(n);
    }

    // x[i, j, ...] reading one element (an int per axis, static or dynamic):
    // a bounds check and a load. Negative indices count from the end; out
    // of range, the node runs in the runtime, which raises eager's error.
    bool emit_element_index(NodeId n) {
        const Node& node = g_.node(n);
        const ValueId x = node.operands[0], r = node.results[0];
        const tracer::IndexSpec& spec = std::get<tracer::IndexSpec>(node.payload);
        const Shape& shape = g_.tensor_type(x).shape;
        if (!tensor(x) || !scalar(r) || static_cast<int>(spec.items.size()) != shape.rank()) return false;
        for (const stdlib::IndexItem& it : spec.items)
            if (it.kind != stdlib::IndexItem::Int) return false;
        const Ty t = ty(x);
        if (ty(r) != t) return false;
        std::string p = b_.def("call ptr @tg_rt_in(ptr %ctx, i32 " + id(x) + ")");
        std::string bad = "false", off = "0";
        size_t dyn = 1;
        // row-major strides of the contiguous elements
        std::vector<int64_t> st(spec.items.size(), 1);
        for (size_t d = spec.items.size(); d-- > 1;) st[d - 1] = st[d] * shape[static_cast<int>(d)];
        for (size_t d = 0; d < spec.items.size(); ++d) {
            const int64_t size = shape[static_cast<int>(d)];
            std::string idx;
            if (spec.dynamic[d]) {
                const ValueId v = node.operands[dyn++];
                idx = b_.convert(value(v), ty(v), Ty::I64);
                std::string neg = b_.def("icmp slt i64 " + idx + ", 0");
                std::string wrapped = b_.def("add i64 " + idx + ", " + std::to_string(size));
                idx = b_.def("select i1 " + neg + ", i64 " + wrapped + ", i64 " + idx);
                std::string out = b_.def("icmp uge i64 " + idx + ", " + std::to_string(size));  // negatives too
                bad = bad == "false" ? out : b_.def("or i1 " + bad + ", " + out);
            } else {
                int64_t k = spec.items[d].index;
                if (k < 0) k += size;
                if (k < 0 || k >= size) return false;  // cannot happen: the tracer checked static indices
                idx = std::to_string(k);
            }
            std::string term = st[d] == 1 ? idx : b_.def("mul i64 " + idx + ", " + std::to_string(st[d]));
            off = off == "0" ? term : b_.def("add i64 " + off + ", " + term);
        }
        if (bad != "false") {
            std::string err = b_.label("oob"), ok = b_.label("ok");
            b_.emit("br i1 " + bad + ", label %" + err + ", label %" + ok);
            b_.start(err);
            for (ValueId v : node.operands)
                if (scalar(v)) spill(v);
            b_.emit("call i32 @tg_rt_node(ptr %ctx, i32 " + id(n) + ")");  // raises eager's error
            b_.emit("br label %fail");
            b_.start(ok);
        }
        std::string e = b_.def(std::string("load ") + mem_ty(t) + ", ptr " +
                               b_.def(std::string("getelementptr ") + mem_ty(t) + ", ptr " + p + ", i64 " + off));
        reg_[r] = t == Ty::B ? b_.def("trunc i8 " + e + " to i1") : e;
        ++stats_.native_nodes;
        return true;
    }

    void emit_runtime(NodeId n) {
        const Node& node = g_.node(n);
        for (ValueId v : node.operands)
            if (scalar(v)) spill(v);
        b_.check_status(b_.def("call i32 @tg_rt_node(ptr %ctx, i32 " + id(n) + ")"));
        for (ValueId v : node.results)
            if (scalar(v)) load(v);
        ++stats_.runtime_nodes;
    }

    void emit_assert(NodeId n) {
        const Node& node = g_.node(n);
        std::string bad = b_.label("assert"), ok = b_.label("ok");
        b_.emit("br i1 " + value(node.operands[1]) + ", label %" + ok + ", label %" + bad);
        b_.start(bad);
        for (ValueId v : node.operands)
            if (scalar(v)) spill(v);
        b_.emit("call i32 @tg_rt_node(ptr %ctx, i32 " + id(n) + ")");  // raises the assert's message
        b_.emit("br label %fail");
        b_.start(ok);
        ++stats_.native_nodes;
    }

    // Binds region r's arguments to `from` (0-d: the same registers; tensors: slot copies).
    void bind(RegionId r, std::span<const ValueId> from) {
        const auto& args = g_.region(r).args;
        for (size_t i = 0; i < args.size(); ++i)
            if (scalar(args[i])) reg_[args[i]] = value(from[i]);
        copies(args, from);
    }

    void emit_cond(NodeId n) {
        const Node& node = g_.node(n);
        std::span<const ValueId> ins(node.operands.data() + 1, node.operands.size() - 1);
        std::string lt = b_.label("then"), le = b_.label("else"), lm = b_.label("merge");
        b_.emit("br i1 " + value(node.operands[0]) + ", label %" + lt + ", label %" + le);
        std::string ends[2];
        std::vector<std::string> yields[2];
        for (int k = 0; k < 2; ++k) {
            b_.start(k == 0 ? lt : le);
            bind(node.regions[k], ins);
            const Node& y = emit_region(node.regions[k]);
            for (size_t i = 0; i < node.results.size(); ++i)
                yields[k].push_back(scalar(y.operands[i]) ? value(y.operands[i]) : "");
            copies(node.results, y.operands);
            ends[k] = b_.block;
            b_.emit("br label %" + lm);
        }
        b_.start(lm);
        for (size_t i = 0; i < node.results.size(); ++i) {
            const ValueId r = node.results[i];
            if (!scalar(r)) continue;
            reg_[r] = b_.def(std::string("phi ") + llvm_ty(ty(r)) + " [" + yields[0][i] + ", %" + ends[0] + "], [" +
                             yields[1][i] + ", %" + ends[1] + "]");
        }
        ++stats_.native_nodes;
    }

    // One loop iteration for the host's limits (steps, interrupts), reported
    // every kTickBatch iterations.
    void tick() {
        std::string c0 = b_.def("load i64, ptr %cnt");
        std::string c1 = b_.def("sub i64 " + c0 + ", 1");
        b_.emit("store i64 " + c1 + ", ptr %cnt");
        std::string t = b_.label("tick"), go = b_.label("go");
        b_.emit("br i1 " + b_.def("icmp eq i64 " + c1 + ", 0") + ", label %" + t + ", label %" + go);
        b_.start(t);
        b_.emit("store i64 " + std::to_string(kTickBatch) + ", ptr %cnt");
        b_.check_status(b_.def("call i32 @tg_rt_tick(ptr %ctx, i64 " + std::to_string(kTickBatch) + ")"));
        b_.emit("br label %" + go);
        b_.start(go);
    }

    void emit_while(NodeId n) {
        const Node& node = g_.node(n);
        const RegionId cr = node.regions[0], br = node.regions[1];
        const auto& cargs = g_.region(cr).args;
        copies(cargs, node.operands);
        const std::string pre = b_.block;
        std::string head = b_.label("whead"), body = b_.label("wbody"), exit = b_.label("wexit");
        b_.emit("br label %" + head);
        b_.start(head);
        // phis of the 0-d carried values; the back edge is filled in after the body
        std::vector<size_t> phi_line(cargs.size(), SIZE_MAX);
        for (size_t i = 0; i < cargs.size(); ++i) {
            if (!scalar(cargs[i])) continue;
            reg_[cargs[i]] = b_.tmp();
            phi_line[i] = b_.lines.size();
            b_.lines.push_back("");
        }
        const Node& cy = emit_region(cr);
        const std::vector<ValueId> cyv = cy.operands;  // pred, carried...
        std::span<const ValueId> carried(cyv.data() + 1, cyv.size() - 1);
        b_.emit("br i1 " + value(cyv[0]) + ", label %" + body + ", label %" + exit);
        b_.start(body);
        if (ticks_) tick();
        bind(br, carried);
        const Node& by = emit_region(br);
        std::vector<std::string> back;
        for (ValueId v : by.operands) back.push_back(scalar(v) ? value(v) : "");
        copies(cargs, by.operands);
        const std::string latch = b_.block;
        b_.emit("br label %" + head);
        for (size_t i = 0; i < cargs.size(); ++i) {
            if (phi_line[i] == SIZE_MAX) continue;
            b_.lines[phi_line[i]] = "  " + reg_[cargs[i]] + " = phi " + llvm_ty(ty(cargs[i])) + " [" +
                                    value(node.operands[i]) + ", %" + pre + "], [" + back[i] + ", %" + latch + "]";
        }
        b_.start(exit);
        for (size_t i = 0; i < node.results.size(); ++i)
            if (scalar(node.results[i])) reg_[node.results[i]] = value(carried[i]);
        copies(node.results, carried);
        ++stats_.native_nodes;
    }

    const Graph& g_;
    const bool ticks_;  // loops count iterations for the host
    IrBuilder b_;
    std::vector<std::string> reg_;               // 0-d values: their LLVM operand
    std::vector<std::vector<NodeId>> users_;     // per value: the nodes reading it
    std::string globals_;
    std::string helpers_;  // functions of fused reductions
    std::string metadata_;  // loop metadata nodes
    int next_metadata_ = 0;
    int next_global_ = 0;
    LoweringStats stats_;
};

}  // namespace

Lowered lower_graph(const Graph& g, const std::string& entry, bool count_iterations) {
    return Lowerer(g, count_iterations).run(entry);
}

}  // namespace tg::codegen
