// Fused element-wise loop nests: one per group of element-wise nodes of one
// shape (reductions fused into a group: lower_reduce.cpp).
#include <algorithm>
#include <unordered_set>

#include "codegen/lowerer.hpp"

namespace tg::codegen::detail {

// `reduced`: a result whose only reader is a fused reduction (no buffer).
Lowerer::GroupPlan Lowerer::plan_group(const std::vector<NodeId>& members, ValueId reduced) const {
    GroupPlan P;
    // no members: a standalone reduction of `reduced`, read from its buffer
    const ValueId last = members.empty() ? reduced : g_.node(members.back()).results[0];
    if (members.empty()) P.inputs.push_back(reduced);
    const Shape shape = plan_shape(last);  // dynamic axis 0 at its planned size: strides do not depend on it
    P.numel = shape.numel();
    P.sym = g_.dim_symbol(last, 0);
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
    for (ValueId v : addressed) st.push_back(strides_of(plan_shape(v)));
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
std::vector<std::string> Lowerer::group_pointers(const GroupPlan& P) {
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
std::unordered_map<ValueId, std::pair<std::string, Ty>> Lowerer::group_elements(
    const std::vector<NodeId>& members, const GroupPlan& P, const std::vector<std::string>& ptr,
    const std::function<std::string(size_t)>& offset) {
    std::unordered_map<ValueId, std::pair<std::string, Ty>> elem;
    const GroupScopes scopes = group_scopes(P.outputs.size());
    for (size_t k = 0; k < P.inputs.size(); ++k) {
        const ValueId v = P.inputs[k];
        const Ty t = ty(v);
        std::string p = b_.def(std::string("getelementptr ") + mem_ty(t) + ", ptr " + ptr[k] + ", i64 " + offset(k));
        std::string x = b_.def(std::string("load ") + mem_ty(t) + ", ptr " + p + scopes.loads);
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
        b_.emit(std::string("store ") + mem_ty(t) + " " + x + ", ptr " + p + scopes.stores[j]);
    }
    return elem;
}

void Lowerer::count_group(const std::vector<NodeId>& members) {
    ++stats_.fused_groups;
    stats_.fused_nodes += static_cast<int>(members.size());
    stats_.native_nodes += static_cast<int>(members.size());
}

// ---- fused element-wise loop nests
void Lowerer::emit_group(const std::vector<NodeId>& members) {
    const GroupPlan P = plan_group(members);
    count_group(members);
    const std::vector<std::string> ptr = group_pointers(P);
    if (P.numel == 0) return;  // (a dynamic axis 0 is never 0: then a static one is)
    const int64_t outer = P.dims[0], inner = P.numel / outer;
    const int64_t work = P.numel * static_cast<int64_t>(members.size());
    // A group that can raise (integer //, %, **) stays on this thread at any
    // size: its error is reported from the graph's function (tg_rt_error,
    // then `fail`), at the first failing element, as eager's.
    const bool raises = std::any_of(members.begin(), members.end(),
                                    [&](NodeId n) { return native_of(g_, g_.node(n))->may_raise; });
    // A dynamic outer extent is known only at run time: the loop is
    // outlined, and tg_rt_parallel runs it inline when it is small.
    if (raises || (P.sym < 0 && (outer < 2 || work < 2 * kChunkWork))) {  // small: inline, as fast as before the pool existed
        emit_loop_nest(members, P, ptr, "0", extent(outer, P.sym));
        return;
    }
    // Large: the loop nest goes into a function over [begin, end) of its
    // outer loop, which tg_rt_parallel splits over the thread pool.
    ++stats_.parallel_loops;
    const Captures c = captures(members, ptr);
    const std::string fn = "@par" + std::to_string(next_global_++);
    const std::string env = outline("void " + fn + "(ptr %env, i64 %begin, i64 %end)", c,
                                    [&](const std::string&, const std::vector<std::string>& lptr) {
                                        emit_loop_nest(members, P, lptr, "%begin", "%end");
                                        b_.emit("ret void");
                                    });
    const int64_t grain = (kChunkWork + inner * int64_t(members.size()) - 1) / (inner * int64_t(members.size()));
    const int64_t align = P.dims.size() == 1 ? 64 : 1;  // flat: chunks of whole cache lines
    b_.emit("call void @tg_rt_parallel(ptr %ctx, ptr " + fn + ", ptr " + env + ", i64 " + extent(outer, P.sym) +
            ", i64 " + std::to_string(grain) + ", i64 " + std::to_string(align) + ")");
}

// The loop nest of a group over [begin, end) of its outer loop (all of
// every inner one); `ptr`: the group's pointers, as group_pointers.
void Lowerer::emit_loop_nest(const std::vector<NodeId>& members, const GroupPlan& P, const std::vector<std::string>& ptr,
                             const std::string& begin, const std::string& end) {
    const std::vector<int64_t>& dims = P.dims;
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
        b_.emit(L.i + " = phi i64 [" + (k == 0 ? begin : std::string("0")) + ", %" + L.pre + "], [" + L.next + ", %" +
                L.latch + "]");
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
        std::string stop = b_.def("icmp eq i64 " + L.next + ", " + (k == 0 ? end : std::to_string(dims[k])));
        b_.emit("br i1 " + stop + ", label %" + L.exit + ", label %" + L.head + ", !llvm.loop " + loop_metadata());
        b_.start(L.exit);
    }
}

// ---- outlined helpers (parallel loops, reduction tasks)
Lowerer::Captures Lowerer::captures(const std::vector<NodeId>& members, const std::vector<std::string>& ptr) const {
    Captures c;
    c.ptrs = ptr;
    for (NodeId n : members)
        for (ValueId o : g_.node(n).operands)
            if (scalar(o) && std::find(c.scalars.begin(), c.scalars.end(), o) == c.scalars.end() && !reg_[o].empty() &&
                reg_[o][0] == '%')  // in a register (not a literal)
                c.scalars.push_back(o);
    return c;
}

std::string Lowerer::outline(const std::string& signature, const Captures& c,
                             const std::function<void(const std::string& ctx, const std::vector<std::string>& lptr)>& body) {
    // the environment: one 8-byte field each for %ctx, the pointers, the 0-d values
    const size_t fields = 1 + c.ptrs.size() + c.scalars.size();
    const std::string env = "%env" + std::to_string(next_global_++);
    entry_allocas_.push_back(env + " = alloca [" + std::to_string(fields) + " x i64], align 8");
    auto field = [&](size_t k, const std::string& base) {
        return b_.def("getelementptr [" + std::to_string(fields) + " x i64], ptr " + base + ", i64 0, i64 " + std::to_string(k));
    };
    std::vector<std::string> types(fields, "ptr"), values{"%ctx"};
    values.insert(values.end(), c.ptrs.begin(), c.ptrs.end());
    for (size_t k = 0; k < c.scalars.size(); ++k) {
        types[1 + c.ptrs.size() + k] = llvm_ty(ty(c.scalars[k]));
        values.push_back(reg_[c.scalars[k]]);
    }
    for (size_t k = 0; k < fields; ++k) b_.emit("store " + types[k] + " " + values[k] + ", ptr " + field(k, env));

    IrBuilder h;
    std::swap(b_, h);  // the helper's code
    std::vector<std::string> loaded;
    for (size_t k = 0; k < fields; ++k) loaded.push_back(b_.def("load " + types[k] + ", ptr " + field(k, "%env")));
    std::vector<std::string> saved(c.scalars.size());
    for (size_t k = 0; k < c.scalars.size(); ++k) {
        saved[k] = reg_[c.scalars[k]];
        reg_[c.scalars[k]] = loaded[1 + c.ptrs.size() + k];
    }
    body(loaded[0], std::vector<std::string>(loaded.begin() + 1, loaded.begin() + 1 + long(c.ptrs.size())));
    for (size_t k = 0; k < c.scalars.size(); ++k) reg_[c.scalars[k]] = saved[k];
    std::swap(b_, h);
    define_helper(signature, h);
    return env;
}

void Lowerer::define_helper(const std::string& signature, const IrBuilder& h) {
    std::string text = "define internal " + signature + " {\nentry:\n";
    for (const std::string& l : h.lines)
        if (l != "entry:") text += l + "\n";
    helpers_ += text + "}\n";
}

}  // namespace tg::codegen::detail
