// Helpers for the lang tests: parse a string, and render an expression as a
// fully parenthesized S-expression — written independently of print_ast, so
// the tests check the parser's structure, not the printer.
#pragma once

#include <memory>
#include <string>

#include "lang/ast.hpp"
#include "lang/lexer.hpp"
#include "lang/parser.hpp"

namespace tg::lang::test {

inline ParseResult parse_text(const std::string& text, const std::string& name = "t.tg") {
    return parse(std::make_shared<const Source>(name, text));
}

inline std::vector<Token> lex(const std::string& text) {
    Source s("t.tg", text);
    return tokenize(s).tokens;
}

std::string sexpr(const Expr& e);

// The S-expression of the single expression statement in `text`; "ERROR: msg" on a syntax error.
std::string expr_of(const std::string& text);

// The first error message of `text` ("" when it parses).
std::string first_error(const std::string& text);

}  // namespace tg::lang::test
