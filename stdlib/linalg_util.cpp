#include "stdlib/linalg_util.hpp"

#include "stdlib/shape_ops_util.hpp"

namespace tg::stdlib::linalg {

namespace {

Matrices split(const Shape& s) {
    Matrices q;
    for (int d = 0; d < s.rank() - 2; ++d) q.batch.push_back(s[d]);
    q.m = s[s.rank() - 2];
    q.n = s[s.rank() - 1];
    return q;
}

}  // namespace

Matrices matrices(std::string_view fn, std::string_view arg, const Shape& s) {
    if (s.rank() < 2)
        kern::fail(fn, "argument `" + std::string(arg) + "` must be a matrix or a batch of them (shape (..., m, n)), got shape " +
                           s.to_string());
    return split(s);
}

Matrices square(std::string_view fn, std::string_view arg, const Shape& s) {
    if (s.rank() < 2 || s[s.rank() - 1] != s[s.rank() - 2])
        kern::fail(fn, "argument `" + std::string(arg) + "` must be a square matrix or a batch of them (shape (..., m, m)), got shape " +
                           s.to_string());
    return split(s);
}

Shape with_dims(const Shape& batch, std::initializer_list<int64_t> dims) {
    Shape s = batch;
    for (int64_t d : dims) s.push_back(d);
    return s;
}

std::string at_index(int64_t count, int64_t i) {
    return count > 1 ? " at batch index " + std::to_string(i) : "";
}

void non_finite(std::string_view fn, int64_t count, int64_t i) {
    kern::fail(fn, "the matrix" + at_index(count, i) + " has NaN or infinite entries");
}

}  // namespace tg::stdlib::linalg
