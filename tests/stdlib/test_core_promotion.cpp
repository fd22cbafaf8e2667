// Type promotion with weak scalars (docs/language.md "Values"; decisions listed in dtype.hpp),
// checked through promote(), the op signatures, the shape rules and the kernels.
#include <doctest/doctest.h>

#include <vector>

#include "stdlib/elementwise.hpp"
#include "stdlib/op_table.hpp"
#include "test_core_util.hpp"

using namespace tg::stdlib;

namespace {

const DType kAll[] = {DType::Bool, DType::I32, DType::I64, DType::F32, DType::F64};

// The expected table written out independently of promote(): rank by the
// order bool < i32 < i64 < f32 < f64.
int rank_of(DType d) {
    switch (d) {
        case DType::Bool: return 0;
        case DType::I32: return 1;
        case DType::I64: return 2;
        case DType::F32: return 3;
        case DType::F64: return 4;
    }
    return -1;
}

Tensor strong_of(DType d) {
    switch (d) {
        case DType::Bool: return Tensor::scalar(true);
        case DType::I32: return Tensor::scalar(int32_t(3));
        case DType::I64: return Tensor::scalar(int64_t(3));
        case DType::F32: return Tensor::scalar(3.0, DType::F32);
        case DType::F64: break;
    }
    return Tensor::scalar(3.0, DType::F64);
}

}  // namespace

TEST_CASE("strong with strong: the larger dtype") {
    for (DType a : kAll)
        for (DType b : kAll) {
            const Promoted p = promote(a, false, b, false);
            CHECK(!p.weak);
            CHECK(p.dtype == (rank_of(a) >= rank_of(b) ? a : b));
        }
    CHECK(promote(DType::I64, false, DType::F32, false).dtype == DType::F32);
    CHECK(promote(DType::F32, false, DType::F64, false).dtype == DType::F64);
}

TEST_CASE("weak int with every strong dtype") {
    const DType expected[] = {DType::I64, DType::I32, DType::I64, DType::F32, DType::F64};
    for (int i = 0; i < 5; ++i) {
        CHECK(promote(DType::I64, true, kAll[i], false).dtype == expected[i]);
        CHECK(promote(kAll[i], false, DType::I64, true).dtype == expected[i]);
        CHECK(!promote(kAll[i], false, DType::I64, true).weak);
    }
}

TEST_CASE("weak float with every strong dtype") {
    const DType expected[] = {DType::F32, DType::F32, DType::F32, DType::F32, DType::F64};
    for (int i = 0; i < 5; ++i) {
        CHECK(promote(DType::F32, true, kAll[i], false).dtype == expected[i]);
        CHECK(promote(kAll[i], false, DType::F32, true).dtype == expected[i]);
    }
}

TEST_CASE("weak with weak stays weak") {
    CHECK(promote(DType::I64, true, DType::I64, true).dtype == DType::I64);
    CHECK(promote(DType::I64, true, DType::I64, true).weak);
    CHECK(promote(DType::I64, true, DType::F32, true).dtype == DType::F32);
    CHECK(promote(DType::F32, true, DType::F32, true).weak);
}

TEST_CASE("kernels follow the promotion table for every pair") {
    const Tensor weaks[] = {Tensor::weak_int(2), Tensor::weak_float(2.0)};
    for (DType d : kAll) {
        Tensor s = strong_of(d);
        for (const Tensor& w : weaks) {
            Tensor r1 = binary(BinaryKind::Mul, s, w), r2 = binary(BinaryKind::Mul, w, s);
            const DType expected = promote(d, false, w.dtype(), true).dtype;
            CHECK(r1.dtype() == expected);
            CHECK(r2.dtype() == expected);
            CHECK(!r1.weak());
            // The shape rule agrees with the kernel.
            TensorType ins[] = {{d, Shape{}, false}, {w.dtype(), Shape{}, true}};
            Attr attrs[2];
            TensorType t = find_op("mul")->infer(TypeArgs{ins, attrs});
            CHECK(t.dtype == r1.dtype());
            CHECK(t.weak == r1.weak());
        }
        for (DType e : kAll) CHECK(binary(BinaryKind::Add, s, strong_of(e)).dtype() == promote(d, false, e, false).dtype);
    }
}

TEST_CASE("weak values keep their exact value until they meet a dtype") {
    // 0.1 * f64 tensor uses the f64 nearest 0.1.
    Tensor x = Tensor::scalar(1.0, DType::F64);
    CHECK(binary(BinaryKind::Mul, x, Tensor::weak_float(0.1)).item_f64() == 0.1);
    // With an f32 tensor, the f32 nearest 0.1.
    Tensor y = Tensor::scalar(1.0, DType::F32);
    CHECK(binary(BinaryKind::Mul, y, Tensor::weak_float(0.1)).item_f64() == static_cast<double>(0.1f));
    // Literal arithmetic is exact (f64) and stays weak: (0.1 + 0.2) then with f64.
    Tensor w = binary(BinaryKind::Add, Tensor::weak_float(0.1), Tensor::weak_float(0.2));
    CHECK(w.weak());
    CHECK(w.dtype() == DType::F32);
    CHECK(binary(BinaryKind::Mul, w, x).item_f64() == 0.1 + 0.2);
    // 1 / 2 is a weak float 0.5; 7 // 2 a weak int.
    Tensor h = binary(BinaryKind::Div, Tensor::weak_int(1), Tensor::weak_int(2));
    CHECK(h.weak());
    CHECK(h.dtype() == DType::F32);
    CHECK(h.item_f64() == 0.5);
    Tensor third = binary(BinaryKind::Div, Tensor::weak_int(1), Tensor::weak_int(3));
    CHECK(third.item_f64() == 1.0 / 3.0);  // exact f64 until it meets a dtype
    CHECK(binary(BinaryKind::Mul, third, Tensor::scalar(1.0, DType::F64)).item_f64() == 1.0 / 3.0);
    Tensor q = binary(BinaryKind::FloorDiv, Tensor::weak_int(7), Tensor::weak_int(2));
    CHECK(q.weak());
    CHECK(q.item_i64() == 3);
    // Big weak ints stay exact in i64.
    Tensor big = binary(BinaryKind::Mul, Tensor::weak_int(int64_t(1) << 40), Tensor::weak_int(1024));
    CHECK(big.item_i64() == (int64_t(1) << 50));
    // ... and wrap when they meet an i32 tensor.
    CHECK(binary(BinaryKind::Add, Tensor::scalar(int32_t(1)), Tensor::weak_int(int64_t(1) << 32)).item_i64() == 1);
    // A weak int with an i32 tensor stays i32; with bool gives i64.
    CHECK(binary(BinaryKind::Add, make_tensor<int32_t>({2}, {1, 2}), Tensor::weak_int(1)).dtype() == DType::I32);
    CHECK(binary(BinaryKind::Add, Tensor::scalar(true), Tensor::weak_int(1)).dtype() == DType::I64);
    // A weak float with an int tensor gives f32.
    CHECK(binary(BinaryKind::Mul, make_tensor<int64_t>({2}, {1, 2}), Tensor::weak_float(0.5)).dtype() == DType::F32);
}

TEST_CASE("comparisons give strong bool, division of ints gives f32") {
    Tensor c = binary(BinaryKind::Lt, Tensor::weak_int(1), Tensor::weak_int(2));
    CHECK(c.dtype() == DType::Bool);
    CHECK(!c.weak());
    CHECK(c.item_bool());
    Tensor d = binary(BinaryKind::Div, make_tensor<int32_t>({2}, {1, 3}), make_tensor<int32_t>({2}, {2, 4}));
    CHECK(d.dtype() == DType::F32);
    CHECK(testing::values(d) == std::vector<double>{0.5, 0.75});
    CHECK(binary(BinaryKind::Div, Tensor::scalar(int64_t(1)), Tensor::scalar(2.0, DType::F64)).dtype() == DType::F64);
}

TEST_CASE("unary ops: weak operands") {
    // Only neg and invert keep weakness (literal arithmetic like -1).
    Tensor n = unary(UnaryKind::Neg, Tensor::weak_int(1));
    CHECK(n.weak());
    CHECK(n.item_i64() == -1);
    CHECK(binary(BinaryKind::Mul, make_tensor<int32_t>({1}, {5}), n).dtype() == DType::I32);
    Tensor nf = unary(UnaryKind::Neg, Tensor::weak_float(0.1));
    CHECK(nf.weak());
    CHECK(nf.item_f64() == -0.1);
    // Others behave as the default dtype: exp(2.0) is f32, abs(-3) is i64.
    Tensor e = unary(UnaryKind::Exp, Tensor::weak_float(2.0));
    CHECK(!e.weak());
    CHECK(e.dtype() == DType::F32);
    CHECK(unary(UnaryKind::Abs, Tensor::weak_int(-3)).dtype() == DType::I64);
    CHECK(unary(UnaryKind::Sqrt, Tensor::weak_int(4)).dtype() == DType::F32);
    CHECK(unary(UnaryKind::Sqrt, Tensor::scalar(int32_t(4))).dtype() == DType::F32);
    CHECK(unary(UnaryKind::Sqrt, Tensor::scalar(4.0, DType::F64)).dtype() == DType::F64);
    CHECK(unary(UnaryKind::IsNan, Tensor::weak_float(1.0)).dtype() == DType::Bool);
}
