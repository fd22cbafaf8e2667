// Numeric text tables for loadtxt (docs/language.md "Files"), as NumPy 1.24's
// np.loadtxt reads them: one row per line, values separated by a delimiter
// (or by runs of whitespace), `#` starts a comment, blank lines are skipped,
// the first `skiprows` lines (comments included) are skipped, and every row
// must have as many values as the first. The result is squeezed as NumPy's
// (ndmin=0): one row or one column gives a 1-d tensor, one value a 0-d one,
// no rows the empty (0,) tensor.
//
// Decisions where NumPy differs or is silent: an integer dtype takes only
// integers ("1.5" is an error, where NumPy 1.24 parses it via float with a
// DeprecationWarning); bool takes integers (nonzero is True), as NumPy does.
// Floats are parsed as f64 and rounded to f32 when asked (NumPy does the same).
#pragma once

#include <optional>
#include <string_view>

#include "stdlib/tensor.hpp"

namespace tg::stdlib {

struct TextTableOptions {
    std::optional<char> delimiter = ',';  // nullopt: runs of whitespace
    int64_t skiprows = 0;
    DType dtype = DType::F32;
};

// Parses `text`; throws FileError("line 3: ...") naming the line (counted
// from 1 in the file, skipped lines included) and the value at fault.
Tensor parse_text_table(std::string_view text, const TextTableOptions& options);

}  // namespace tg::stdlib
