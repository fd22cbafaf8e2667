// Drawing a checked figure on PLplot's current stream (render.cpp).
#include "plot/frame.hpp"

#include "plot/plplot.hpp"

#include <algorithm>
#include <cmath>

namespace tg::plot {

namespace {

// matplotlib's "tab10" colours, for series 1, 2, ... (cmap0 entries 1-10)
const int kPalette[10][3] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},  {148, 103, 189},
                             {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
constexpr int kBlack = 15;

std::vector<double> on_axis(const std::vector<double>& v, bool log) {
    std::vector<double> out(v);
    if (log)
        for (double& x : out) x = std::log10(x);
    return out;
}

void draw_image(const Series& s) {
    const Grid g = image_grid(s);
    double lo = INFINITY, hi = -INFINITY;
    for (double v : g.values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!(lo < hi)) hi = lo + 1;
    // PLplot's image is x-major with y upwards; row 0 of the grid is drawn at the top
    std::vector<std::vector<double>> columns(static_cast<size_t>(g.width), std::vector<double>(static_cast<size_t>(g.height)));
    std::vector<const double*> rows(static_cast<size_t>(g.width));
    for (int64_t x = 0; x < g.width; ++x) {
        for (int64_t y = 0; y < g.height; ++y) {
            const double v = g.values[static_cast<size_t>((g.height - 1 - y) * g.width + x)];
            columns[size_t(x)][size_t(y)] = std::isfinite(v) ? v : hi;  // the gaps between images: white
        }
        rows[size_t(x)] = columns[size_t(x)].data();
    }
    std::vector<PLINT> gray(256);
    for (int i = 0; i < 256; ++i) gray[size_t(i)] = i;  // black (min) to white (max), as matplotlib's "gray"
    plplot().plscmap1n(256);
    plplot().plscmap1(gray.data(), gray.data(), gray.data(), 256);
    plplot().plimage(const_cast<const double* const*>(rows.data()), static_cast<PLINT>(g.width), static_cast<PLINT>(g.height), 0,
            static_cast<double>(g.width), 0, static_cast<double>(g.height), lo, hi, 0, static_cast<double>(g.width), 0,
            static_cast<double>(g.height));
}

void draw_series(const Figure& fig, const Series& s, int color) {
    plplot().plcol0(color);
    plplot().plwidth(2);
    if (s.kind == Series::Kind::Image) return draw_image(s);
    if (s.kind == Series::Kind::Hist) {
        const double lo = *std::min_element(s.x.begin(), s.x.end()), hi = *std::max_element(s.x.begin(), s.x.end());
        std::vector<double> counts = bin_counts(s.x, s.bins, lo, hi), edges(counts.size());
        const double width = hi > lo ? (hi - lo) / s.bins : 1.0;
        for (size_t i = 0; i < edges.size(); ++i) edges[i] = lo + width * static_cast<double>(i);
        plplot().plbin(static_cast<PLINT>(counts.size()), edges.data(), counts.data(), PL_BIN_NOEXPAND);
        return;
    }
    const std::vector<double> x = on_axis(s.x, fig.xlog), y = on_axis(s.y, fig.ylog);
    if (s.kind == Series::Kind::Line) plplot().plline(static_cast<PLINT>(x.size()), x.data(), y.data());
    else plplot().plpoin(static_cast<PLINT>(x.size()), x.data(), y.data(), 17);
}

void draw_legend(const Figure& fig) {
    std::vector<PLINT> opts, colors, styles, symbol_numbers;
    std::vector<double> widths, scales;
    std::vector<const char*> texts, symbols;
    for (size_t i = 0; i < fig.series.size(); ++i) {
        const Series& s = fig.series[i];
        if (s.label.empty()) continue;
        const bool points = s.kind == Series::Kind::Scatter;
        opts.push_back(points ? PL_LEGEND_SYMBOL : PL_LEGEND_LINE);
        colors.push_back(1 + static_cast<PLINT>(i % 10));
        styles.push_back(1), widths.push_back(2), scales.push_back(1), symbol_numbers.push_back(3);
        texts.push_back(s.label.c_str());
        symbols.push_back("#(728)");  // a filled circle in PLplot's Hershey symbols
    }
    if (texts.empty()) return;
    const PLINT n = static_cast<PLINT>(texts.size());
    std::vector<PLINT> text_colors(texts.size(), kBlack);
    double width = 0, height = 0;
    plplot().plcol0(kBlack);
    plplot().pllegend(&width, &height, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX, PL_POSITION_TOP | PL_POSITION_RIGHT | PL_POSITION_INSIDE,
             0.02, 0.02, 0.08, 0, kBlack, 1, 0, 0, n, opts.data(), 1.0, 0.9, 2.0, 0.0, text_colors.data(), texts.data(),
             nullptr, nullptr, nullptr, nullptr, colors.data(), styles.data(), widths.data(), colors.data(), scales.data(),
             symbol_numbers.data(), symbols.data());
}

}  // namespace

void draw(const Figure& fig, const Frame& frame) {
    for (int i = 0; i < 10; ++i) plplot().plscol0(1 + i, kPalette[i][0], kPalette[i][1], kPalette[i][2]);
    plplot().plscol0(0, 255, 255, 255);  // the legend's background
    plplot().pladv(0);
    plplot().plvpor(0.1, 0.95, 0.12, 0.9);
    if (frame.image) plplot().plvpas(0.05, 0.95, 0.05, 0.9, static_cast<double>(frame.ymax) / frame.xmax);
    plplot().plwind(frame.xmin, frame.xmax, frame.ymin, frame.ymax);
    plplot().plcol0(kBlack);
    plplot().plwidth(1);
    if (frame.image) plplot().plbox("bc", 0, 0, "bc", 0, 0);
    else plplot().plbox(fig.xlog ? "bclnst" : "bcnst", 0, 0, fig.ylog ? "bclnstv" : "bcnstv", 0, 0);
    plplot().pllab(fig.xlabel.c_str(), fig.ylabel.c_str(), fig.title.c_str());
    for (size_t i = 0; i < fig.series.size(); ++i) draw_series(fig, fig.series[i], 1 + static_cast<int>(i % 10));
    draw_legend(fig);
}

}  // namespace tg::plot
