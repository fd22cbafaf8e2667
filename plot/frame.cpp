#include "plot/frame.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tg::plot {

namespace {

struct Range {
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
    void add(double v) {
        if (!std::isfinite(v)) return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    bool empty() const { return lo > hi; }
};

// Its values on a log axis (log10), refusing those <= 0.
double axis_value(double v, bool log, const char* axis) {
    if (!log) return v;
    if (v <= 0) throw PlotError(std::string("a log-scale ") + axis + " axis cannot show " + std::to_string(v) + " (values must be > 0)");
    return std::log10(v);
}

// Widened by 5% (or by 1 when it is a single value) so that points at the
// edge stay visible.
void pad(double& lo, double& hi) {
    if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
        lo -= 1;
        hi += 1;
        return;
    }
    const double m = (hi - lo) * 0.05;
    lo -= m;
    hi += m;
}

}  // namespace

std::vector<double> bin_counts(const std::vector<double>& x, int bins, double lo, double hi) {
    std::vector<double> counts(static_cast<size_t>(bins), 0.0);
    const double width = hi > lo ? (hi - lo) / bins : 1.0;
    for (double v : x) {
        if (!std::isfinite(v)) continue;
        int b = static_cast<int>((v - lo) / width);
        counts[static_cast<size_t>(std::clamp(b, 0, bins - 1))] += 1;
    }
    return counts;
}

Grid image_grid(const Series& s) {
    const bool batch = s.shape.size() == 3;
    const int64_t n = batch ? s.shape[0] : 1, h = s.shape[batch ? 1 : 0], w = s.shape[batch ? 2 : 1];
    const int64_t cols = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(n)))), rows = (n + cols - 1) / cols;
    const int64_t gap = batch ? 1 : 0;
    Grid g{cols * w + (cols - 1) * gap, rows * h + (rows - 1) * gap, {}};
    g.values.assign(static_cast<size_t>(g.width * g.height), std::numeric_limits<double>::quiet_NaN());
    for (int64_t k = 0; k < n; ++k)
        for (int64_t r = 0; r < h; ++r)
            for (int64_t c = 0; c < w; ++c) {
                const int64_t gy = (k / cols) * (h + gap) + r, gx = (k % cols) * (w + gap) + c;
                g.values[static_cast<size_t>(gy * g.width + gx)] = s.x[static_cast<size_t>((k * h + r) * w + c)];
            }
    return g;
}

Frame frame_of(const Figure& fig) {
    if (fig.series.empty()) throw PlotError("the figure has nothing to draw");
    Frame f;
    Range xs, ys;
    for (const Series& s : fig.series) {
        if (s.kind == Series::Kind::Image) {
            const Grid g = image_grid(s);
            f.image = true;
            xs.add(0), xs.add(static_cast<double>(g.width)), ys.add(0), ys.add(static_cast<double>(g.height));
            continue;
        }
        if (s.kind == Series::Kind::Hist) {
            Range r;
            for (double v : s.x) r.add(v);
            if (r.empty()) throw PlotError("plot.hist: no finite value to count");
            const std::vector<double> counts = bin_counts(s.x, s.bins, r.lo, r.hi);
            xs.add(r.lo), xs.add(r.hi + (r.hi > r.lo ? 0 : 1)), ys.add(0), ys.add(*std::max_element(counts.begin(), counts.end()));
            continue;
        }
        for (size_t i = 0; i < s.x.size(); ++i) {
            xs.add(axis_value(s.x[i], fig.xlog, "x"));
            ys.add(axis_value(s.y[i], fig.ylog, "y"));
        }
    }
    if (xs.empty() || ys.empty()) throw PlotError("the figure has no finite value to draw");
    f.xmin = xs.lo, f.xmax = xs.hi, f.ymin = ys.lo, f.ymax = ys.hi;
    if (!f.image) pad(f.xmin, f.xmax), pad(f.ymin, f.ymax);
    return f;
}

}  // namespace tg::plot
