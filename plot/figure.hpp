// A figure of the plot module (modules/plot.tg, docs/notebooks.md "Plots") as
// plain data, and its rendering by PLplot into SVG or PNG bytes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tg::plot {

struct Series {
    enum class Kind { Line, Scatter, Hist, Image } kind = Kind::Line;
    std::vector<double> x, y;  // Line, Scatter: the points; Hist: x the values
    int bins = 10;             // Hist
    std::vector<int64_t> shape;  // Image: (H, W) or (N, H, W), its values in x
    std::string label;
};

struct Figure {
    std::string title, xlabel, ylabel;
    bool xlog = false, ylog = false;
    std::vector<Series> series;
};

// A figure PLplot cannot draw (log scale of a value <= 0, no finite value...).
struct PlotError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class Format { Svg, Png };
// The figure drawn on a 720 x 480 page. Throws PlotError. Safe from any
// thread: PLplot's state is global (one current stream), so each figure is
// drawn on a stream of its own (plmkstrm), under a lock, and the caller's
// stream is restored after.
std::string render(const Figure& fig, Format format);

}  // namespace tg::plot
