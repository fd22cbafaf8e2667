// The problems the language server shows as you type (docs/editors.md
// "Diagnostics"), found without running the file: syntax errors, names
// defined nowhere, calls that do not fit their callee, imports that find no
// module, shape errors the op table's rules find with every operand known;
// calls inside a `@graph` function the tracer runs eagerly or refuses, as
// warnings; unused variables and imports as hints. Messages are worded as `tg run`
// and `tg check` word them.
#pragma once

#include <string>
#include <vector>

#include "lsp/workspace.hpp"

namespace tg::lsp {

enum class Severity : uint8_t { Error = 1, Warning = 2, Information = 3, Hint = 4 };

struct Problem {
    lang::Loc start, end;  // end: one past the last character
    Severity severity = Severity::Error;
    std::string message;
    bool unnecessary = false;  // unused: editors fade the text
};

std::vector<Problem> diagnose(const Index& ix, Workspace& ws);

class Types;

// Calls of builtins, of functions of the file and of imported modules, and of
// methods, that do not fit what the callee takes (lsp/call_checks.cpp).
void call_problems(const Index& ix, Workspace& ws, Types& types, std::vector<Problem>& out);

// Calls inside `@graph` functions that run eagerly or stop the run
// (lsp/graph_limits.cpp): `seed`, `breakpoint`, `time`, `isatty`, and
// `tensor([...])` of the function's traced values.
void graph_limits(const Index& ix, std::vector<Problem>& out);

}  // namespace tg::lsp
