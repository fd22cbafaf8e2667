// Every error path of the kernels groups: the message names the function,
// the argument and the shapes, and the shape rule raises the same error as
// the kernel (so traced code fails the same way as eager code).
#include <doctest/doctest.h>

#include <cmath>

#include "stdlib/shape_ops.hpp"
#include "test_kernels_util.hpp"

using namespace tg::stdlib;
using namespace tg::stdlib::test;

namespace {
Tensor f32(const Shape& s) { return Tensor::zeros(DType::F32, s); }
Tensor i64(const Shape& s) { return Tensor::zeros(DType::I64, s); }
Attr ints(std::vector<int64_t> v) { return v; }
}  // namespace

TEST_CASE("matmul / dot errors") {
    TG_CHECK_OP_ERROR("matmul", (std::vector<Tensor>{f32({2, 3}), f32({4, 5})}), Kw{},
                      "matmul: shapes (2, 3) and (4, 5) are not aligned: 3 (axis 1) != 4 (axis 0)");
    TG_CHECK_OP_ERROR("matmul", (std::vector<Tensor>{f32({3}), f32({4})}), Kw{},
                      "matmul: shapes (3,) and (4,) are not aligned: 3 (axis 0) != 4 (axis 0)");
    TG_CHECK_OP_ERROR("matmul", (std::vector<Tensor>{f32({2, 2, 3}), f32({5, 4})}), Kw{},
                      "matmul: shapes (2, 2, 3) and (5, 4) are not aligned: 3 (axis 2) != 5 (axis 0)");
    TG_CHECK_OP_ERROR("matmul", (std::vector<Tensor>{f32({2, 2, 3}), f32({3, 3, 4})}), Kw{},
                      "matmul: batch dimensions (2,) and (3,) of shapes (2, 2, 3) and (3, 3, 4) cannot be broadcast together");
    TG_CHECK_OP_ERROR("matmul", (std::vector<Tensor>{Tensor::scalar(2.0), f32({3})}), Kw{},
                      "matmul: operand a is 0-d (a scalar); use * to multiply by a scalar (shapes () and (3,))");
    TG_CHECK_OP_ERROR("matmul", (std::vector<Tensor>{f32({3}), Tensor::weak_float(2.0)}), Kw{},
                      "matmul: operand b is 0-d (a scalar); use * to multiply by a scalar (shapes (3,) and ())");
    TG_CHECK_OP_ERROR("dot", (std::vector<Tensor>{f32({2, 3}), f32({4, 5})}), Kw{},
                      "dot: shapes (2, 3) and (4, 5) are not aligned: 3 (axis 1) != 4 (axis 0)");
    TG_CHECK_OP_ERROR("dot", (std::vector<Tensor>{f32({2, 3, 4}), f32({5, 3, 2})}), Kw{},
                      "dot: shapes (2, 3, 4) and (5, 3, 2) are not aligned: 4 (axis 2) != 3 (axis 1)");
}

TEST_CASE("reduction errors") {
    for (const char* fn : {"sum", "mean", "max", "min", "prod", "any", "all", "logsumexp", "argmax", "argmin"}) {
        CAPTURE(fn);
        std::string f(fn);
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", int64_t{2}}}),
                          f + ": axis 2 is out of bounds for a tensor of rank 2");
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", int64_t{-3}}}),
                          f + ": axis -3 is out of bounds for a tensor of rank 2");
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{Tensor::scalar(1.0)}, (Kw{{"axis", int64_t{0}}}),
                          f + ": axis 0 is out of bounds for a tensor of rank 0");
    }
    TG_CHECK_OP_ERROR("sum", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", ints({0, -2})}}),
                      "sum: axis -2 is repeated");
    TG_CHECK_OP_ERROR("argmax", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", ints({0, 1})}}),
                      "argmax: takes one axis (an int or None), but 2 were given");
    for (const char* fn : {"max", "min", "argmax", "argmin"}) {
        CAPTURE(fn);
        std::string f(fn);
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({0, 3})}, Kw{},
                          f + ": cannot reduce a tensor of shape (0, 3) with no elements (there is no identity)");
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({0, 3})}, (Kw{{"axis", int64_t{0}}}),
                          f + ": cannot reduce axis 0 of a tensor of shape (0, 3) with no elements (there is no identity)");
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({0})}, Kw{},
                          f + ": cannot reduce a tensor of shape (0,) with no elements (there is no identity)");
    }
    TG_CHECK_OP_ERROR("max", std::vector<Tensor>{f32({2, 0, 3})}, (Kw{{"axis", ints({0, 1})}}),
                      "max: cannot reduce axis 1 of a tensor of shape (2, 0, 3) with no elements (there is no identity)");
}

TEST_CASE("shape op errors") {
    TG_CHECK_OP_ERROR("reshape", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shape", ints({4, 2})}}),
                      "reshape: cannot reshape a tensor of shape (2, 3) (6 elements) into shape (4, 2)");
    TG_CHECK_OP_ERROR("reshape", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shape", ints({-1, 4})}}),
                      "reshape: cannot reshape a tensor of shape (2, 3) (6 elements) into shape (-1, 4)");
    TG_CHECK_OP_ERROR("reshape", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shape", ints({-1, -1})}}),
                      "reshape: can only specify one unknown dimension (-1), got shape (-1, -1)");
    TG_CHECK_OP_ERROR("reshape", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shape", ints({2, -3})}}),
                      "reshape: shape (2, -3) has a negative dimension -3");
    TG_CHECK_OP_ERROR("reshape", std::vector<Tensor>{f32({0, 3})}, (Kw{{"shape", ints({-1, 0})}}),
                      "reshape: cannot reshape a tensor of shape (0, 3) (0 elements) into shape (-1, 0)");
    TG_CHECK_OP_ERROR("transpose", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axes", ints({0, 0})}}),
                      "transpose: axes (0, 0) are not a permutation of the 2 axes of shape (2, 3)");
    TG_CHECK_OP_ERROR("transpose", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axes", ints({1, 0, 2})}}),
                      "transpose: axes (1, 0, 2) are not a permutation of the 2 axes of shape (2, 3)");
    TG_CHECK_OP_ERROR("transpose", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axes", ints({0, 2})}}),
                      "transpose: axes (0, 2) are not a permutation of the 2 axes of shape (2, 3)");
    TG_CHECK_OP_ERROR("expand_dims", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", int64_t{3}}}),
                      "expand_dims: axis 3 is out of bounds for a tensor of rank 3");
    TG_CHECK_OP_ERROR("expand_dims", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", ints({0, 0})}}),
                      "expand_dims: axis 0 is repeated");
    TG_CHECK_OP_ERROR("squeeze", std::vector<Tensor>{f32({2, 1})}, (Kw{{"axis", int64_t{0}}}),
                      "squeeze: cannot squeeze axis 0 of shape (2, 1): its size is 2, not 1");
    TG_CHECK_OP_ERROR("squeeze", std::vector<Tensor>{f32({2, 1})}, (Kw{{"axis", int64_t{2}}}),
                      "squeeze: axis 2 is out of bounds for a tensor of rank 2");
    TG_CHECK_OP_ERROR("broadcast_to", std::vector<Tensor>{f32({3})}, (Kw{{"shape", ints({2, 4})}}),
                      "broadcast_to: cannot broadcast shape (3,) to (2, 4)");
    TG_CHECK_OP_ERROR("broadcast_to", std::vector<Tensor>{f32({2, 3})}, (Kw{{"shape", ints({3})}}),
                      "broadcast_to: cannot broadcast shape (2, 3) to (3,)");
    TG_CHECK_OP_ERROR("concat", (std::vector<Tensor>{f32({2, 3}), f32({2, 4})}), Kw{},
                      "concat: tensor 1 has shape (2, 4), which does not match shape (2, 3) of tensor 0 outside axis 0");
    TG_CHECK_OP_ERROR("concat", (std::vector<Tensor>{f32({2, 3}), f32({2})}), (Kw{{"axis", int64_t{1}}}),
                      "concat: tensor 1 has shape (2,), which does not match shape (2, 3) of tensor 0 outside axis 1");
    TG_CHECK_OP_ERROR("concat", (std::vector<Tensor>{Tensor::scalar(1.0), Tensor::scalar(2.0)}), Kw{},
                      "concat: 0-d tensors cannot be concatenated (tensor 0 has shape ())");
    TG_CHECK_OP_ERROR("concat", std::vector<Tensor>{}, Kw{}, "concat: needs at least one tensor");
    TG_CHECK_OP_ERROR("concat", std::vector<Tensor>{f32({2})}, (Kw{{"axis", int64_t{1}}}),
                      "concat: axis 1 is out of bounds for a tensor of rank 1");
    TG_CHECK_OP_ERROR("stack", (std::vector<Tensor>{f32({2}), f32({3})}), Kw{},
                      "stack: all tensors must have the same shape: tensor 0 has shape (2,) and tensor 1 has shape (3,)");
    TG_CHECK_OP_ERROR("stack", std::vector<Tensor>{}, Kw{}, "stack: needs at least one tensor");
    TG_CHECK_OP_ERROR("stack", (std::vector<Tensor>{f32({2}), f32({2})}), (Kw{{"axis", int64_t{2}}}),
                      "stack: axis 2 is out of bounds for a tensor of rank 2");
    TG_CHECK_OP_ERROR("one_hot", std::vector<Tensor>{f32({2})}, (Kw{{"n", int64_t{3}}}),
                      "one_hot: indices must be integers, got f32");
    TG_CHECK_OP_ERROR("one_hot", std::vector<Tensor>{i64({2})}, (Kw{{"n", int64_t{-1}}}),
                      "one_hot: n must be >= 0, got -1");
    Tensor idx = make_tensor<int64_t>({2}, {0, 3});
    CHECK_THROWS_WITH_AS(call("one_hot", {idx}, {{"n", int64_t{3}}}),
                         "one_hot: index 3 (at position 1) is out of range for n = 3", OpError);
    Tensor neg = make_tensor<int32_t>({1}, {-1});
    CHECK_THROWS_WITH_AS(call("one_hot", {neg}, {{"n", int64_t{3}}}),
                         "one_hot: index -1 (at position 0) is out of range for n = 3", OpError);
}

TEST_CASE("creation errors") {
    TG_CHECK_OP_ERROR("zeros", std::vector<Tensor>{}, (Kw{{"shape", ints({2, -2})}}),
                      "zeros: shape has a negative dimension -2");
    TG_CHECK_OP_ERROR("ones", std::vector<Tensor>{}, (Kw{{"shape", int64_t{-1}}}),
                      "ones: shape has a negative dimension -1");
    TG_CHECK_OP_ERROR("zeros", std::vector<Tensor>{}, (Kw{{"shape", 2.5}}),
                      "zeros: shape must be an int or a tuple of ints");
    // Shape products that overflow, and allocations past physical memory, are errors, not aborts.
    CHECK_THROWS_AS(infer("zeros", {}, {{"shape", ints({int64_t{1} << 40, int64_t{1} << 40})}}), OpError);
    CHECK_THROWS_AS(call("zeros", {}, {{"shape", ints({1000000, 1000000})}}), OpError);
    TG_CHECK_OP_ERROR("full", std::vector<Tensor>{f32({2})}, (Kw{{"shape", ints({3})}}),
                      "full: value of shape (2,) cannot be broadcast to shape (3,)");
    TG_CHECK_OP_ERROR("arange", std::vector<Tensor>{}, (Kw{{"start", int64_t{0}}, {"stop", int64_t{5}}, {"step", int64_t{0}}}),
                      "arange: step must not be zero");
    TG_CHECK_OP_ERROR("arange", std::vector<Tensor>{}, (Kw{{"start", 0.0}, {"stop", 1.0}, {"step", 0.0}}),
                      "arange: step must not be zero");
    TG_CHECK_OP_ERROR("arange", std::vector<Tensor>{}, (Kw{{"start", 0.0}, {"stop", INFINITY}}),
                      "arange: start, stop and step must be finite");
    TG_CHECK_OP_ERROR("linspace", std::vector<Tensor>{}, (Kw{{"start", 0.0}, {"stop", 1.0}, {"num", int64_t{-1}}}),
                      "linspace: num must be >= 0, got -1");
    TG_CHECK_OP_ERROR("eye", std::vector<Tensor>{}, (Kw{{"n", int64_t{-3}}}), "eye: n must be >= 0, got -3");
}

TEST_CASE("nn errors") {
    TG_CHECK_OP_ERROR("softmax", std::vector<Tensor>{f32({3})}, (Kw{{"axis", int64_t{1}}}),
                      "softmax: axis 1 is out of bounds for a tensor of rank 1");
    TG_CHECK_OP_ERROR("log_softmax", std::vector<Tensor>{Tensor::scalar(1.0)}, Kw{},
                      "log_softmax: axis -1 is out of bounds for a tensor of rank 0");
    TG_CHECK_OP_ERROR("cross_entropy", (std::vector<Tensor>{f32({4, 3}), f32({4})}), Kw{},
                      "cross_entropy: labels must be integers, got f32");
    TG_CHECK_OP_ERROR("cross_entropy", (std::vector<Tensor>{f32({4, 3}), i64({3})}), Kw{},
                      "cross_entropy: labels of shape (3,) do not match logits of shape (4, 3) (labels must have shape (4,))");
    TG_CHECK_OP_ERROR("cross_entropy", (std::vector<Tensor>{Tensor::scalar(1.0), i64({})}), Kw{},
                      "cross_entropy: logits must have at least one axis (the classes), got shape ()");
    Tensor logits = f32({2, 3});
    CHECK_THROWS_WITH_AS(call("cross_entropy", {logits, make_tensor<int64_t>({2}, {0, 5})}),
                         "cross_entropy: label 5 at position 1 is out of range for 3 classes", OpError);
    CHECK_THROWS_WITH_AS(call("cross_entropy", {logits, make_tensor<int32_t>({2}, {-1, 0})}),
                         "cross_entropy: label -1 at position 0 is out of range for 3 classes", OpError);
    CHECK_THROWS_WITH_AS(infer("mse", {type_of(f32({2, 3})), type_of(f32({4}))}),
                         doctest::Contains("mse: shapes (2, 3) and (4,) cannot be broadcast"), OpError);
    CHECK_THROWS_WITH_AS(call("mse", {f32({2, 3}), f32({4})}),
                         doctest::Contains("mse: shapes (2, 3) and (4,) cannot be broadcast"), OpError);
}

TEST_CASE("var, std, median, norm, cumsum and cumprod errors") {
    for (const char* fn : {"var", "std", "median", "norm", "cumsum", "cumprod"}) {
        CAPTURE(fn);
        const std::string f(fn);
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", int64_t{2}}}),
                          f + ": axis 2 is out of bounds for a tensor of rank 2");
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", int64_t{-3}}}),
                          f + ": axis -3 is out of bounds for a tensor of rank 2");
    }
    for (const char* fn : {"cumsum", "cumprod"})
        TG_CHECK_OP_ERROR(fn, std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", ints({0, 1})}}),
                          std::string(fn) + ": takes one axis (an int or None), but 2 were given");
    TG_CHECK_OP_ERROR("cumsum", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", ints({1})}}),
                      "cumsum: takes one axis as an int or None, not a tuple");
    TG_CHECK_OP_ERROR("cumsum", std::vector<Tensor>{Tensor::scalar(1.0)}, (Kw{{"axis", int64_t{1}}}),
                      "cumsum: axis 1 is out of bounds for a tensor of rank 1");
    TG_CHECK_OP_ERROR("var", std::vector<Tensor>{f32({2, 3})}, (Kw{{"axis", ints({1, 1})}}), "var: axis 1 is repeated");
    const std::string supported =
        "supported: ord None, 1, 2 or inf as vector norms (over one axis, or all of a 0-d or 1-d tensor), and ord "
        "None over two axes or all elements (Frobenius)";
    TG_CHECK_OP_ERROR("norm", std::vector<Tensor>{f32({2, 3})}, (Kw{{"ord", int64_t{2}}}),
                      "norm: ord=2 over all axes of a 2-d tensor is a matrix norm, which is not supported; " + supported);
    TG_CHECK_OP_ERROR("norm", std::vector<Tensor>{f32({2, 3})}, (Kw{{"ord", int64_t{1}}, {"axis", ints({0, 1})}}),
                      "norm: ord=1 over two axes is a matrix norm, which is not supported; " + supported);
    TG_CHECK_OP_ERROR("norm", std::vector<Tensor>{f32({3})}, (Kw{{"ord", int64_t{3}}}),
                      "norm: ord=3 is not supported; " + supported);
    TG_CHECK_OP_ERROR("norm", std::vector<Tensor>{f32({3})}, (Kw{{"ord", -INFINITY}}),
                      "norm: ord=-inf is not supported; " + supported);
    TG_CHECK_OP_ERROR("norm", std::vector<Tensor>{f32({3})}, (Kw{{"ord", 0.5}}),
                      "norm: ord=0.5 is not supported; " + supported);
    TG_CHECK_OP_ERROR("norm", std::vector<Tensor>{f32({2, 3, 4})}, (Kw{{"axis", ints({0, 1, 2})}}),
                      "norm: axis must be None, an int or a pair of ints");
    TG_CHECK_OP_ERROR("norm", std::vector<Tensor>{f32({0, 3})}, (Kw{{"ord", INFINITY}, {"axis", int64_t{0}}}),
                      "norm: ord=inf of a tensor of shape (0, 3) with no elements (there is no identity)");
}
