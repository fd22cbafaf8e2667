// The lexer: source text -> tokens, including the indentation pre-pass that
// turns leading whitespace into Indent/Dedent and line ends into Newline
// (docs/language.md). Inside (), [], {} newlines are ignored (implicit line joining),
// and a backslash at the end of a line joins it with the next.
//
// The lexer never fails: a malformed token becomes a Tok::Error token whose
// text is the message, so the parser reports it in source order with the
// other syntax errors and recovers at the next statement.
#pragma once

#include <optional>
#include <vector>

#include "lang/source.hpp"
#include "lang/token.hpp"

namespace tg::lang {

// A bracket still open when the input ended.
struct UnclosedBracket {
    char bracket;   // '(', '[' or '{'
    Loc loc;
    size_t offset;
};

struct LexResult {
    std::vector<Token> tokens;              // always ends with Tok::End
    std::optional<UnclosedBracket> unclosed; // the outermost bracket never closed, if any
};

// Maximum depth of nested blocks, as in CPython; deeper indentation is an error.
inline constexpr size_t kMaxIndentLevels = 100;

// A whole file (or one REPL input), with layout tokens.
LexResult tokenize(const Source& source);

// The text [begin, end) of `source` as one expression: no layout tokens, newlines
// ignored. Used for the replacement fields of f-strings, so their tokens keep
// their real locations. `begin_loc`, when known, saves finding it again.
LexResult tokenize_fragment(const Source& source, size_t begin, size_t end, std::optional<Loc> begin_loc = {});

}  // namespace tg::lang
