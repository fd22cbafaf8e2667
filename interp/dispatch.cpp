#include "interp/dispatch.hpp"
#include "interp/check_args.hpp"

#include "interp/call_signature.hpp"
#include "interp/debug/nan_check.hpp"
#include "interp/tracing/graph_value.hpp"

#include "stdlib/budget.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <utility>

#include "interp/autodiff/autodiff.hpp"
#include "interp/batching/batching.hpp"
#include "interp/bind.hpp"
#include "interp/builtins/builtins.hpp"
#include "interp/error.hpp"
#include "interp/suggest.hpp"
#include "interp/values/printing.hpp"
#include "interp/values/set.hpp"
#include "interp/runtime.hpp"
#include "interp/tracing/trace.hpp"
#include "tracer/passes.hpp"

namespace tg::interp {

using stdlib::Attr;
using stdlib::DType;
using stdlib::ParamKind;
using stdlib::Tensor;

namespace {

std::string type_desc(const Value& v) {
    if (v.is_tensor()) return std::string(stdlib::dtype_name(v.tensor().dtype())) + " tensor";
    return kind_name(v.kind());
}

// ---- nested lists -> tensor
struct NestedWalk {
    stdlib::NestedData data;
    DType dtype = DType::Bool;
    bool weak = true;
    bool first_leaf = true;
    bool any_leaf = false;
    std::string_view what;

    void fail(const std::string& why) { throw Error(std::string(what) + ": " + why); }

    void leaf(const Tensor& t, int depth) {
        // the leaf's own shape continues the nested shape
        if (depth == data.shape.rank() && !any_leaf) {
            for (int64_t d : t.shape()) data.shape.push_back(d);
        } else {
            if (data.shape.rank() != depth + t.rank()) fail("nested lists have an inconsistent shape");
            for (int i = 0; i < t.rank(); ++i)
                if (data.shape[depth + i] != t.shape()[i]) fail("nested lists have an inconsistent shape");
        }
        any_leaf = true;
        if (first_leaf) {
            dtype = t.dtype();
            weak = t.weak();
            first_leaf = false;
        } else {
            auto p = stdlib::promote(dtype, weak, t.dtype(), t.weak());
            dtype = p.dtype;
            weak = p.weak;
        }
        Tensor c = t.contiguous();
        int64_t n = c.numel();
        for (int64_t i = 0; i < n; ++i) {
            double dv = 0;
            int64_t iv = 0;
            switch (c.dtype()) {
            case DType::Bool: iv = c.data<bool>()[i]; dv = double(iv); break;
            case DType::I32: iv = c.data<int32_t>()[i]; dv = double(iv); break;
            case DType::I64:
                if (c.weak()) iv = c.item_i64(); else iv = c.data<int64_t>()[i];
                dv = double(iv);
                break;
            case DType::F32:
                if (c.weak()) dv = c.item_f64(); else dv = c.data<float>()[i];
                break;
            case DType::F64: dv = c.data<double>()[i]; break;
            }
            data.values.push_back(stdlib::is_float(c.dtype()) ? dv : double(iv));
            data.ints.push_back(iv);
        }
    }

    void walk(const Value& v, int depth) {
        if (v.tracked())
            fail("the data holds a tensor being differentiated; combine such tensors with stack() or concat()");
        if (v.is_tensor()) return leaf(v.tensor(), depth);
        if (!v.is_sequence()) fail("cannot make a tensor from a " + std::string(kind_name(v.kind())));
        const auto& items = v.items();
        int64_t n = static_cast<int64_t>(items.size());
        if (depth == data.shape.rank() && !any_leaf) {
            data.shape.push_back(n);
        } else if (depth >= data.shape.rank() || data.shape[depth] != n) {
            fail("nested lists have an inconsistent shape");
        }
        for (const auto& item : items) walk(item, depth + 1);
    }
};

// A dtype written as a string: tg's name or NumPy's (stdlib::dtype_from_string).
DType dtype_named(const std::string& name, std::string_view what) {
    if (auto d = stdlib::dtype_from_string(name)) return *d;
    // Python's float is f64 and a tg float literal f32 (docs/language.md "Values"): the size is asked for
    if (name == "float" || name == "int")
        throw Error(std::string(what) + ": the dtype '" + name + "' names no size in tg: write \"" + name + "32\" or \"" +
                    name + "64\"" + (name == "float" ? " (Python's float is f64, a tg float literal f32)" : ""));
    throw Error(std::string(what) + ": unknown dtype '" + name +
                "' (tg's dtypes: f32 f64 i32 i64 bool; NumPy's names such as \"float32\" or \"i8\" work too)");
}

// A Shape parameter's value: an int, a tuple / list or 1-d tensor of ints,
// or None where None is the default (max_pool2d's stride: the kernel size).
Attr shape_attr(const Value& v, const stdlib::ParamDef& p, std::string_view what) {
    if (v.is(Kind::None) && !p.required && std::holds_alternative<std::monostate>(p.default_value)) return std::monostate{};
    if (v.is_sequence()) {
        std::vector<int64_t> out;
        for (const auto& x : v.items()) out.push_back(to_int(x, what));
        return out;
    }
    if (v.is_tensor() && v.tensor().rank() == 1 && stdlib::is_int(v.tensor().dtype())) {
        std::vector<int64_t> out;
        Tensor c = v.tensor().contiguous();
        for (int64_t i = 0; i < c.numel(); ++i) out.push_back(c.dtype() == DType::I32 ? c.data<int32_t>()[i] : c.data<int64_t>()[i]);
        return out;
    }
    if (v.is_tensor() && v.tensor().rank() == 0) return std::vector<int64_t>{to_int(v, what)};
    throw Error(std::string(what) + " must be a shape (an int or a tuple of ints), not " + type_desc(v));
}

Attr to_attr(const Value& v, const stdlib::ParamDef& p, std::string_view what) {
    auto fail = [&](const char* expected) -> Attr {
        throw Error(std::string(what) + " must be " + expected + ", not " + type_desc(v));
    };
    auto int_list = [&](const Value& seq) {
        std::vector<int64_t> out;
        for (const auto& x : seq.items()) out.push_back(to_int(x, what));
        return out;
    };
    if (has_symbolic(v)) {
        // A value eager code refuses for its type (`sum(xs, x)` with an f32
        // x as the axis) is refused with eager's words; only one eager code
        // would take is a "must be static" error.
        if (v.is_tensor() && v.tensor_type().shape.numel() <= 4096) {
            const stdlib::TensorType t = v.tensor_type();
            (void)to_attr(Value(stdlib::Tensor::zeros(t.dtype, t.shape)), p, what);
        }
        if (p.kind == ParamKind::Shape)
            dynamic_value_error(std::string(what) +
                                " depends on the contents of a tensor; shapes inside a @graph function must be "
                                "static");
        dynamic_value_error(std::string(what) +
                            " must be static inside a @graph function, but it depends on the contents of a tensor");
    }
    switch (p.kind) {
    case ParamKind::Int: return to_int(v, what);
    case ParamKind::Bool:
        if (v.is_tensor() && v.tensor().rank() == 0 && !stdlib::is_float(v.tensor().dtype()))
            return v.tensor().item_bool();
        return fail("a bool");
    case ParamKind::Scalar:
        // None where None is the default (norm's ord)
        if (v.is(Kind::None) && !p.required && std::holds_alternative<std::monostate>(p.default_value)) return std::monostate{};
        if (v.is_tensor() && v.tensor().numel() == 1) {
            if (stdlib::is_float(v.tensor().dtype())) return v.tensor().item_f64();
            return v.tensor().item_i64();
        }
        return fail("a number");
    case ParamKind::Axis:
        if (v.is(Kind::None)) return std::monostate{};
        if (v.is_sequence()) return int_list(v);
        return to_int(v, what);
    case ParamKind::Shape: return shape_attr(v, p, what);
    case ParamKind::Widths: {
        // n, (before, after), ((b0, a0), (b1, a1), ...) or ((b, a),) as NumPy's pad_width
        if (!v.is_sequence()) {
            const int64_t w = to_int(v, what);
            return std::vector<int64_t>{w, w};
        }
        const auto& items = v.items();
        const bool nested = !items.empty() && items[0].is_sequence();
        std::vector<int64_t> out;
        for (const auto& item : items) {
            if (item.is_sequence() != nested || (nested && item.items().size() != 2 && item.items().size() != 1))
                return fail("an int, a (before, after) pair or one such pair per axis");
            if (!nested) out.push_back(to_int(item, what));
            else
                for (size_t k = 0; k < 2; ++k) out.push_back(to_int(item.items()[k % item.items().size()], what));
        }
        if (!nested && items.size() == 1) out.push_back(out[0]);
        if (out.empty() || (!nested && items.size() > 2))
            return fail("an int, a (before, after) pair or one such pair per axis");
        return out;
    }
    case ParamKind::DType:
        if (v.is(Kind::None)) return std::monostate{};
        if (v.is(Kind::DType) || v.is(Kind::Str)) return dtype_value(v, what);
        return fail("a dtype");
    default: return std::monostate{};
    }
}

}  // namespace

Attr op_attr(const Value& v, const stdlib::ParamDef& p, std::string_view what) { return to_attr(v, p, what); }

namespace {

const char* binop_name(lang::BinOp op) {
    switch (op) {
    case lang::BinOp::Add: return "add";
    case lang::BinOp::Sub: return "sub";
    case lang::BinOp::Mul: return "mul";
    case lang::BinOp::Div: return "div";
    case lang::BinOp::FloorDiv: return "floordiv";
    case lang::BinOp::Mod: return "mod";
    case lang::BinOp::Pow: return "pow";
    case lang::BinOp::MatMul: return "matmul";
    case lang::BinOp::BitAnd: return "bitand";
    case lang::BinOp::BitOr: return "bitor";
    case lang::BinOp::BitXor: return "bitxor";
    case lang::BinOp::LShift: return "left_shift";
    case lang::BinOp::RShift: return "right_shift";
    }
    return "?";
}

}  // namespace

namespace {

[[noreturn]] void unsupported(const char* sym, const Value& a, const Value& b) {
    throw Error(std::string("unsupported operand types for ") + sym + ": " + kind_name(a.kind()) + " and " +
                kind_name(b.kind()));
}

// The size of n copies of `part` units, saturating (a huge count is refused
// by the memory limit or the allocation, never wrapped around).
size_t times(int64_t n, size_t part) {
    if (n <= 0 || part == 0) return 0;
    const size_t count = static_cast<size_t>(n);
    return part > SIZE_MAX / count ? SIZE_MAX : part * count;
}

// seq * n: its size is checked against the memory limit before anything is
// built, and the copying is counted as work (stdlib/budget.hpp).
Value repeat(const Value& seq, const Value& count) {
    int64_t n = to_int(count, "repetition count");
    if (seq.is(Kind::Str)) {
        const std::string& part = seq.text();
        const size_t total = times(n, part.size());
        stdlib::check_fits(Value::text_bytes(total), "a string");
        if (total > std::string().max_size()) throw Error("the repeated string is too long");
        std::string out;
        out.reserve(total);
        for (int64_t i = 0; i < n && !part.empty(); ++i) {
            stdlib::spend_work(static_cast<int64_t>(part.size()));
            out += part;
        }
        return Value::str(std::move(out));
    }
    const std::span<const Value> part = seq.items();
    const size_t total = times(n, part.size());
    stdlib::check_fits(Value::slots_bytes(total), seq.is(Kind::List) ? "a list" : "a tuple");
    if (total > std::vector<Value>().max_size()) throw Error("the repeated sequence is too long");
    std::vector<Value> out;
    out.reserve(total);
    for (int64_t i = 0; i < n && !part.empty(); ++i) {
        stdlib::spend_work(static_cast<int64_t>(part.size()));
        out.insert(out.end(), part.begin(), part.end());
    }
    return seq.is(Kind::List) ? Value::list(std::move(out)) : Value::tuple(std::move(out));
}

}  // namespace

int64_t to_int(const Value& v, std::string_view what) {
    if (const Scalar* s = v.scalar())
        if (stdlib::is_int(s->dtype) || s->dtype == DType::Bool) return s->i;
    if (v.is_symbolic())
        dynamic_value_error(std::string(what) +
                            " must be static inside a @graph function, but it depends on the contents of a tensor");
    if (v.is_tensor() && v.tensor().numel() == 1 && v.tensor().rank() == 0 && !stdlib::is_float(v.tensor().dtype()))
        return v.tensor().item_i64();
    throw Error(std::string(what) + " must be an int, not " + type_desc(v));
}

Tensor to_tensor(const Value& v, std::string_view what, std::optional<DType> dtype) {
    if (v.is_tensor()) return v.tensor();
    if (has_symbolic(v)) unsupported_in_graph(std::string(what) + " as a list holding traced tensors");
    if (!v.is_sequence()) throw Error(std::string(what) + " must be a tensor, not " + type_desc(v));
    NestedWalk w;
    w.what = what;
    w.walk(v, 0);
    if (!dtype && !w.first_leaf && !w.weak) dtype = w.dtype;
    w.data.any_float = !w.first_leaf && stdlib::is_float(w.dtype);
    w.data.all_bool = !w.first_leaf && w.dtype == DType::Bool;
    return stdlib::tensor_from_nested(w.data, dtype);
}

Value trace_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands, std::vector<Attr> attrs) {
    TraceState& t = *rt.trace;
    std::vector<tracer::ValueId> ids;
    ids.reserve(operands.size());
    for (const Value& v : operands) ids.push_back(value_id(t, v));
    const bool random = op.has_effect();
    std::vector<tracer::ValueId> res = t.graph.apply(op, ids, std::move(attrs), t.here(), random ? t.token : tracer::kNoId);
    if (random) t.token = res[1];
    return symbolic(t, res[0]);
}

Value bind_op(Runtime& rt, Level level, const stdlib::OpDef& op, std::span<const Value> operands, std::vector<Attr> attrs) {
    switch (level) {
    case Level::Tape:
        if (batch_on_top(rt, operands)) return batched_op(rt, op, operands, std::move(attrs));
        return tracked_op(rt, op, operands, std::move(attrs));
    case Level::Trace: return trace_op(rt, op, operands, std::move(attrs));
    case Level::Eager: break;
    }
    std::vector<Tensor> inputs;
    inputs.reserve(operands.size());
    for (const Value& v : operands) inputs.push_back(to_tensor(v, op.name));
    attrs.resize(op.params.size());
    return apply_op(rt, op, inputs, attrs);
}

Level operands_level(const Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands) {
    return choose_level(
        rt, [&] { return any_transformed(operands); },
        [&] { return op.has_effect() || std::any_of(operands.begin(), operands.end(), has_symbolic); });
}

Value run_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Value> operands, std::vector<Attr> attrs) {
    return bind_op(rt, operands_level(rt, op, operands), op, operands, std::move(attrs));
}

Value apply_op(Runtime& rt, const stdlib::OpDef& op, std::span<const Tensor> inputs, std::span<const Attr> attrs) {
    stdlib::poll_limits();  // the host's interrupt and deadline, before every op (stdlib/budget.hpp)
    stdlib::OpContext ctx{&rt.rng};
    if (rt.options.debug_nans) [[unlikely]] {
        Tensor out = op.eager(ctx, stdlib::OpArgs{inputs, attrs});
        check_op_result(op, inputs, out);
        return Value(std::move(out));
    }
    return Value(op.eager(ctx, stdlib::OpArgs{inputs, attrs}));
}

namespace {

// A builtin op's arguments, per parameter (null: not given), after binding
// positional and keyword arguments to its parameters.
struct BoundArgs {
    static constexpr size_t kMax = 16;
    const Value* at[kMax] = {};
};

BoundArgs bind_op_args(const stdlib::OpDef& op, const CallArgs& args, const std::string& fname) {
    const size_t n = op.params.size();
    if (args.positional.size() > n)
        throw Error(arity_error(fname, n, n, args.positional.size(), ArityWording::Function, method_receiver(args)));
    BoundArgs b;
    if (n > BoundArgs::kMax) throw Error("internal error: op with too many parameters");
    for (size_t i = 0; i < args.positional.size(); ++i) b.at[i] = &args.positional[i];
    for (size_t k = 0; k < args.keywords.size(); ++k) {
        std::string_view kw = args.keywords[k].name;
        size_t i = 0;
        while (i < n && op.params[i].name != kw) ++i;
        if (i == n) {
            std::vector<std::string_view> names;
            for (const auto& p : op.params) names.push_back(p.name);
            throw Error(fname + ": unknown keyword argument `" + std::string(kw) + "`" + did_you_mean(kw, names));
        }
        if (b.at[i]) throw Error(fname + ": argument `" + std::string(kw) + "` given twice");
        b.at[i] = &args.keyword_values[k];
    }
    return b;
}

bool is_operand_param(ParamKind k) { return k == ParamKind::Tensor || k == ParamKind::TensorList || k == ParamKind::Value; }

// The attributes (defaults where not given; operand parameters stay empty),
// and the dtype attribute if one was given (data is converted to it).
std::vector<Attr> op_attrs(Runtime& rt, const stdlib::OpDef& op, const BoundArgs& b, const std::string& fname,
                           std::optional<DType>& dtype_attr) {
    const size_t n = op.params.size();
    std::vector<Attr> attrs(n);
    for (size_t i = 0; i < n; ++i) {
        const auto& p = op.params[i];
        if (!b.at[i]) {
            if (p.required) throw Error(fname + ": missing argument `" + std::string(p.name) + "`");
            attrs[i] = p.default_value;
        } else if (!is_operand_param(p.kind)) {
            try {
                attrs[i] = to_attr(*b.at[i], p, fname + ": argument `" + std::string(p.name) + "`");
            } catch (const Error& e) {
                // name the parameters the value comes from (docs/graph.md "Signatures and the cache")
                if (rt.trace && e.trace_kind == TraceErrorKind::Conversion)
                    dynamic_value_error(*rt.trace, e.message(), *b.at[i]);
                throw;
            }
        }
        if (p.kind == ParamKind::DType && std::holds_alternative<DType>(attrs[i])) dtype_attr = std::get<DType>(attrs[i]);
    }
    return attrs;
}

// The tensor operands as values, in the op's order: tensor parameters (and,
// with `with_data`, data parameters) first, then the items of tensor lists.
std::vector<Value> operand_values(const stdlib::OpDef& op, const BoundArgs& b, const std::string& fname, bool with_data) {
    std::vector<Value> operands;
    for (ParamKind pass : {ParamKind::Tensor, ParamKind::TensorList}) {
        for (size_t i = 0; i < op.params.size(); ++i) {
            const auto& p = op.params[i];
            const bool data_param = with_data && p.kind == ParamKind::Value && pass == ParamKind::Tensor;
            if (!b.at[i] || (p.kind != pass && !data_param)) continue;
            std::string what = fname + ": argument `" + std::string(p.name) + "`";
            if (pass == ParamKind::Tensor) {
                operands.push_back(b.at[i]->is_tensor() ? *b.at[i] : Value(to_tensor(*b.at[i], what)));
                continue;
            }
            if (!b.at[i]->is_sequence()) throw Error(what + " must be a list of tensors, not " + type_desc(*b.at[i]));
            for (const auto& item : b.at[i]->items()) operands.push_back(item.is_tensor() ? item : Value(to_tensor(item, what)));
        }
    }
    return operands;
}

// Tracing: a symbolic operand, or a random op (it must draw each time the
// graph runs), appends a node; anything else is computed now.
bool traced_as_node(const stdlib::OpDef& op, const BoundArgs& b, std::span<const Attr> attrs) {
    const size_t n = op.params.size();
    bool symbolic_operand = (op.flags & stdlib::kRandom) != 0;
    for (size_t i = 0; i < n && !symbolic_operand; ++i)
        if (b.at[i] && op.params[i].kind != ParamKind::Value && has_symbolic(*b.at[i])) symbolic_operand = true;
    // A big tensor created from a static shape stays a node: computed
    // now, `zeros((2**31,))` in a branch that never runs would allocate
    // 8 GB at trace time (and the outcome would depend on free memory).
    const bool takes_data = std::any_of(op.params.begin(), op.params.end(),
                                        [](const stdlib::ParamDef& p) { return p.kind == ParamKind::Value; });
    if (!symbolic_operand && (op.flags & stdlib::kCreation) && !takes_data) {
        try {
            // `full` has a (static) tensor operand, the value: its type goes to the shape rule
            std::vector<stdlib::TensorType> inputs;
            for (size_t i = 0; i < n; ++i) {
                if (!b.at[i] || op.params[i].kind != ParamKind::Tensor) continue;
                const Tensor t = to_tensor(*b.at[i], std::string(op.name));
                inputs.push_back({t.dtype(), t.shape(), t.weak()});
            }
            symbolic_operand = op.infer(stdlib::TypeArgs{inputs, attrs}).shape.numel() > tracer::kFoldLimit;
        } catch (const stdlib::OpError&) {
            // an invalid shape: computing it now raises the eager error
        } catch (const Error&) {
            // an operand that is not a tensor: the eager path raises it, with its wording
        }
    }
    return symbolic_operand;
}

// The eager kernel's inputs: tensor and data parameters (data converted to
// the dtype attribute), then the items of tensor lists.
std::vector<Tensor> eager_inputs(const stdlib::OpDef& op, const BoundArgs& b, const std::string& fname,
                                 std::optional<DType> dtype_attr) {
    const size_t n = op.params.size();
    std::vector<Tensor> inputs;
    inputs.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        const auto& p = op.params[i];
        if (!b.at[i]) continue;
        std::string what = fname + ": argument `" + std::string(p.name) + "`";
        if (p.kind == ParamKind::Tensor) {
            inputs.push_back(to_tensor(*b.at[i], what));
        } else if (p.kind == ParamKind::Value) {
            inputs.push_back(to_tensor(*b.at[i], what, dtype_attr));
        }
    }
    for (size_t i = 0; i < n; ++i) {
        const auto& p = op.params[i];
        if (!b.at[i] || p.kind != ParamKind::TensorList) continue;
        std::string what = fname + ": argument `" + std::string(p.name) + "`";
        if (!b.at[i]->is_sequence()) throw Error(what + " must be a list of tensors, not " + type_desc(*b.at[i]));
        for (const auto& item : b.at[i]->items()) inputs.push_back(to_tensor(item, what));
    }
    return inputs;
}

}  // namespace

// One call of a builtin op: its arguments bound to the op's parameters, then
// the op at its level (interp/bind.hpp).
Value call_op(Runtime& rt, const stdlib::OpDef& op, const CallArgs& args) {
    const std::string fname(op.name);
    const BoundArgs b = bind_op_args(op, args, fname);
    std::optional<DType> dtype_attr;
    std::vector<Attr> attrs = op_attrs(rt, op, b, fname, dtype_attr);
    const Level level = choose_level(
        rt,
        [&] {
            for (size_t i = 0; i < op.params.size(); ++i)
                if (b.at[i] && is_operand_param(op.params[i].kind) && has_transformed(*b.at[i])) return true;
            return false;
        },
        [&] { return traced_as_node(op, b, attrs); });
    if (level == Level::Eager) return apply_op(rt, op, eager_inputs(op, b, fname, dtype_attr), attrs);
    if (level == Level::Trace)
        for (size_t i = 0; i < op.params.size(); ++i)
            if (b.at[i] && op.params[i].kind == ParamKind::Value)
                unsupported_in_graph(fname + " of data inside a @graph function");
    return bind_op(rt, level, op, operand_values(op, b, fname, level == Level::Tape), std::move(attrs));
}

namespace {
// --debug-nans: an operator's result checked (out of the hot path).
[[gnu::noinline]] Value checked_binary(stdlib::BinaryKind k, const Value& a, const Value& b) {
    Tensor in[2] = {a.tensor(), b.tensor()};
    Tensor out = stdlib::binary(k, in[0], in[1]);
    check_op_result(stdlib::binary_op(k), in, out);
    return Value(std::move(out));
}
}  // namespace

Value binary(Runtime& rt, lang::BinOp op, const Value& a, const Value& b) {
    if (a.is_tensor() && b.is_tensor()) {
        if (const Level level = operator_level(rt, a, b); level != Level::Eager) {
            Value in[2] = {a, b};
            return bind_op(rt, level, op == lang::BinOp::MatMul ? stdlib::op_of(stdlib::OtherKind::Matmul) : stdlib::binary_op(binary_kind(op)),
                        in, {});
        }
        // The fast path: operators on tensors (0-d ones allocate nothing).
        if (op == lang::BinOp::MatMul) {
            Tensor in[2] = {a.tensor(), b.tensor()};
            Attr attrs[2];
            return apply_op(rt, stdlib::op_of(stdlib::OtherKind::Matmul), in, attrs);
        }
        const stdlib::BinaryKind k = binary_kind(op);
        if (a.scalar() && b.scalar()) {
            Scalar out;
            if (scalar_binary(k, *a.scalar(), *b.scalar(), out)) {
                // --debug-nans: a NaN or inf made here is reported by the tensor path below
                if (!rt.options.debug_nans || !stdlib::is_float(out.dtype) || std::isfinite(out.f)) return Value(out);
            }
        }
        stdlib::poll_limits();
        if (rt.options.debug_nans) [[unlikely]] return checked_binary(k, a, b);
        std::optional<Tensor> sa, sb;  // (a tensor of rank >= 1 is read in place)
        return Value(stdlib::binary(k, a.tensor_ref(sa), b.tensor_ref(sb)));
    }
    const char* sym = lang::to_string(op);
    // sequences and strings
    if (op == lang::BinOp::Add) {
        if (a.is(Kind::Str) && b.is(Kind::Str)) {
            if ((a.sym_str() || b.sym_str()) && rt.trace) {
                tracer::Template t;
                std::vector<tracer::ValueId> operands;
                append_str(*rt.trace, t, operands, a, false);
                append_str(*rt.trace, t, operands, b, false);
                return make_str(std::move(t), std::move(operands));
            }
            const size_t total = a.text().size() + b.text().size();
            stdlib::check_fits(Value::text_bytes(total), "a string");
            stdlib::spend_work(static_cast<int64_t>(total));
            return Value::str(a.text() + b.text());
        }
        if ((a.is(Kind::List) && b.is(Kind::List)) || (a.is(Kind::Tuple) && b.is(Kind::Tuple))) {
            const size_t total = a.items().size() + b.items().size();
            stdlib::check_fits(Value::slots_bytes(total), a.is(Kind::List) ? "a list" : "a tuple");
            stdlib::spend_work(static_cast<int64_t>(total));
            std::vector<Value> out;
            out.reserve(total);
            out.insert(out.end(), a.items().begin(), a.items().end());
            out.insert(out.end(), b.items().begin(), b.items().end());
            return a.is(Kind::List) ? Value::list(std::move(out)) : Value::tuple(std::move(out));
        }
    }
    if (op == lang::BinOp::Mul) {
        if ((a.is_sequence() || a.is(Kind::Str)) && b.is_tensor()) return repeat(a, b);
        if ((b.is_sequence() || b.is(Kind::Str)) && a.is_tensor()) return repeat(b, a);
    }
    if (a.is(Kind::Set) && b.is(Kind::Set))  // | & - ^ (docs/language.md "Sets")
        if (std::optional<Value> r = set_binary(op, a.set(), b.set())) return *r;
    // a tensor with a nested list: the list becomes a tensor, as in NumPy
    if ((a.is_tensor() && b.is_sequence()) || (a.is_sequence() && b.is_tensor())) {
        std::string what = std::string(binop_name(op)) + ": operand";
        return binary(rt, op, Value(to_tensor(a, what)), Value(to_tensor(b, what)));
    }
    unsupported(sym, a, b);
}

Value compare(Runtime& rt, lang::CmpOp op, const Value& a, const Value& b) {
    using B = stdlib::BinaryKind;
    if (a.is_tensor() && b.is_tensor()) {
        B k = B::Eq;
        switch (op) {
        case lang::CmpOp::Eq: k = B::Eq; break;
        case lang::CmpOp::Ne: k = B::Ne; break;
        case lang::CmpOp::Lt: k = B::Lt; break;
        case lang::CmpOp::Le: k = B::Le; break;
        case lang::CmpOp::Gt: k = B::Gt; break;
        case lang::CmpOp::Ge: k = B::Ge; break;
        default: throw Error(std::string("internal error: `") + lang::to_string(op) + "` reached compare()");
        }
        // (on the tape a comparison records nothing: its bool result has no gradient)
        if (const Level level = operator_level(rt, a, b); level != Level::Eager) {
            Value in[2] = {a, b};
            return bind_op(rt, level, stdlib::binary_op(k), in, {});
        }
        if (a.scalar() && b.scalar()) {
            Scalar out;
            if (scalar_binary(k, *a.scalar(), *b.scalar(), out)) return Value(out);
        }
        stdlib::poll_limits();
        std::optional<Tensor> sa, sb;
        return Value(stdlib::binary(k, a.tensor_ref(sa), b.tensor_ref(sb)));
    }
    if (op == lang::CmpOp::Eq) return Value::from_bool(values_equal(rt, a, b));
    if (op == lang::CmpOp::Ne) return Value::from_bool(!values_equal(rt, a, b));
    if ((a.is(Kind::Tuple) && b.is(Kind::Tuple)) || (a.is(Kind::List) && b.is(Kind::List))) {
        // Python's order: the first items that differ decide; if none does, the shorter is less
        const auto& x = a.items();
        const auto& y = b.items();
        for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
            stdlib::spend_work(1);
            if (values_equal(rt, x[i], y[i])) continue;
            const Value r = compare(rt, op, x[i], y[i]);
            if (r.is_symbolic()) unsupported_in_graph("ordering lists or tuples by traced values");
            return Value::from_bool(r.scalar() ? r.scalar()->nonzero() : stdlib::truth(r.tensor()));
        }
        const size_t m = x.size(), n = y.size();
        switch (op) {
        case lang::CmpOp::Lt: return Value::from_bool(m < n);
        case lang::CmpOp::Le: return Value::from_bool(m <= n);
        case lang::CmpOp::Gt: return Value::from_bool(m > n);
        default: return Value::from_bool(m >= n);
        }
    }
    if (a.is(Kind::Set) && b.is(Kind::Set)) return Value::from_bool(set_compare(op, a.set(), b.set()));  // subsets
    if (a.is(Kind::Str) && b.is(Kind::Str)) {
        int c = a.text().compare(b.text());
        switch (op) {
        case lang::CmpOp::Lt: return Value::from_bool(c < 0);
        case lang::CmpOp::Le: return Value::from_bool(c <= 0);
        case lang::CmpOp::Gt: return Value::from_bool(c > 0);
        default: return Value::from_bool(c >= 0);
        }
    }
    if ((a.is_tensor() && b.is_sequence()) || (a.is_sequence() && b.is_tensor()))
        return compare(rt, op, Value(to_tensor(a, "comparison: operand")), Value(to_tensor(b, "comparison: operand")));
    throw Error(std::string("unsupported operand types for ") + lang::to_string(op) + ": " + kind_name(a.kind()) +
                " and " + kind_name(b.kind()));
}

Value unary(Runtime& rt, lang::UnaryOp op, const Value& a) {
    if (!a.is_tensor())
        throw Error(std::string("unsupported operand type for ") + lang::to_string(op) + ": " + kind_name(a.kind()));
    if (op == lang::UnaryOp::Pos) return a;
    const stdlib::OpDef& def = stdlib::op_of(op == lang::UnaryOp::Neg ? stdlib::UnaryKind::Neg : stdlib::UnaryKind::Invert);
    if (const Level level = operator_level(rt, a); level != Level::Eager)
        return bind_op(rt, level, def, std::span<const Value>(&a, 1), {});
    Tensor in[1] = {a.tensor()};
    Attr attrs[1];
    return apply_op(rt, def, in, attrs);
}

namespace {
tracer::IndexSpec index_spec(TraceState& t, std::span<const stdlib::IndexItem> items, std::span<const Value> dynamic,
                             std::vector<tracer::ValueId>& ids) {
    tracer::IndexSpec spec;
    spec.items.assign(items.begin(), items.end());
    spec.dynamic.assign(items.size(), false);
    for (size_t i = 0; i < dynamic.size() && i < items.size(); ++i)
        if (dynamic[i].is_symbolic()) {
            spec.dynamic[i] = true;
            ids.push_back(value_id(t, dynamic[i]));
        }
    return spec;
}
}  // namespace

Value index_tensor(Runtime& rt, const Value& x, std::span<const stdlib::IndexItem> items, std::span<const Value> dynamic) {
    const Level level = choose_level(
        rt, [&] { return x.transformed(); },
        [&] { return x.is_symbolic() || std::any_of(dynamic.begin(), dynamic.end(), [](const Value& d) { return d.is_symbolic(); }); });
    if (level == Level::Tape) {
        const Value xs[1] = {x};
        if (batch_on_top(rt, xs)) return batched_index(rt, x, items, dynamic);
        return tracked_index(rt, x, items, dynamic);
    }
    if (level == Level::Trace) {
        TraceState& t = *rt.trace;
        std::vector<tracer::ValueId> ids;
        tracer::ValueId xid = value_id(t, x);
        tracer::IndexSpec spec = index_spec(t, items, dynamic, ids);
        // The shape rule checks static indices now, as eager would.
        (void)stdlib::index_shape(x.tensor_type().shape, items);
        return symbolic(t, t.graph.index(xid, std::move(spec), ids, t.here()));
    }
    std::optional<Tensor> scratch;
    return Value(stdlib::index(x.tensor_ref(scratch), items));
}

void assign_index_tensor(Runtime& rt, Value& x, std::span<const stdlib::IndexItem> items, const Value& v,
                         std::span<const Value> dynamic) {
    const Level level = choose_level(
        rt, [&] { return x.transformed() || v.transformed(); },
        [&] {
            return x.is_symbolic() || v.is_symbolic() ||
                   std::any_of(dynamic.begin(), dynamic.end(), [](const Value& d) { return d.is_symbolic(); });
        });
    if (level == Level::Tape) {
        const Value both[2] = {x, v};
        if (batch_on_top(rt, both)) return batched_index_assign(rt, x, items, v, dynamic);
        return tracked_index_assign(rt, x, items, v, dynamic);
    }
    if (level == Level::Trace) {
        TraceState& t = *rt.trace;
        Value src = v.is_tensor() ? v : Value(to_tensor(v, "index assignment: value"));
        std::vector<tracer::ValueId> ids;
        tracer::ValueId xid = value_id(t, x);
        tracer::ValueId vid = value_id(t, src);
        tracer::IndexSpec spec = index_spec(t, items, dynamic, ids);
        // (Broadcasting v to the region is checked when the node runs, with
        // the eager message at this location.)
        (void)stdlib::index_shape(x.tensor_type().shape, items);
        x = symbolic(t, t.graph.index_assign(xid, vid, std::move(spec), ids, t.here()));
        return;
    }
    Tensor src = to_tensor(v, "index assignment: value");
    stdlib::index_assign(x.tensor_mut(), items, src);
}

namespace {

// a == b on values: containers item by item, counted as work (the limits act
// inside, stdlib/budget.hpp). Pairs of containers found equal are
// remembered, so a structure that shares its parts (`a = [a, a]` forty
// times) is compared in time linear in its distinct parts, not exponential.
class EqualWalk {
public:
    explicit EqualWalk(Runtime& rt) : rt_(rt) {}

    bool equal(const Value& a, const Value& b) {
        if (a.kind() != b.kind()) return false;
        switch (a.kind()) {
        case Kind::None: case Kind::Undefined: return true;
        case Kind::Str:
            stdlib::spend_work(static_cast<int64_t>(a.text().size()));
            return a.text() == b.text();
        case Kind::DType: return a.dtype() == b.dtype();
        case Kind::Module: return a.module() == b.module();
        case Kind::Function: return a.function_ptr() == b.function_ptr();
        case Kind::Builtin: return &a.builtin() == &b.builtin();
        case Kind::BoundMethod: return &a.bound() == &b.bound();
        case Kind::Graph: return &a.graph() == &b.graph();
        case Kind::Spec: return a.spec().spec == b.spec().spec;
        case Kind::List: case Kind::Tuple: return items_equal(a.items(), b.items());
        case Kind::Dict: return dicts_equal(a.dict(), b.dict());
        case Kind::Set:
            stdlib::spend_work(static_cast<int64_t>(a.set().size()));
            return a.set().items == b.set().items;
        case Kind::Tensor: return tensors_equal(a.tensor(), b.tensor());
        }
        return false;
    }

private:
    using Pair = std::pair<const void*, const void*>;
    struct PairHash {
        size_t operator()(const Pair& p) const {
            return std::hash<const void*>{}(p.first) * 31 + std::hash<const void*>{}(p.second);
        }
    };

    bool items_equal(std::span<const Value> x, std::span<const Value> y) {
        if (x.size() != y.size()) return false;
        const Pair key{x.data(), y.data()};  // (the items' storage: one per list or tuple object)
        if (known_equal_.count(key)) return true;
        bool nested = false;
        for (size_t i = 0; i < x.size(); ++i) {
            stdlib::spend_work(1);
            nested = nested || x[i].children().has_value();
            if (!equal(x[i], y[i])) return false;
        }
        if (nested) known_equal_.insert(key);  // only containers of containers can be shared deeply
        return true;
    }

    // the same keys (in any order, as Python) with equal values
    bool dicts_equal(const DictObj& x, const DictObj& y) {
        if (x.size() != y.size()) return false;
        const Pair key{&x, &y};
        if (known_equal_.count(key)) return true;
        stdlib::spend_work(static_cast<int64_t>(x.size()));
        for (size_t i = 0; i < x.size(); ++i) {
            const Value* other = y.find(x.keys()[i]);
            if (!other || !equal(x.values()[i], *other)) return false;
        }
        known_equal_.insert(key);
        return true;
    }

    bool tensors_equal(const Tensor& x, const Tensor& y) {
        if (!(x.shape() == y.shape())) return false;
        stdlib::poll_limits();
        Tensor eq = stdlib::binary(stdlib::BinaryKind::Eq, x, y);
        Tensor in[1] = {eq};
        const stdlib::OpDef& all = stdlib::op_of(stdlib::ReduceKind::All);
        std::vector<Attr> at;
        stdlib::complete_attrs(all, at);
        stdlib::OpContext ctx{&rt_.rng};
        return all.eager(ctx, stdlib::OpArgs{in, at}).item_bool();
    }

    Runtime& rt_;
    std::unordered_set<Pair, PairHash> known_equal_;
};

}  // namespace

bool values_equal(Runtime& rt, const Value& a, const Value& b) {
    // (symbolic values exist only while tracing; has_symbolic walks every path)
    if (rt.trace && (has_symbolic(a) || has_symbolic(b)))
        unsupported_in_graph("== on lists, dicts or strings holding traced values");
    return EqualWalk(rt).equal(a, b);
}

DType dtype_value(const Value& v, std::string_view what) {
    if (v.is(Kind::DType)) return v.dtype();
    if (v.is(Kind::Str)) return dtype_named(v.text(), what);
    throw Error(std::string(what) + " must be a dtype, not " + type_desc(v));
}

}  // namespace tg::interp
