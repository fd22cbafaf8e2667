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

// Every documented name, in page order (one entry per name); read from the
// page once per process.
const std::vector<BuiltinDoc>& builtin_docs();
// The entry for `name` (methods too: "x.reshape" looks up "reshape"), or nullptr.
const BuiltinDoc* find_builtin_doc(const std::vector<BuiltinDoc>& docs, std::string_view name);
// What help(name) prints: the signatures, one per line, then the summary.
std::string format_builtin_doc(const BuiltinDoc& d);

// The text of docs/builtins.md (generated: builtin_reference_text.cpp).
std::string_view builtin_reference_text();

}  // namespace tg::interp
