// The normalization, dropout, embedding and activation builtins of
// docs/builtins.md ("Neural networks"), with PyTorch's torch.nn.functional
// arguments, written as compositions of table ops (interp/builtins/compose.hpp):
// they trace, fuse and differentiate as the ops they apply.
//
// batch_norm is functional: in training it returns (y, new_running_mean,
// new_running_var) instead of updating the running statistics in place
// (docs/training.md, "Layers and data").
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/format.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

namespace {

using stdlib::BinaryKind;
using stdlib::Shape;
using stdlib::UnaryKind;

std::string arg_name(const std::string& fn, const char* name) { return fn + ": argument `" + name + "`"; }

// A per-channel vector (C,) as (1, C, 1, ...) for an input of rank `rank`.
Value per_channel(Compose& c, const std::string& fn, const char* what, const Value& v, int64_t channels, int rank) {
    const Value t = tensor_operand(v, arg_name(fn, what));
    if (!(t.tensor_type().shape == Shape{channels}))
        throw Error(fn + ": " + what + " must have shape " + Shape{channels}.to_string() + " (one per channel), got " +
                    t.tensor_type().shape.to_string());
    Shape s;
    for (int d = 0; d < rank; ++d) s.push_back(d == 1 ? channels : 1);
    return c.reshape(t, s);
}

// y * w + b, each optional and of `shape` once reshaped by `fit`.
template <class Fit>
Value affine(Compose& c, Value y, const Value* w, const Value* b, Fit&& fit) {
    if (!is_none(w)) y = c.mul(y, fit("w", *w));
    if (!is_none(b)) y = c.add(y, fit("b", *b));
    return y;
}

Value normalized(Compose& c, const Value& x, const Value& mean, const Value& var, const Value& eps) {
    return c.mul(c.sub(x, mean), c.un(UnaryKind::Rsqrt, c.add(var, eps)));
}

Value eps_arg(const Value* v, const std::string& fn) {
    return v ? Value::weak_float(static_number(*v, arg_name(fn, "eps"))) : Value::weak_float(1e-5);
}

// batch_norm(x, running_mean, running_var, w=None, b=None, training=False, momentum=0.1, eps=1e-5)
Value batch_norm(Runtime& rt, const CallArgs& a) {
    const std::string fn = "batch_norm";
    const auto args =
        bind_args(fn, a, {"x", "running_mean", "running_var", "w", "b", "training", "momentum", "eps"}, 3);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg_name(fn, "x"));
    const Shape xs = x.tensor_type().shape;
    if (xs.rank() < 2) throw Error(fn + ": input must have at least 2 axes (N, C, ...), got shape " + xs.to_string());
    const int rank = xs.rank();
    const int64_t ch = xs[1];
    const bool training = args[5] && static_bool(*args[5], arg_name(fn, "training"));
    const double momentum = args[6] ? static_number(*args[6], arg_name(fn, "momentum")) : 0.1;
    const Value eps = eps_arg(args[7], fn);
    auto fit = [&](const char* what, const Value& v) { return per_channel(c, fn, what, v, ch, rank); };
    std::vector<int64_t> axes{0};
    for (int d = 2; d < rank; ++d) axes.push_back(d);
    if (!training) {
        if (is_none(args[1]) || is_none(args[2]))
            throw Error(fn + ": running_mean and running_var are needed when training is False");
        const Value mean = fit("running_mean", *args[1]);  // checked in argument order
        const Value var = fit("running_var", *args[2]);
        const Value y = normalized(c, x, mean, var, eps);
        return affine(c, y, args[3], args[4], fit);
    }
    const int64_t count = xs.numel() / std::max<int64_t>(1, ch);
    if (count < 2) throw Error(fn + ": training needs more than one value per channel, got input shape " + xs.to_string());
    const Value mean = c.mean(x, axes, true), var = c.var(x, axes, true);
    const Value y = affine(c, normalized(c, x, mean, var, eps), args[3], args[4], fit);
    // the running statistics: (1 - momentum) r + momentum s, with the unbiased variance
    auto update = [&](const Value* running, const Value& stat, double scale) {
        if (is_none(running)) return Value::none();
        const Value r = tensor_operand(*running, arg_name(fn, "running statistics"));
        const Value s = c.reshape(stat, Shape{ch});
        return c.add(c.mul(r, Compose::num(1.0 - momentum)), c.mul(s, Compose::num(momentum * scale)));
    };
    const double unbiased = static_cast<double>(count) / static_cast<double>(count - 1);
    return Value::tuple({y, update(args[1], mean, 1.0), update(args[2], var, unbiased)});
}

// The trailing axes a layer_norm normalizes, checked against x's shape.
std::vector<int64_t> trailing_axes(const std::string& fn, const Value& shape_arg, const Shape& xs, Shape& norm) {
    std::vector<int64_t> dims;
    if (shape_arg.is_sequence()) {
        for (const Value& v : shape_arg.items()) dims.push_back(to_int(v, arg_name(fn, "normalized_shape")));
    } else {
        dims.push_back(to_int(shape_arg, arg_name(fn, "normalized_shape")));
    }
    norm = Shape(std::span<const int64_t>(dims));
    const int k = static_cast<int>(dims.size()), r = xs.rank();
    bool ok = k >= 1 && k <= r;
    for (int i = 0; ok && i < k; ++i) ok = xs[r - k + i] == dims[static_cast<size_t>(i)];
    if (!ok)
        throw Error(fn + ": normalized_shape " + norm.to_string() + " does not match the last axes of input shape " +
                    xs.to_string());
    std::vector<int64_t> axes;
    for (int i = r - k; i < r; ++i) axes.push_back(i);
    return axes;
}

// layer_norm(x, normalized_shape, w=None, b=None, eps=1e-5)
Value layer_norm(Runtime& rt, const CallArgs& a) {
    const std::string fn = "layer_norm";
    const auto args = bind_args(fn, a, {"x", "normalized_shape", "w", "b", "eps"}, 2);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg_name(fn, "x"));
    Shape norm;
    const auto axes = trailing_axes(fn, *args[1], x.tensor_type().shape, norm);
    const Value y = normalized(c, x, c.mean(x, axes, true), c.var(x, axes, true), eps_arg(args[4], fn));
    return affine(c, y, args[2], args[3], [&](const char* what, const Value& v) {
        const Value t = tensor_operand(v, arg_name(fn, what));
        if (!(t.tensor_type().shape == norm))
            throw Error(fn + ": " + what + " must have shape " + norm.to_string() + ", got " +
                        t.tensor_type().shape.to_string());
        return t;
    });
}

// group_norm(x, num_groups, w=None, b=None, eps=1e-5)
Value group_norm(Runtime& rt, const CallArgs& a) {
    const std::string fn = "group_norm";
    const auto args = bind_args(fn, a, {"x", "num_groups", "w", "b", "eps"}, 2);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg_name(fn, "x"));
    const Shape xs = x.tensor_type().shape;
    const int64_t groups = to_int(*args[1], arg_name(fn, "num_groups"));
    if (xs.rank() < 2) throw Error(fn + ": input must have at least 2 axes (N, C, ...), got shape " + xs.to_string());
    if (groups < 1 || xs[1] % groups != 0)
        throw Error(fn + ": num_groups=" + std::to_string(groups) + " must divide the " + std::to_string(xs[1]) +
                    " channels");
    const Value g = c.reshape(x, Shape{xs[0], groups, xs.numel() / std::max<int64_t>(1, xs[0] * groups)});
    const Value y = c.reshape(normalized(c, g, c.mean(g, {2}, true), c.var(g, {2}, true), eps_arg(args[4], fn)), xs);
    return affine(c, y, args[2], args[3],
                  [&](const char* what, const Value& v) { return per_channel(c, fn, what, v, xs[1], xs.rank()); });
}

// dropout(x, p=0.5, training=True): elements kept with probability 1 - p
// (a draw u >= p of tg's random stream, so eager and compiled code drop
// the same elements) and scaled by 1 / (1 - p).
Value dropout(Runtime& rt, const CallArgs& a) {
    const std::string fn = "dropout";
    const auto args = bind_args(fn, a, {"x", "p", "training"}, 1);
    Compose c{rt};
    const Value x = tensor_operand(*args[0], arg_name(fn, "x"));
    const double p = args[1] ? static_number(*args[1], arg_name(fn, "p")) : 0.5;
    if (!(p >= 0.0 && p <= 1.0)) throw Error(fn + ": p must be between 0 and 1, got " + stdlib::format_float(p, stdlib::DType::F64));
    const bool training = !args[2] || static_bool(*args[2], arg_name(fn, "training"));
    if (!training || p == 0.0) return x;
    const Shape xs = x.tensor_type().shape;
    const Value u = c.op(stdlib::op_of(stdlib::OtherKind::RandomUniform), {},
                         {std::vector<int64_t>(xs.begin(), xs.end()), 0.0, 1.0});
    if (p == 1.0) return c.mul(x, Compose::num(0.0));
    // PyTorch's form: x * noise, the noise 1 / (1 - p) where kept and 0 elsewhere
    const Value noise = c.where(c.bin(BinaryKind::Ge, u, Compose::num(p)), Compose::num(1.0 / (1.0 - p)), Compose::num(0.0));
    return c.mul(x, noise);
}

// embedding(indices, weight): rows of weight (num_embeddings, dim).
Value embedding(Runtime& rt, const CallArgs& a) {
    const std::string fn = "embedding";
    const auto args = bind_args(fn, a, {"indices", "weight"}, 2);
    Compose c{rt};
    const Value idx = tensor_operand(*args[0], arg_name(fn, "indices"));
    const Value w = tensor_operand(*args[1], arg_name(fn, "weight"));
    const stdlib::TensorType it = idx.tensor_type();
    if (!stdlib::is_int(it.dtype)) throw Error(fn + ": indices must be integers, got " + stdlib::dtype_name(it.dtype));
    if (w.tensor_type().shape.rank() != 2)
        throw Error(fn + ": weight must be 2-d (num_embeddings, embedding_dim), got shape " +
                    w.tensor_type().shape.to_string());
    return c.op(stdlib::op_of(stdlib::OtherKind::Take), {w, idx}, {int64_t{0}});
}

}  // namespace

void add_nn_norm_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const std::string& name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), nullptr})));
    };
    add("batch_norm", batch_norm);
    add("layer_norm", layer_norm);
    add("group_norm", group_norm);
    add("dropout", dropout);
    add("embedding", embedding);
}

}  // namespace tg::interp
