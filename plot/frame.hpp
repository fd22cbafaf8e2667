// The axes of a figure (plot/draw.cpp): the data's ranges in the plotted
// coordinates (log10 of the data on a log axis), checked before PLplot
// draws: PLplot ends the process on some bad input instead of reporting it.
#pragma once

#include "plot/figure.hpp"

namespace tg::plot {

struct Frame {
    double xmin = 0, xmax = 1, ymin = 0, ymax = 1;
    bool image = false;  // an imshow figure: no axes' numbers, the image fills the frame
};

// Throws PlotError for what cannot be drawn.
Frame frame_of(const Figure& fig);
// Draws on PLplot's current stream (render.cpp made it).
void draw(const Figure& fig, const Frame& frame);

// A histogram's counts: `bins` equal bins from min(x) to max(x).
std::vector<double> bin_counts(const std::vector<double>& x, int bins, double lo, double hi);
// The (N, H, W) images of an Image series laid out as a grid of about
// square shape, one pixel of background between them: its width, height
// and values (row 0 at the top; the background NaN).
struct Grid {
    int64_t width = 0, height = 0;
    std::vector<double> values;
};
Grid image_grid(const Series& s);

}  // namespace tg::plot
