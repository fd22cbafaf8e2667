// Tensor storage: dtypes, shapes, buffers, views, copy-on-write, wrapping.
#include <doctest/doctest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "stdlib/broadcast.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/elementwise.hpp"
#include "stdlib/op_table.hpp"
#include "stdlib/tensor.hpp"
#include "test_core_util.hpp"

using namespace tg::stdlib;
using tg::stdlib::testing::values;

TEST_CASE("dtype names and sizes round-trip") {
    for (DType d : {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64}) {
        REQUIRE(dtype_from_name(dtype_name(d)).has_value());
        CHECK(*dtype_from_name(dtype_name(d)) == d);
    }
    CHECK(std::string(dtype_name(DType::F32)) == "f32");
    CHECK(!dtype_from_name("float32").has_value());
    CHECK(dtype_size(DType::Bool) == 1);
    CHECK(dtype_size(DType::I32) == 4);
    CHECK(dtype_size(DType::F64) == 8);
}

TEST_CASE("shape printing, numel and overflow") {
    CHECK(Shape{}.to_string() == "()");
    CHECK(Shape{3}.to_string() == "(3,)");
    CHECK(Shape{2, 3}.to_string() == "(2, 3)");
    CHECK(Shape{2, 3, 4}.numel() == 24);
    CHECK(Shape{}.numel() == 1);
    CHECK(Shape{0, 5}.numel() == 0);
    CHECK_THROWS_WITH_AS(Shape({int64_t(1) << 40, int64_t(1) << 40}).numel(),
                         "the shape (1099511627776, 1099511627776) has too many elements", OpError);
    // NumPy's rule: a zero dimension does not excuse the others (their strides would overflow); found by
    // the npy fuzzer
    CHECK_THROWS_WITH_AS(Shape({0, int64_t(1) << 40, int64_t(1) << 40}).numel(),
                         "the shape (0, 1099511627776, 1099511627776) has too many elements", OpError);
    CHECK(Shape{0, int64_t(1) << 40, 4}.numel() == 0);
    CHECK_THROWS_AS(Shape({1, 2, 3, 4, 5, 6, 7, 8, 9}), OpError);
    Shape s;
    for (int i = 0; i < kMaxRank; ++i) s.push_back(1);
    CHECK_THROWS_AS(s.push_back(1), OpError);
}

TEST_CASE("scalars keep their value inline") {
    Tensor t;
    CHECK(t.dtype() == DType::F32);
    CHECK(t.rank() == 0);
    CHECK(t.item_f64() == 0.0);
    CHECK(t.is_inline());
    CHECK(Tensor::scalar(true).item_bool());
    CHECK(Tensor::scalar(int32_t(-5)).item_i64() == -5);
    CHECK(Tensor::scalar(int64_t(1) << 40).item_i64() == (int64_t(1) << 40));
    CHECK(Tensor::scalar(2.5, DType::F64).item_f64() == 2.5);
    // Casting on creation: truncation toward zero, wrap.
    CHECK(Tensor::scalar(-2.7, DType::I32).item_i64() == -2);
    CHECK(Tensor::scalar(int64_t(1) << 32, DType::I32).item_i64() == 0);
    CHECK(Tensor::scalar(0.1, DType::F32).item_f64() == static_cast<double>(0.1f));
}

TEST_CASE("weak scalars report default dtypes and keep exact values") {
    Tensor w = Tensor::weak_float(0.1);
    CHECK(w.weak());
    CHECK(w.dtype() == DType::F32);
    CHECK(w.storage_dtype() == DType::F64);
    CHECK(w.item_f64() == 0.1);  // the f64 nearest 0.1, not the f32 one
    Tensor s = w.strong();
    CHECK(!s.weak());
    CHECK(s.dtype() == DType::F32);
    CHECK(s.item_f64() == static_cast<double>(0.1f));
    Tensor i = Tensor::weak_int(int64_t(1) << 50);
    CHECK(i.dtype() == DType::I64);
    CHECK(i.item_i64() == (int64_t(1) << 50));
}

TEST_CASE("empty, zeros and contiguous strides") {
    Tensor z = Tensor::zeros(DType::F32, Shape{2, 3});
    CHECK(z.numel() == 6);
    CHECK(z.strides() == Strides{3, 1});
    CHECK(z.is_contiguous());
    for (double v : values(z)) CHECK(v == 0.0);
    CHECK(reinterpret_cast<uintptr_t>(z.raw_data()) % 64 == 0);
    Tensor e = Tensor::empty(DType::I64, Shape{0, 4});
    CHECK(e.numel() == 0);
    Tensor big = Tensor::zeros(DType::F64, Shape{1 << 20});  // 8 MiB: mapped with huge pages
    CHECK(reinterpret_cast<uintptr_t>(big.raw_data()) % 64 == 0);
    CHECK(big.data<double>()[12345] == 0.0);
    big.data<double>()[7] = 1.0;
    Tensor big2 = Tensor::zeros(DType::F64, Shape{1 << 20});  // may reuse a cached mapping: still zero
    CHECK(big2.data<double>()[7] == 0.0);
}

TEST_CASE("huge allocations are errors, not aborts") {
    CHECK_THROWS_WITH_AS(Tensor::zeros(DType::F32, Shape{1000000, 1000000}),
                         doctest::Contains("cannot allocate 4000000000000 bytes"), OpError);
    CHECK_THROWS_WITH_AS(Tensor::zeros(DType::F64, Shape{int64_t(1) << 31, int64_t(1) << 31}),
                         doctest::Contains("cannot allocate"), OpError);
    CHECK_THROWS_WITH_AS(Tensor::empty(DType::F32, Shape{int64_t(1) << 62, 8}), doctest::Contains("too many elements"),
                         OpError);
    CHECK_THROWS_WITH_AS(Tensor::empty(DType::F32, Shape{-1, 2}), doctest::Contains("negative dimension"), OpError);
}

TEST_CASE("copies share the buffer, make_unique copies only when shared") {
    Tensor a = make_tensor<float>({3}, {1, 2, 3});
    Tensor b = a;
    CHECK(a.shares_buffer_with(b));
    b.make_unique();
    CHECK(!a.shares_buffer_with(b));
    b.data<float>()[0] = 9;
    CHECK(values(a) == std::vector<double>{1, 2, 3});
    CHECK(values(b) == std::vector<double>{9, 2, 3});
    const void* before = b.raw_data();
    b.make_unique();  // already unique: stays in place
    CHECK(b.raw_data() == before);
    Tensor moved = std::move(b);
    CHECK(moved.raw_data() == before);
}

TEST_CASE("views: transpose, slices, broadcast and copies of them") {
    Tensor a = make_tensor<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
    Tensor t = a.view(Shape{3, 2}, Strides{1, 3}, 0);
    CHECK(t.shares_buffer_with(a));
    CHECK(!t.is_contiguous());
    CHECK(values(t) == std::vector<double>{1, 4, 2, 5, 3, 6});
    Tensor c = t.contiguous();
    CHECK(c.is_contiguous());
    CHECK(values(c) == std::vector<double>{1, 4, 2, 5, 3, 6});
    Tensor row = a.view(Shape{3}, Strides{1}, 3);
    CHECK(values(row) == std::vector<double>{4, 5, 6});
    Tensor elem = a.view(Shape{}, Strides{}, 4);
    CHECK(elem.is_inline());
    CHECK(elem.item_i64() == 5);
    // A scalar broadcast to a shape (stride 0).
    Tensor s = Tensor::scalar(2.5, DType::F64);
    Tensor bs = s.view(Shape{2, 2}, Strides{0, 0}, 0);
    CHECK(values(bs) == std::vector<double>{2.5, 2.5, 2.5, 2.5});
    // make_unique of a broadcast view materializes it.
    bs.make_unique();
    CHECK(bs.is_contiguous());
    bs.data<double>()[1] = 1;
    CHECK(values(bs) == std::vector<double>{2.5, 1, 2.5, 2.5});
    // Copy of a reversed view.
    Tensor rev = a.view(Shape{3}, Strides{-1}, 2);
    CHECK(values(rev.copy()) == std::vector<double>{3, 2, 1});
}

TEST_CASE("wrap uses host memory without copying and releases it") {
    std::vector<float> host{1, 2, 3, 4, 5, 6};
    int released = 0;
    {
        Tensor t = Tensor::wrap(host.data(), DType::F32, Shape{2, 3}, Strides{}, [&] { ++released; });
        CHECK(t.raw_data() == host.data());
        Tensor v = t.view(Shape{2}, Strides{3}, 1);
        CHECK(values(v) == std::vector<double>{2, 5});
        Tensor w = t;
        w.make_unique();  // wrapped memory is never written: copy
        CHECK(w.raw_data() != host.data());
        w.data<float>()[0] = 100;
        CHECK(host[0] == 1);
        CHECK(released == 0);
    }
    CHECK(released == 1);
    // Negative strides.
    Tensor r = Tensor::wrap(host.data() + 5, DType::F32, Shape{6}, Strides{-1}, {});
    CHECK(values(r) == std::vector<double>{6, 5, 4, 3, 2, 1});
}

TEST_CASE("item on a tensor with several elements is an error") {
    Tensor a = make_tensor<float>({2}, {1, 2});
    CHECK_THROWS_WITH_AS(a.item_f64(), "item: a tensor with 2 elements is not a scalar", OpError);
    Tensor one = make_tensor<float>({1, 1}, {7});
    CHECK(one.item_f64() == 7);
}

TEST_CASE("broadcast shapes and errors") {
    CHECK(broadcast_shapes("add", Shape{2, 3}, Shape{3}) == Shape{2, 3});
    CHECK(broadcast_shapes("add", Shape{2, 1}, Shape{1, 4}) == Shape{2, 4});
    CHECK(broadcast_shapes("add", Shape{}, Shape{5}) == Shape{5});
    CHECK(broadcast_shapes("add", Shape{0, 1}, Shape{3}) == Shape{0, 3});
    CHECK_THROWS_WITH_AS(broadcast_shapes("add", Shape{2, 3}, Shape{4}),
                         "add: shapes (2, 3) and (4,) cannot be broadcast together: 3 (axis 1) != 4 (axis 0)", OpError);
    const Shape three[] = {Shape{3, 1}, Shape{1, 4}, Shape{4}};
    CHECK(broadcast_shapes("where", three) == Shape{3, 4});
    CHECK(broadcasts_to(Shape{3}, Shape{2, 3}));
    CHECK(!broadcasts_to(Shape{2, 3}, Shape{3}));
    CHECK(broadcast_strides(Shape{3}, Strides{1}, Shape{2, 3}) == Strides{0, 1});
}

TEST_CASE("the op table has every element-wise builtin once, with its kind") {
    int unary = 0, binary = 0, reductions = 0;
    for (const OpDef* op : all_ops()) {
        INFO("op " << op->name);
        CHECK(find_op(op->name) == op);
        CHECK(static_cast<bool>(op->infer));
        CHECK(static_cast<bool>(op->eager));
        // element-wise ops and reductions are typed (backends key their rules on the kind)
        if (op->flags & (kElementwise | kReduction)) CHECK(!std::holds_alternative<std::monostate>(op->kind));
        if (const auto* k = std::get_if<UnaryKind>(&op->kind)) {
            ++unary;
            CHECK(op->name == unary_name(*k));
            CHECK((op->flags & kElementwise) != 0);
        } else if (const auto* k = std::get_if<BinaryKind>(&op->kind)) {
            ++binary;
            CHECK(op->name == binary_name(*k));
            CHECK(&binary_op(*k) == op);
            CHECK((op->flags & kElementwise) != 0);
            CHECK((op->raises == Raises::OnIntegers) == (int_check(*k).kind != IntCheck::None));
        } else if (std::holds_alternative<ReduceKind>(op->kind)) {
            ++reductions;
            CHECK((op->flags & kReduction) != 0);
        }
    }
    CHECK(unary == kNumUnaryKinds);
    CHECK(binary == kNumBinaryKinds);
    CHECK(reductions == kNumReduceKinds);
    CHECK(find_op("where")->kind == OpKind{ElementwiseKind::Where});
    CHECK(find_op("clip")->kind == OpKind{ElementwiseKind::Clip});
    CHECK(find_op("astype")->kind == OpKind{ElementwiseKind::AsType});
    CHECK(find_op("matmul")->cost == Cost::Contraction);
    CHECK(find_op("one_hot")->raises == Raises::OnData);
    CHECK(find_op("no_such_op") == nullptr);
    CHECK(binary_op(BinaryKind::FloorDiv).name == "floordiv");
}

TEST_CASE("tensors made on one thread can be released on another") {
    std::vector<Tensor> made;
    std::thread t([&] {
        for (int i = 0; i < 100; ++i) made.push_back(make_tensor<float>({4}, {1, 2, 3, float(i)}));
        Tensor big = Tensor::zeros(DType::F32, Shape{1 << 20});
        made.push_back(big);
    });
    t.join();
    CHECK(made[99].data<float>()[3] == 99.0f);
    made.clear();  // freed here, into this thread's caches
    Tensor again = make_tensor<float>({4}, {5, 6, 7, 8});
    CHECK(values(again) == std::vector<double>{5, 6, 7, 8});
}
