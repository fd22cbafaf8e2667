#include "interp/builtins/sort_order.hpp"

#include "interp/scalar_ops.hpp"

namespace tg::interp {

Order quick_order(const Value& a, const Value& b) {
    stdlib::spend_work(1);  // a sort of scalars dispatches no op: the limits act here (stdlib/budget.hpp)
    if (const Scalar* x = a.scalar()) {
        const Scalar* y = b.scalar();
        Scalar lt, gt;
        if (!y || !scalar_binary(stdlib::BinaryKind::Lt, *x, *y, lt) ||
            !scalar_binary(stdlib::BinaryKind::Lt, *y, *x, gt))
            return Order::Unknown;
        return lt.nonzero() ? Order::Less : gt.nonzero() ? Order::Greater : Order::Same;
    }
    if (a.is(Kind::Str) && b.is(Kind::Str)) {
        if (a.sym_str() || b.sym_str()) return Order::Unknown;
        const int c = a.text().compare(b.text());
        return c < 0 ? Order::Less : c > 0 ? Order::Greater : Order::Same;
    }
    if (a.is_sequence() && b.is_sequence()) {  // lexicographic, as less()
        const auto& x = a.items();
        const auto& y = b.items();
        for (size_t i = 0; i < x.size() && i < y.size(); ++i)
            if (const Order o = quick_order(x[i], y[i]); o != Order::Same) return o;
        return x.size() < y.size() ? Order::Less : x.size() > y.size() ? Order::Greater : Order::Same;
    }
    return Order::Unknown;
}

namespace {

// What a value is as a flat key's cell: its column's class (a number's
// dtype and weakness tell floats apart: only one class per column keeps
// the answers scalar_binary's), or nullopt.
enum class CellClass : uint8_t { Int, F64, F32, WeakFloat, Str };
std::optional<CellClass> cell_class(const Value& v) {
    using stdlib::DType;
    if (const Scalar* s = v.scalar()) {
        if (s->dtype == DType::I64) return CellClass::Int;
        if (s->dtype == DType::F64 && !s->weak) return CellClass::F64;
        if (s->dtype == DType::F32) return s->weak ? CellClass::WeakFloat : CellClass::F32;
        return std::nullopt;
    }
    if (v.str_obj()) return CellClass::Str;
    return std::nullopt;
}

}  // namespace

std::optional<FlatKeys> FlatKeys::of(const std::vector<Value>& keys) {
    if (keys.empty()) return std::nullopt;
    const bool tuples = keys[0].is_sequence();
    const size_t width = tuples ? keys[0].items().size() : 1;
    std::vector<CellClass> classes;
    FlatKeys out;
    out.cells_.reserve(keys.size() * width);
    for (const Value& k : keys) {
        if (k.is_sequence() != tuples || (tuples && k.items().size() != width)) return std::nullopt;
        for (size_t c = 0; c < width; ++c) {
            const Value& v = tuples ? k.items()[c] : k;
            const std::optional<CellClass> cls = cell_class(v);
            if (!cls) return std::nullopt;
            if (classes.size() == c) classes.push_back(*cls);
            else if (classes[c] != *cls) return std::nullopt;
            Cell cell;
            if (*cls == CellClass::Str) cell.s = &v.text();
            else if (*cls == CellClass::Int) cell.i = v.scalar()->i;
            else if (*cls == CellClass::F32) cell.f = static_cast<float>(v.scalar()->f);  // (compared as f32, as scalar_binary does)
            else cell.f = v.scalar()->f;
            out.cells_.push_back(cell);
        }
    }
    for (CellClass c : classes)
        out.columns_.push_back(c == CellClass::Int ? Column::Int : c == CellClass::Str ? Column::Str : Column::Float);
    return out;
}

Order FlatKeys::order(size_t i, size_t j) const {
    stdlib::spend_work(1);  // (as quick_order)
    const size_t width = columns_.size();
    const Cell* a = &cells_[i * width];
    const Cell* b = &cells_[j * width];
    for (size_t c = 0; c < width; ++c) {
        switch (columns_[c]) {
        case Column::Int:
            if (a[c].i != b[c].i) return a[c].i < b[c].i ? Order::Less : Order::Greater;
            break;
        case Column::Float:
            if (a[c].f < b[c].f) return Order::Less;
            if (b[c].f < a[c].f) return Order::Greater;
            break;  // equal, or a NaN: the next position decides
        case Column::Str:
            if (const int r = a[c].s->compare(*b[c].s); r != 0) return r < 0 ? Order::Less : Order::Greater;
            break;
        }
    }
    return Order::Same;
}

}  // namespace tg::interp
