// NumPy's creation functions beyond the table's (docs/numpy.md): empty,
// empty_like, full_like, identity, logspace, tri, tril_indices,
// triu_indices, and the forms eye(n, m, k), diag(v, k) and
// zeros_like / ones_like(x, dtype) that add to the table ops' builtins.
// Shapes come from static ints, so the results are constants of a trace
// (or compositions of table ops on tensor arguments: diag, *_like).
#include <cmath>
#include <string>

#include "interp/builtins/np_util.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/dtype.hpp"

namespace tg::interp {

namespace {

using np::arg;
using stdlib::DType;
using stdlib::OtherKind;
using stdlib::Shape;

// A dtype argument (a dtype or its name, tg's or NumPy's); `dflt` when absent or None
DType dtype_arg(const Value* v, const std::string& what, DType dflt) {
    return is_none(v) ? dflt : dtype_value(*v, what);
}

int64_t size_arg(const Value* v, const std::string& what, int64_t dflt) {
    if (is_none(v)) return dflt;
    const int64_t n = to_int(*v, what);
    if (n < 0) throw Error(what + " must be non-negative, got " + std::to_string(n));
    return n;
}

// The (n, m) matrix with ones where j - i <= k (tri) or j - i == k (eye)
Value band(int64_t n, int64_t m, int64_t k, bool lower, DType d) {
    stdlib::Tensor t = stdlib::Tensor::zeros(DType::F64, Shape{n, m});
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j)
            if (lower ? j - i <= k : j - i == k) t.data<double>()[i * m + j] = 1.0;
    return Value(stdlib::cast(t, d));
}

// eye(n, m=None, k=0, dtype=f32): ones on the k-th diagonal
Value eye(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "eye";
    const auto args = bind_args(fn, ca, {"n", "m", "k", "dtype"}, 1);
    const int64_t n = size_arg(args[0], arg(fn, "n"), 0);
    const DType d = dtype_arg(args[3], arg(fn, "dtype"), DType::F32);
    if (is_none(args[1]) && !args[2]) {
        Compose c{rt};
        return c.op(stdlib::op_of(OtherKind::Eye), {}, {n, d});
    }
    return band(n, size_arg(args[1], arg(fn, "m"), n), args[2] ? to_int(*args[2], arg(fn, "k")) : 0, false, d);
}

// tri(n, m=None, k=0, dtype=f32): ones at and below the k-th diagonal
Value tri(Runtime&, const CallArgs& ca) {
    const std::string fn = "tri";
    const auto args = bind_args(fn, ca, {"n", "m", "k", "dtype"}, 1);
    const int64_t n = size_arg(args[0], arg(fn, "n"), 0);
    return band(n, size_arg(args[1], arg(fn, "m"), n), args[2] ? to_int(*args[2], arg(fn, "k")) : 0, true,
                dtype_arg(args[3], arg(fn, "dtype"), DType::F32));
}

// tril_indices / triu_indices(n, k=0, m=None): (rows, cols), i64, row-major
Value tri_indices(const CallArgs& ca, const std::string& fn, bool lower) {
    const auto args = bind_args(fn, ca, {"n", "k", "m"}, 1);
    const int64_t n = size_arg(args[0], arg(fn, "n"), 0), m = size_arg(args[2], arg(fn, "m"), n);
    const int64_t k = args[1] ? to_int(*args[1], arg(fn, "k")) : 0;
    std::vector<int64_t> rows, cols;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j)
            if (lower ? j - i <= k : j - i >= k) rows.push_back(i), cols.push_back(j);
    return Value::tuple({np::indices(rows), np::indices(cols)});
}

// empty(shape, dtype=f32): zeros (tg hands out no uninitialized memory)
Value empty(Runtime& rt, const CallArgs& ca) {
    const auto args = bind_args("empty", ca, {"shape", "dtype"}, 1);
    Compose c{rt};
    std::vector<int64_t> shape;
    if (args[0]->is_sequence())
        for (const Value& v : args[0]->items()) shape.push_back(size_arg(&v, arg("empty", "shape"), 0));
    else
        shape.push_back(size_arg(args[0], arg("empty", "shape"), 0));
    const Value z = c.op(stdlib::op_of(OtherKind::Zeros), {}, {shape});
    return np::astype(c, z, dtype_arg(args[1], arg("empty", "dtype"), DType::F32));
}

// zeros_like / ones_like / empty_like(x, dtype=None), full_like(x, fill_value, dtype=None)
Value like(Runtime& rt, const CallArgs& ca, const std::string& fn) {
    const bool full = fn == "full_like";
    const auto args = full ? bind_args(fn, ca, {"x", "fill_value", "dtype"}, 2) : bind_args(fn, ca, {"x", "dtype"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const DType d = dtype_arg(args[full ? 2 : 1], arg(fn, "dtype"), x.tensor_type().dtype);
    if (full) {
        const Value v = np::astype(c, tensor_operand(*args[1], arg(fn, "fill_value")), d);
        return np::broadcast(c, c.reshape(v, Shape{}), np::shape_of(x));
    }
    const Value z = c.op(stdlib::op_of(fn == "ones_like" ? OtherKind::OnesLike : OtherKind::ZerosLike), {x});
    return np::astype(c, z, d);
}

// diag(v, k=0): v (1-d) on the k-th diagonal of a square matrix, or the
// k-th diagonal of a 2-d v
Value diag(Runtime& rt, const CallArgs& ca) {
    const std::string fn = "diag";
    const auto args = bind_args(fn, ca, {"x", "k"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg(fn, "x"));
    const int64_t k = args[1] ? to_int(*args[1], arg(fn, "k")) : 0;
    if (np::rank_of(x) == 2 && k != 0) {
        const Shape s = np::shape_of(x);
        return c.take(c.reshape(x, Shape{s.numel()}), np::indices(np::diagonal_positions(s[0], s[1], k)).tensor(), 0);
    }
    const Value m = c.op(stdlib::op_of(OtherKind::Diag), {x});
    if (k == 0) return m;
    const int64_t a = k > 0 ? k : -k;
    const std::vector<int64_t> widths = k > 0 ? std::vector<int64_t>{0, a, a, 0} : std::vector<int64_t>{a, 0, 0, a};
    return c.op(stdlib::op_of(OtherKind::Pad), {m}, {widths});
}

// logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None):
// base ** linspace(start, stop), computed in f64 and cast (f32 by default)
Value logspace(Runtime&, const CallArgs& ca) {
    const std::string fn = "logspace";
    const auto args = bind_args(fn, ca, {"start", "stop", "num", "endpoint", "base", "dtype"}, 2);
    const double lo = static_number(*args[0], arg(fn, "start")), hi = static_number(*args[1], arg(fn, "stop"));
    const int64_t num = size_arg(args[2], arg(fn, "num"), 50);
    const bool endpoint = !args[3] || static_bool(*args[3], arg(fn, "endpoint"));
    const double base = args[4] ? static_number(*args[4], arg(fn, "base")) : 10.0;
    stdlib::Tensor t = stdlib::Tensor::empty(DType::F64, Shape{num});
    const double div = endpoint ? static_cast<double>(num - 1) : static_cast<double>(num);
    for (int64_t i = 0; i < num; ++i) {
        const double e = div > 0 ? lo + (hi - lo) * (static_cast<double>(i) / div) : lo;
        t.data<double>()[i] = std::pow(base, endpoint && i == num - 1 && num > 1 ? hi : e);
    }
    return Value(stdlib::cast(t, dtype_arg(args[5], arg(fn, "dtype"), DType::F32)));
}

}  // namespace

void add_np_create_builtins(std::vector<std::pair<std::string, Value>>& out) {
    np::add_replacing(out, "eye", eye, stdlib::op_of(OtherKind::Eye));
    np::add_replacing(out, "diag", diag, stdlib::op_of(OtherKind::Diag));
    for (const char* name : {"zeros_like", "ones_like"})
        np::add_replacing(out, name, [fn = std::string(name)](Runtime& rt, const CallArgs& a) { return like(rt, a, fn); },
                      stdlib::op_of(std::string(name) == "ones_like" ? OtherKind::OnesLike : OtherKind::ZerosLike));
    for (const char* name : {"empty_like", "full_like"})
        np::add(out, name, [fn = std::string(name)](Runtime& rt, const CallArgs& a) { return like(rt, a, fn); });
    np::add(out, "empty", empty);
    np::add(out, "identity", [](Runtime& rt, const CallArgs& a) {
        const auto args = bind_args("identity", a, {"n", "dtype"}, 1);
        Compose c{rt};
        return c.op(stdlib::op_of(OtherKind::Eye), {},
                    {size_arg(args[0], arg("identity", "n"), 0), dtype_arg(args[1], arg("identity", "dtype"), DType::F32)});
    });
    np::add(out, "tri", tri);
    np::add(out, "tril_indices", [](Runtime&, const CallArgs& a) { return tri_indices(a, "tril_indices", true); });
    np::add(out, "triu_indices", [](Runtime&, const CallArgs& a) { return tri_indices(a, "triu_indices", false); });
    np::add(out, "logspace", logspace);
}

}  // namespace tg::interp
