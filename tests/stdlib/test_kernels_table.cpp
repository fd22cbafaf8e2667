// Every kernel of the kernels groups against tables computed with NumPy /
// SciPy / PyTorch (data/kernels_gen.py -> data/kernels_cases.txt): each case
// calls the op through the op table (defaults come from the table), checks the
// shape rule's dtype and shape, then the eager kernel's values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "stdlib/op_table.hpp"
#include "stdlib/shape_ops.hpp"
#include "stdlib/shape_ops_util.hpp"

namespace {

using namespace tg::stdlib;

struct KT {
    DType dtype;
    std::vector<int64_t> shape;
    std::vector<double> values;
    bool formula = false;  // values[i] = ((i * 7919) % 1000) / 1000 - 0.5 (see kernels_gen.py)
};

struct KCase {
    std::string name;
    std::string op;
    std::vector<KT> inputs;
    std::vector<std::pair<std::string, Attr>> attrs;
    KT expected;
    bool transpose_first = false;
    double rtol = 0;
};

KT parse_tensor(std::istringstream& in) {
    KT k;
    std::string dt, tok;
    int rank = 0;
    in >> dt >> rank;
    k.dtype = *dtype_from_name(dt);
    for (int d = 0; d < rank; ++d) {
        int64_t v;
        in >> v;
        k.shape.push_back(v);
    }
    in >> tok;  // ":"
    while (in >> tok) {
        if (tok == "formula") k.formula = true;
        else k.values.push_back(std::strtod(tok.c_str(), nullptr));  // also nan, inf, -inf
    }
    return k;
}

Attr parse_attr(std::istringstream& in) {
    std::string kind;
    in >> kind;
    if (kind == "int") { int64_t v; in >> v; return v; }
    if (kind == "float") { std::string t; in >> t; return std::strtod(t.c_str(), nullptr); }
    if (kind == "bool") { int v; in >> v; return v != 0; }
    if (kind == "dtype") { std::string t; in >> t; return *dtype_from_name(t); }
    if (kind == "ints") {
        size_t n;
        in >> n;
        std::vector<int64_t> v(n);
        for (auto& x : v) in >> x;
        return v;
    }
    return std::monostate{};
}

// The table lives in tests/stdlib/data (TG_STDLIB_TEST_DATA, or found through __FILE__).
const std::vector<KCase>& cases() {
    static const std::vector<KCase> table = [] {
        std::vector<KCase> out;
        // kernels_gen.py's table, shape_ops_gen.py's (layout, selection, solve
        // ops) and math_gen.py's (the element-wise math, statistics and scans)
        for (const char* file : {"kernels_cases.txt", "shape_ops_cases.txt", "math_cases.txt"}) {
#ifdef TG_STDLIB_TEST_DATA
        auto path = std::filesystem::path(TG_STDLIB_TEST_DATA) / file;
#else
        auto path = std::filesystem::path(__FILE__).parent_path() / "data" / file;
#endif
        std::ifstream f(path);
        REQUIRE_MESSAGE(f.good(), "cannot open ", path.string());
        std::string line;
        while (std::getline(f, line)) {
            std::istringstream in(line);
            std::string head;
            in >> head;
            if (head == "case") {
                out.emplace_back();
                int tf;
                in >> out.back().name >> out.back().op >> tf >> out.back().rtol;
                out.back().transpose_first = tf != 0;
            } else if (head == "in") {
                out.back().inputs.push_back(parse_tensor(in));
            } else if (head == "attr") {
                std::string name;
                in >> name;
                out.back().attrs.emplace_back(name, parse_attr(in));
            } else if (head == "out") {
                out.back().expected = parse_tensor(in);
            }
        }
        }
        return out;
    }();
    return table;
}

Tensor make(const KT& k) {
    Shape shape{std::span<const int64_t>(k.shape)};
    Tensor t = Tensor::empty(k.dtype, shape);
    const int64_t n = t.numel();
    kern::visit_dtype(k.dtype, [&](auto tag) {
        using T = decltype(tag);
        T* p = t.data<T>();
        for (int64_t i = 0; i < n; ++i) {
            double v = k.formula ? static_cast<double>((i * 7919) % 1000) / 1000.0 - 0.5 : k.values[i];
            p[i] = static_cast<T>(v);
        }
    });
    return t;
}

std::string first_mismatch(const Tensor& got, const KT& want, double rtol) {
    Tensor g = got.contiguous();
    const int64_t n = g.numel();
    std::string err;
    kern::visit_dtype(g.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* p = g.data<T>();
        for (int64_t i = 0; i < n && err.empty(); ++i) {
            double a = static_cast<double>(p[i]), b = want.values[i];
            bool ok;
            if (std::isnan(b)) ok = std::isnan(a);
            else if (std::isinf(b)) ok = a == b;
            else if (is_float(g.dtype())) ok = std::fabs(a - b) <= rtol * (1.0 + std::fabs(b));
            else ok = a == b;
            if (!ok) {
                std::ostringstream os;
                os.precision(17);
                os << "element " << i << ": got " << a << ", expected " << b;
                err = os.str();
            }
        }
    });
    return err;
}

}  // namespace

TEST_CASE("kernels: NumPy tables, through the op table") {
    std::map<std::string, int> per_op;
    int failures = 0;
    for (const KCase& c : cases()) {
        const OpDef* def = find_op(c.op);
        REQUIRE_MESSAGE(def != nullptr, c.op);
        std::vector<Tensor> inputs;
        for (const KT& k : c.inputs) inputs.push_back(make(k));
        if (c.transpose_first) inputs[0] = transpose(inputs[0]);
        std::vector<Attr> attrs;
        for (const ParamDef& p : def->params) {
            Attr a = p.default_value;
            for (const auto& [name, v] : c.attrs)
                if (p.name == name) a = v;
            if (p.kind == ParamKind::Tensor || p.kind == ParamKind::TensorList || p.kind == ParamKind::Value)
                a = std::monostate{};
            attrs.push_back(a);
        }
        for (const auto& [name, v] : c.attrs) {
            bool known = false;
            for (const ParamDef& p : def->params) known = known || p.name == name;
            CHECK_MESSAGE(known, c.name, ": no parameter ", name);
        }
        std::vector<TensorType> types;
        for (const Tensor& t : inputs) types.push_back({t.dtype(), t.shape(), t.weak()});
        Shape want_shape{std::span<const int64_t>(c.expected.shape)};
        std::string problem;
        try {
            TensorType tt = def->infer(TypeArgs{types, attrs});
            OpContext ctx;
            Tensor got = def->eager(ctx, OpArgs{inputs, attrs});
            if (tt.dtype != c.expected.dtype || !(tt.shape == want_shape))
                problem = std::string("shape rule gave ") + dtype_name(tt.dtype) + " " + tt.shape.to_string();
            else if (got.dtype() != c.expected.dtype || !(got.shape() == want_shape))
                problem = std::string("kernel gave ") + dtype_name(got.dtype()) + " " + got.shape().to_string();
            else
                problem = first_mismatch(got, c.expected, c.rtol);
        } catch (const OpError& e) {
            problem = std::string("OpError: ") + e.what();
        }
        if (!problem.empty()) {
            ++failures;
            FAIL_CHECK(c.name << ": expected " << std::string(dtype_name(c.expected.dtype)) << " " << want_shape.to_string()
                              << "; " << problem);
        }
        ++per_op[c.op];
    }
    MESSAGE(cases().size() << " table cases, " << failures << " failed");
    // Every op of the kernels groups has table cases.
    for (const char* op : {"sum", "mean", "max", "min", "prod", "argmax", "argmin", "any", "all", "logsumexp",
                           "matmul", "dot", "outer", "transpose", "reshape", "expand_dims", "squeeze", "flatten",
                           "broadcast_to", "concat", "stack", "one_hot", "tensor", "zeros", "ones", "full",
                           "zeros_like", "ones_like", "arange", "linspace", "eye", "softmax", "log_softmax",
                           "cross_entropy", "mse", "flip", "roll", "tile", "repeat", "pad", "diag", "tril",
                           "triu", "take", "sort", "argsort", "inv", "solve", "det"})
        CHECK_MESSAGE(per_op[op] > 0, op);
    // ... and every op of the element-wise math (math_gen.py), on every dtype there
    for (const char* op : {"log2", "log10", "asin", "acos", "atan", "sinh", "cosh", "erf", "gelu", "gelu_tanh",
                           "softplus", "trunc", "reciprocal", "isinf", "isnan", "isfinite", "atan2", "var", "std",
                           "median", "norm", "cumsum", "cumprod"})
        CHECK_MESSAGE(per_op[op] >= 5, op);
}
