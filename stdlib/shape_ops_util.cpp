#include "stdlib/shape_ops_util.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace tg::stdlib::kern {

void fail(std::string_view fn, const std::string& what) {
    std::string msg(fn);
    msg += ": ";
    msg += what;
    throw OpError(msg);
}

int normalize_axis(std::string_view fn, int64_t axis, int rank) {
    if (axis < -rank || axis >= rank)
        fail(fn, "axis " + std::to_string(axis) + " is out of bounds for a tensor of rank " + std::to_string(rank));
    return static_cast<int>(axis < 0 ? axis + rank : axis);
}

bool attr_is_none(const Attr& a) { return std::holds_alternative<std::monostate>(a); }

void check_one_axis(std::string_view fn, const Attr& a) {
    const auto* v = std::get_if<std::vector<int64_t>>(&a);
    if (!v) return;
    if (v->size() == 1) fail(fn, "takes one axis as an int or None, not a tuple");
    fail(fn, "takes one axis (an int or None), but " + std::to_string(v->size()) + " were given");
}

std::vector<int> attr_axes(std::string_view fn, const Attr& a, int rank) {
    std::vector<int> axes;
    if (attr_is_none(a)) {
        for (int d = 0; d < rank; ++d) axes.push_back(d);
        return axes;
    }
    if (auto* i = std::get_if<int64_t>(&a)) {
        axes.push_back(normalize_axis(fn, *i, rank));
        return axes;
    }
    if (auto* v = std::get_if<std::vector<int64_t>>(&a)) {
        for (int64_t ax : *v) {
            int n = normalize_axis(fn, ax, rank);
            if (std::find(axes.begin(), axes.end(), n) != axes.end())
                fail(fn, "axis " + std::to_string(ax) + " is repeated");
            axes.push_back(n);
        }
        std::sort(axes.begin(), axes.end());
        return axes;
    }
    fail(fn, "axis must be None, an int or a tuple of ints");
}

Shape attr_shape(std::string_view fn, std::string_view arg, const Attr& a) {
    Shape s;
    auto add = [&](int64_t d) {
        if (d < 0) fail(fn, std::string(arg) + " has a negative dimension " + std::to_string(d));
        s.push_back(d);
    };
    if (auto* i = std::get_if<int64_t>(&a)) {
        add(*i);
    } else if (auto* v = std::get_if<std::vector<int64_t>>(&a)) {
        if (v->size() > static_cast<size_t>(kMaxRank))
            fail(fn, std::string(arg) + " has " + std::to_string(v->size()) + " dimensions; at most " +
                         std::to_string(kMaxRank) + " are supported");
        for (int64_t d : *v) add(d);
    } else {
        fail(fn, std::string(arg) + " must be an int or a tuple of ints");
    }
    (void)s.numel();  // throws when the product overflows
    return s;
}

int64_t attr_int(std::string_view fn, std::string_view arg, const Attr& a) {
    if (auto* i = std::get_if<int64_t>(&a)) return *i;
    if (auto* b = std::get_if<bool>(&a)) return *b ? 1 : 0;
    fail(fn, std::string(arg) + " must be an int");
}

double attr_number(std::string_view fn, std::string_view arg, const Attr& a) {
    if (auto* i = std::get_if<int64_t>(&a)) return static_cast<double>(*i);
    if (auto* d = std::get_if<double>(&a)) return *d;
    if (auto* b = std::get_if<bool>(&a)) return *b ? 1.0 : 0.0;
    fail(fn, std::string(arg) + " must be a number");
}

bool attr_bool(std::string_view fn, std::string_view arg, const Attr& a) {
    if (auto* b = std::get_if<bool>(&a)) return *b;
    if (auto* i = std::get_if<int64_t>(&a)) return *i != 0;
    if (attr_is_none(a)) return false;
    fail(fn, std::string(arg) + " must be True or False");
}

std::optional<DType> attr_dtype(const Attr& a) {
    if (auto* d = std::get_if<DType>(&a)) return *d;
    return std::nullopt;
}

Tensor reshaped(const Tensor& x0, const Shape& shape) {
    Tensor x = strong(x0);
    if (x.rank() == 0 || shape.rank() == 0) {
        Tensor out = Tensor::empty(x.dtype(), shape);
        if (out.numel() > 0) std::memcpy(out.raw_data(), x.contiguous().raw_data(), dtype_size(x.dtype()));
        return out;
    }
    if (x.numel() == 0) return Tensor::empty(x.dtype(), shape);
    Tensor c = x.contiguous();
    return c.view(shape, contiguous_strides(shape), 0);
}

Tensor broadcast_view(std::string_view fn, const Tensor& x0, const Shape& shape) {
    Tensor x = strong(x0);
    if (x.shape() == shape) return x;
    int r = shape.rank();
    if (x.rank() > r)
        fail(fn, "cannot broadcast shape " + x.shape().to_string() + " to " + shape.to_string());
    Strides st;
    for (int d = 0; d < r; ++d) st.push_back(0);
    for (int d = 0; d < x.rank(); ++d) {
        int od = d + (r - x.rank());
        if (x.shape()[d] == shape[od]) st[od] = x.shape()[d] == 1 ? 0 : x.strides()[d];
        else if (x.shape()[d] == 1) st[od] = 0;
        else fail(fn, "cannot broadcast shape " + x.shape().to_string() + " to " + shape.to_string());
    }
    if (shape.numel() == 0) return Tensor::empty(x.dtype(), shape);
    return x.view(shape, st, 0);
}

}  // namespace tg::stdlib::kern
