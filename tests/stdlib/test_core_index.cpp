// Indexing, index assignment, tensor(data) and truth values.
#include <doctest/doctest.h>

#include <limits>
#include <vector>

#include "stdlib/op_table.hpp"
#include "test_core_util.hpp"

using namespace tg::stdlib;
using tg::stdlib::testing::values;

namespace {
IndexItem I(int64_t i) { return {IndexItem::Int, i, {}, {}, {}}; }
IndexItem S(std::optional<int64_t> lo = {}, std::optional<int64_t> hi = {}, std::optional<int64_t> step = {}) {
    return {IndexItem::Slice, 0, lo, hi, step};
}
IndexItem E() { return {IndexItem::Ellipsis, 0, {}, {}, {}}; }

Tensor arange(int64_t n, const Shape& shape) {
    Tensor t = Tensor::empty(DType::I64, shape);
    for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = i;
    return t;
}
}  // namespace

TEST_CASE("integer and negative indices") {
    Tensor x = arange(6, Shape{2, 3});
    std::vector<IndexItem> a{I(1)};
    Tensor row = index(x, a);
    CHECK(row.shape() == Shape{3});
    CHECK(values(row) == std::vector<double>{3, 4, 5});
    CHECK(row.shares_buffer_with(x));  // a view
    std::vector<IndexItem> b{I(-1), I(-1)};
    Tensor e = index(x, b);
    CHECK(e.rank() == 0);
    CHECK(e.item_i64() == 5);
    std::vector<IndexItem> c{S(), I(0)};
    CHECK(values(index(x, c)) == std::vector<double>{0, 3});
    std::vector<IndexItem> d{E(), I(-1)};
    CHECK(values(index(x, d)) == std::vector<double>{2, 5});
    std::vector<IndexItem> none{};
    CHECK(index(x, none).shape() == Shape{2, 3});
}

TEST_CASE("slices clamp like Python") {
    Tensor x = arange(10, Shape{10});
    auto sl = [&](std::optional<int64_t> lo, std::optional<int64_t> hi, std::optional<int64_t> st) {
        std::vector<IndexItem> it{S(lo, hi, st)};
        return values(index(x, it));
    };
    CHECK(sl(2, 5, {}) == std::vector<double>{2, 3, 4});
    CHECK(sl(-3, {}, {}) == std::vector<double>{7, 8, 9});
    CHECK(sl({}, -7, {}) == std::vector<double>{0, 1, 2});
    CHECK(sl(5, 100, {}) == std::vector<double>{5, 6, 7, 8, 9});
    CHECK(sl(-100, 2, {}) == std::vector<double>{0, 1});
    CHECK(sl(7, 3, {}).empty());
    CHECK(sl({}, {}, 3) == std::vector<double>{0, 3, 6, 9});
    CHECK(sl({}, {}, -1) == std::vector<double>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
    CHECK(sl(8, 2, -2) == std::vector<double>{8, 6, 4});
    CHECK(sl(-1, -4, -1) == std::vector<double>{9, 8, 7});
    CHECK(sl(100, {}, -3) == std::vector<double>{9, 6, 3, 0});
    CHECK(sl({}, -100, -4) == std::vector<double>{9, 5, 1});
    CHECK(sl(2, {}, -1) == std::vector<double>{2, 1, 0});
    Tensor m = arange(12, Shape{3, 4});
    std::vector<IndexItem> it{S(1, 3), S({}, {}, -2)};
    Tensor v = index(m, it);
    CHECK(v.shape() == Shape{2, 2});
    CHECK(values(v) == std::vector<double>{7, 5, 11, 9});
    CHECK(index_shape(Shape{3, 4}, it) == Shape{2, 2});
    std::vector<IndexItem> it2{E(), S(0, 1)};
    CHECK(index_shape(Shape{2, 3, 4}, it2) == Shape{2, 3, 1});
    std::vector<IndexItem> it3{I(0), E()};
    CHECK(index_shape(Shape{2, 3, 4}, it3) == Shape{3, 4});
}

TEST_CASE("index errors") {
    Tensor x = arange(3, Shape{3});
    std::vector<IndexItem> a{I(5)};
    CHECK_THROWS_WITH_AS(index(x, a), "index 5 is out of range for axis 0 with size 3", OpError);
    std::vector<IndexItem> b{I(-4)};
    CHECK_THROWS_WITH_AS(index(x, b), "index -4 is out of range for axis 0 with size 3", OpError);
    std::vector<IndexItem> c{I(0), I(0)};
    CHECK_THROWS_WITH_AS(index(x, c), doctest::Contains("too many indices for a tensor of rank 1"), OpError);
    std::vector<IndexItem> d{E(), E()};
    CHECK_THROWS_WITH_AS(index(x, d), "an index can only have a single ellipsis ('...')", OpError);
    std::vector<IndexItem> e{S(0, 2, 0)};
    CHECK_THROWS_WITH_AS(index(x, e), "slice step cannot be zero", OpError);
    CHECK_THROWS_AS(index_shape(Shape{3}, c), OpError);
    Tensor m = arange(6, Shape{2, 3});
    std::vector<IndexItem> f{S(), I(3)};
    CHECK_THROWS_WITH_AS(index(m, f), "index 3 is out of range for axis 1 with size 3", OpError);
    Tensor s = Tensor::scalar(1.0, DType::F32);
    CHECK_THROWS_WITH_AS(index(s, a), doctest::Contains("too many indices for a tensor of rank 0"), OpError);
}

TEST_CASE("index assignment broadcasts, casts and copies on write") {
    Tensor x = arange(6, Shape{2, 3});
    Tensor keep = x;  // shares the buffer: must not change
    std::vector<IndexItem> a{I(0)};
    index_assign(x, a, Tensor::weak_float(9.7));
    CHECK(values(x) == std::vector<double>{9, 9, 9, 3, 4, 5});  // cast to i64 truncates
    CHECK(values(keep) == std::vector<double>{0, 1, 2, 3, 4, 5});
    std::vector<IndexItem> b{S(), S(1, 3)};
    index_assign(x, b, make_tensor<int32_t>({2}, {-1, -2}));
    CHECK(values(x) == std::vector<double>{9, -1, -2, 3, -1, -2});
    std::vector<IndexItem> c{I(1), I(-1)};
    index_assign(x, c, Tensor::weak_int(100));
    CHECK(values(x) == std::vector<double>{9, -1, -2, 3, -1, 100});
    // Unique: written in place.
    const void* p = x.raw_data();
    index_assign(x, c, Tensor::weak_int(7));
    CHECK(x.raw_data() == p);
    // Self-overlapping assignment reads the old values.
    Tensor y = arange(5, Shape{5});
    std::vector<IndexItem> tail{S(1)}, head{S({}, 4)};
    index_assign(y, tail, index(y, head));
    CHECK(values(y) == std::vector<double>{0, 0, 1, 2, 3});
    // 0-d target.
    Tensor s = Tensor::scalar(1.0, DType::F32);
    std::vector<IndexItem> all{E()};
    index_assign(s, all, Tensor::weak_int(3));
    CHECK(s.item_f64() == 3.0);
    CHECK(s.dtype() == DType::F32);
    // Errors.
    CHECK_THROWS_WITH_AS(index_assign(x, b, make_tensor<int32_t>({3}, {1, 2, 3})),
                         "index assignment: cannot broadcast a value of shape (3,) to the indexed shape (2, 2)", OpError);
    std::vector<IndexItem> bad{I(2)};
    CHECK_THROWS_WITH_AS(index_assign(x, bad, Tensor::weak_int(0)), "index 2 is out of range for axis 0 with size 2",
                         OpError);
}

TEST_CASE("tensor_from_nested") {
    NestedData d;
    d.shape = Shape{2, 2};
    d.ints = {1, 2, 3, 4};
    Tensor t = tensor_from_nested(d, std::nullopt);
    CHECK(t.dtype() == DType::I64);
    CHECK(!t.weak());
    CHECK(values(t) == std::vector<double>{1, 2, 3, 4});
    CHECK(tensor_from_nested(d, DType::F64).dtype() == DType::F64);
    NestedData f;
    f.shape = Shape{3};
    f.values = {0.1, 2.0, -3.5};
    f.any_float = true;
    Tensor tf = tensor_from_nested(f, std::nullopt);
    CHECK(tf.dtype() == DType::F32);
    CHECK(values(tf)[0] == static_cast<double>(0.1f));
    CHECK(values(tensor_from_nested(f, DType::F64))[0] == 0.1);
    CHECK(values(tensor_from_nested(f, DType::I32)) == std::vector<double>{0, 2, -3});
    NestedData b;
    b.shape = Shape{2};
    b.ints = {1, 0};
    b.all_bool = true;
    CHECK(tensor_from_nested(b, std::nullopt).dtype() == DType::Bool);
    NestedData s;
    s.shape = Shape{};
    s.values = {2.5};
    s.any_float = true;
    Tensor ts = tensor_from_nested(s, std::nullopt);
    CHECK(ts.rank() == 0);
    CHECK(ts.item_f64() == 2.5);
    NestedData e;
    e.shape = Shape{0};
    CHECK(tensor_from_nested(e, std::nullopt).numel() == 0);
    NestedData bad;
    bad.shape = Shape{3};
    bad.ints = {1, 2};
    CHECK_THROWS_WITH_AS(tensor_from_nested(bad, std::nullopt), "tensor: 2 values do not fill the shape (3,)", OpError);
}

TEST_CASE("truth values") {
    CHECK(truth(Tensor::scalar(true)));
    CHECK(!truth(Tensor::scalar(0.0, DType::F32)));
    CHECK(truth(Tensor::weak_float(0.5)));
    CHECK(truth(Tensor::weak_int(-1)));
    CHECK(!truth(Tensor::weak_int(0)));
    CHECK(truth(make_tensor<float>({1, 1}, {2})));
    CHECK(truth(Tensor::scalar(std::numeric_limits<double>::quiet_NaN(), DType::F64)));
    CHECK_THROWS_WITH_AS(truth(Tensor::zeros(DType::F32, Shape{2, 3})),
                         "the truth value of a tensor with 6 elements is ambiguous; use any() or all()", OpError);
    CHECK_THROWS_WITH_AS(truth(Tensor::zeros(DType::F32, Shape{0})),
                         "the truth value of a tensor with 0 elements is ambiguous; use any() or all()", OpError);
}
