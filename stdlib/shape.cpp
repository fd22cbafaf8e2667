// Shape: inline dims, checked rank and checked element count.
#include "stdlib/shape.hpp"

#include "stdlib/errors.hpp"

namespace tg::stdlib {

namespace {
[[noreturn]] void rank_error(size_t rank) {
    throw OpError("tensors of rank " + std::to_string(rank) + " are not supported (the maximum rank is " +
                  std::to_string(kMaxRank) + ")");
}
}  // namespace

Shape::Shape(std::initializer_list<int64_t> dims) : Shape(std::span<const int64_t>(dims.begin(), dims.size())) {}

Shape::Shape(std::span<const int64_t> dims) {
    if (dims.size() > static_cast<size_t>(kMaxRank)) rank_error(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) dims_[i] = dims[i];
    rank_ = static_cast<int>(dims.size());
}

void Shape::push_back(int64_t d) {
    if (rank_ >= kMaxRank) rank_error(static_cast<size_t>(rank_) + 1);
    dims_[rank_++] = d;
}

// Like NumPy, the product of the nonzero dimensions must fit: a shape such
// as (0, 2**62, 4) has no elements but no strides either (they overflow).
int64_t Shape::numel() const {
    int64_t n = 1;
    bool empty = false;
    for (int i = 0; i < rank_; ++i) {
        if (dims_[i] < 0) throw OpError("negative dimension " + std::to_string(dims_[i]) + " in shape " + to_string());
        if (dims_[i] == 0) {
            empty = true;
            continue;
        }
        if (__builtin_mul_overflow(n, dims_[i], &n))
            throw OpError("the shape " + to_string() + " has too many elements");
    }
    return empty ? 0 : n;
}

bool operator==(const Shape& a, const Shape& b) {
    if (a.rank_ != b.rank_) return false;
    for (int i = 0; i < a.rank_; ++i)
        if (a.dims_[i] != b.dims_[i]) return false;
    return true;
}

std::string Shape::to_string() const {
    std::string s = "(";
    for (int i = 0; i < rank_; ++i) {
        if (i) s += ", ";
        s += std::to_string(dims_[i]);
    }
    if (rank_ == 1) s += ",";
    return s + ")";
}

}  // namespace tg::stdlib
