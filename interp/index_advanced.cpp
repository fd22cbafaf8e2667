#include "interp/index_advanced.hpp"

#include <numeric>
#include <string>

#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "stdlib/broadcast.hpp"
#include "stdlib/errors.hpp"
#include "stdlib/index_gather.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::IndexItem;
using stdlib::Shape;

namespace {

std::vector<int64_t> dims(const Shape& s) { return {s.begin(), s.end()}; }

Value op(Runtime& rt, const stdlib::OpDef& d, std::vector<Value> operands, std::vector<Attr> attrs) {
    attrs.resize(d.params.size());
    return run_op(rt, d, operands, std::move(attrs));
}
Value reshape(Runtime& rt, const Value& x, const Shape& s) {
    if (x.tensor_type().shape == s) return x;
    return op(rt, stdlib::op_of(stdlib::OtherKind::Reshape), {x}, {std::monostate{}, dims(s)});
}
Value astype(Runtime& rt, const Value& x, stdlib::DType d) {
    const stdlib::TensorType t = x.tensor_type();
    if (t.dtype == d && !t.weak) return x;
    return op(rt, stdlib::op_of(stdlib::ElementwiseKind::AsType), {x}, {std::monostate{}, d});
}
Value as_tensor(const Value& v, const char* what) { return v.is_tensor() ? v : Value(to_tensor(v, what)); }

bool is_mask(const Value& v) { return v.is_tensor() && v.tensor_type().dtype == stdlib::DType::Bool; }

// Where the dims of x[s] come from, and how the basic view plus a gather
// along one axis is rearranged into NumPy's order.
struct Plan {
    std::vector<IndexItem> basic;   // the items without the Nones
    std::vector<Value> dynamic;     // `dynamic` of the basic items
    Value index;                    // the integer tensor (one), or Undefined
    int axis = 0;                   // the view's axis it gathers along
    std::vector<int64_t> perm;      // after the gather (empty: none needed)
    Shape result;                   // x[s]'s shape, with the new axes
    Shape before_newaxes;           // the same without the new axes
    // Several index tensors (NumPy's broadcast of index arrays): the view's
    // axes they index are brought together (merge_perm; empty: already in
    // order) and merged into one of their dims' product at `axis`, which
    // one linear index (broadcast shape) gathers.
    std::vector<Value> indices;     // in subscript order
    std::vector<int> index_axes;    // the view's axis of each
    Shape view;                     // the basic view's shape
    std::vector<int64_t> merge_perm;
    Shape merged;                   // the view after the merge
    Shape broadcast;                // the index tensors' common shape
};

// s's dims in perm's order
Shape permuted(const Shape& s, const std::vector<int64_t>& perm) {
    Shape t;
    for (int64_t k : perm) t.push_back(s[static_cast<int>(k)]);
    return t;
}

// Several index tensors: their common shape, and the view's indexed axes
// brought next to the first one and merged (`order` keeps one 'A').
void merge_indexed_axes(Plan& p, std::string& order) {
    std::vector<Shape> shapes;
    for (const Value& v : p.indices) shapes.push_back(v.tensor_type().shape);
    try {
        p.broadcast = stdlib::broadcast_shapes("indexing", shapes);
    } catch (const stdlib::OpError&) {
        std::string list;
        for (const Shape& sh : shapes) list += (list.empty() ? "" : ", ") + sh.to_string();
        throw Error("the index tensors of one subscript must broadcast together, as NumPy's index arrays do; their "
                    "shapes are " + list);
    }
    std::string view_order = order;  // one char per view dim
    std::erase(view_order, 'N');
    for (int d = 0; d < static_cast<int>(view_order.size()); ++d)
        if (view_order[static_cast<size_t>(d)] == 'A') p.index_axes.push_back(d);
    int64_t size = 1;
    for (int d : p.index_axes) size *= p.view[d];
    for (int d = 0; d < p.view.rank(); ++d) {
        if (d == p.index_axes[0]) {
            for (int a : p.index_axes) p.merge_perm.push_back(a);
            p.merged.push_back(size);
        } else if (view_order[static_cast<size_t>(d)] != 'A') {
            p.merge_perm.push_back(d);
            p.merged.push_back(p.view[d]);
        }
    }
    bool identity = true;
    for (size_t i = 0; i < p.merge_perm.size(); ++i) identity = identity && p.merge_perm[i] == static_cast<int64_t>(i);
    if (identity) p.merge_perm.clear();
    // one 'A' stands for the merged axis, where the first index tensor was
    const size_t first = order.find('A');
    std::string rest = order.substr(first + 1);
    std::erase(rest, 'A');
    order = order.substr(0, first + 1) + rest;
}

// The result's dims in NumPy's `order` (S, A for the m gathered dims, N for
// a new axis), from z, the gathered view's dims in `gathered` order: the
// permutation between the two, and the shapes before and after the new axes.
void order_result(Plan& p, const std::string& order, const std::string& gathered, Shape z, int m) {
    std::string want = order;
    std::erase(want, 'N');
    if (want != gathered) {
        // z's dims: S... A-block S...; list them in `want`'s order
        std::vector<int64_t> s_dims, a_dims;
        int d = 0;
        for (char c : gathered) {
            if (c == 'A')
                for (int k = 0; k < m; ++k) a_dims.push_back(d++);
            else
                s_dims.push_back(d++);
        }
        size_t si = 0;
        for (char c : want) {
            if (c == 'A') p.perm.insert(p.perm.end(), a_dims.begin(), a_dims.end());
            else p.perm.push_back(s_dims[si++]);
        }
        z = permuted(z, p.perm);
    }
    p.before_newaxes = z;
    // z's dims with a 1 for each N, an A standing for m dims
    int zi = 0;
    for (char c : order) {
        if (c == 'N') p.result.push_back(1);
        else if (c == 'A')
            for (int k = 0; k < m; ++k) p.result.push_back(z[zi++]);
        else p.result.push_back(z[zi++]);
    }
}

Plan plan(const Shape& x, const Subscript& s) {
    Plan p;
    int consumed = 0, tensors = 0;
    for (size_t i = 0; i < s.items.size(); ++i) {
        const Value& sp = s.special[i];
        if (sp.is(Kind::None)) continue;
        if (s.items[i].kind != IndexItem::Ellipsis) ++consumed;
        if (sp.is_tensor()) ++tensors;
    }
    // The dims of the result in NumPy's order: 'S' from slices and `...`,
    // 'N' from None, 'A' the gathered block; ints give none.
    std::string order;
    int first_advanced = -1, last_advanced = -1, advanced_count = 0, a_at = -1;
    for (size_t i = 0; i < s.items.size(); ++i) {
        const Value& sp = s.special[i];
        const IndexItem& it = s.items[i];
        if (sp.is(Kind::None)) {
            order += 'N';
            continue;
        }
        p.basic.push_back(it);
        p.dynamic.push_back(i < s.dynamic.size() ? s.dynamic[i] : Value());
        if (sp.is_tensor() || it.kind == IndexItem::Int) {
            if (first_advanced < 0) first_advanced = static_cast<int>(i);
            last_advanced = static_cast<int>(i);
            ++advanced_count;
        }
        if (sp.is_tensor()) {
            p.indices.push_back(sp);
            if (a_at < 0) a_at = static_cast<int>(order.size());
            order += 'A';
        } else if (it.kind == IndexItem::Slice) {
            order += 'S';
        } else if (it.kind == IndexItem::Ellipsis) {
            order += std::string(static_cast<size_t>(std::max(0, x.rank() - consumed)), 'S');
        }
    }
    // axes not indexed at the end are whole
    const Shape view = stdlib::index_shape(x, p.basic);
    int seen = 0;  // view dims accounted for by `order`
    for (char c : order) seen += c == 'N' ? 0 : 1;
    order += std::string(static_cast<size_t>(view.rank() - seen), 'S');
    p.view = view;
    if (tensors > 1) merge_indexed_axes(p, order);
    std::string gathered = order;  // the order of the view after the gather (no N)
    std::erase(gathered, 'N');
    Shape z = view;
    if (tensors == 1) {
        p.index = p.indices[0];
        p.broadcast = p.index.tensor_type().shape;
    }
    if (tensors > 0) {
        p.axis = static_cast<int>(gathered.find('A'));
        z = stdlib::gather_shape(tensors > 1 ? p.merged : view, p.broadcast, p.axis);
        // NumPy: the block goes first unless the advanced indices are adjacent
        if (last_advanced - first_advanced + 1 != advanced_count) {
            order.erase(static_cast<size_t>(a_at), 1);
            order.insert(order.begin(), 'A');
        }
    }
    const int m = tensors > 0 ? p.broadcast.rank() : 0;
    order_result(p, order, gathered, z, m);
    return p;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& perm) {
    std::vector<int64_t> inv(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
    return inv;
}

// ---- several index tensors

// Index tensor j, bounds-checked and with negative indices wrapped as a
// gather checks them (the same message, naming the view's axis): gathered
// from 0..n-1 laid along that axis.
Value checked_index(Runtime& rt, const Plan& p, size_t j) {
    const int axis = p.index_axes[j];
    const int64_t n = p.view[axis];
    Shape along(std::vector<int64_t>(static_cast<size_t>(p.view.rank()), 1));
    along[axis] = n;
    stdlib::Tensor positions = stdlib::Tensor::empty(stdlib::DType::I64, along);
    std::iota(positions.data<int64_t>(), positions.data<int64_t>() + n, int64_t{0});
    const Value& index = p.indices[j];
    const Value picked = op(rt, stdlib::op_of(stdlib::OtherKind::Gather), {Value(std::move(positions)), index}, {{}, {}, int64_t{axis}});
    return reshape(rt, picked, index.tensor_type().shape);
}

// The position in the merged axis: sum of index_j * (product of the later indexed dims).
Value linear_index(Runtime& rt, const Plan& p) {
    Value total;
    int64_t stride = 1;
    for (size_t j = p.indices.size(); j-- > 0;) {
        Value term = checked_index(rt, p, j);
        if (!(term.tensor_type().shape == p.broadcast))
            term = op(rt, stdlib::op_of(stdlib::OtherKind::BroadcastTo), {term}, {std::monostate{}, dims(p.broadcast)});
        if (stride != 1) term = binary(rt, lang::BinOp::Mul, term, Value(stdlib::Tensor::scalar(stride)));
        total = total.defined() ? binary(rt, lang::BinOp::Add, term, total) : term;
        stride *= p.view[p.index_axes[j]];
    }
    return total;
}

// The basic view with its indexed axes merged into one, and back.
Value merge_axes(Runtime& rt, const Plan& p, Value view) {
    if (!p.merge_perm.empty()) view = op(rt, stdlib::op_of(stdlib::OtherKind::Transpose), {view}, {std::monostate{}, p.merge_perm});
    return reshape(rt, view, p.merged);
}
Value unmerge_axes(Runtime& rt, const Plan& p, const Value& merged) {
    if (p.merge_perm.empty()) return reshape(rt, merged, p.view);
    const Value t = reshape(rt, merged, permuted(p.view, p.merge_perm));
    return op(rt, stdlib::op_of(stdlib::OtherKind::Transpose), {t}, {std::monostate{}, inverse(p.merge_perm)});
}

// ---- bool masks

const Value& only_mask(const Subscript& s) {
    if (s.items.size() != 1)
        throw Error("a bool mask must be the only index (x[mask]); combine conditions with & instead");
    return s.special[0];
}

void check_mask(const Shape& x, const Shape& m) {
    bool ok = m.rank() >= 1 && m.rank() <= x.rank();
    for (int d = 0; ok && d < m.rank(); ++d) ok = m[d] == x[d];
    if (!ok)
        throw Error("a bool mask of shape " + m.to_string() + " does not match the tensor's shape " + x.to_string() +
                    " (it must be the same shape, or that of its leading dims)");
}

// The positions where a concrete mask is true, flattened (i64, 1-d).
stdlib::Tensor mask_positions(const stdlib::Tensor& mask) {
    const stdlib::Tensor m = mask.contiguous();
    std::vector<int64_t> pos;
    for (int64_t i = 0; i < m.numel(); ++i)
        if (m.data<bool>()[i]) pos.push_back(i);
    stdlib::Tensor out = stdlib::Tensor::empty(stdlib::DType::I64, Shape{static_cast<int64_t>(pos.size())});
    std::copy(pos.begin(), pos.end(), out.data<int64_t>());
    return out;
}

// x viewed with the mask's dims merged into one: (mask.size,) + x.shape[k:]
Shape merged(const Shape& x, const Shape& mask) {
    Shape s{mask.numel()};
    for (int d = mask.rank(); d < x.rank(); ++d) s.push_back(x[d]);
    return s;
}

void need_concrete_mask(Runtime& rt, const Value& mask, const std::string& what) {
    if (mask.is_symbolic() && rt.trace)
        dynamic_value_error(*rt.trace,
                            what + " depends on the contents of the bool mask, which a @graph function cannot trace; "
                                   "use where(mask, x, other) instead",
                            mask);
}

Value mask_select(Runtime& rt, const Value& x, const Value& mask) {
    const Shape xs = x.tensor_type().shape, ms = mask.tensor_type().shape;
    check_mask(xs, ms);
    need_concrete_mask(rt, mask, "x[mask] has a length that");
    const Value flat = reshape(rt, x, merged(xs, ms));
    return op(rt, stdlib::op_of(stdlib::OtherKind::Gather), {flat, Value(mask_positions(mask.tensor()))}, {{}, {}, int64_t{0}});
}

void mask_assign(Runtime& rt, Value& x, const Value& mask, const Value& value) {
    const stdlib::TensorType xt = x.tensor_type();
    const Shape ms = mask.tensor_type().shape;
    check_mask(xt.shape, ms);
    const Value v = astype(rt, as_tensor(value, "index assignment: value"), xt.dtype);
    const Shape vs = v.tensor_type().shape;
    Shape rest;
    for (int d = ms.rank(); d < xt.shape.rank(); ++d) rest.push_back(xt.shape[d]);
    if (vs.rank() <= rest.rank() && stdlib::broadcasts_to(vs, rest)) {
        // the same value for every selected element: where(mask, v, x)
        Shape m = ms;
        for (int d = 0; d < rest.rank(); ++d) m.push_back(1);
        x = op(rt, stdlib::op_of(stdlib::ElementwiseKind::Where), {reshape(rt, mask, m), v, x}, {});
        return;
    }
    need_concrete_mask(rt, mask, "x[mask] = v with one value per selected element (v of shape " + vs.to_string() + ")");
    const stdlib::Tensor pos = mask_positions(mask.tensor());
    Shape selected{pos.numel()};
    for (int64_t d : rest) selected.push_back(d);
    if (!stdlib::broadcasts_to(vs, selected))
        throw Error("index assignment: cannot assign a value of shape " + vs.to_string() + " to the " +
                    std::to_string(pos.numel()) + " elements selected by the mask (shape " + selected.to_string() + ")");
    Value vb = vs == selected ? v : op(rt, stdlib::op_of(stdlib::OtherKind::BroadcastTo), {v}, {std::monostate{}, dims(selected)});
    const Value flat = reshape(rt, x, merged(xt.shape, ms));
    x = reshape(rt, op(rt, stdlib::op_of(stdlib::OtherKind::Scatter), {flat, Value(pos), vb}, {{}, {}, {}, int64_t{0}}), xt.shape);
}

}  // namespace

bool Subscript::advanced() const {
    for (const Value& v : special)
        if (v.defined()) return true;
    return false;
}

Value index_advanced(Runtime& rt, const Value& x, const Subscript& s) {
    for (const Value& sp : s.special)
        if (is_mask(sp)) return mask_select(rt, x, only_mask(s));
    const Plan p = plan(x.tensor_type().shape, s);
    Value y = index_tensor(rt, x, p.basic, p.dynamic);
    if (p.indices.size() > 1)
        y = op(rt, stdlib::op_of(stdlib::OtherKind::Gather), {merge_axes(rt, p, y), linear_index(rt, p)}, {{}, {}, int64_t{p.axis}});
    else if (p.index.defined())
        y = op(rt, stdlib::op_of(stdlib::OtherKind::Gather), {y, p.index}, {{}, {}, int64_t{p.axis}});
    if (!p.perm.empty()) y = op(rt, stdlib::op_of(stdlib::OtherKind::Transpose), {y}, {std::monostate{}, p.perm});
    return reshape(rt, y, p.result);
}

void assign_advanced(Runtime& rt, Value& x, const Subscript& s, const Value& value) {
    for (const Value& sp : s.special)
        if (is_mask(sp)) return mask_assign(rt, x, only_mask(s), value);
    const stdlib::TensorType xt = x.tensor_type();
    const Plan p = plan(xt.shape, s);
    Value v = astype(rt, as_tensor(value, "index assignment: value"), xt.dtype);
    const Shape vs = v.tensor_type().shape;
    if (!stdlib::broadcasts_to(vs, p.result))
        throw Error("index assignment: cannot broadcast a value of shape " + vs.to_string() + " to the indexed shape " +
                    p.result.to_string());
    if (!(vs == p.result)) v = op(rt, stdlib::op_of(stdlib::OtherKind::BroadcastTo), {v}, {std::monostate{}, dims(p.result)});
    v = reshape(rt, v, p.before_newaxes);
    if (!p.perm.empty()) v = op(rt, stdlib::op_of(stdlib::OtherKind::Transpose), {v}, {std::monostate{}, inverse(p.perm)});
    if (p.indices.size() > 1) {
        const Value view = merge_axes(rt, p, index_tensor(rt, x, p.basic, p.dynamic));
        v = unmerge_axes(rt, p, op(rt, stdlib::op_of(stdlib::OtherKind::Scatter), {view, linear_index(rt, p), v}, {{}, {}, {}, int64_t{p.axis}}));
    } else if (p.index.defined()) {
        const Value view = index_tensor(rt, x, p.basic, p.dynamic);
        v = op(rt, stdlib::op_of(stdlib::OtherKind::Scatter), {view, p.index, v}, {{}, {}, {}, int64_t{p.axis}});
    }
    assign_index_tensor(rt, x, p.basic, v, p.dynamic);
}

}  // namespace tg::interp
