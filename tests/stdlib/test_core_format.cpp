// Printing: float repr against Python/NumPy (data/core_float_repr.txt),
// str/repr of tensors, summarization, and the format mini-language
// (data/core_format.txt). Tables made by data/core_gen.py.
#include <doctest/doctest.h>

#include <sstream>

#include "stdlib/format.hpp"
#include "stdlib/op_table.hpp"
#include "test_core_util.hpp"

using namespace tg::stdlib;
using namespace tg::stdlib::testing;

TEST_CASE("format_float matches Python's repr (f64) and shortest f32 digits") {
    const auto lines = read_lines("core_float_repr.txt");
    REQUIRE(lines.size() > 500);
    int failures = 0;
    for (const std::string& line : lines) {
        std::istringstream in(line);
        std::string dt, hex, want;
        in >> dt >> hex >> want;
        const double v = parse_bits(dt, hex);
        const std::string got = format_float(v, *dtype_from_name(dt));
        if (got != want && ++failures < 20) FAIL_CHECK(line << " -> got " << got);
    }
    CHECK(failures == 0);
}

TEST_CASE("format_float examples of docs/language.md, Values") {
    CHECK(format_float(7.0, DType::F32) == "7.0");
    CHECK(format_float(0.1, DType::F64) == "0.1");
    CHECK(format_float(1.0 / 3.0, DType::F32) == "0.33333334");
    CHECK(format_float(1.0 / 3.0, DType::F64) == "0.3333333333333333");
    CHECK(format_float(1e-5, DType::F64) == "1e-05");
    CHECK(format_float(1e16, DType::F64) == "1e+16");
    CHECK(format_float(1e16, DType::F32) == "1e+16");
    CHECK(format_float(-0.0, DType::F32) == "-0.0");
    CHECK(format_float(1.0 / 0.0, DType::F32) == "inf");
    CHECK(format_float(-1.0 / 0.0, DType::F64) == "-inf");
    CHECK(format_float(0.0 / 0.0, DType::F64) == "nan");
}

TEST_CASE("str of scalars") {
    CHECK(to_str(Tensor::scalar(5.0, DType::F32)) == "5.0");
    CHECK(to_str(Tensor::scalar(int64_t(-3))) == "-3");
    CHECK(to_str(Tensor::scalar(int32_t(7))) == "7");
    CHECK(to_str(Tensor::scalar(true)) == "True");
    CHECK(to_str(Tensor::scalar(false)) == "False");
    CHECK(to_str(Tensor::weak_float(0.1)) == "0.1");   // as f32
    CHECK(to_str(Tensor::weak_float(1.0 / 3.0)) == "0.33333334");
    CHECK(to_str(Tensor::weak_int(42)) == "42");
    CHECK(to_str(Tensor::scalar(1.0 / 3.0, DType::F64)) == "0.3333333333333333");
}

TEST_CASE("str and repr of tensors") {
    CHECK(to_str(make_tensor<float>({3}, {1.0f, 2.5f, 3.0f})) == "[1.0, 2.5, 3.0]");
    CHECK(to_str(make_tensor<int64_t>({2, 2}, {1, 2, 3, 4})) == "[[1, 2], [3, 4]]");
    // str stays on one line; repr lays rank 2 and up out as NumPy does: elements
    // right-aligned to the widest, rows under their bracket, blocks apart
    CHECK(to_str(make_tensor<float>({2, 2}, {1.0f, -2.5f, 30.0f, 4.0f})) == "[[1.0, -2.5], [30.0, 4.0]]");
    CHECK(to_repr(make_tensor<float>({2, 2}, {1.0f, -2.5f, 30.0f, 4.0f})) ==
          "tensor([[ 1.0, -2.5],\n        [30.0,  4.0]], shape=(2, 2), dtype=f32)");
    CHECK(to_repr(make_tensor<int64_t>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})) ==
          "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]], shape=(2, 2, 2), dtype=i64)");
    CHECK(to_repr(Tensor::empty(DType::F32, Shape{2, 0})) == "tensor([[],\n        []], shape=(2, 0), dtype=f32)");
    CHECK(to_str(make_tensor<bool>({2}, {true, false})) == "[True, False]");
    CHECK(to_str(Tensor::empty(DType::F32, Shape{0})) == "[]");
    CHECK(to_str(Tensor::empty(DType::F32, Shape{2, 0})) == "[[], []]");
    CHECK(to_str(make_tensor<float>({1, 1, 1}, {2})) == "[[[2.0]]]");
    CHECK(to_repr(Tensor::scalar(5.0, DType::F32)) == "tensor(5.0, shape=(), dtype=f32)");
    CHECK(to_repr(make_tensor<int64_t>({2}, {1, 2})) == "tensor([1, 2], shape=(2,), dtype=i64)");
    CHECK(to_repr(Tensor::weak_float(2.0)) == "tensor(2.0, shape=(), dtype=f32)");
    // A view prints its own elements.
    Tensor m = make_tensor<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
    CHECK(to_str(m.view(Shape{3, 2}, Strides{1, 3}, 0)) == "[[1, 4], [2, 5], [3, 6]]");
}

TEST_CASE("summarization past 1000 elements") {
    Tensor a = Tensor::empty(DType::F32, Shape{10000});
    for (int i = 0; i < 10000; ++i) a.data<float>()[i] = static_cast<float>(i);
    CHECK(to_str(a) == "[0.0, 1.0, 2.0, ..., 9997.0, 9998.0, 9999.0]");
    Tensor exactly = Tensor::zeros(DType::I32, Shape{1000});
    CHECK(to_str(exactly).find("...") == std::string::npos);
    Tensor m = Tensor::empty(DType::I64, Shape{100, 100});
    for (int i = 0; i < 10000; ++i) m.data<int64_t>()[i] = i;
    CHECK(to_str(m) ==
          "[[0, 1, 2, ..., 97, 98, 99], [100, 101, 102, ..., 197, 198, 199], [200, 201, 202, ..., 297, 298, 299], "
          "..., [9700, 9701, 9702, ..., 9797, 9798, 9799], [9800, 9801, 9802, ..., 9897, 9898, 9899], "
          "[9900, 9901, 9902, ..., 9997, 9998, 9999]]");
    CHECK(to_repr(m).find("        [ 200,  201,  202, ...,  297,  298,  299],\n        ...,\n        [9700,") !=
          std::string::npos);
    // Short axes of a big tensor are not cut.
    Tensor t = Tensor::zeros(DType::Bool, Shape{2, 600});
    const std::string s = to_str(t);
    CHECK(s.substr(0, 28) == "[[False, False, False, ..., ");
    CHECK(s.find("], [") != std::string::npos);
}

TEST_CASE("format mini-language matches Python's format()") {
    const auto lines = read_lines("core_format.txt");
    REQUIRE(lines.size() > 100);
    int failures = 0;
    for (const std::string& line : lines) {
        // "dtype value spec<TAB>expected"; the spec may start with a space.
        const size_t tab = line.find('\t');
        const size_t s1 = line.find(' '), s2 = line.find(' ', s1 + 1);
        const std::string dt = line.substr(0, s1), val = line.substr(s1 + 1, s2 - s1 - 1);
        std::string spec = line.substr(s2 + 1, tab - s2 - 1);
        if (spec == "-") spec.clear();
        const std::string want = line.substr(tab + 1);
        Tensor x = dt == "i64" ? Tensor::scalar(static_cast<int64_t>(std::stoll(val)))
                               : Tensor::scalar(parse_bits(dt, val), *dtype_from_name(dt));
        std::string got;
        try {
            got = format_tensor(x, spec);
        } catch (const OpError& e) {
            got = std::string("error: ") + e.what();
        }
        if (got != want && ++failures < 30) FAIL_CHECK(line << " -> got '" << got << "'");
    }
    CHECK(failures == 0);
}

TEST_CASE("format errors and strings") {
    CHECK_THROWS_WITH_AS(format_tensor(make_tensor<float>({2}, {1, 2}), ".2f"),
                         "invalid format spec '.2f' for a tensor of shape (2,)", OpError);
    CHECK(format_tensor(make_tensor<float>({2}, {1, 2}), "") == "[1.0, 2.0]");
    CHECK_THROWS_AS(format_tensor(Tensor::scalar(1.5, DType::F32), "d"), OpError);
    CHECK_THROWS_AS(format_tensor(Tensor::scalar(1.5, DType::F32), ".2q"), OpError);
    CHECK_THROWS_AS(format_tensor(Tensor::scalar(1.5, DType::F32), ".x"), OpError);
    CHECK(format_tensor(Tensor::weak_float(0.1), ".20f") == "0.10000000149011611938");  // as f32
    CHECK(format_tensor(Tensor::scalar(true), "") == "True");
    // Without a type or precision, floats show the tensor's own shortest digits.
    CHECK(format_tensor(Tensor::scalar(3.14159265, DType::F32), "10") == " 3.1415927");
    CHECK(format_tensor(Tensor::scalar(1234567.891, DType::F32), ",") == "1,234,567.9");
    CHECK(format_tensor(Tensor::scalar(-2.5, DType::F32), ">8") == "    -2.5");
    CHECK(format_tensor(Tensor::scalar(0.1, DType::F32), "") == "0.1");
    CHECK(format_tensor(Tensor::scalar(true), ">3") == "  1");
    CHECK(format_string("ab", ">5") == "   ab");
    CHECK(format_string("ab", "<5") == "ab   ");
    CHECK(format_string("ab", "^6") == "  ab  ");
    CHECK(format_string("abcdef", ".3") == "abc");
    CHECK(format_string("ab", "*>4") == "**ab");
    CHECK(format_string("ab", "") == "ab");
    CHECK_THROWS_AS(format_string("ab", ".2f"), OpError);
}
