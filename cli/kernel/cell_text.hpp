// Text questions the Jupyter kernel answers about a cell (docs/notebooks.md):
// whether it is complete, where the word at the cursor is, and the
// conversion between Jupyter's cursor positions (Unicode code points) and
// the byte offsets tg's engine uses.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tg::kernel {

// "complete", "incomplete" or "invalid", as the is_complete reply says. A
// block (a line ending in `:` or an indented last line) needs an empty line
// to end, as in the REPL; empty lines inside a pasted block do not end it:
// the whole text is parsed.
std::string completeness(std::string_view code);

// Byte offset of code point `cursor` (clamped to the end), and the reverse.
size_t byte_offset(std::string_view code, size_t cursor);
size_t code_points(std::string_view code, size_t bytes);

// The dotted name around byte `at` ("x.reshape", "nn.linear"), for inspect;
// "" when the cursor is on no name. A name followed by `(` under the cursor
// is found too: `relu(|x)` inspects `relu`.
std::string name_at(std::string_view code, size_t at);

}  // namespace tg::kernel
