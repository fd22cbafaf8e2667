// Indexing and index assignment (docs/language.md "Values"): ints, slices with Python's
// clamping, one `...`, negative indices. Results are views.
#include <string>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/op_table.hpp"

namespace tg::stdlib {

namespace {

// Where x[items] lives inside x: shape and strides of the view, and the
// offset of its first element (in elements, from x's element 0).
struct Region {
    Shape shape;
    Strides strides;
    int64_t offset = 0;
};

// Python's PySlice_AdjustIndices: the first index, step and length.
void adjust_slice(const IndexItem& it, int64_t n, int64_t& start, int64_t& step, int64_t& len) {
    step = it.step.value_or(1);
    if (step == 0) throw OpError("slice step cannot be zero");
    if (step > 0) {
        int64_t lo = it.lo.value_or(0), hi = it.hi.value_or(n);
        if (lo < 0) lo = lo + n < 0 ? 0 : lo + n;
        if (lo > n) lo = n;
        if (hi < 0) hi = hi + n < 0 ? 0 : hi + n;
        if (hi > n) hi = n;
        start = lo;
        len = hi > lo ? (hi - lo + step - 1) / step : 0;
    } else {
        int64_t lo = n - 1, hi = -1;  // hi = -1: before element 0
        if (it.lo) {
            lo = *it.lo;
            if (lo < 0) lo = lo + n < 0 ? -1 : lo + n;
            if (lo >= n) lo = n - 1;
        }
        if (it.hi) {
            hi = *it.hi;
            if (hi < 0) hi = hi + n < 0 ? -1 : hi + n;
            if (hi >= n) hi = n - 1;
        }
        start = lo;
        len = lo > hi ? (lo - hi - 1) / (-step) + 1 : 0;
    }
}

Region plan(const Shape& shape, const Strides& strides, std::span<const IndexItem> items) {
    int ellipses = 0, used = 0;
    for (const IndexItem& it : items) {
        if (it.kind == IndexItem::Ellipsis) ++ellipses;
        else ++used;
    }
    if (ellipses > 1) throw OpError("an index can only have a single ellipsis ('...')");
    if (used > shape.rank())
        throw OpError("too many indices for a tensor of rank " + std::to_string(shape.rank()) + ": " +
                      std::to_string(used) + " were given");
    Region r;
    int axis = 0;
    auto keep = [&](int ax) {
        r.shape.push_back(shape[ax]);
        r.strides.push_back(strides[ax]);
    };
    for (const IndexItem& it : items) {
        switch (it.kind) {
            case IndexItem::Ellipsis:
                for (int k = 0; k < shape.rank() - used; ++k) keep(axis++);
                break;
            case IndexItem::Int: {
                const int64_t n = shape[axis];
                const int64_t i = it.index < 0 ? it.index + n : it.index;
                if (i < 0 || i >= n)
                    throw OpError("index " + std::to_string(it.index) + " is out of range for axis " +
                                  std::to_string(axis) + " with size " + std::to_string(n));
                r.offset += i * strides[axis];
                ++axis;
                break;
            }
            case IndexItem::Slice: {
                int64_t start, step, len;
                adjust_slice(it, shape[axis], start, step, len);
                if (len > 0) r.offset += start * strides[axis];
                r.shape.push_back(len);
                r.strides.push_back(strides[axis] * step);
                ++axis;
                break;
            }
        }
    }
    while (axis < shape.rank()) keep(axis++);  // trailing axes not indexed: whole
    return r;
}

}  // namespace

Tensor index(const Tensor& x, std::span<const IndexItem> items) {
    const Region r = plan(x.shape(), x.strides(), items);
    if (x.weak()) return x;  // a weak scalar indexed with [] or [...]: itself
    return x.view(r.shape, r.strides, r.offset);
}

Shape index_shape(const Shape& x, std::span<const IndexItem> items) {
    return plan(x, contiguous_strides(x), items).shape;
}

void index_assign(Tensor& x, std::span<const IndexItem> items, const Tensor& v) {
    const Region probe = plan(x.shape(), x.strides(), items);  // errors before any copy
    if (!broadcasts_to(v.shape(), probe.shape))
        throw OpError("index assignment: cannot broadcast a value of shape " + v.shape().to_string() +
                      " to the indexed shape " + probe.shape.to_string());
    // Cast first: v may share x's buffer, and x is made unique below.
    const Tensor value = cast(v, x.dtype());
    x.make_unique();
    const Region r = plan(x.shape(), x.strides(), items);
    const int64_t es = static_cast<int64_t>(dtype_size(x.dtype()));
    char* base = static_cast<char*>(x.raw_data()) + r.offset * es;
    auto loop = make_loop<2>(r.shape, {r.strides, broadcast_strides(value, r.shape)});
    auto copy_rows = [&](auto tag) {
        using E = typename decltype(tag)::type;  // an integer type of the element's size
        for_each_row(loop, {base, const_cast<char*>(static_cast<const char*>(value.raw_data()))}, {es, es},
                     [](std::array<char*, 2> p, int64_t n, const int64_t* s) {
                         E* dst = reinterpret_cast<E*>(p[0]);
                         const E* src = reinterpret_cast<const E*>(p[1]);
                         if (s[0] == 1 && s[1] == 0) {
                             const E v = *src;
                             for (int64_t i = 0; i < n; ++i) dst[i] = v;
                         } else {
                             for (int64_t i = 0; i < n; ++i) dst[i * s[0]] = src[i * s[1]];
                         }
                     });
    };
    if (es == 1) copy_rows(TypeTag<uint8_t>{});
    else if (es == 4) copy_rows(TypeTag<uint32_t>{});
    else copy_rows(TypeTag<uint64_t>{});
}

}  // namespace tg::stdlib
