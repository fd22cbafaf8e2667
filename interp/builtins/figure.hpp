// Figures of the plot module (modules/plot.tg) — dicts marked "__figure__" —
// drawn into SVG or PNG bytes by plot/ (PLplot): save("loss.svg", fig)
// (files.cpp) and a notebook's display (api/display.cpp).
#pragma once

#include "interp/values/value.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace tg::interp {

bool is_figure(const Value& v);
// The picture of figure `v`; throws Error when `v` is not a figure or cannot
// be drawn (a log axis with a value <= 0...).
std::vector<std::byte> figure_bytes(const Value& v, bool svg);

}  // namespace tg::interp
