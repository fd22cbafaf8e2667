// The builtin reference (docs/builtins.md), compiled into tg so that
// `help(name)`, the REPL, the Jupyter kernel's inspection and the language
// server's hover show the same line the reference has: what a builtin
// takes and computes. The page is parsed as it is written: every table row
// whose first cell holds backquoted signatures (`name(params)` or `name`)
// documents each name it spells; the second cell is the line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tg::interp {

struct BuiltinDoc {
    std::string name;
    std::vector<std::string> signatures;  // as written: `range(stop)`, `range(start, stop, step=1)`
    std::string summary;                  // the row's second cell (a name in several rows: joined by " / ")
    std::string section;                  // the page's "## " heading the first row is under
};

// Every documented name, in page order (one entry per name). A name's
// signatures are its distinct forms: a signature that another one of the
// name widens is left out (the table's `pad(x, widths, value=0)` beside
// `pad(x, widths, value=0, mode="constant", constant_values=None)`), and
// `argsort(...)` in a row takes the parameters of the signature before it.
// Read from the page once per process.
const std::vector<BuiltinDoc>& builtin_docs();
// The parameters of "a, b=(1, 2), sep=\",\"" (a signature's text between its
// parentheses): split at commas outside brackets and quotes, trimmed.
std::vector<std::string_view> split_params(std::string_view s);
// Whether signature `wide` takes every call `narrow` takes: the same name,
// narrow's parameters the first of wide's (a bare `*` aside), and no more of
// them required (`clip(x, lo=None, hi=None)` widens `clip(x, lo, hi)`).
bool widens(std::string_view wide, std::string_view narrow);
// The entry for `name` (methods too: "x.reshape" looks up "reshape"), or nullptr.
const BuiltinDoc* find_builtin_doc(const std::vector<BuiltinDoc>& docs, std::string_view name);
// What help(name) prints: the signatures, one per line, then the summary.
std::string format_builtin_doc(const BuiltinDoc& d);

// The text of docs/builtins.md (generated: builtin_reference_text.cpp).
std::string_view builtin_reference_text();

}  // namespace tg::interp
