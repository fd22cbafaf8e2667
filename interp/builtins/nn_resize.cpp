// interpolate (docs/builtins.md, "Neural networks"): PyTorch's
// F.interpolate for modes "nearest", "linear" (3-d input) and "bilinear"
// (4-d), with its source-index arithmetic in f32 (upsampling's
// area_pixel_compute_source_index and nearest_idx), so the rows and columns
// read are PyTorch's. Separable: each spatial axis is a take of the source
// rows (and, for the linear modes, a blend of two takes with constant
// weights), so it differentiates through take.
#include <cmath>
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/builtins/compose.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "stdlib/cast.hpp"
#include "stdlib/op_table.hpp"

namespace tg::interp {

namespace {

using stdlib::Shape;
using stdlib::Tensor;

const std::string kFn = "interpolate";

// The source positions of one axis: out indices i0 (and i1 with weights
// w0, w1 for the linear modes).
struct AxisMap {
    Tensor i0, i1;
    std::vector<double> w1;
};

AxisMap nearest(int64_t in, int64_t out, double scale_factor) {
    const float scale = scale_factor > 0 ? static_cast<float>(1.0 / scale_factor)
                                         : static_cast<float>(in) / static_cast<float>(out);
    AxisMap m;
    m.i0 = Tensor::empty(stdlib::DType::I64, Shape{out});
    for (int64_t d = 0; d < out; ++d)
        m.i0.data<int64_t>()[d] = std::min(static_cast<int64_t>(std::floor(static_cast<float>(d) * scale)), in - 1);
    return m;
}

AxisMap linear(int64_t in, int64_t out, double scale_factor, bool align_corners) {
    float scale;
    if (align_corners) scale = out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
    else scale = scale_factor > 0 ? static_cast<float>(1.0 / scale_factor) : static_cast<float>(in) / static_cast<float>(out);
    AxisMap m;
    m.i0 = Tensor::empty(stdlib::DType::I64, Shape{out});
    m.i1 = Tensor::empty(stdlib::DType::I64, Shape{out});
    for (int64_t d = 0; d < out; ++d) {
        float src = align_corners ? scale * static_cast<float>(d) : scale * (static_cast<float>(d) + 0.5f) - 0.5f;
        if (src < 0) src = 0;
        const int64_t i0 = std::min(static_cast<int64_t>(src), in - 1);
        const float lambda = std::clamp(src - static_cast<float>(i0), 0.0f, 1.0f);
        m.i0.data<int64_t>()[d] = i0;
        m.i1.data<int64_t>()[d] = i0 + (i0 < in - 1 ? 1 : 0);
        m.w1.push_back(static_cast<double>(lambda));
    }
    return m;
}

// weights (out,) shaped to broadcast along `axis` of a tensor of rank `rank`
Value weights(const std::vector<double>& w, bool complement, int axis, int rank, stdlib::DType d) {
    const int64_t n = static_cast<int64_t>(w.size());
    Shape s{n};
    for (int d = axis + 1; d < rank; ++d) s.push_back(1);
    Tensor t = Tensor::empty(stdlib::DType::F64, s);
    for (int64_t i = 0; i < n; ++i) t.data<double>()[i] = complement ? 1.0 - w[static_cast<size_t>(i)] : w[static_cast<size_t>(i)];
    return Value(stdlib::cast(t, d));
}

struct Request {
    std::vector<int64_t> size;
    std::vector<double> scale;  // 0: not given
    std::string mode = "nearest";
    bool align_corners = false;
};

Request read_request(const std::vector<const Value*>& args, const Shape& xs) {
    Request r;
    const size_t n = static_cast<size_t>(xs.rank() - 2);
    if (is_none(args[1]) == is_none(args[2])) throw Error(kFn + ": give exactly one of size and scale_factor");
    if (!is_none(args[1])) r.size = static_ints(*args[1], kFn + ": argument `size`", n);
    if (!is_none(args[2])) {
        const Value& f = *args[2];
        for (size_t d = 0; d < n; ++d) {
            const Value& v = f.is_sequence() && f.items().size() == n ? f.items()[d] : f;
            r.scale.push_back(static_number(v, kFn + ": argument `scale_factor`"));
            if (!(r.scale.back() > 0)) throw Error(kFn + ": scale_factor must be positive");
            r.size.push_back(static_cast<int64_t>(std::floor(static_cast<double>(xs[static_cast<int>(d) + 2]) * r.scale.back())));
        }
    } else {
        r.scale.assign(n, 0.0);
    }
    for (int64_t s : r.size)
        if (s < 1) throw Error(kFn + ": the output size must be positive, got " + Shape(std::span<const int64_t>(r.size)).to_string());
    if (!is_none(args[3])) {
        auto m = string_arg(*args[3]);
        if (!m) throw Error(kFn + ": argument `mode` must be a string");
        r.mode = *m;
    }
    const bool lin = r.mode == "linear" || r.mode == "bilinear";
    if (r.mode != "nearest" && !lin) throw Error(kFn + ": mode must be \"nearest\", \"linear\" or \"bilinear\", not \"" + r.mode + "\"");
    if ((r.mode == "linear" && n != 1) || (r.mode == "bilinear" && n != 2))
        throw Error(kFn + ": mode \"" + r.mode + "\" needs a " + (r.mode == "linear" ? "3" : "4") + "-d input, got shape " + xs.to_string());
    if (!is_none(args[4])) {
        if (!lin) throw Error(kFn + ": align_corners can only be set with the linear modes");
        r.align_corners = static_bool(*args[4], kFn + ": argument `align_corners`");
    }
    return r;
}

Value interpolate(Runtime& rt, const CallArgs& a) {
    const auto args = bind_args(kFn, a, {"x", "size", "scale_factor", "mode", "align_corners"}, 1);
    Compose c{rt};
    Value x = tensor_operand(*args[0], kFn + ": argument `x`");
    const Shape xs = x.tensor_type().shape;
    if (xs.rank() != 3 && xs.rank() != 4)
        throw Error(kFn + ": input must be 3-d (N, C, L) or 4-d (N, C, H, W), got shape " + xs.to_string());
    const Request r = read_request(args, xs);
    const stdlib::DType wd = stdlib::is_float(x.tensor_type().dtype) ? x.tensor_type().dtype : stdlib::DType::F32;
    for (int axis = 2; axis < xs.rank(); ++axis) {
        const size_t d = static_cast<size_t>(axis - 2);
        if (r.mode == "nearest") {
            x = c.take(x, nearest(xs[axis], r.size[d], r.scale[d]).i0, axis);
            continue;
        }
        const AxisMap m = linear(xs[axis], r.size[d], r.scale[d], r.align_corners);
        x = c.add(c.mul(c.take(x, m.i0, axis), weights(m.w1, true, axis, xs.rank(), wd)),
                  c.mul(c.take(x, m.i1, axis), weights(m.w1, false, axis, xs.rank(), wd)));
    }
    return x;
}

}  // namespace

void add_nn_resize_builtins(std::vector<std::pair<std::string, Value>>& out) {
    out.emplace_back("interpolate",
                     Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{"interpolate", interpolate, nullptr})));
}

}  // namespace tg::interp
