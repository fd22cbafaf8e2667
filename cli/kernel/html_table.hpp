// A tensor as an HTML table for a notebook (docs/notebooks.md "Display"): 1-D
// as one row, 2-D as rows and columns, with index headers; past NumPy's
// threshold (1000 elements) only the first and last 3 of each dimension,
// with "…" between, as NumPy prints. A caption gives shape and dtype and,
// past 10 elements, min, max and mean.
#pragma once

#include <tg/tg.hpp>

#include <string>

namespace tg::kernel {

// "" for a tensor of rank 0 or above 2 (its text/plain says enough)
std::string tensor_html(const Tensor& t);
// `s` with & < > " escaped
std::string html_escape(std::string_view s);

}  // namespace tg::kernel
