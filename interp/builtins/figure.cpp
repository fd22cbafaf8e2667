#include "interp/builtins/figure.hpp"

#include "interp/error.hpp"
#include "plot/figure.hpp"
#include "stdlib/cast.hpp"

namespace tg::interp {

namespace {

const Value* member(const Value& d, const std::string& key) { return d.dict().find(DictKey::of_str(key)); }

std::string text_of(const Value& d, const std::string& key) {
    const Value* v = member(d, key);
    return v && v->is(Kind::Str) ? v->text() : "";
}

bool flag_of(const Value& d, const std::string& key) {
    const Value* v = member(d, key);
    return v && v->is_tensor() && v->tensor().item_f64() != 0;
}

std::vector<double> values_of(const Value& d, const std::string& key, std::vector<int64_t>* shape = nullptr) {
    const Value* v = member(d, key);
    if (!v || !v->is_tensor()) throw Error("save: the figure's series has no tensor `" + key + "` (make figures with the plot module)");
    stdlib::Tensor t = stdlib::cast(v->tensor(), stdlib::DType::F64).contiguous();
    if (shape) *shape = std::vector<int64_t>(t.shape().begin(), t.shape().end());
    const double* p = t.data<double>();
    return std::vector<double>(p, p + t.numel());
}

plot::Series series_of(const Value& s) {
    if (!s.is(Kind::Dict)) throw Error("save: a figure's series must be dicts (make figures with the plot module)");
    const std::string kind = text_of(s, "kind");
    plot::Series out;
    out.label = text_of(s, "label");
    if (kind == "line" || kind == "scatter") {
        out.kind = kind == "line" ? plot::Series::Kind::Line : plot::Series::Kind::Scatter;
        out.x = values_of(s, "x");
        out.y = values_of(s, "y");
        if (out.x.size() != out.y.size()) throw Error("save: a figure's series has x and y of different lengths");
    } else if (kind == "hist") {
        out.kind = plot::Series::Kind::Hist;
        out.x = values_of(s, "x");
        const Value* bins = member(s, "bins");
        out.bins = bins && bins->is_tensor() ? static_cast<int>(bins->tensor().item_f64()) : 10;
        if (out.bins < 1 || out.x.empty()) throw Error("save: a histogram needs values and at least one bin");
    } else if (kind == "image") {
        out.kind = plot::Series::Kind::Image;
        out.x = values_of(s, "x", &out.shape);
        if ((out.shape.size() != 2 && out.shape.size() != 3) || out.x.empty()) throw Error("save: an image must be 2-D or 3-D and not empty");
    } else {
        throw Error("save: unknown kind of series '" + kind + "' in a figure (make figures with the plot module)");
    }
    return out;
}

}  // namespace

bool is_figure(const Value& v) { return v.is(Kind::Dict) && member(v, "__figure__") != nullptr; }

std::vector<std::byte> figure_bytes(const Value& v, bool svg) {
    if (!is_figure(v))
        throw Error(std::string("save: a .svg or .png file holds a figure of the plot module, not a ") + kind_name(v.kind()));
    plot::Figure fig{text_of(v, "title"), text_of(v, "xlabel"), text_of(v, "ylabel"), flag_of(v, "xlog"), flag_of(v, "ylog"), {}};
    const Value* series = member(v, "series");
    if (!series || !series->is(Kind::List)) throw Error("save: the figure has no list of series (make figures with the plot module)");
    for (const Value& s : series->items()) fig.series.push_back(series_of(s));
    try {
        const std::string bytes = plot::render(fig, svg ? plot::Format::Svg : plot::Format::Png);
        const auto* p = reinterpret_cast<const std::byte*>(bytes.data());
        return std::vector<std::byte>(p, p + bytes.size());
    } catch (const plot::PlotError& e) {
        throw Error(std::string("save: cannot draw the figure: ") + e.what());
    }
}

}  // namespace tg::interp
