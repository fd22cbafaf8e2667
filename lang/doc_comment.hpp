// A function's documentation as tg code writes it (docs/language.md
// "Comments"): the `#` comment lines right above its `def` (and its
// decorators), or else those that open its body. Shown by help(), the
// Jupyter kernel's inspection and the language server's hover.
#pragma once

#include <cstdint>
#include <string>

#include "lang/source.hpp"

namespace tg::lang {

// The comment text (without `#` and one following space), lines joined by
// "\n"; "" when there is none. `def_line`: the line of the `def` keyword.
std::string doc_comment(const Source& source, uint32_t def_line);

}  // namespace tg::lang
