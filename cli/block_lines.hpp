// When a block of typed or pasted lines ends — one rule for the REPL
// (cli/repl.cpp) and the Jupyter kernel's is_complete
// (cli/kernel/cell_text.cpp); docs/repl.md "Multi-line input".
//
// A block (a line ending in `:`, then its indented lines) ends at an empty
// line; but empty lines inside a pasted block do not end it: when what
// follows them is indented, it is still the block's. The kernel sees the
// whole cell, the REPL looks at the next line when one is already waiting
// (pasted or piped input).
#pragma once

#include <string_view>

namespace tg::cli {

// Only spaces, tabs and a carriage return.
inline bool is_blank_line(std::string_view line) {
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// A line that is not blank and starts with a space or a tab: after empty
// lines inside a block, it continues the block.
inline bool is_indented_line(std::string_view line) {
    return !is_blank_line(line) && (line.front() == ' ' || line.front() == '\t');
}

// A line that opens a block: its last character that is not blank is `:`.
inline bool opens_block(std::string_view line) {
    size_t end = line.find_last_not_of(" \t\r");
    return end != std::string_view::npos && line[end] == ':';
}

}  // namespace tg::cli
