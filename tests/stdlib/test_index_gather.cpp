// The integer-tensor indexing kernels (_gather, _scatter, _scatter_add of
// stdlib/index_gather.hpp) against NumPy: np.take(x, idx, axis) for the
// gather, x[..., idx, ...] = v and np.add.at for the scatters. The expected
// values below were printed by data/index_gather_gen.py.
#include <doctest/doctest.h>

#include <vector>

#include "stdlib/cast.hpp"
#include "stdlib/op_table.hpp"

using namespace tg::stdlib;

namespace {

Tensor i64s(Shape s, std::vector<int64_t> v) {
    Tensor t = Tensor::empty(DType::I64, s);
    for (size_t i = 0; i < v.size(); ++i) t.data<int64_t>()[i] = v[i];
    return t;
}
Tensor arange_as(Shape s, DType d) {
    Tensor t = Tensor::empty(DType::I64, s);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<int64_t>()[i] = i;
    return cast(t, d);
}
std::vector<int64_t> values(const Tensor& t) {
    Tensor c = cast(t, DType::I64).contiguous();
    return {c.data<int64_t>(), c.data<int64_t>() + c.numel()};
}
Tensor run(const char* name, std::vector<Tensor> in, int64_t axis) {
    const OpDef& op = *find_op(name);
    std::vector<Attr> attrs(op.params.size());
    attrs.back() = axis;
    Rng rng{1};
    OpContext ctx{&rng};
    return op.eager(ctx, OpArgs{in, attrs});
}

}  // namespace

TEST_CASE("_gather is np.take along an axis, for every dtype") {
    for (DType d : {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64}) {
        CAPTURE(dtype_name(d));
        const Tensor x = arange_as(Shape{3, 4}, d);
        // np.take(np.arange(12).reshape(3, 4), [2, 0, -1], axis=0)
        Tensor a = run("_gather", {x, i64s(Shape{3}, {2, 0, -1})}, 0);
        CHECK(a.dtype() == d);
        CHECK(a.shape() == Shape{3, 4});
        if (d != DType::Bool) CHECK(values(a) == std::vector<int64_t>{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11});
        // np.take(x, [[3, 1], [0, 0]], axis=1)
        Tensor b = run("_gather", {x, cast(i64s(Shape{2, 2}, {3, 1, 0, 0}), DType::I32)}, -1);
        CHECK(b.shape() == Shape{3, 2, 2});
        if (d != DType::Bool) CHECK(values(b) == std::vector<int64_t>{3, 1, 0, 0, 7, 5, 4, 4, 11, 9, 8, 8});
    }
    // empty indices, and a 0-d index tensor removes the axis
    CHECK(run("_gather", {arange_as(Shape{3, 4}, DType::F32), i64s(Shape{0}, {})}, 1).shape() == Shape{3, 0});
    Tensor c = run("_gather", {arange_as(Shape{3, 4}, DType::F32), i64s(Shape{}, {-2})}, 0);
    CHECK(c.shape() == Shape{4});
    CHECK(values(c) == std::vector<int64_t>{4, 5, 6, 7});
}

TEST_CASE("_scatter sets, _scatter_add accumulates (np.add.at)") {
    const Tensor x = arange_as(Shape{3, 4}, DType::F64);
    // y = x.copy(); y[:, [1, -1]] = [[10, 20], [30, 40], [50, 60]]
    Tensor v = cast(i64s(Shape{3, 2}, {10, 20, 30, 40, 50, 60}), DType::F64);
    Tensor s = run("_scatter", {x, i64s(Shape{2}, {1, -1}), v}, 1);
    CHECK(values(s) == std::vector<int64_t>{0, 10, 2, 20, 4, 30, 6, 40, 8, 50, 10, 60});
    CHECK(values(x) == values(arange_as(Shape{3, 4}, DType::F64)));  // x unchanged
    // np.add.at(y, [0, 2, 0], ones((3, 4)))
    Tensor ones = cast(i64s(Shape{3, 4}, std::vector<int64_t>(12, 1)), DType::F64);
    Tensor a = run("_scatter_add", {x, i64s(Shape{3}, {0, 2, 0}), ones}, 0);
    CHECK(values(a) == std::vector<int64_t>{2, 3, 4, 5, 4, 5, 6, 7, 9, 10, 11, 12});
}

TEST_CASE("index kernels: errors name the first bad index, the dtype, the shape") {
    const Tensor x = arange_as(Shape{2, 3}, DType::F32);
    CHECK_THROWS_WITH_AS(run("_gather", {x, i64s(Shape{3}, {1, 5, -7})}, 1),
                         "index 5 is out of range for axis 1 with size 3", OpError);
    CHECK_THROWS_WITH_AS(run("_gather", {x, i64s(Shape{1}, {-3})}, 0), "index -3 is out of range for axis 0 with size 2",
                         OpError);
    CHECK_THROWS_WITH_AS(run("_gather", {x, cast(i64s(Shape{1}, {0}), DType::F32)}, 0),
                         "_gather: indices must be an integer tensor, not f32", OpError);
    CHECK_THROWS_WITH_AS(run("_gather", {x, i64s(Shape{1}, {0})}, 2),
                         "_gather: axis 2 is out of range for a tensor of rank 2", OpError);
    CHECK_THROWS_WITH_AS(run("_scatter", {x, i64s(Shape{2}, {0, 1}), arange_as(Shape{2}, DType::F32)}, 0),
                         "_scatter: values of shape (2,) do not match the indexed shape (2, 3)", OpError);
}
