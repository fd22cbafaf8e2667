// The layout, selection and solve ops beyond the NumPy value tables
// (shape_ops_cases.txt, read by test_kernels_table.cpp): every error path
// (the shape rule raises what the kernel raises, so traced code fails like
// eager code), singular matrices (data errors of the kernel only), and the
// eager-only unique / nonzero against NumPy (data/shape_ops_eager.txt, made
// by data/shape_ops_gen.py --eager).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "stdlib/select_ops.hpp"
#include "stdlib/shape_ops_util.hpp"
#include "test_kernels_util.hpp"

using namespace tg::stdlib;
using namespace tg::stdlib::test;

namespace {
Tensor f32(const Shape& s) { return Tensor::zeros(DType::F32, s); }
Tensor f64(const Shape& s, std::initializer_list<double> v) { return make_tensor<double>(s, v); }
Attr ints(std::vector<int64_t> v) { return v; }
}  // namespace

TEST_CASE("layout op errors") {
    TG_CHECK_OP_ERROR("flip", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", int64_t{2}}}),
                      "flip: axis 2 is out of bounds for a tensor of rank 2");
    TG_CHECK_OP_ERROR("flip", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", ints({0, -2})}}), "flip: axis -2 is repeated");
    TG_CHECK_OP_ERROR("roll", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shift", ints({1, 2})}, {"axis", ints({0, 1, 0})}}),
                      "roll: arguments `shift` and `axis` have different lengths (2 and 3)");
    TG_CHECK_OP_ERROR("roll", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shift", ints({1, 2})}}),
                      "roll: argument `shift` must be one int when axis is None");
    TG_CHECK_OP_ERROR("roll", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shift", int64_t{1}}, {"axis", int64_t{-3}}}),
                      "roll: axis -3 is out of bounds for a tensor of rank 2");
    TG_CHECK_OP_ERROR("tile", std::vector<Tensor>{f32({2})}, (Kw{{"reps", ints({2, -1})}}),
                      "tile: argument `reps` has a negative count -1");
    TG_CHECK_OP_ERROR("repeat", std::vector<Tensor>{f32({2, 3})}, (Kw{{"n", ints({1, 2})}, {"axis", int64_t{1}}}),
                      "repeat: argument `n` has 2 counts for an axis of size 3");
    TG_CHECK_OP_ERROR("repeat", std::vector<Tensor>{f32({2})}, (Kw{{"n", ints({-1})}}),
                      "repeat: argument `n` has a negative count -1");
    TG_CHECK_OP_ERROR("pad", std::vector<Tensor>{f32({2, 3})}, (Kw{{"widths", ints({1, 1, 1, 1, 1, 1})}}),
                      "pad: argument `widths` has 3 (before, after) pairs for a tensor of rank 2");
    TG_CHECK_OP_ERROR("pad", std::vector<Tensor>{f32({2})}, (Kw{{"widths", ints({1, -2})}}),
                      "pad: argument `widths` has a negative width -2");
    TG_CHECK_OP_ERROR("diag", std::vector<Tensor>{f32({2, 2, 2})}, Kw{},
                      "diag: argument `x` must be 1-d or 2-d, got shape (2, 2, 2)");
    TG_CHECK_OP_ERROR("diag", std::vector<Tensor>{Tensor::scalar(1.0)}, Kw{}, "diag: argument `x` must be 1-d or 2-d, got shape ()");
    TG_CHECK_OP_ERROR("tril", std::vector<Tensor>{Tensor::scalar(1.0)}, Kw{},
                      "tril: argument `x` must have at least 1 dimension, got a 0-d tensor");
    TG_CHECK_OP_ERROR("triu", std::vector<Tensor>{Tensor::scalar(1.0)}, Kw{},
                      "triu: argument `x` must have at least 1 dimension, got a 0-d tensor");
}

TEST_CASE("selection op errors") {
    TG_CHECK_OP_ERROR("take", (std::vector<Tensor>{f32({3}), f32({2})}), Kw{},
                      "take: argument `idx` must hold integers, not f32");
    TG_CHECK_OP_ERROR("take", (std::vector<Tensor>{f32({3}), Tensor::scalar(true)}), Kw{},
                      "take: argument `idx` must hold integers, not bool");
    TG_CHECK_OP_ERROR("take", (std::vector<Tensor>{f32({3}), make_tensor<int64_t>({1}, {0})}), (Kw{{"axis", int64_t{1}}}),
                      "take: axis 1 is out of bounds for a tensor of rank 1");
    // out of range is a data error: the kernel's only
    CHECK_THROWS_WITH_AS(call("take", {f32({3}), make_tensor<int64_t>({2}, {1, -4})}),
                         "take: index -4 is out of bounds for axis 0 with size 3", OpError);
    CHECK_THROWS_WITH_AS(call("take", {f32({2, 0}), make_tensor<int64_t>({1}, {0})}, Kw{{"axis", int64_t{1}}}),
                         "take: index 0 is out of bounds for axis 1 with size 0", OpError);
    for (const char* fn : {"sort", "argsort"}) {
        CAPTURE(fn);
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{Tensor::scalar(1.0)}, Kw{},
                          std::string(fn) + ": axis -1 is out of bounds for a tensor of rank 0");
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({2})}, (Kw{{"axis", ints({0, 0})}}),
                          std::string(fn) + ": axis must be an int");
    }
}

TEST_CASE("solve op errors, singular matrices") {
    for (const char* fn : {"inv", "det"}) {
        CAPTURE(fn);
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({2, 3})}, Kw{},
                          std::string(fn) +
                              ": argument `a` must be a square matrix or a batch of them (shape (..., m, m)), got shape (2, 3)");
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({3})}, Kw{},
                          std::string(fn) +
                              ": argument `a` must be a square matrix or a batch of them (shape (..., m, m)), got shape (3,)");
    }
    TG_CHECK_OP_ERROR("solve", (std::vector<Tensor>{f32({3, 3}), f32({2})}), Kw{},
                      "solve: argument `b` of shape (2,) does not match `a` of shape (3, 3): it needs 3 rows");
    TG_CHECK_OP_ERROR("solve", (std::vector<Tensor>{f32({2, 3, 3}), f32({3, 3, 1})}), Kw{},
                      "solve: the batch shapes (2,) of `a` and (3,) of `b` do not broadcast");
    TG_CHECK_OP_ERROR("solve", (std::vector<Tensor>{f32({3, 3}), Tensor::scalar(1.0)}), Kw{},
                      "solve: argument `b` of shape () does not match `a` of shape (3, 3): it needs 3 rows");

    const Tensor singular = f64({2, 2}, {1.0, 2.0, 2.0, 4.0});
    CHECK_THROWS_WITH_AS(call("inv", {singular}), "inv: the matrix is singular", OpError);
    CHECK_THROWS_WITH_AS(call("solve", {singular, f64({2}, {1.0, 1.0})}), "solve: the matrix is singular", OpError);
    // in a batch, the error says which matrix
    const Tensor batch = f64({2, 2, 2}, {1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 4.0});
    CHECK_THROWS_WITH_AS(call("inv", {batch}), "inv: the matrix at batch index 1 is singular", OpError);
    const Tensor d = call("det", {singular});
    CHECK(d.item_f64() == 0.0);
    CHECK(!std::signbit(d.item_f64()));  // NumPy's +0.0
    const Tensor zeros = call("det", {Tensor::zeros(DType::F32, Shape{3, 3})});
    CHECK(zeros.item_f64() == 0.0);
}

namespace {

struct ETensor {
    DType dtype;
    Shape shape;
    std::vector<double> values;
};

ETensor parse(std::istringstream& in) {
    ETensor t;
    std::string dt, tok;
    int rank = 0;
    in >> dt >> rank;
    t.dtype = *dtype_from_name(dt);
    for (int d = 0; d < rank; ++d) {
        int64_t v;
        in >> v;
        t.shape.push_back(v);
    }
    in >> tok;  // ":"
    while (in >> tok) t.values.push_back(std::strtod(tok.c_str(), nullptr));
    return t;
}

Tensor make(const ETensor& e) {
    Tensor t = Tensor::empty(e.dtype, e.shape);
    kern::visit_dtype(e.dtype, [&](auto tag) {
        using T = decltype(tag);
        for (size_t i = 0; i < e.values.size(); ++i) t.data<T>()[i] = static_cast<T>(e.values[i]);
    });
    return t;
}

void check_equal(const Tensor& got, const ETensor& want) {
    REQUIRE(got.dtype() == want.dtype);
    REQUIRE(got.shape() == want.shape);
    const Tensor g = cast(got, DType::F64).contiguous();
    for (size_t i = 0; i < want.values.size(); ++i) {
        CAPTURE(i);
        const double a = g.data<double>()[i], b = want.values[i];
        if (std::isnan(b)) CHECK(std::isnan(a));
        else CHECK(a == b);
    }
}

}  // namespace

TEST_CASE("unique and nonzero against NumPy") {
    std::ifstream f(std::filesystem::path(TG_STDLIB_TEST_DATA) / "shape_ops_eager.txt");
    REQUIRE(f.good());
    std::string line, name, fn;
    Tensor x;
    std::vector<ETensor> outs;
    int cases = 0;
    auto run = [&] {
        if (name.empty()) return;
        CAPTURE(name);
        if (fn == "unique") {
            REQUIRE(outs.size() == 1);
            check_equal(unique(x), outs[0]);
        } else {
            std::vector<Tensor> got = nonzero(x);
            REQUIRE(got.size() == outs.size());
            for (size_t k = 0; k < got.size(); ++k) check_equal(got[k], outs[k]);
        }
        ++cases;
    };
    while (std::getline(f, line)) {
        std::istringstream in(line);
        std::string head;
        in >> head;
        if (head == "case") {
            run();
            in >> name >> fn;
            outs.clear();
        } else if (head == "in") {
            x = make(parse(in));
        } else if (head == "out") {
            outs.push_back(parse(in));
        }
    }
    run();
    CHECK(cases > 60);
}
