// Every op's gradient rule against finite differences (f64, random inputs
// away from kinks, broadcasting and 0-d shapes), run through an eager
// GradBuilder over plain tensors — and every op must have a rule or say
// that its results carry no gradient. The op list comes from all_ops():
// an op added without a rule, or without a case here, fails this test.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>

#include "stdlib/cast.hpp"
#include "stdlib/grad.hpp"
#include "stdlib/op_table.hpp"

using namespace tg::stdlib;

namespace {

// The rules' builder over tensors: each apply runs the op's eager kernel.
class EagerBuilder final : public GradBuilder {
public:
    std::vector<Tensor> vars;
    Rng rng{1};
    GradVar add(Tensor t) {
        vars.push_back(std::move(t));
        return GradVar(vars.size() - 1);
    }
    TensorType type(GradVar v) const override {
        return {vars[v].dtype(), vars[v].shape(), vars[v].weak()};
    }
    GradVar apply(const OpDef& op, std::span<const GradVar> inputs, std::vector<Attr> attrs) override {
        attrs.resize(op.params.size());
        for (size_t i = 0; i < attrs.size(); ++i)
            if (std::holds_alternative<std::monostate>(attrs[i]) && !op.params[i].required)
                attrs[i] = op.params[i].default_value;
        std::vector<Tensor> in;
        for (GradVar v : inputs) in.push_back(vars[v]);
        OpContext ctx{&rng};
        return add(op.eager(ctx, OpArgs{in, attrs}));
    }
    GradVar constant(const Tensor& t) override { return add(t); }
    // 0-d tensors count as known numbers (the specialized rules, e.g. x ** 2)
    std::optional<double> known_scalar(GradVar v) const override {
        if (vars[v].rank() != 0) return std::nullopt;
        return vars[v].item_f64();
    }
    GradVar index(GradVar x, std::span<const IndexItem> items) override { return add(tg::stdlib::index(vars[x], items)); }
    GradVar index_assign(GradVar x, std::span<const IndexItem> items, GradVar v) override {
        Tensor y = vars[x];
        tg::stdlib::index_assign(y, items, vars[v]);
        return add(y);
    }
};

struct Lcg {
    uint64_t s = 12345;
    double next(double lo, double hi) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (hi - lo) * double(s >> 11) / double(1ull << 53);
    }
};

Tensor random_f64(Lcg& r, const Shape& shape, double lo, double hi) {
    Tensor t = Tensor::empty(DType::F64, shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = r.next(lo, hi);
    return t;
}

double at(const Tensor& t, int64_t i) { return cast(t, DType::F64).contiguous().data<double>()[i]; }

struct Case {
    std::string name;  // for the failure message
    std::vector<Tensor> inputs;
    std::vector<Attr> attrs;
    std::vector<bool> diff;  // which inputs are differentiated (float ones)
    // The input is a symmetric matrix (or a batch) read by one triangle (eigh,
    // cholesky, pinv(hermitian=True)): the gradient is checked along symmetric
    // changes, element (i, j) together with (j, i).
    bool symmetric = false;
};

Tensor run(const OpDef& op, const std::vector<Tensor>& in, const std::vector<Attr>& attrs) {
    std::vector<Attr> a = attrs;
    a.resize(op.params.size());
    for (size_t i = 0; i < a.size(); ++i)
        if (std::holds_alternative<std::monostate>(a[i]) && !op.params[i].required) a[i] = op.params[i].default_value;
    Rng rng{1};
    OpContext ctx{&rng};
    return op.eager(ctx, OpArgs{in, a});
}

// sum(u * f(inputs)) for the cotangent u
double objective(const OpDef& op, const std::vector<Tensor>& in, const std::vector<Attr>& attrs, const Tensor& u) {
    Tensor y = cast(run(op, in, attrs), DType::F64).contiguous();
    double s = 0;
    for (int64_t i = 0; i < y.numel(); ++i) s += y.data<double>()[i] * at(u, i);
    return s;
}

void check_case(const OpDef& op, const Case& c) {
    CAPTURE(c.name);
    Lcg r;
    Tensor y = run(op, c.inputs, c.attrs);
    Tensor u = random_f64(r, y.shape(), -1.0, 1.0);
    EagerBuilder b;
    std::vector<GradVar> ins;
    for (const Tensor& t : c.inputs) ins.push_back(b.add(t));
    GradVar out = b.add(y), cot = b.add(u);
    std::vector<Attr> attrs = c.attrs;
    attrs.resize(op.params.size());
    for (size_t i = 0; i < attrs.size(); ++i)
        if (std::holds_alternative<std::monostate>(attrs[i]) && !op.params[i].required)
            attrs[i] = op.params[i].default_value;
    bool wanted[8] = {};
    for (size_t i = 0; i < c.diff.size(); ++i) wanted[i] = c.diff[i];
    std::vector<GradVar> cots(ins.size(), kNoGrad);
    op.grad.vjp(b, VjpArgs{ins, attrs, out, cot, std::span<const bool>(wanted, ins.size()), cots});
    for (size_t k = 0; k < c.inputs.size(); ++k) {
        if (!c.diff[k]) continue;
        CAPTURE(k);
        const Tensor& x = c.inputs[k];
        Tensor g = cots[k] == kNoGrad ? Tensor::zeros(DType::F64, x.shape()) : b.vars[cots[k]];
        REQUIRE(g.shape() == x.shape());
        CHECK(g.dtype() == x.dtype());
        const int64_t n = x.rank() >= 2 ? x.shape()[x.rank() - 1] : 1;
        for (int64_t i = 0; i < x.numel(); ++i) {
            CAPTURE(i);
            // with `symmetric`, (row, col) in the lower triangle moves with its mirror
            const int64_t row = (i / n) % n, col = i % n, mirror = i - row * n - col + col * n + row;
            if (c.symmetric && col > row) continue;
            const bool pair = c.symmetric && col != row;
            const double h = 1e-6;
            std::vector<Tensor> plus = c.inputs, minus = c.inputs;
            // fresh buffers: the inputs share storage with c.inputs
            plus[k] = cast(x, DType::F64).contiguous().copy();
            minus[k] = cast(x, DType::F64).contiguous().copy();
            for (int64_t e : {i, pair ? mirror : int64_t{-1}}) {
                if (e < 0) continue;
                plus[k].data<double>()[e] += h;
                minus[k].data<double>()[e] -= h;
            }
            const double fd = (objective(op, plus, c.attrs, u) - objective(op, minus, c.attrs, u)) / (2 * h);
            const double want = at(g, i) + (pair ? at(g, mirror) : 0.0);
            CHECK(want == doctest::Approx(fd).epsilon(1e-5).scale(1.0));
        }
    }
}

std::vector<int64_t> v(std::initializer_list<int64_t> xs) { return xs; }

// The decompositions (linalg_decomp.cpp, linalg_factor.cpp, linalg_pinv.cpp):
// distinct singular values and eigenvalues, full-rank matrices
template <class Square, class Rand>
void add_decomposition_cases(const std::string& n, Square square, Rand T, std::vector<Case>& out) {
    const Attr no = false, yes = true;
    auto sym = [&](Shape s) {  // symmetric, distinct eigenvalues
        Tensor t = square(s);
        const int64_t m = s[s.rank() - 1];
        for (int64_t b = 0; b < t.numel() / (m * m); ++b)
            for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < i; ++j)
                    t.data<double>()[b * m * m + j * m + i] = t.data<double>()[b * m * m + i * m + j];
        for (int64_t i = 0; i < t.numel(); ++i)
            if ((i % (m * m)) / m == i % m) t.data<double>()[i] += double(i % m);  // spread the diagonal
        return t;
    };
    if (n == "_svd") {
        out.push_back({n + " square", {T(Shape{3, 3}, -1, 1)}, {}, {true}});
        out.push_back({n + " tall", {T(Shape{4, 3}, -1, 1)}, {{}, no}, {true}});
        out.push_back({n + " wide", {T(Shape{3, 4}, -1, 1)}, {{}, no}, {true}});
        out.push_back({n + " batch", {T(Shape{2, 3, 2}, -1, 1)}, {{}, no, yes}, {true}});
        out.push_back({n + " values", {T(Shape{3, 4}, -1, 1)}, {{}, yes, no}, {true}});
    }
    if (n == "_eigh")
        for (const Attr& lower : {yes, no}) {
            out.push_back({n + " vectors", {sym(Shape{3, 3})}, {{}, lower, yes}, {true}, true});
            out.push_back({n + " values", {sym(Shape{2, 3, 3})}, {{}, lower, no}, {true}, true});
        }
    if (n == "_eig") {  // upper triangular plus a small perturbation: real, distinct eigenvalues
        Tensor a = T(Shape{3, 3}, -0.2, 0.2);
        for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = i; j < 3; ++j) a.data<double>()[i * 3 + j] += i == j ? double(i + 1) : 0.7;
        out.push_back({n + " vectors", {a}, {}, {true}});
        out.push_back({n + " values", {a}, {{}, no}, {true}});
    }
    if (n == "_qr") {
        const std::pair<Shape, int64_t> forms[] = {{Shape{4, 3}, 0}, {Shape{3, 4}, 0}, {Shape{3, 3}, 1}, {Shape{2, 4}, 1},
                                                   {Shape{4, 3}, 2}, {Shape{3, 5}, 2}, {Shape{2, 4, 3}, 0},
                                                   {Shape{5, 2}, 1}, {Shape{2, 4, 3}, 1}};
        for (auto& [s, mode] : forms)
            out.push_back({n + " " + s.to_string() + " mode " + std::to_string(mode), {T(s, -1, 1)}, {{}, mode}, {true}});
    }
    if (n == "cholesky")
        for (const Attr& upper : {no, yes}) {
            out.push_back({n, {square(Shape{3, 3})}, {{}, upper}, {true}, true});
            out.push_back({n + " batch", {square(Shape{2, 2, 2})}, {{}, upper}, {true}, true});
        }
    if (n == "_slogdet")
        for (Shape s : {Shape{1, 1}, Shape{3, 3}, Shape{2, 3, 3}}) out.push_back({n + " " + s.to_string(), {square(s)}, {}, {true}});
    if (n == "pinv") {
        for (Shape s : {Shape{4, 3}, Shape{3, 4}, Shape{2, 2, 3}}) out.push_back({n + " " + s.to_string(), {T(s, -1, 1)}, {}, {true}});
        out.push_back({n + " hermitian", {sym(Shape{3, 3})}, {{}, 1e-15, yes}, {true}, true});
    }
}

// The cases of one op (empty: the test fails, asking for one).
std::vector<Case> cases_for(const OpDef& op) {
    Lcg r;
    auto T = [&](Shape s, double lo = 0.3, double hi = 1.3) { return random_f64(r, s, lo, hi); };
    std::vector<Case> out;
    const std::string n(op.name);
    if (std::holds_alternative<UnaryKind>(op.kind)) {
        // asin and acos: inside their domain [-1, 1]
        const double lo = n == "asin" || n == "acos" ? -0.9 : 0.3, hi = n == "asin" || n == "acos" ? 0.9 : 1.3;
        for (Shape s : {Shape{}, Shape{3, 4}}) out.push_back({n + " " + s.to_string(), {T(s, lo, hi)}, {}, {true}});
        if (n == "gelu" || n == "gelu_tanh" || n == "softplus" || n == "erf" || n == "atan" || n == "sinh" ||
            n == "cosh" || n == "reciprocal")
            out.push_back({n + " negative", {T(Shape{5}, -2.5, -0.3)}, {}, {true}});
        if (n == "neg" || n == "abs" || n == "sin" || n == "cos" || n == "tanh" || n == "sigmoid" || n == "square" ||
            n == "exp" || n == "relu")
            out.push_back({n + " negative", {T(Shape{5}, -1.3, -0.3)}, {}, {true}});
        return out;
    }
    if (std::holds_alternative<BinaryKind>(op.kind)) {
        const std::pair<Shape, Shape> shapes[] = {
            {Shape{3, 4}, Shape{3, 4}}, {Shape{3, 4}, Shape{4}}, {Shape{}, Shape{3}}, {Shape{3}, Shape{}}, {Shape{2, 1, 3}, Shape{4, 1}}};
        for (auto& [sa, sb] : shapes)
            out.push_back({n + " " + sa.to_string() + " " + sb.to_string(), {T(sa), T(sb)}, {}, {true, true}});
        return out;
    }
    if (std::holds_alternative<ReduceKind>(op.kind)) {
        const Attr axes[] = {std::monostate{}, int64_t{0}, int64_t{-1}, v({0, 1})};
        for (const Attr& ax : axes)
            for (bool kd : {false, true}) out.push_back({n + " axis keepdims=" + std::to_string(kd), {T(Shape{3, 4})}, {{}, ax, kd}, {true}});
        out.push_back({n + " 0-d", {T(Shape{})}, {}, {true}});
        if (n == "var" || n == "std")
            for (double ddof : {1.0, 2.0}) out.push_back({n + " ddof", {T(Shape{3, 4})}, {{}, int64_t{1}, false, ddof}, {true}});
        if (n == "median") {  // an even count (two middle elements), and a tie at the middle
            out.push_back({n + " even", {T(Shape{4, 6})}, {{}, int64_t{1}}, {true}});
        }
        return out;
    }
    Tensor labels = Tensor::empty(DType::I64, Shape{3});
    for (int i = 0; i < 3; ++i) labels.data<int64_t>()[i] = (i * 2 + 1) % 4;
    Tensor cond = Tensor::empty(DType::Bool, Shape{3, 4});
    for (int i = 0; i < 12; ++i) cond.data<bool>()[i] = (i * 7) % 3 == 0;
    if (n == "where") out.push_back({n, {cond, T(Shape{3, 4}), T(Shape{4})}, {}, {false, true, true}});
    if (n == "clip") {
        out.push_back({n, {T(Shape{3, 4}, 0.0, 2.0), Tensor::scalar(0.6, DType::F64), T(Shape{4}, 1.4, 1.5)}, {}, {true, true, true}});
    }
    if (n == "astype") out.push_back({n, {T(Shape{3})}, {{}, DType::F64}, {true}});
    if (n == "matmul" || n == "dot") {
        const std::pair<Shape, Shape> shapes[] = {{Shape{3, 4}, Shape{4, 2}}, {Shape{4}, Shape{4, 2}},
                                                  {Shape{3, 4}, Shape{4}},    {Shape{4}, Shape{4}}};
        for (auto& [sa, sb] : shapes) out.push_back({n + " " + sa.to_string() + " " + sb.to_string(), {T(sa), T(sb)}, {}, {true, true}});
        if (n == "matmul") {
            const std::pair<Shape, Shape> batch[] = {{Shape{2, 3, 4}, Shape{4, 5}}, {Shape{2, 3, 4}, Shape{2, 4, 5}},
                                                     {Shape{1, 3, 4}, Shape{2, 4, 2}}, {Shape{4}, Shape{2, 4, 3}},
                                                     {Shape{2, 3, 4}, Shape{4}}};
            for (auto& [sa, sb] : batch) out.push_back({n + " " + sa.to_string() + " " + sb.to_string(), {T(sa), T(sb)}, {}, {true, true}});
        }
    }
    if (n == "outer") out.push_back({n, {T(Shape{3}), T(Shape{2, 2})}, {}, {true, true}});
    if (n == "softmax" || n == "log_softmax")
        for (int64_t ax : {-1, 0}) out.push_back({n + " axis " + std::to_string(ax), {T(Shape{3, 4}, -2, 2)}, {{}, ax}, {true}});
    if (n == "cross_entropy") out.push_back({n, {T(Shape{3, 4}, -2, 2), labels}, {}, {true, false}});
    if (n == "mse") out.push_back({n, {T(Shape{3, 4}), T(Shape{4})}, {}, {true, true}});
    if (n == "reshape") out.push_back({n, {T(Shape{3, 4})}, {{}, v({2, 6})}, {true}});
    if (n == "expand_dims") out.push_back({n, {T(Shape{3, 4})}, {{}, int64_t{1}}, {true}});
    if (n == "squeeze") out.push_back({n, {T(Shape{3, 1, 4})}, {}, {true}});
    if (n == "flatten") out.push_back({n, {T(Shape{3, 4})}, {}, {true}});
    if (n == "broadcast_to") out.push_back({n, {T(Shape{4, 1})}, {{}, v({2, 4, 3})}, {true}});
    if (n == "transpose") {
        out.push_back({n + " reversed", {T(Shape{2, 3, 4})}, {}, {true}});
        out.push_back({n + " (1, 2, 0)", {T(Shape{2, 3, 4})}, {{}, v({1, 2, 0})}, {true}});
    }
    if (n == "concat") {
        out.push_back({n + " axis 0", {T(Shape{2, 3}), T(Shape{4, 3})}, {{}, int64_t{0}}, {true, true}});
        out.push_back({n + " axis 1", {T(Shape{2, 3}), T(Shape{2, 1}), T(Shape{2, 2})}, {{}, int64_t{1}}, {true, true, true}});
    }
    if (n == "stack")
        for (int64_t ax : {0, 1, -1})
            out.push_back({n + " axis " + std::to_string(ax), {T(Shape{2, 3}), T(Shape{2, 3})}, {{}, ax}, {true, true}});
    if (n == "tensor") out.push_back({n, {T(Shape{2, 3})}, {}, {true}});
    // integer-tensor indexing: repeated and negative indices (a scatter's
    // repeats would make its result depend on the order of writes: none there)
    auto ints = [](Shape s, std::initializer_list<int64_t> xs) {
        Tensor t = Tensor::empty(DType::I64, s);
        int64_t k = 0;
        for (int64_t x : xs) t.data<int64_t>()[k++] = x;
        return t;
    };
    if (n == "_gather") {
        out.push_back({n + " axis 0", {T(Shape{3, 4}), ints(Shape{4}, {2, 0, -1, 2})}, {{}, {}, int64_t{0}}, {true, false}});
        out.push_back({n + " axis 1, 2-d indices", {T(Shape{3, 4}), ints(Shape{2, 2}, {3, 1, 1, 0})}, {{}, {}, int64_t{1}}, {true, false}});
    }
    if (n == "_scatter" || n == "_scatter_add") {
        out.push_back({n + " axis 0", {T(Shape{3, 4}), ints(Shape{2}, {2, -3}), T(Shape{2, 4})}, {{}, {}, {}, int64_t{0}}, {true, false, true}});
        out.push_back({n + " axis 1", {T(Shape{3, 4}), ints(Shape{1, 2}, {3, 1}), T(Shape{3, 1, 2})}, {{}, {}, {}, int64_t{1}}, {true, false, true}});
    }
    if (n == "_scatter_add")
        out.push_back({n + " repeated", {T(Shape{3}), ints(Shape{3}, {1, 1, -2}), T(Shape{3})}, {{}, {}, {}, int64_t{0}}, {true, false, true}});
    // layout, selection and solve ops (shape_ops_layout.cpp, select_ops.cpp, linalg_solve.cpp)
    const Attr none = std::monostate{};
    if (n == "flip")
        for (const Attr& ax : {none, Attr{int64_t{-1}}, Attr{v({0, 2})}}) out.push_back({n, {T(Shape{2, 3, 2})}, {{}, ax}, {true}});
    if (n == "roll") {
        out.push_back({n + " flat", {T(Shape{2, 3})}, {{}, int64_t{4}, none}, {true}});
        out.push_back({n + " axes", {T(Shape{2, 3})}, {{}, v({1, -2}), v({0, 1})}, {true}});
    }
    if (n == "tile") {
        out.push_back({n, {T(Shape{2, 3})}, {{}, v({2, 1, 3})}, {true}});
        out.push_back({n + " short reps", {T(Shape{2, 3})}, {{}, v({2})}, {true}});
    }
    if (n == "repeat") {
        out.push_back({n + " flat", {T(Shape{2, 3})}, {{}, v({2}), none}, {true}});
        out.push_back({n + " counts", {T(Shape{2, 3})}, {{}, v({1, 0, 3}), int64_t{-1}}, {true}});
    }
    if (n == "pad") {
        out.push_back({n + " all axes", {T(Shape{2, 3})}, {{}, v({1, 2}), int64_t{0}}, {true}});
        out.push_back({n + " per axis", {T(Shape{2, 3})}, {{}, v({0, 1, 2, 0}), int64_t{5}}, {true}});
    }
    if (n == "diag")
        for (Shape s : {Shape{3}, Shape{3, 3}, Shape{2, 4}, Shape{4, 2}}) out.push_back({n + " " + s.to_string(), {T(s)}, {}, {true}});
    if (n == "tril" || n == "triu")
        for (Shape s : {Shape{3}, Shape{3, 4}, Shape{2, 3, 3}})
            for (int64_t k : {0, 1, -1}) out.push_back({n + " " + s.to_string() + " k " + std::to_string(k), {T(s)}, {{}, k}, {true}});
    if (n == "take") {
        Tensor idx = make_tensor<int64_t>(Shape{2, 2}, {0, -1, 2, 0});  // repeated and negative indices
        out.push_back({n + " flat", {T(Shape{2, 3}), idx}, {{}, {}, none}, {true, false}});
        out.push_back({n + " axis 1", {T(Shape{2, 3}), idx}, {{}, {}, int64_t{1}}, {true, false}});
        out.push_back({n + " axis -2", {T(Shape{3, 2}), idx}, {{}, {}, int64_t{-2}}, {true, false}});
    }
    if (n == "sort")
        for (const Attr& ax : {Attr{int64_t{-1}}, Attr{int64_t{0}}, none}) {
            out.push_back({n, {T(Shape{3, 4}, -2, 2)}, {{}, ax}, {true}});
            out.push_back({n + " 3-d", {T(Shape{2, 3, 4}, -2, 2)}, {{}, ax}, {true}});
        }
    // square, well-conditioned matrices (random plus n on the diagonal)
    auto square = [&](Shape s) {
        Tensor t = T(s, -0.5, 0.5);
        const int64_t m = s[s.rank() - 1];
        for (int64_t i = 0; i < t.numel(); ++i)
            if ((i % (m * m)) / m == i % m) t.data<double>()[i] += double(m);
        return t;
    };
    if (n == "inv" || n == "det")
        for (Shape s : {Shape{1, 1}, Shape{3, 3}, Shape{2, 3, 3}}) out.push_back({n + " " + s.to_string(), {square(s)}, {}, {true}});
    if (n == "solve") {
        out.push_back({n + " vector", {square(Shape{3, 3}), T(Shape{3})}, {}, {true, true}});
        out.push_back({n + " matrix", {square(Shape{3, 3}), T(Shape{3, 2})}, {}, {true, true}});
        out.push_back({n + " batch broadcast", {square(Shape{2, 3, 3}), T(Shape{1, 3, 2})}, {}, {true, true}});
        out.push_back({n + " batch of b", {square(Shape{3, 3}), T(Shape{2, 3, 1})}, {}, {true, true}});
    }
    add_decomposition_cases(n, square, T, out);
    if (n == "norm") {
        const double inf = std::numeric_limits<double>::infinity();
        out.push_back({n + " all", {T(Shape{3, 4}, -1.3, 1.3)}, {}, {true}});
        out.push_back({n + " 0-d", {T(Shape{}, -1.3, -0.3)}, {}, {true}});
        for (Attr ord : {Attr{}, Attr{int64_t{1}}, Attr{int64_t{2}}, Attr{inf}})
            for (int64_t ax : {0, -1})
                for (bool kd : {false, true})
                    out.push_back({n + " ord axis", {T(Shape{3, 4}, -1.3, 1.3)}, {{}, ord, ax, kd}, {true}});
        out.push_back({n + " pair of axes", {T(Shape{2, 3, 4}, -1.3, 1.3)}, {{}, {}, v({0, 2})}, {true}});
    }
    if (n == "cumsum" || n == "cumprod") {
        out.push_back({n + " flat", {T(Shape{3, 4})}, {}, {true}});
        out.push_back({n + " 0-d", {T(Shape{})}, {}, {true}});
        for (int64_t ax : {0, 1, -1}) out.push_back({n + " axis", {T(Shape{3, 4}, -1.3, 1.3)}, {{}, ax}, {true}});
        if (n == "cumprod") {  // zeros: one, two in a lane, at the start and at the end
            Tensor z = T(Shape{3, 5}, 0.5, 1.5);
            for (int i : {1, 5, 8, 10, 14}) z.data<double>()[i] = 0.0;
            out.push_back({n + " zeros", {z}, {{}, int64_t{1}}, {true}});
            out.push_back({n + " zeros flat", {z}, {}, {true}});
        }
    }
    // convolution: strides, asymmetric pads, dilation, groups, a batch of 2
    // (one GEMM over both samples) and of 1
    if (n == "conv2d") {
        out.push_back({n + " plain", {T(Shape{2, 2, 5, 4}, -1, 1), T(Shape{3, 2, 3, 2}, -1, 1)}, {}, {true, true}});
        out.push_back({n + " stride pad dilation", {T(Shape{1, 2, 6, 5}, -1, 1), T(Shape{2, 2, 2, 3}, -1, 1)},
                       {{}, {}, v({2, 1}), v({1, 0, 2, 1}), v({2, 1}), int64_t{1}}, {true, true}});
        out.push_back({n + " groups", {T(Shape{2, 4, 4, 4}, -1, 1), T(Shape{6, 2, 3, 3}, -1, 1)},
                       {{}, {}, int64_t{1}, int64_t{1}, int64_t{1}, int64_t{2}}, {true, true}});
    }
    if (n == "conv_transpose2d") {
        out.push_back({n + " plain", {T(Shape{2, 3, 3, 2}, -1, 1), T(Shape{3, 2, 2, 3}, -1, 1)}, {}, {true, true}});
        out.push_back({n + " stride pad output_padding groups", {T(Shape{1, 4, 3, 3}, -1, 1), T(Shape{4, 1, 3, 2}, -1, 1)},
                       {{}, {}, v({2, 2}), v({1, 0}), v({1, 0}), int64_t{2}, int64_t{1}}, {true, true}});
    }
    if (n == "_conv2d_weight_grad") {
        out.push_back({n, {T(Shape{2, 2, 5, 4}, -1, 1), T(Shape{2, 3, 3, 3}, -1, 1)}, {{}, {}, v({3, 2})}, {true, true}});
        out.push_back({n + " stride groups", {T(Shape{1, 4, 6, 5}, -1, 1), T(Shape{1, 2, 3, 3}, -1, 1)},
                       {{}, {}, v({2, 2}), v({2, 2}), v({1, 0, 0, 1}), int64_t{1}, int64_t{2}}, {true, true}});
    }
    if (n == "max_pool2d") {  // distinct values: the maximum of each window is unique
        Tensor x = T(Shape{2, 2, 5, 5}, -1, 1);
        for (int64_t i = 0; i < x.numel(); ++i) x.data<double>()[i] += 0.01 * double(i);
        out.push_back({n + " 2x2", {x}, {{}, int64_t{2}}, {true}});
        out.push_back({n + " overlapping padded ceil", {x}, {{}, int64_t{3}, int64_t{2}, int64_t{1}, int64_t{1}, true}, {true}});
        out.push_back({n + " dilation 3-d", {T(Shape{2, 6, 5}, -1, 1)}, {{}, v({2, 2}), int64_t{1}, int64_t{0}, int64_t{2}}, {true}});
    }
    if (n == "_max_pool2d_backward") {  // linear in g; x only picks the positions
        Tensor x = T(Shape{1, 2, 5, 5}, -1, 1);
        for (int64_t i = 0; i < x.numel(); ++i) x.data<double>()[i] += 0.01 * double(i);
        out.push_back({n, {x, T(Shape{1, 2, 3, 3}, -1, 1)}, {{}, {}, int64_t{3}, int64_t{2}, int64_t{1}}, {false, true}});
    }
    return out;
}

}  // namespace

TEST_CASE("every op has a gradient rule or says its results carry none") {
    for (const OpDef* op : all_ops()) {
        CAPTURE(op->name);
        CHECK(op->grad.mode != GradRule::Missing);
        CHECK((op->grad.mode == GradRule::Vjp) == (op->grad.vjp != nullptr));
    }
}

TEST_CASE("every gradient rule agrees with finite differences (f64)") {
    for (const OpDef* op : all_ops()) {
        if (op->grad.mode != GradRule::Vjp) continue;
        CAPTURE(op->name);
        std::vector<Case> cases = cases_for(*op);
        CHECK_MESSAGE(!cases.empty(), "no finite-difference case for this op: add one to cases_for");
        for (const Case& c : cases) check_case(*op, c);
    }
}

TEST_CASE("max and min split the gradient evenly among ties, relu'(0) = 0") {
    Tensor x = Tensor::empty(DType::F64, Shape{4});
    double vals[] = {1.0, 3.0, 3.0, 0.0};
    for (int i = 0; i < 4; ++i) x.data<double>()[i] = vals[i];
    for (const char* name : {"max", "relu"}) {
        const OpDef& op = *find_op(name);
        EagerBuilder b;
        GradVar in = b.add(x);
        Tensor y = run(op, {x}, {});
        GradVar out = b.add(y), cot = b.add(Tensor::zeros(DType::F64, y.shape()));
        b.vars[cot] = cast(Tensor::scalar(1.0, DType::F64), DType::F64);
        if (y.rank() == 1) {
            Tensor ones = Tensor::empty(DType::F64, y.shape());
            for (int i = 0; i < 4; ++i) ones.data<double>()[i] = 1;
            b.vars[cot] = ones;
        }
        std::vector<Attr> attrs(op.params.size());
        for (size_t i = 0; i < attrs.size(); ++i) attrs[i] = op.params[i].default_value;
        bool wanted[1] = {true};
        GradVar ins[1] = {in};
        std::vector<GradVar> cots(1, kNoGrad);
        op.grad.vjp(b, VjpArgs{ins, attrs, out, cot, wanted, cots});
        Tensor g = b.vars[cots[0]];
        if (std::string(name) == "max") {
            CHECK(at(g, 0) == 0.0);
            CHECK(at(g, 1) == 0.5);
            CHECK(at(g, 2) == 0.5);
        } else {
            CHECK(at(g, 3) == 0.0);  // relu at 0
            CHECK(at(g, 0) == 1.0);
        }
    }
}
