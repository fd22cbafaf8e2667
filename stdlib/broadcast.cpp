// Broadcasting shapes (NumPy rules: align from the right; 1 stretches).
#include "stdlib/broadcast.hpp"

#include <string>

#include "stdlib/errors.hpp"

namespace tg::stdlib {

Shape broadcast_shapes(std::string_view fn, const Shape& a, const Shape& b) {
    if (a == b) return a;
    const int r = a.rank() > b.rank() ? a.rank() : b.rank();
    Shape out;
    for (int i = 0; i < r; ++i) {
        const int ia = i - (r - a.rank()), ib = i - (r - b.rank());
        const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
        if (da != db && da != 1 && db != 1)
            throw OpError(std::string(fn) + ": shapes " + a.to_string() + " and " + b.to_string() +
                          " cannot be broadcast together: " + std::to_string(da) + " (axis " + std::to_string(ia) +
                          ") != " + std::to_string(db) + " (axis " + std::to_string(ib) + ")");
        out.push_back(da == 1 ? db : da);
    }
    return out;
}

Shape broadcast_shapes(std::string_view fn, std::span<const Shape> shapes) {
    if (shapes.empty()) return Shape{};
    Shape out = shapes[0];
    for (size_t i = 1; i < shapes.size(); ++i) out = broadcast_shapes(fn, out, shapes[i]);
    return out;
}

bool broadcasts_to(const Shape& from, const Shape& to) {
    if (from.rank() > to.rank()) return false;
    const int lead = to.rank() - from.rank();
    for (int i = 0; i < from.rank(); ++i)
        if (from[i] != 1 && from[i] != to[i + lead]) return false;
    return true;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& out) {
    Strides s;
    const int lead = out.rank() - shape.rank();
    for (int i = 0; i < out.rank(); ++i) {
        const int j = i - lead;
        s.push_back(j < 0 || shape[j] == 1 ? 0 : strides[j]);
    }
    return s;
}

}  // namespace tg::stdlib
