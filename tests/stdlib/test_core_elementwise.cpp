// Element-wise kernels: NumPy-generated tables (data/core_binary.txt, made by
// data/core_gen.py), broadcasting, the fast and strided paths, unary ops,
// where / clip / astype, and every error path.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/elementwise.hpp"
#include "stdlib/op_table.hpp"
#include "test_core_util.hpp"

using namespace tg::stdlib;
using namespace tg::stdlib::testing;

namespace {

// The kind of a binary op of the table, by its name in the data files.
BinaryKind binary_kind(const std::string& name) {
    const OpDef* op = find_op(name);
    REQUIRE_MESSAGE(op != nullptr, name);
    return std::get<BinaryKind>(op->kind);
}

DType dtype_of(const std::string& s) { return *dtype_from_name(s); }

bool same_value(double got, double want) {
    if (std::isnan(want)) return std::isnan(got);
    return got == want && std::signbit(got) == std::signbit(want);
}

struct Case {
    std::string op, dtype;
    Tensor a, b;
    double want;
    std::string line;
};

std::vector<Case> binary_cases() {
    std::vector<Case> cases;
    for (const std::string& line : read_lines("core_binary.txt")) {
        std::istringstream in(line);
        std::string op, dt, a, b, r;
        in >> op >> dt >> a >> b >> r;
        Case c{op, dt, {}, {}, 0, line};
        const DType d = dtype_of(dt);
        if (is_int(d)) {
            c.a = Tensor::scalar(static_cast<int64_t>(std::stoll(a)), d);
            c.b = Tensor::scalar(static_cast<int64_t>(std::stoll(b)), d);
            c.want = op == "div" || op == "atan2" || op == "logaddexp" ? parse_bits("f32", r) : static_cast<double>(std::stoll(r));
        } else {
            c.a = Tensor::scalar(parse_bits(dt, a), d);
            c.b = Tensor::scalar(parse_bits(dt, b), d);
            c.want = parse_bits(dt, r);
        }
        cases.push_back(c);
    }
    return cases;
}

}  // namespace

TEST_CASE("binary ops on 0-d tensors match NumPy") {
    const auto cases = binary_cases();
    REQUIRE(cases.size() > 5000);
    int failures = 0;
    for (const Case& c : cases) {
        Tensor r = binary(binary_kind(c.op), c.a, c.b);
        CHECK(r.is_inline());
        double got;
        if (r.dtype() == DType::I64 || r.dtype() == DType::I32) got = static_cast<double>(r.item_i64());
        else got = r.item_f64();
        if (r.dtype() == DType::I64 && !same_value(got, c.want)) {
            // compare exactly as integers (doubles lose bits past 2^53)
            std::istringstream in(c.line);
            std::string op, dt, a, b, want;
            in >> op >> dt >> a >> b >> want;
            if (r.item_i64() == std::stoll(want)) continue;
        }
        // NumPy computes float pow and arctan2 with SVML on AVX-512 (1 ulp off at times); we
        // use libm's: allow one ulp there.
        if ((c.op == "pow" || c.op == "atan2") && is_float(r.dtype()) && std::isfinite(c.want) &&
            std::fabs(got - c.want) <= std::fabs(c.want) * (r.dtype() == DType::F32 ? 1.2e-7 : 2.3e-16))
            continue;
        if (!same_value(got, c.want) && ++failures <= 20) FAIL_CHECK(c.line << " -> got " << got);
    }
    CHECK(failures == 0);
}

TEST_CASE("binary ops on arrays match the 0-d results (vectorized and strided paths)") {
    const auto cases = binary_cases();
    // Group by (op, dtype), compute the whole group as one 1-d op, then as a strided view.
    std::map<std::string, std::vector<const Case*>> groups;
    for (const Case& c : cases) groups[c.op + " " + c.dtype].push_back(&c);
    for (auto& [key, group] : groups) {
        const int64_t n = static_cast<int64_t>(group.size());
        const DType d = group[0]->a.dtype();
        Tensor a = Tensor::empty(d, Shape{n}), b = Tensor::empty(d, Shape{n});
        Tensor a2 = Tensor::empty(d, Shape{n, 2});  // every other element: a strided view
        dispatch_dtype(d, [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (int64_t i = 0; i < n; ++i) {
                a.data<T>()[i] = *group[static_cast<size_t>(i)]->a.data<T>();
                b.data<T>()[i] = *group[static_cast<size_t>(i)]->b.data<T>();
                a2.data<T>()[2 * i] = a.data<T>()[i];
            }
        });
        const BinaryKind k = binary_kind(group[0]->op);
        Tensor r = binary(k, a, b);
        Tensor rs = binary(k, a2.view(Shape{n}, Strides{2}, 0), b);
        auto rv = values(r), rsv = values(rs);
        int failures = 0;
        for (int64_t i = 0; i < n; ++i) {
            Tensor one = binary(k, group[static_cast<size_t>(i)]->a, group[static_cast<size_t>(i)]->b);
            const double want = values(one)[0];
            if (!same_value(rv[static_cast<size_t>(i)], want) || !same_value(rsv[static_cast<size_t>(i)], want))
                if (++failures <= 5) FAIL_CHECK(key << ": " << group[static_cast<size_t>(i)]->line);
        }
        CHECK_MESSAGE(failures == 0, key);
    }
}

TEST_CASE("Python's // and % on negative values") {
    auto fd = [](int64_t a, int64_t b) { return binary(BinaryKind::FloorDiv, Tensor::weak_int(a), Tensor::weak_int(b)).item_i64(); };
    auto md = [](int64_t a, int64_t b) { return binary(BinaryKind::Mod, Tensor::weak_int(a), Tensor::weak_int(b)).item_i64(); };
    CHECK(fd(7, 2) == 3);
    CHECK(fd(-7, 2) == -4);
    CHECK(fd(7, -2) == -4);
    CHECK(fd(-7, -2) == 3);
    CHECK(md(-7, 2) == 1);
    CHECK(md(7, -2) == -1);
    CHECK(md(-7, -2) == -1);
    CHECK(fd(std::numeric_limits<int64_t>::min(), -1) == std::numeric_limits<int64_t>::min());  // wraps
    auto ffd = [](double a, double b) { return binary(BinaryKind::FloorDiv, Tensor::weak_float(a), Tensor::weak_float(b)).item_f64(); };
    auto fmd = [](double a, double b) { return binary(BinaryKind::Mod, Tensor::weak_float(a), Tensor::weak_float(b)).item_f64(); };
    CHECK(ffd(-7.5, 2) == -4.0);
    CHECK(fmd(-7.5, 2) == 0.5);
    CHECK(fmd(7.5, -2) == -0.5);
    CHECK(std::isinf(ffd(1.0, 0.0)));
    CHECK(std::isnan(fmd(1.0, 0.0)));
}

TEST_CASE("integer division and modulo by zero are errors, float division by zero is IEEE") {
    CHECK_THROWS_WITH_AS(binary(BinaryKind::FloorDiv, Tensor::weak_int(1), Tensor::weak_int(0)),
                         "integer division by zero", OpError);
    CHECK_THROWS_WITH_AS(binary(BinaryKind::Mod, Tensor::weak_int(1), Tensor::weak_int(0)), "integer modulo by zero",
                         OpError);
    Tensor a = make_tensor<int32_t>({3}, {1, 2, 3});
    Tensor b = make_tensor<int32_t>({3}, {1, 0, 3});
    CHECK_THROWS_WITH_AS(binary(BinaryKind::FloorDiv, a, b), "integer division by zero", OpError);
    CHECK_THROWS_WITH_AS(binary(BinaryKind::Mod, a, Tensor::weak_int(0)), "integer modulo by zero", OpError);
    CHECK_THROWS_WITH_AS(binary(BinaryKind::FloorDiv, Tensor::weak_int(5), b), "integer division by zero", OpError);
    // Broadcast strided divisor with a zero.
    Tensor z = make_tensor<int64_t>({2, 1}, {3, 0});
    CHECK_THROWS_AS(binary(BinaryKind::Mod, make_tensor<int64_t>({3}, {1, 2, 3}), z), OpError);
    // int / 0 is true division: f32 inf.
    Tensor d = binary(BinaryKind::Div, Tensor::weak_int(1), Tensor::scalar(int32_t(0)));
    CHECK(d.dtype() == DType::F32);
    CHECK(std::isinf(d.item_f64()));
    CHECK(std::isnan(binary(BinaryKind::Div, Tensor::scalar(0.0, DType::F64), Tensor::weak_float(0.0)).item_f64()));
}

TEST_CASE("integer powers") {
    CHECK(binary(BinaryKind::Pow, Tensor::weak_int(2), Tensor::weak_int(10)).item_i64() == 1024);
    CHECK(binary(BinaryKind::Pow, Tensor::weak_int(-3), Tensor::weak_int(3)).item_i64() == -27);
    CHECK(binary(BinaryKind::Pow, Tensor::weak_int(2), Tensor::weak_int(64)).item_i64() == 0);  // wraps
    CHECK_THROWS_WITH_AS(binary(BinaryKind::Pow, Tensor::weak_int(2), Tensor::weak_int(-1)),
                         "integers to negative integer powers are not allowed", OpError);
    CHECK_THROWS_AS(binary(BinaryKind::Pow, make_tensor<int32_t>({2}, {1, 2}), make_tensor<int32_t>({2}, {1, -2})),
                    OpError);
    CHECK(binary(BinaryKind::Pow, Tensor::weak_int(2), Tensor::weak_float(-1.0)).item_f64() == 0.5);
}

TEST_CASE("integer overflow wraps") {
    Tensor m = Tensor::scalar(std::numeric_limits<int32_t>::max());
    CHECK(binary(BinaryKind::Add, m, Tensor::weak_int(1)).item_i64() == std::numeric_limits<int32_t>::min());
    Tensor big = make_tensor<int64_t>({2}, {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()});
    CHECK(values(binary(BinaryKind::Add, big, Tensor::weak_int(1)))[1] == -9223372036854775807.0);
    CHECK(binary(BinaryKind::Mul, big, Tensor::weak_int(2)).data<int64_t>()[0] == -2);
    CHECK(unary(UnaryKind::Neg, Tensor::scalar(std::numeric_limits<int32_t>::min())).item_i64() ==
          std::numeric_limits<int32_t>::min());
    CHECK(unary(UnaryKind::Abs, Tensor::scalar(std::numeric_limits<int32_t>::min())).item_i64() ==
          std::numeric_limits<int32_t>::min());
}

TEST_CASE("broadcasting shapes and values") {
    Tensor x = make_tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    Tensor b = make_tensor<float>({3}, {10, 20, 30});
    Tensor r = binary(BinaryKind::Add, x, b);
    CHECK(r.shape() == Shape{2, 3});
    CHECK(values(r) == std::vector<double>{11, 22, 33, 14, 25, 36});
    Tensor col = make_tensor<float>({2, 1}, {1, 2});
    Tensor outer = binary(BinaryKind::Mul, col, b);
    CHECK(outer.shape() == Shape{2, 3});
    CHECK(values(outer) == std::vector<double>{10, 20, 30, 20, 40, 60});
    // Scalar on either side, and a 1-element tensor of higher rank.
    CHECK(values(binary(BinaryKind::Sub, Tensor::weak_float(1.0), b)) == std::vector<double>{-9, -19, -29});
    Tensor one = make_tensor<float>({1, 1}, {2});
    Tensor r2 = binary(BinaryKind::Mul, b, one);
    CHECK(r2.shape() == Shape{1, 3});
    CHECK(values(r2) == std::vector<double>{20, 40, 60});
    // Transposed operand.
    Tensor xt = x.view(Shape{3, 2}, Strides{1, 3}, 0);
    Tensor r3 = binary(BinaryKind::Add, xt, make_tensor<float>({2}, {100, 200}));
    CHECK(values(r3) == std::vector<double>{101, 204, 102, 205, 103, 206});
    // Mixed dtypes in arrays.
    Tensor r4 = binary(BinaryKind::Add, make_tensor<int32_t>({3}, {1, 2, 3}), make_tensor<double>({3}, {0.5, 0.5, 0.5}));
    CHECK(r4.dtype() == DType::F64);
    CHECK(values(r4) == std::vector<double>{1.5, 2.5, 3.5});
    // Empty tensors.
    Tensor e = binary(BinaryKind::Add, Tensor::empty(DType::F32, Shape{0, 3}), b);
    CHECK(e.shape() == Shape{0, 3});
    CHECK(e.numel() == 0);
    // Errors name the op and both shapes.
    CHECK_THROWS_WITH_AS(binary(BinaryKind::Mul, x, make_tensor<float>({2}, {1, 2})),
                         "mul: shapes (2, 3) and (2,) cannot be broadcast together: 3 (axis 1) != 2 (axis 0)", OpError);
    // The shape rule gives the same shape and error.
    TensorType ins[] = {{DType::F32, Shape{2, 3}, false}, {DType::F32, Shape{3}, false}};
    Attr attrs[2];
    CHECK(find_op("add")->infer(TypeArgs{ins, attrs}).shape == Shape{2, 3});
    ins[1].shape = Shape{4};
    CHECK_THROWS_AS(find_op("add")->infer(TypeArgs{ins, attrs}), OpError);
}

TEST_CASE("large contiguous ops and views agree") {
    const int64_t n = 1 << 20;
    Tensor a = Tensor::empty(DType::F32, Shape{n});
    for (int64_t i = 0; i < n; ++i) a.data<float>()[i] = static_cast<float>(i % 1000) * 0.5f;
    Tensor r = binary(BinaryKind::Mul, a, Tensor::weak_float(2.0));
    bool ok = true;
    for (int64_t i = 0; i < n; ++i) ok = ok && r.data<float>()[i] == static_cast<float>(i % 1000);
    CHECK(ok);
    Tensor m = a.view(Shape{1024, 1024}, Strides{1024, 1}, 0);
    Tensor mt = m.view(Shape{1024, 1024}, Strides{1, 1024}, 0);
    Tensor s = binary(BinaryKind::Add, m, mt);  // a[i][j] + a[j][i]
    CHECK(s.data<float>()[3 * 1024 + 5] == a.data<float>()[3 * 1024 + 5] + a.data<float>()[5 * 1024 + 3]);
}

TEST_CASE("comparisons and NaN") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Tensor x = make_tensor<double>({3}, {1.0, nan, 3.0});
    CHECK(values(binary(BinaryKind::Eq, x, x)) == std::vector<double>{1, 0, 1});
    CHECK(values(binary(BinaryKind::Ne, x, x)) == std::vector<double>{0, 1, 0});
    CHECK(values(binary(BinaryKind::Lt, x, Tensor::weak_int(2))) == std::vector<double>{1, 0, 0});
    CHECK(values(binary(BinaryKind::Ge, x, Tensor::weak_int(2))) == std::vector<double>{0, 0, 1});
    CHECK(std::isnan(values(binary(BinaryKind::Maximum, x, Tensor::weak_float(0.0)))[1]));
    CHECK(std::isnan(values(binary(BinaryKind::Minimum, Tensor::weak_float(0.0), x))[1]));
    CHECK(binary(BinaryKind::Gt, Tensor::scalar(int32_t(3)), Tensor::weak_float(2.5)).item_bool());
}

TEST_CASE("bitwise ops on bool and integers only") {
    Tensor a = make_tensor<int32_t>({3}, {12, 10, -1});
    Tensor b = make_tensor<int32_t>({3}, {10, 6, 5});
    CHECK(values(binary(BinaryKind::BitAnd, a, b)) == std::vector<double>{8, 2, 5});
    CHECK(values(binary(BinaryKind::BitOr, a, b)) == std::vector<double>{14, 14, -1});
    CHECK(values(binary(BinaryKind::BitXor, a, b)) == std::vector<double>{6, 12, -6});
    Tensor t = make_tensor<bool>({2}, {true, false});
    CHECK(binary(BinaryKind::BitAnd, t, t).dtype() == DType::Bool);
    CHECK(values(binary(BinaryKind::BitXor, t, Tensor::scalar(true))) == std::vector<double>{0, 1});
    CHECK_THROWS_WITH_AS(binary(BinaryKind::BitAnd, Tensor::scalar(1.0, DType::F32), Tensor::weak_int(1)),
                         "bitand: not supported for f32 tensors", OpError);
    CHECK_THROWS_WITH_AS(unary(UnaryKind::Invert, Tensor::weak_float(1.0)), "invert: not supported for f32 tensors",
                         OpError);
    CHECK(values(unary(UnaryKind::Invert, a)) == std::vector<double>{-13, -11, 0});
    CHECK(values(unary(UnaryKind::Invert, t)) == std::vector<double>{0, 1});
    CHECK(values(unary(UnaryKind::LogicalNot, make_tensor<float>({3}, {0, 2, -0.0f}))) == std::vector<double>{1, 0, 1});
}

TEST_CASE("bool arithmetic") {
    Tensor t = make_tensor<bool>({2}, {true, false});
    CHECK(binary(BinaryKind::Add, t, t).dtype() == DType::Bool);
    CHECK(values(binary(BinaryKind::Add, t, t)) == std::vector<double>{1, 0});
    CHECK_THROWS_WITH_AS(binary(BinaryKind::Sub, t, t), "sub: not supported for bool tensors", OpError);
    CHECK_THROWS_WITH_AS(unary(UnaryKind::Neg, t), "neg: not supported for bool tensors", OpError);
    CHECK(values(binary(BinaryKind::Add, t, Tensor::weak_int(1))) == std::vector<double>{2, 1});
}

TEST_CASE("unary ops: rounding, sign, relu, isnan, isfinite") {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    Tensor x = make_tensor<double>({8}, {0.5, 1.5, 2.5, -0.5, -1.5, -2.7, 2.7, -0.0});
    CHECK(values(unary(UnaryKind::Round, x)) == std::vector<double>{0, 2, 2, -0.0, -2, -3, 3, -0.0});
    CHECK(values(unary(UnaryKind::Floor, x)) == std::vector<double>{0, 1, 2, -1, -2, -3, 2, -0.0});
    CHECK(values(unary(UnaryKind::Ceil, x)) == std::vector<double>{1, 2, 3, -0.0, -1, -2, 3, -0.0});
    CHECK(values(unary(UnaryKind::Sign, x)) == std::vector<double>{1, 1, 1, -1, -1, -1, 1, 0});
    CHECK(values(unary(UnaryKind::Relu, x)) == std::vector<double>{0.5, 1.5, 2.5, 0, 0, 0, 2.7, 0});
    Tensor y = make_tensor<float>({4}, {1.0f, static_cast<float>(nan), static_cast<float>(inf), static_cast<float>(-inf)});
    CHECK(values(unary(UnaryKind::IsNan, y)) == std::vector<double>{0, 1, 0, 0});
    CHECK(values(unary(UnaryKind::IsFinite, y)) == std::vector<double>{1, 0, 0, 0});
    CHECK(std::isnan(values(unary(UnaryKind::Relu, y))[1]));
    CHECK(std::isnan(values(unary(UnaryKind::Sign, y))[1]));
    Tensor i = make_tensor<int32_t>({3}, {-4, 0, 9});
    CHECK(values(unary(UnaryKind::Sign, i)) == std::vector<double>{-1, 0, 1});
    CHECK(values(unary(UnaryKind::Square, i)) == std::vector<double>{16, 0, 81});
    CHECK(values(unary(UnaryKind::Abs, i)) == std::vector<double>{4, 0, 9});
    CHECK(values(unary(UnaryKind::Relu, i)) == std::vector<double>{0, 0, 9});
    CHECK(unary(UnaryKind::Floor, i).dtype() == DType::I32);
    CHECK(values(unary(UnaryKind::IsNan, i)) == std::vector<double>{0, 0, 0});
    CHECK(values(unary(UnaryKind::Sqrt, make_tensor<int64_t>({2}, {4, 9}))) == std::vector<double>{2, 3});
    CHECK(values(unary(UnaryKind::Rsqrt, make_tensor<float>({1}, {4}))) == std::vector<double>{0.5});
    // Strided input.
    Tensor m = make_tensor<float>({2, 2}, {1, -2, -3, 4});
    CHECK(values(unary(UnaryKind::Abs, m.view(Shape{2, 2}, Strides{1, 2}, 0))) == std::vector<double>{1, 3, 2, 4});
    // 0-d stays inline.
    CHECK(unary(UnaryKind::Neg, Tensor::scalar(2.0, DType::F32)).is_inline());
}

TEST_CASE("unary kernels agree with the table's eager entry and shape rule") {
    Tensor x = make_tensor<float>({2, 2}, {0.25f, 1, 2, 4});
    Tensor ins[] = {x};
    Attr attrs[1];
    OpContext ctx;
    int checked = 0;
    for (const OpDef* op : all_ops()) {
        if (!std::holds_alternative<UnaryKind>(op->kind)) continue;
        INFO("op " << op->name);
        const UnaryKind k = std::get<UnaryKind>(op->kind);
        TensorType ti[] = {{x.dtype(), x.shape(), false}};
        if (k == UnaryKind::Invert) {  // not defined for floats: both say so
            CHECK_THROWS_AS(op->eager(ctx, OpArgs{ins, attrs}), OpError);
            CHECK_THROWS_AS(op->infer(TypeArgs{ti, attrs}), OpError);
            continue;
        }
        Tensor r = op->eager(ctx, OpArgs{ins, attrs});
        TensorType t = op->infer(TypeArgs{ti, attrs});
        CHECK(t.dtype == r.dtype());
        CHECK(t.shape == r.shape());
        const auto got = values(r), want = values(unary(k, x));  // (NaN for asin(2) on both sides)
        REQUIRE(got.size() == want.size());
        for (size_t i = 0; i < got.size(); ++i) CHECK(same_value(got[i], want[i]));
        ++checked;
    }
    CHECK(checked == kNumUnaryKinds - 1);
}

namespace {

// The 0-d tensor holding what a Number holds (as the interpreter boxes one).
Tensor tensor_of(const Number& n) {
    if (n.weak) return is_float(n.dtype) ? Tensor::weak_float(n.f) : Tensor::weak_int(n.i);
    if (n.dtype == DType::Bool) return Tensor::scalar(n.i != 0);
    if (is_float(n.dtype)) return Tensor::scalar(n.f, n.dtype);
    return Tensor::scalar(n.i, n.dtype);
}

// Every number of every dtype, weak or not, over a few values (an f32 rounded first).
std::vector<Number> sample_numbers() {
    const double values[] = {0, 1, -2.5, 3.75, -7, 1e10, std::nan(""), std::numeric_limits<double>::infinity(), 0.1};
    std::vector<Number> out;
    for (int d = 0; d < kNumDTypes; ++d)
        for (bool weak : {false, true}) {
            const DType dtype = static_cast<DType>(d);
            if (weak && dtype != DType::I64 && dtype != DType::F32) continue;  // weak: an i64 or an f32 literal
            for (double v : values) {
                Number n;
                n.dtype = dtype;
                n.weak = weak;
                if (dtype == DType::Bool) n.i = v != 0;
                else if (dtype == DType::I32) n.i = convert<int32_t>(v);
                else if (dtype == DType::I64) n.i = convert<int64_t>(v);
                else if (dtype == DType::F32 && !weak) n.f = static_cast<float>(v);
                else n.f = v;
                out.push_back(n);
            }
        }
    return out;
}

// `got` is `want`, a 0-d tensor: dtype, weakness and value (NaN equals NaN).
void check_number(const Number& got, const Tensor& want) {
    CHECK(got.dtype == want.dtype());
    CHECK(got.weak == want.weak());
    if (is_float(want.dtype())) CHECK(same_value(got.f, want.item_f64()));
    else CHECK(got.i == want.item_i64());
}

}  // namespace

TEST_CASE("unary and cast on a Number give what they give on a 0-d tensor") {
    for (const Number& x : sample_numbers()) {
        INFO("x " << dtype_name(x.dtype) << (x.weak ? " weak " : " ") << (is_float(x.dtype) ? x.f : double(x.i)));
        for (int k = 0; k < kNumUnaryKinds; ++k) {
            const UnaryKind kind = static_cast<UnaryKind>(k);
            INFO("op " << unary_name(kind));
            std::optional<Tensor> want;
            try {
                want = unary(kind, tensor_of(x));
            } catch (const OpError&) {
            }
            if (!want) {
                CHECK_THROWS_AS(unary(kind, x), OpError);
                continue;
            }
            check_number(unary(kind, x), *want);
        }
        for (int d = 0; d < kNumDTypes; ++d) {
            INFO("astype " << dtype_name(static_cast<DType>(d)));
            check_number(cast(x, static_cast<DType>(d)), cast(tensor_of(x), static_cast<DType>(d)));
        }
    }
}

TEST_CASE("where") {
    Tensor c = make_tensor<bool>({3}, {true, false, true});
    Tensor r = where(c, make_tensor<int32_t>({3}, {1, 2, 3}), Tensor::weak_int(0));
    CHECK(r.dtype() == DType::I32);
    CHECK(values(r) == std::vector<double>{1, 0, 3});
    // Condition from a float tensor (nonzero), broadcasting all three.
    Tensor c2 = make_tensor<float>({2, 1}, {0, 2});
    Tensor r2 = where(c2, make_tensor<double>({3}, {1, 2, 3}), Tensor::weak_float(-1.0));
    CHECK(r2.dtype() == DType::F64);
    CHECK(r2.shape() == Shape{2, 3});
    CHECK(values(r2) == std::vector<double>{-1, -1, -1, 1, 2, 3});
    CHECK(where(Tensor::scalar(true), Tensor::weak_int(1), Tensor::weak_float(2.5)).dtype() == DType::F32);
    CHECK_THROWS_WITH_AS(where(make_tensor<bool>({2}, {true, false}), make_tensor<float>({3}, {1, 2, 3}), Tensor::weak_int(0)),
                         doctest::Contains("where: shapes (2,) and (3,)"), OpError);
}

TEST_CASE("clip") {
    Tensor x = make_tensor<float>({5}, {-2, -0.5f, 0.5f, 2, std::numeric_limits<float>::quiet_NaN()});
    Tensor r = clip(x, Tensor::weak_int(-1), Tensor::weak_int(1));
    CHECK(r.dtype() == DType::F32);
    auto v = values(r);
    CHECK(v[0] == -1);
    CHECK(v[1] == -0.5);
    CHECK(v[2] == 0.5);
    CHECK(v[3] == 1);
    CHECK(std::isnan(v[4]));
    Tensor ri = clip(make_tensor<int32_t>({3}, {-5, 3, 9}), Tensor::weak_int(0), Tensor::weak_int(5));
    CHECK(ri.dtype() == DType::I32);
    CHECK(values(ri) == std::vector<double>{0, 3, 5});
    CHECK_THROWS_WITH_AS(clip(x, make_tensor<float>({2}, {0, 1}), Tensor::weak_int(1)),
                         doctest::Contains("clip: shapes"), OpError);
}

TEST_CASE("casts: truncation toward zero, wrap, bool, NaN") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Tensor f = make_tensor<double>({6}, {2.7, -2.7, 0.0, 1e20, nan, -0.5});
    CHECK(values(cast(f, DType::I32)) == std::vector<double>{2, -2, 0, -2147483648.0, -2147483648.0, 0});
    CHECK(values(cast(f, DType::Bool)) == std::vector<double>{1, 1, 0, 1, 1, 1});
    CHECK(values(cast(make_tensor<int64_t>({2}, {int64_t(1) << 32, -1}), DType::I32)) == std::vector<double>{0, -1});
    CHECK(cast(Tensor::weak_float(0.1), DType::F64).item_f64() == 0.1);
    CHECK(cast(Tensor::weak_float(0.1), DType::F32).item_f64() == static_cast<double>(0.1f));
    Tensor same = make_tensor<float>({2}, {1, 2});
    CHECK(cast(same, DType::F32).shares_buffer_with(same));
    Tensor t = make_tensor<float>({2, 2}, {1.5f, 2.5f, 3.5f, 4.5f});
    CHECK(values(cast(t.view(Shape{2, 2}, Strides{1, 2}, 0), DType::I64)) == std::vector<double>{1, 3, 2, 4});
    Tensor ins[] = {t};
    Attr attrs[] = {std::monostate{}, DType::I32};
    OpContext ctx;
    Tensor r = find_op("astype")->eager(ctx, OpArgs{ins, attrs});
    CHECK(r.dtype() == DType::I32);
    CHECK(values(r) == std::vector<double>{1, 2, 3, 4});
}
