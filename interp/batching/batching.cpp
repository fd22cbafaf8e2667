#include "interp/batching/batching.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>

#include "interp/autodiff/autodiff.hpp"
#include "interp/batching/rules.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "stdlib/errors.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::TensorType;

stdlib::TensorType example_type(const BatchObj& b) {
    TensorType t = b.value.tensor_type();
    stdlib::Shape s;
    for (int i = 0; i < t.shape.rank(); ++i)
        if (i != b.dim) s.push_back(t.shape[i]);
    t.shape = s;
    return t;
}

void batched_data_error(const Value& v) {
    const TensorType t = v.tensor_type();
    throw Error("vmap: this reads the value of a batched tensor (" + std::string(stdlib::dtype_name(t.dtype)) +
                " of shape " + t.shape.to_string() +
                " per example), which differs per example: a native `if` or `while` on it, print() or str() of it "
                "cannot run once for all examples; use tensor ops (where() to choose per example; "
                "docs/training.md \"vmap\")");
}

bool has_batched(const Value& v) {
    if (v.batched()) return true;
    if (const GradObj* g = v.tracked()) return has_batched(g->primal);
    if (const auto xs = v.children())
        for (const Value& x : *xs)
            if (has_batched(x)) return true;
    return false;
}

bool has_transformed(const Value& v) {
    if (v.transformed()) return true;
    if (const auto xs = v.children())
        for (const Value& x : *xs)
            if (has_transformed(x)) return true;
    return false;
}

namespace {

bool live(const Runtime& rt, const BatchObj& b) {
    return b.level >= 1 && b.level <= rt.vmaps.size() && rt.vmaps[b.level - 1] == b.serial;
}

bool live(const Runtime& rt, const GradObj& g) {
    return g.level >= 1 && g.level <= rt.tapes.size() && rt.tapes[g.level - 1]->id == g.tape;
}

// The serial of the innermost live transformation v is wrapped in (0:
// none), looking through wrappers of transformations that returned. A
// batched value that outlived its vmap is an error (JAX's escaped tracer).
uint64_t top_serial(const Runtime& rt, const Value& v) {
    const Value* cur = &v;
    for (;;) {
        if (const GradObj* g = cur->tracked()) {
            if (live(rt, *g)) return g->tape;
            cur = &g->primal;
        } else if (const BatchObj* b = cur->batched()) {
            if (!live(rt, *b))
                throw Error("vmap: a batched tensor was used after its vmap returned (kept in a variable outside the "
                            "vmapped function?)");
            return b->serial;
        } else {
            return 0;
        }
    }
}

// v seen from the vmap `serial`: with the batch axis first when batched
// there (`batched` set), else v itself.
Value peel(Runtime& rt, const Value& v, uint64_t serial, bool& batched, int64_t& size) {
    batched = false;
    const Value* cur = &v;
    while (const GradObj* g = cur->tracked()) {
        if (live(rt, *g)) return v;
        cur = &g->primal;
    }
    const BatchObj* b = cur->batched();
    if (!b || b->serial != serial) return *cur;
    batched = true;
    size = b->size;
    if (b->dim == 0) return b->value;
    const int64_t rank = b->value.tensor_type().shape.rank();
    std::vector<int64_t> perm{b->dim};
    for (int64_t i = 0; i < rank; ++i)
        if (i != b->dim) perm.push_back(i);
    Value in[1] = {b->value};
    return run_op(rt, stdlib::op_of(stdlib::OtherKind::Transpose), in, {std::monostate{}, perm});
}

struct Innermost {
    uint64_t serial = 0;
    uint32_t level = 0;
};

Innermost innermost_vmap(const Runtime& rt, std::span<const Value> operands) {
    Innermost m;
    for (const Value& v : operands) m.serial = std::max(m.serial, top_serial(rt, v));
    for (size_t i = 0; i < rt.vmaps.size(); ++i)
        if (rt.vmaps[i] == m.serial) m.level = static_cast<uint32_t>(i + 1);
    return m;
}

Value wrap(const Innermost& m, Value v, int64_t size) {
    auto b = std::make_shared<BatchObj>();
    b->value = std::move(v);
    b->dim = 0;
    b->size = size;
    b->level = m.level;
    b->serial = m.serial;
    return Value::batched(std::move(b));
}

// The rule's result must be the batch followed by one example's result:
// a rule that gets it wrong is an internal error, never a silently wrong value.
void check_result(const BatchCall& c, const Value& out) {
    const TensorType got = out.tensor_type();
    stdlib::Shape want;
    want.push_back(c.size);
    for (int64_t d : c.out.shape) want.push_back(d);
    if (got.shape == want && got.dtype == c.out.dtype) return;
    throw Error("internal error: vmap's batching rule of `" + std::string(c.op.name) + "` gave " +
                std::string(stdlib::dtype_name(got.dtype)) + got.shape.to_string() + " where " +
                std::string(stdlib::dtype_name(c.out.dtype)) + want.to_string() + " was expected");
}

}  // namespace

bool batch_on_top(const Runtime& rt, std::span<const Value> operands) {
    // (no shortcut when no vmap runs: a batched value that outlived its vmap must raise)
    uint64_t top = 0;
    bool batch = false;
    for (const Value& v : operands) {
        const uint64_t s = top_serial(rt, v);
        if (s > top) {
            top = s;
            batch = std::find(rt.vmaps.begin(), rt.vmaps.end(), s) != rt.vmaps.end();
        }
    }
    return batch;
}

Value batched_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands, std::vector<Attr> attrs) {
    const Innermost m = innermost_vmap(rt, operands);
    BatchCall c(rt, op);
    for (const Value& v : operands) {
        bool b = false;
        c.in.push_back(peel(rt, v, m.serial, b, c.size));
        c.batched.push_back(b);
        c.types.push_back(v.tensor_type());
    }
    stdlib::complete_attrs(op, attrs);
    c.attrs = std::move(attrs);
    // One example's result type, with the op's own errors for bad operands.
    c.out = op.infer(stdlib::TypeArgs{c.types, c.attrs});
    const RuleEntry rule = batch_rule(op);
    if (!rule.rule) throw Error("vmap: no batching rule for `" + std::string(op.name) + "` (" + std::string(rule.why) + ")");
    Value out = rule.rule(c);
    check_result(c, out);
    return wrap(m, std::move(out), c.size);
}

namespace {
std::vector<stdlib::IndexItem> with_batch_item(std::span<const stdlib::IndexItem> items) {
    std::vector<stdlib::IndexItem> out;
    stdlib::IndexItem all;
    all.kind = stdlib::IndexItem::Slice;
    out.push_back(all);
    out.insert(out.end(), items.begin(), items.end());
    return out;
}
std::vector<Value> with_batch_dynamic(std::span<const Value> dynamic) {
    std::vector<Value> out;
    if (dynamic.empty()) return out;
    out.push_back(Value());
    out.insert(out.end(), dynamic.begin(), dynamic.end());
    return out;
}
void refuse_batched_index(const Runtime& rt, std::span<const Value> dynamic) {
    for (const Value& d : dynamic)
        if (d.transformed() && top_serial(rt, d) != 0)
            throw Error("vmap: indexing with a batched index is not supported; use take() or a one-hot product");
}
}  // namespace

Value batched_index(Runtime& rt, const Value& x, std::span<const stdlib::IndexItem> items,
                    std::span<const Value> dynamic) {
    refuse_batched_index(rt, dynamic);
    const Value xs[1] = {x};
    const Innermost m = innermost_vmap(rt, xs);
    bool b = false;
    int64_t size = 0;
    const TensorType t = x.tensor_type();
    (void)stdlib::index_shape(t.shape, items);  // one example's errors
    Value inner = peel(rt, x, m.serial, b, size);
    const std::vector<stdlib::IndexItem> all = with_batch_item(items);
    const std::vector<Value> dyn = with_batch_dynamic(dynamic);
    return wrap(m, index_tensor(rt, inner, all, dyn), size);
}

void batched_index_assign(Runtime& rt, Value& x, std::span<const stdlib::IndexItem> items, const Value& v,
                          std::span<const Value> dynamic) {
    refuse_batched_index(rt, dynamic);
    const Value both[2] = {x, v};
    const Innermost m = innermost_vmap(rt, both);
    const TensorType xt = x.tensor_type();
    const stdlib::Shape region = stdlib::index_shape(xt.shape, items);
    bool xb = false, vb = false;
    int64_t size = 0;
    Value xi = peel(rt, x, m.serial, xb, size);
    Value vi = peel(rt, v.is_tensor() ? v : Value(to_tensor(v, "index assignment: value")), m.serial, vb, size);
    BatchCall c(rt, stdlib::op_of(stdlib::OtherKind::BroadcastTo));
    c.size = size;
    c.in = {xi, vi};
    c.batched = {xb, vb};
    if (!xb) xi = c.materialized(0);
    if (vb) {
        const int64_t rv = v.tensor_type().shape.rank();
        if (rv > region.rank())
            throw Error("index assignment: cannot broadcast a value of shape " + v.tensor_type().shape.to_string() +
                        " to the region of shape " + region.to_string());
        vi = c.lift(vi, region.rank() - rv);
    }
    const std::vector<stdlib::IndexItem> all = with_batch_item(items);
    const std::vector<Value> dyn = with_batch_dynamic(dynamic);
    assign_index_tensor(rt, xi, all, vi, dyn);
    x = wrap(m, std::move(xi), size);
}

std::string batch_rule_status(const stdlib::OpDef& op) {
    const RuleEntry e = batch_rule(op);
    switch (e.kind) {
    case RuleKind::Vectorized: return "vectorized";
    case RuleKind::Loop: return "loop";
    case RuleKind::None: break;
    }
    return "none: " + std::string(e.why);
}

}  // namespace tg::interp
