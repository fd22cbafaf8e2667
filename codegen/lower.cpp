// Graph -> LLVM IR text (codegen/lower.hpp). One pass over the regions in
// program order; element-wise nodes on tensors are grouped into fused loop
// nests as they are met (see emit_region; the groups are in lower_fused.cpp).
#include <algorithm>
#include <unordered_set>

#include "codegen/lowerer.hpp"

namespace tg::codegen {

namespace detail {

Lowered Lowerer::run(const std::string& entry) {
    b_.lines.push_back("define i32 @" + entry + "(ptr %ctx) {");
    b_.start("entry");
    // %cnt counts down the iterations of the current batch (%batch of them);
    // tg_rt_tick sizes the next batch so that ticks come about every
    // millisecond: every iteration in a loop of heavy ops, every kTickBatch
    // in a loop of scalar arithmetic.
    b_.emit("%cnt = alloca i64");
    b_.emit("%batch = alloca i64");
    b_.emit("store i64 1, ptr %cnt");
    b_.emit("store i64 1, ptr %batch");
    load_dims();  // dynamic dimensions: this call's sizes, once
    const tracer::Region& body = g_.region(Graph::kBody);
    for (ValueId a : body.args)
        if (scalar(a)) load(a);
    const Node& y = emit_region(Graph::kBody);
    for (ValueId v : y.operands)
        if (scalar(v)) spill(v);
    if (ticks_) {  // report the iterations not reported yet
        std::string left = b_.def("load i64, ptr %cnt");
        std::string size = b_.def("load i64, ptr %batch");
        std::string done = b_.def("sub i64 " + size + ", " + left);
        b_.check_status(b_.def("call i32 @tg_rt_tick(ptr %ctx, i64 " + done + ", ptr %batch, i32 -1)"));
    }
    b_.emit("ret i32 0");
    b_.start("fail");
    // the environments of outlined helpers: allocated once, at entry (not in loops)
    b_.lines.insert(b_.lines.begin() + 2, entry_allocas_.begin(), entry_allocas_.end());
    b_.emit("ret i32 1");
    b_.lines.push_back("}");
    Lowered out;
    out.entry = entry;
    std::string code = globals_ + helpers_;
    for (const std::string& l : b_.lines) code += l + "\n";
    // Without fused loops the module is 0-d arithmetic, runtime calls and
    // `while` loops, which need none of O2's vectorizers and loop passes: the
    // session gives it a short pipeline (jit_llvm.cpp).
    if (stats_.fused_groups == 0 && stats_.fused_reductions == 0)
        metadata_ += "!tg.pipeline = !{" + metadata_node("!{!\"scalar\"}") + "}\n";
    code += metadata_;
    out.ir = module_prelude_for(code) + code;
    out.stats = stats_;
    return out;
}

void Lowerer::load(ValueId v) {
    const Ty t = ty(v);
    std::string call = std::string("call ") + (t == Ty::B ? "i32" : llvm_ty(t)) + " @tg_rt_get_" + ty_suffix(t) +
                       "(ptr %ctx, i32 " + id(v) + ")";
    std::string x = b_.def(call);
    reg_[v] = t == Ty::B ? b_.def("icmp ne i32 " + x + ", 0") : x;
}

void Lowerer::spill(ValueId v) {
    const Ty t = ty(v);
    std::string x = value(v);
    if (t == Ty::B) x = b_.def("zext i1 " + x + " to i32");
    b_.emit(std::string("call void @tg_rt_set_") + ty_suffix(t) + "(ptr %ctx, i32 " + id(v) + ", " +
            (t == Ty::B ? "i32" : llvm_ty(t)) + " " + x + ")");
}

// Metadata of a loop we emit: no interleaving and no unrolling. Fused loops
// and reductions stream memory, where the vector loop alone is as fast; every
// copy of a body costs compile time that the first call waits for. A `while`
// (scalar = false) is not vectorized either: its body is 0-d arithmetic whose
// vector form LLVM builds from scalarized pieces (the 9-node benchmark loop:
// O2 + codegen 7 ms as written, 9.7 ms unrolled, 13 ms vectorized, and no
// faster either way).
std::string Lowerer::loop_metadata(bool vectorize) {
    const int n = next_metadata_;
    next_metadata_ += 3;
    metadata_ += "!" + std::to_string(n) + " = distinct !{!" + std::to_string(n) + ", !" + std::to_string(n + 1) +
                 ", !" + std::to_string(n + 2) + "}\n!" + std::to_string(n + 1) +
                 (vectorize ? " = !{!\"llvm.loop.interleave.count\", i32 1}\n!"
                            : " = !{!\"llvm.loop.vectorize.enable\", i1 false}\n!") +
                 std::to_string(n + 2) + " = !{!\"llvm.loop.unroll.disable\"}\n";
    return "!" + std::to_string(n);
}

// A metadata node (its text after `!N = `); its name.
std::string Lowerer::metadata_node(const std::string& text) {
    const std::string id = "!" + std::to_string(next_metadata_++);
    metadata_ += id + " = " + text + "\n";
    return id;
}

// Alias scopes of a fused group: one per output buffer. The outputs are
// fresh buffers (tg_rt_out), so they alias neither the inputs nor each
// other; saying so spares the vectorizer its runtime overlap checks and the
// scalar copy of the loop that goes with them.
Lowerer::GroupScopes Lowerer::group_scopes(size_t outputs) {
    GroupScopes S;
    if (outputs == 0) return S;
    const std::string domain = "!" + std::to_string(next_metadata_);
    metadata_node("distinct !{" + domain + "}");
    std::vector<std::string> scope;
    for (size_t j = 0; j < outputs; ++j) {
        const std::string sid = "!" + std::to_string(next_metadata_);
        metadata_node("distinct !{" + sid + ", " + domain + "}");
        scope.push_back(sid);
    }
    auto list = [&](size_t except) {
        std::string t;
        for (size_t j = 0; j < outputs; ++j)
            if (j != except) t += (t.empty() ? "" : ", ") + scope[j];
        return t;
    };
    S.loads = ", !noalias " + metadata_node("!{" + list(outputs) + "}");
    for (size_t j = 0; j < outputs; ++j) {
        std::string st = ", !alias.scope " + metadata_node("!{" + scope[j] + "}");
        if (outputs > 1) st += ", !noalias " + metadata_node("!{" + list(j) + "}");
        S.stores.push_back(st);
    }
    return S;
}

// A constant array of value ids (a module global); its name.
std::string Lowerer::id_array(const std::vector<ValueId>& xs) {
    std::string name = "@ids" + std::to_string(next_global_++);
    globals_ += name + " = private unnamed_addr constant [" + std::to_string(xs.size()) + " x i32] [";
    for (size_t i = 0; i < xs.size(); ++i) globals_ += (i ? ", i32 " : "i32 ") + id(xs[i]);
    globals_ += "]\n";
    return name;
}

// slots[dst[i]] = slots[src[i]] for the tensor pairs (a parallel assignment).
void Lowerer::copies(std::span<const ValueId> dst, std::span<const ValueId> src, RegionId dying) {
    std::vector<ValueId> d, s, dead;
    for (size_t i = 0; i < dst.size(); ++i)
        if (tensor(dst[i]) && dst[i] != src[i]) {
            d.push_back(dst[i]);
            s.push_back(src[i]);
            dead.push_back(dying != tracer::kNoId && defined_in(src[i], dying) ? 1 : 0);
        }
    if (d.empty()) return;
    std::string dn = id_array(d), sn = id_array(s), kn = id_array(dead);
    b_.emit("call void @tg_rt_copies(ptr %ctx, ptr " + dn + ", ptr " + sn + ", ptr " + kn + ", i32 " +
            std::to_string(d.size()) + ")");
}

bool Lowerer::defined_in(ValueId v, RegionId r) const {
    const tracer::ValueInfo& info = g_.value(v);
    return info.def == tracer::kNoId ? info.region == r : g_.node(info.def).parent == r;
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
const Node& Lowerer::emit_region(RegionId r) {
    std::vector<NodeId> open;  // the open group; its members' results all have the same dims (same_dims)
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
        if (nat && tensor(node.results[0]) && !fusable_dims(node)) {  // dynamic beyond the batch axis
            flush();
            emit_runtime(n);
            continue;
        }
        if (nat && tensor(node.results[0])) {
            if (!open.empty() && (!same_dims(node.results[0], g_.node(open.back()).results[0]) || nat->may_raise))
                flush();
            open.push_back(n);
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
        if (const ReduceSpan span = open.empty() ? ReduceSpan{} : reduction_span(node);
            span.kind != ReduceSpan::None &&
            std::find_if(open.begin(), open.end(),
                         [&](NodeId m) { return g_.node(m).results[0] == node.operands[0]; }) != open.end() &&
            emit_reduced_group(open, n, span)) {
            open.clear();
            release();
            continue;
        }
        flush();
        // All elements of a static value no group produces (an input, a
        // loop-carried value, one other nodes read too): the same native loop
        // with no members, not the runtime. (Rows, columns and dynamic sizes
        // stay in the runtime: their addressing assumes a producing group.)
        if (const ReduceSpan span = reduction_span(node, true);
            span.kind == ReduceSpan::Full && span.sym < 0 && !dynamic(node.operands[0]) &&
            emit_reduced_group({}, n, span)) {
            release();
            continue;
        }
        if (nat) emit_native_scalar(n, *nat);
        else if (node.op != Op::IndexAssign ||
                 !emit_element_store(n, std::find(dying[k].begin(), dying[k].end(), node.operands[0]) != dying[k].end()))
            emit_node(n);
    }
    throw std::logic_error("codegen: region without a yield");
}

// For each node of r (by position): the tensors defined in r whose last
// reader in r is that node.
std::vector<std::vector<ValueId>> Lowerer::last_uses(RegionId r) const {
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

bool Lowerer::is_native_scalar_node(const Node& node) const {
    for (ValueId v : node.operands)
        if (!scalar(v)) return false;
    return scalar(node.results[0]);
}

void Lowerer::emit_simple_scalar(const Node& node) {
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
    if (const tracer::Graph::SizeConstant* sc = g_.size_constant(g_.value(r).def)) {
        // factor x a symbol's size, as eager makes it: an integer, converted
        // to the constant's type (exact: sizes are far below 2^53)
        const std::string n = extent(sc->value(plan_sizes_[static_cast<size_t>(sc->symbol)]), sc->symbol);
        reg_[r] = b_.convert(n, Ty::I64, t);
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
std::string Lowerer::element(const NativeOp& op, NodeId n, const std::vector<std::pair<std::string, Ty>>& x, Ty result) {
    auto cv = [&](size_t i, Ty to) { return b_.convert(x[i].first, x[i].second, to); };
    switch (op.kind) {
        case NativeOp::Binary: {
            std::string r = b_.binary(op.bk, op.compute, cv(0, op.compute), cv(1, op.compute), n);
            return b_.convert(r, stdlib::is_comparison(op.bk) ? Ty::B : op.compute, result);
        }
        case NativeOp::Unary: {
            std::string r = b_.unary(op.uk, op.compute, cv(0, op.compute));
            return b_.convert(r, stdlib::is_predicate(op.uk) ? Ty::B : op.compute, result);
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

void Lowerer::emit_native_scalar(NodeId n, const NativeOp& op) {
    const Node& node = g_.node(n);
    std::vector<std::pair<std::string, Ty>> x;
    for (ValueId v : node.operands) x.emplace_back(value(v), ty(v));
    reg_[node.results[0]] = element(op, n, x, ty(node.results[0]));
    ++stats_.native_nodes;
}

// ---- other nodes
void Lowerer::emit_node(NodeId n) {
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
        case Op::Apply: case Op::Constant: case Op::Undef: case Op::Truth: case Op::IndexAssign:
        case Op::Yield: case Op::Print: case Op::Raise: case Op::HostCall: break;
    }
    emit_runtime(n);
}

// x[i, j, ...] reading one element (an int per axis, static or dynamic):
// a bounds check and a load. Negative indices count from the end; out
// of range, the node runs in the runtime, which raises eager's error.
std::optional<std::string> Lowerer::element_offset(NodeId n, ValueId x, size_t first_dynamic) {
    const Node& node = g_.node(n);
    const tracer::IndexSpec& spec = std::get<tracer::IndexSpec>(node.payload);
    const Shape& shape = g_.tensor_type(x).shape;
    if (!tensor(x) || static_cast<int>(spec.items.size()) != shape.rank()) return std::nullopt;
    if (!batch_only(x)) return std::nullopt;  // strides known only at run time: the runtime indexes
    const int sym = g_.dim_symbol(x, 0);      // axis 0's size is %dimK: every index on it is checked
    for (size_t d = 0; d < spec.items.size(); ++d) {
        if (spec.items[d].kind != stdlib::IndexItem::Int) return std::nullopt;
        if (!spec.dynamic[d] && !(d == 0 && sym >= 0)) {
            const int64_t k = spec.items[d].index, size = shape[static_cast<int>(d)];
            if (k < -size || k >= size) return std::nullopt;  // cannot happen: the tracer checked static indices
        }
    }
    std::string bad = "false", off = "0";
    size_t dyn = first_dynamic;
    std::vector<int64_t> st(spec.items.size(), 1);
    for (size_t d = spec.items.size(); d-- > 1;) st[d - 1] = st[d] * shape[static_cast<int>(d)];
    for (size_t d = 0; d < spec.items.size(); ++d) {
        const bool dyn_axis = d == 0 && sym >= 0;
        const std::string size = dyn_axis ? "%dim" + std::to_string(sym) : std::to_string(shape[static_cast<int>(d)]);
        std::string idx;
        if (spec.dynamic[d] || dyn_axis) {
            if (spec.dynamic[d]) {
                const ValueId v = node.operands[dyn++];
                idx = b_.convert(value(v), ty(v), Ty::I64);
            } else {
                idx = std::to_string(spec.items[d].index);
            }
            std::string neg = b_.def("icmp slt i64 " + idx + ", 0");
            std::string wrapped = b_.def("add i64 " + idx + ", " + size);
            idx = b_.def("select i1 " + neg + ", i64 " + wrapped + ", i64 " + idx);
            std::string out = b_.def("icmp uge i64 " + idx + ", " + size);  // negatives too
            bad = bad == "false" ? out : b_.def("or i1 " + bad + ", " + out);
        } else {
            const int64_t k = spec.items[d].index;
            idx = std::to_string(k < 0 ? k + shape[static_cast<int>(d)] : k);
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
    return off;
}

bool Lowerer::emit_element_index(NodeId n) {
    const Node& node = g_.node(n);
    const ValueId x = node.operands[0], r = node.results[0];
    if (!tensor(x) || !scalar(r) || ty(r) != ty(x)) return false;
    std::optional<std::string> off = element_offset(n, x, 1);
    if (!off) return false;
    const Ty t = ty(x);
    std::string p = b_.def("call ptr @tg_rt_in(ptr %ctx, i32 " + id(x) + ")");
    std::string e = b_.def(std::string("load ") + mem_ty(t) + ", ptr " +
                           b_.def(std::string("getelementptr ") + mem_ty(t) + ", ptr " + p + ", i64 " + *off));
    reg_[r] = t == Ty::B ? b_.def("trunc i8 " + e + " to i1") : e;
    ++stats_.native_nodes;
    return true;
}

bool Lowerer::emit_element_store(NodeId n, bool x_dies) {
    const Node& node = g_.node(n);
    const ValueId x = node.operands[0], v = node.operands[1], r = node.results[0];
    if (!tensor(x) || !scalar(v) || !tensor(r) || ty(r) != ty(x)) return false;
    std::optional<std::string> off = element_offset(n, x, 2);
    if (!off) return false;
    const Ty t = ty(x);
    // the value as x's dtype (index_assign casts it), computed before x is taken over
    std::string e = b_.convert(value(v), ty(v), t);
    if (t == Ty::B) e = b_.def("zext i1 " + e + " to i8");
    std::string p = b_.def("call ptr @tg_rt_own(ptr %ctx, i32 " + id(r) + ", i32 " + id(x) + ", i32 " +
                           (x_dies ? "1" : "0") + ")");
    b_.fail_if(b_.def("icmp eq ptr " + p + ", null"));
    b_.emit(std::string("store ") + mem_ty(t) + " " + e + ", ptr " +
            b_.def(std::string("getelementptr ") + mem_ty(t) + ", ptr " + p + ", i64 " + *off));
    ++stats_.native_nodes;
    return true;
}

void Lowerer::emit_runtime(NodeId n) {
    const Node& node = g_.node(n);
    for (ValueId v : node.operands)
        if (scalar(v)) spill(v);
    b_.check_status(b_.def("call i32 @tg_rt_node(ptr %ctx, i32 " + id(n) + ")"));
    for (ValueId v : node.results)
        if (scalar(v)) load(v);
    ++stats_.runtime_nodes;
}

void Lowerer::emit_assert(NodeId n) {
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
void Lowerer::bind(RegionId r, std::span<const ValueId> from, RegionId dying) {
    const auto& args = g_.region(r).args;
    for (size_t i = 0; i < args.size(); ++i)
        if (scalar(args[i])) reg_[args[i]] = value(from[i]);
    copies(args, from, dying);
}

void Lowerer::emit_cond(NodeId n) {
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
        copies(node.results, y.operands, node.regions[k]);
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

// One loop iteration for the host's limits (steps, interrupts, deadline),
// reported in batches of %batch iterations (1 to kTickBatch, chosen by tg_rt_tick).
// `loop`: the while node, where a limit reached is located.
void Lowerer::tick(NodeId loop) {
    std::string c0 = b_.def("load i64, ptr %cnt");
    std::string c1 = b_.def("sub i64 " + c0 + ", 1");
    b_.emit("store i64 " + c1 + ", ptr %cnt");
    std::string t = b_.label("tick"), go = b_.label("go");
    b_.emit("br i1 " + b_.def("icmp eq i64 " + c1 + ", 0") + ", label %" + t + ", label %" + go);
    b_.start(t);
    std::string size = b_.def("load i64, ptr %batch");
    b_.check_status(b_.def("call i32 @tg_rt_tick(ptr %ctx, i64 " + size + ", ptr %batch, i32 " +
                           std::to_string(loop) + ")"));
    b_.emit("store i64 " + b_.def("load i64, ptr %batch") + ", ptr %cnt");
    b_.emit("br label %" + go);
    b_.start(go);
}

void Lowerer::emit_while(NodeId n) {
    const Node& node = g_.node(n);
    const RegionId cr = node.regions[0], br = node.regions[1];
    const auto& cargs = g_.region(cr).args;
    copies(cargs, node.operands);
    const std::string pre = b_.block;
    std::string head = b_.label("whead"), body = b_.label("wbody"), exit = b_.label("wexit");
    b_.emit("br label %" + head);
    b_.start(head);
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
    if (ticks_) tick(n);
    bind(br, carried, cr);
    const Node& by = emit_region(br);
    std::vector<std::string> back;
    for (ValueId v : by.operands) back.push_back(scalar(v) ? value(v) : "");
    copies(cargs, by.operands, br);
    const std::string latch = b_.block;
    b_.emit("br label %" + head + ", !llvm.loop " + loop_metadata(false));
    for (size_t i = 0; i < cargs.size(); ++i) {
        if (phi_line[i] == SIZE_MAX) continue;
        b_.lines[phi_line[i]] = "  " + reg_[cargs[i]] + " = phi " + llvm_ty(ty(cargs[i])) + " [" +
                                value(node.operands[i]) + ", %" + pre + "], [" + back[i] + ", %" + latch + "]";
    }
    b_.start(exit);
    for (size_t i = 0; i < node.results.size(); ++i)
        if (scalar(node.results[i])) reg_[node.results[i]] = value(carried[i]);
    copies(node.results, carried, cr);
    ++stats_.native_nodes;
}

}  // namespace detail

Lowered lower_graph(const tracer::Graph& g, const std::string& entry, bool count_iterations) {
    return detail::Lowerer(g, count_iterations).run(entry);
}

}  // namespace tg::codegen
