// Parsing tg source into an AST (lang/ast.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lang/ast.hpp"
#include "lang/diagnostics.hpp"

namespace tg::lang {

struct SyntaxError {
    Loc loc;
    std::string message;       // e.g. "expected ':'", "unclosed '(' opened at 3:9"
    bool unexpected_eof = false; // the input ended while a statement was still open:
                                 // the REPL asks for a continuation line
};

struct ParseResult {
    std::unique_ptr<Module> module;   // always non-null; holds what parsed when there are errors
    std::vector<SyntaxError> errors;  // every error, in source order; recovery is per statement
    bool ok() const { return errors.empty(); }
};

// Parse a whole file (or one REPL input). Never throws, never crashes, for any input.
// After a syntax error the parser skips to the next statement, so `errors` holds
// one error per broken statement. Nesting is bounded (lang/README.md, "Limits"):
// deeper input is a syntax error, so later passes may walk the AST recursively.
// `unexpected_eof` is set when the input ended inside an open block, an unclosed
// bracket or after a trailing '\': the REPL then reads another line.
ParseResult parse(SourcePtr source);

// Render a syntax error with the shared diagnostics renderer.
Diagnostic to_diagnostic(const SyntaxError& e, const SourcePtr& source);

// The AST printer behind `tg check --ast FILE`: one node per line, indented,
// with locations — deterministic, used by the parser's golden tests.
std::string print_ast(const Module& module);
std::string print_ast(const Expr& expr);

}  // namespace tg::lang
