// Kernel behaviour the NumPy tables cannot show: summation accuracy, views
// instead of copies, weak (literal) operands, integer wrap-around, BLAS on
// strided views, registration details.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "stdlib/linalg.hpp"
#include "stdlib/nn.hpp"
#include "stdlib/reduce.hpp"
#include "stdlib/shape_ops.hpp"
#include "test_kernels_util.hpp"

using namespace tg::stdlib;
using namespace tg::stdlib::test;

namespace {
Tensor filled_f32(const Shape& s, float v) {
    Tensor t = Tensor::empty(DType::F32, s);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = v;
    return t;
}
Attr ints(std::vector<int64_t> v) { return v; }
}  // namespace

TEST_CASE("sum of 1e7 copies of 0.1f is close to 1e6, contiguous and strided") {
    Tensor x = filled_f32({10000000}, 0.1f);
    double exact = 1e7 * static_cast<double>(0.1f);  // 1000000.0149...
    Tensor s = reduce(ReduceKind::Sum, x, {}, false);
    CHECK(s.dtype() == DType::F32);
    CHECK(std::fabs(s.item_f64() - exact) <= 0.07);  // one f32 ulp at 1e6 is 0.0625
    CHECK(std::fabs(reduce(ReduceKind::Mean, x, {}, false).item_f64() - 0.1) < 1e-7);
    // Down the rows (the blocked path: 16 rows in f32, then f64; relative error < 1e-6).
    Tensor m = filled_f32({1000000, 10}, 0.1f);
    Tensor cols = reduce(ReduceKind::Sum, m, int64_t{0}, false);
    for (int64_t j = 0; j < 10; ++j) CHECK(std::fabs(cols.data<float>()[j] - 1e6 * 0.1f) <= 0.1);
    Tensor mt = transpose(m);
    Tensor rows = reduce(ReduceKind::Sum, mt, int64_t{1}, false);
    CHECK(rows.shape() == Shape{10});
    for (int64_t j = 0; j < 10; ++j) CHECK(std::fabs(rows.data<float>()[j] - 1e6 * 0.1f) <= 0.1);
}

TEST_CASE("integer reductions and matmul wrap around") {
    Tensor x = make_tensor<int64_t>({2}, {std::numeric_limits<int64_t>::max(), 1});
    CHECK(reduce(ReduceKind::Sum, x, {}, false).item_i64() == std::numeric_limits<int64_t>::min());
    Tensor y = make_tensor<int32_t>({2}, {std::numeric_limits<int32_t>::max(), 1});
    Tensor s = reduce(ReduceKind::Sum, y, {}, false);  // i32 sums in i64: no wrap
    CHECK(s.dtype() == DType::I64);
    CHECK(s.item_i64() == int64_t{std::numeric_limits<int32_t>::max()} + 1);
    Tensor p = make_tensor<int64_t>({2}, {int64_t{1} << 62, 4});
    CHECK(reduce(ReduceKind::Prod, p, {}, false).item_i64() == 0);
    Tensor a = make_tensor<int32_t>({1, 2}, {65536, 1});
    Tensor b = make_tensor<int32_t>({2, 1}, {65536, 0});
    Tensor c = matmul(a, b);  // 2^32 wraps to 0 in i32
    CHECK(c.dtype() == DType::I32);
    CHECK(c.data<int32_t>()[0] == 0);
}

TEST_CASE("shape ops are views when they can be") {
    Tensor x = make_tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    CHECK(transpose(x).shares_buffer_with(x));
    const int64_t s32[2] = {3, 2};
    CHECK(reshape(x, s32).shares_buffer_with(x));
    CHECK(broadcast_to(make_tensor<float>({3}, {1, 2, 3}), Shape{4, 3}).strides()[0] == 0);
    CHECK(call("expand_dims", {x}, {{"axis", int64_t{1}}}).shares_buffer_with(x));
    Tensor x1 = call("expand_dims", {x}, {{"axis", int64_t{0}}});
    CHECK(call("squeeze", {x1}).shares_buffer_with(x));
    CHECK(call("flatten", {x}).shares_buffer_with(x));
    // A transposed tensor is copied by reshape, and the values follow its logical order.
    Tensor t = transpose(x);
    const int64_t flat[1] = {6};
    Tensor r = reshape(t, flat);
    CHECK_FALSE(r.shares_buffer_with(x));
    const float want[6] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; ++i) CHECK(r.data<float>()[i] == want[i]);
    // Value semantics survive views: copy-on-write on the view leaves x alone.
    Tensor v = transpose(x);
    v.make_unique();
    v.data<float>()[0] = 100;
    CHECK(x.data<float>()[0] == 1);
}

TEST_CASE("weak (literal) operands") {
    CHECK(reduce(ReduceKind::Sum, Tensor::weak_int(3), {}, false).dtype() == DType::I64);
    CHECK_FALSE(reduce(ReduceKind::Sum, Tensor::weak_int(3), {}, false).weak());
    CHECK(reduce(ReduceKind::Max, Tensor::weak_float(0.5), {}, false).item_f64() == 0.5);
    Tensor t = call("tensor", {Tensor::weak_float(0.1)});
    CHECK(t.dtype() == DType::F32);
    CHECK_FALSE(t.weak());
    CHECK(t.item_f64() == static_cast<double>(0.1f));
    // tensor(0.1, dtype=f64) keeps the literal's exact value.
    CHECK(call("tensor", {Tensor::weak_float(0.1)}, {{"dtype", DType::F64}}).item_f64() == 0.1);
    Tensor f = call("full", {Tensor::weak_int(7)}, {{"shape", ints({2})}});
    CHECK(f.dtype() == DType::I64);
    CHECK(call("full", {Tensor::weak_float(1.5)}, {{"shape", ints({2})}}).dtype() == DType::F32);
    CHECK(call("full", {Tensor::weak_float(0.1)}, {{"shape", ints({1})}, {"dtype", DType::F64}}).data<double>()[0] == 0.1);
    // A weak scalar joins an i32 tensor as i32 (docs/language.md "Values").
    Tensor v = make_tensor<int32_t>({2}, {1, 2});
    CHECK(matmul(v, v).dtype() == DType::I32);
    CHECK(dot(v, Tensor::weak_int(2)).dtype() == DType::I32);
    CHECK(call("zeros_like", {Tensor::weak_float(1.0)}).dtype() == DType::F32);
    CHECK(infer("mse", {type_of(make_tensor<int32_t>({1}, {1})), type_of(Tensor::weak_float(1.0))}).dtype == DType::F32);
}

TEST_CASE("matmul reads strided and broadcast operands correctly") {
    // a is a column slice-like view: every other column of a 3x4 matrix.
    Tensor base = make_tensor<double>({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    Tensor a = base.view(Shape{3, 2}, Strides{4, 2}, 0);  // [[1,3],[5,7],[9,11]]
    Tensor b = make_tensor<double>({2, 2}, {1, 0, 0, 1});
    Tensor c = matmul(a, b);
    const double want[6] = {1, 3, 5, 7, 9, 11};
    for (int i = 0; i < 6; ++i) CHECK(c.data<double>()[i] == want[i]);
    // b broadcast over a batch (zero batch stride) and transposed.
    Tensor bt = transpose(make_tensor<float>({2, 2}, {1, 2, 3, 4}));  // [[1,3],[2,4]]
    Tensor batch = broadcast_to(bt, Shape{3, 2, 2});
    Tensor eye = make_tensor<float>({2, 2}, {1, 0, 0, 1});
    Tensor r = matmul(eye, batch);
    CHECK(r.shape() == Shape{3, 2, 2});
    const float wantb[4] = {1, 3, 2, 4};
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 4; ++i) CHECK(r.data<float>()[k * 4 + i] == wantb[i]);
    // Inner dimension 0 gives zeros.
    Tensor z = matmul(Tensor::zeros(DType::F32, {2, 0}), Tensor::zeros(DType::F32, {0, 3}));
    CHECK(z.shape() == Shape{2, 3});
    for (int i = 0; i < 6; ++i) CHECK(z.data<float>()[i] == 0.0f);
}

TEST_CASE("reductions: keepdims with axis=None, bool inputs, the op table entries") {
    Tensor x = make_tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    Tensor s = reduce(ReduceKind::Sum, x, {}, true);
    CHECK(s.shape() == Shape{1, 1});
    CHECK(s.data<float>()[0] == 21.0f);
    Tensor b = make_tensor<bool>({3}, {true, false, true});
    CHECK(reduce(ReduceKind::Sum, b, {}, false).item_i64() == 2);
    CHECK(reduce(ReduceKind::Max, b, {}, false).dtype() == DType::Bool);
    CHECK(reduce(ReduceKind::Mean, b, {}, false).dtype() == DType::F32);
    for (const char* name : {"sum", "mean", "max", "min", "prod", "argmax", "argmin", "any", "all", "logsumexp"}) {
        const OpDef& d = op(name);
        CHECK((d.flags & kReduction) != 0);
        REQUIRE(d.params.size() == 3);
        CHECK(d.params[1].name == "axis");
        CHECK(d.params[2].name == "keepdims");
    }
    CHECK(find_op("constant") == find_op("tensor"));
    // The shape rule works on types alone (what the tracer gives it).
    TensorType t = infer("argmax", {TensorType{DType::F64, Shape{4, 5, 6}, false}}, {{"axis", int64_t{-2}}, {"keepdims", true}});
    CHECK(t.dtype == DType::I64);
    CHECK(t.shape == Shape{4, 1, 6});
}

TEST_CASE("nn helpers are stable and agree with each other") {
    Tensor x = make_tensor<float>({2, 3}, {1000, 1001, 1002, -5, 0, 5});
    Tensor p = softmax(x);
    Tensor lp = log_softmax(x);
    for (int i = 0; i < 6; ++i) {
        CHECK(std::isfinite(p.data<float>()[i]));
        CHECK(std::log(p.data<float>()[i]) == doctest::Approx(lp.data<float>()[i]).epsilon(1e-5));
    }
    Tensor labels = make_tensor<int64_t>({2}, {2, 0});
    double ce = cross_entropy(x, labels).item_f64();
    CHECK(ce == doctest::Approx(-(lp.data<float>()[2] + lp.data<float>()[3]) / 2).epsilon(1e-6));
    CHECK(mse(x, x).item_f64() == 0.0);
}

TEST_CASE("kernels read broadcast (stride 0) and reversed (negative stride) views") {
    Tensor row = make_tensor<float>({3}, {1, 2, 3});
    Tensor b = broadcast_to(row, Shape{4, 3});
    Tensor s0 = reduce(ReduceKind::Sum, b, int64_t{0}, false);
    for (int j = 0; j < 3; ++j) CHECK(s0.data<float>()[j] == 4.0f * static_cast<float>(j + 1));
    CHECK(reduce(ReduceKind::Sum, b, {}, false).item_f64() == 24.0);
    CHECK(reduce(ReduceKind::Argmax, b, {}, false).item_i64() == 2);
    // x[::-1] of [1, 5, 2, 5]: strides -1 from the last element.
    Tensor x = make_tensor<int64_t>({4}, {1, 5, 2, 5});
    Tensor rev = x.view(Shape{4}, Strides{-1}, 3);
    CHECK(reduce(ReduceKind::Argmax, rev, {}, false).item_i64() == 0);
    CHECK(reduce(ReduceKind::Argmin, rev, {}, false).item_i64() == 3);
    CHECK(reduce(ReduceKind::Sum, rev, {}, false).item_i64() == 13);
    Tensor flat = call("flatten", {rev}).contiguous();  // 1-d already: flatten returns the view itself
    const int64_t want[4] = {5, 2, 5, 1};
    for (int i = 0; i < 4; ++i) CHECK(flat.data<int64_t>()[i] == want[i]);
    Tensor m = make_tensor<double>({2, 2}, {1, 2, 3, 4});
    Tensor mrev = m.view(Shape{2, 2}, Strides{-2, -1}, 3);  // [[4, 3], [2, 1]]
    Tensor p = matmul(mrev, make_tensor<double>({2, 1}, {1, 0}));
    CHECK(p.data<double>()[0] == 4.0);
    CHECK(p.data<double>()[1] == 2.0);
    Tensor sm = softmax(broadcast_to(make_tensor<float>({2}, {0, 0}), Shape{3, 2}));
    for (int i = 0; i < 6; ++i) CHECK(sm.data<float>()[i] == 0.5f);
    Tensor c = concat(std::vector<Tensor>{rev, b.view(Shape{3}, Strides{0}, 0).contiguous().strong()}, 0);
    CHECK(c.dtype() == DType::F32);
    CHECK(c.shape() == Shape{7});
    CHECK(c.data<float>()[0] == 5.0f);
    CHECK(c.data<float>()[4] == 1.0f);
}
