// Shapes: a small inline vector of dimensions (no heap allocation), so 0-d
// and small tensors cost nothing to describe.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

namespace tg::stdlib {

inline constexpr int kMaxRank = 8;

class Shape {
public:
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims);
    explicit Shape(std::span<const int64_t> dims);  // throws OpError past kMaxRank

    int rank() const { return rank_; }
    int64_t operator[](int i) const { return dims_[i]; }
    int64_t& operator[](int i) { return dims_[i]; }
    const int64_t* begin() const { return dims_; }
    const int64_t* end() const { return dims_ + rank_; }
    std::span<const int64_t> dims() const { return {dims_, static_cast<size_t>(rank_)}; }
    void push_back(int64_t d);  // throws OpError past kMaxRank
    // Product of the dims; throws OpError if it overflows int64.
    int64_t numel() const;

    friend bool operator==(const Shape& a, const Shape& b);
    std::string to_string() const;  // "()", "(3,)", "(2, 3)" — a Python tuple

private:
    int64_t dims_[kMaxRank] = {};
    int rank_ = 0;
};

// Element strides (in elements, not bytes), same inline layout as Shape.
using Strides = Shape;

}  // namespace tg::stdlib
