// The one renderer of errors that every part of tg uses (docs/language.md "Errors"):
//
//   net.tg:12:16: error: matmul: shapes (2, 3) and (4, 5) are not aligned: ...
//      12 |     h = relu(x @ w1 + b1)
//         |                ^
//     in layer (net.tg:12:16)
//
#pragma once

#include <string>
#include <vector>

#include "lang/source.hpp"

namespace tg::lang {

struct Diagnostic {
    std::string message;            // without "error: "
    SourcePtr source;               // may be null (no location known)
    Loc loc;
    std::vector<std::string> notes; // extra lines printed after the caret, verbatim ("  in f (a.tg:3:5)")
};

// "file:line:col: error: message\n   12 | text\n      |    ^\n" + notes, one per line.
std::string render(const Diagnostic& d);

// `text` with control characters (C0 but tab, DEL, C1) written as escapes
// (`\x1b`, `\u009b`); newlines too unless `keep_newlines`.
std::string escape_controls(std::string_view text, bool keep_newlines);

// "file:line:col" (or just "file" when the location is unknown).
std::string format_location(const Source* source, Loc loc);

}  // namespace tg::lang
