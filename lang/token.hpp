// Tokens of tg source (docs/language.md), as the lexer (lang/lexer.hpp) produces them
// and the grammar (lang/grammar.cpp, Spirit X3 over `const Token*`) consumes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lang/source.hpp"

namespace tg::lang {

enum class Tok : uint8_t {
    // Layout: the indentation pre-pass turns lines into these (docs/language.md).
    Newline, Indent, Dedent, End,
    // A malformed token; its `text` is the message to report.
    Error,
    // Atoms.
    Name, Int, Float, Str, FStr,
    // Keywords.
    Def, Return, If, Elif, Else, While, For, In, Is, Break, Continue, Pass,
    And, Or, Not, True, False, None, Assert, Import, As, Lambda,
    // Brackets and punctuation.
    LParen, RParen, LBracket, RBracket, LBrace, RBrace,
    Comma, Colon, Semicolon, Dot, Ellipsis, At, Assign,
    // Operators.
    Plus, Minus, Star, Slash, DoubleSlash, Percent, DoubleStar, Amp, Pipe, Caret, Tilde, LShift, RShift,
    Eq, Ne, Lt, Le, Gt, Ge,
    // `not in` and `is not`: the lexer joins the two words into one token.
    NotIn, IsNot,
    // Augmented assignments: `+=` ... (`@=` is AtAssign).
    PlusAssign, MinusAssign, StarAssign, SlashAssign, DoubleSlashAssign, PercentAssign,
    DoubleStarAssign, AtAssign, AmpAssign, PipeAssign, CaretAssign, LShiftAssign, RShiftAssign,
};

// How a token kind is named in "expected X, found Y" messages: "':'", "end of line".
const char* describe(Tok kind);

// One piece of an f-string, split by the lexer. Offsets index the source text,
// so the parser can lex a replacement field in place and keep its locations.
struct FStrPiece {
    bool is_field = false;
    std::string text;              // literal text (escapes and {{ }} decoded), when !is_field
    size_t expr_begin = 0;         // the field's expression, [expr_begin, expr_end)
    size_t expr_end = 0;
    Loc expr_loc;                  // where expr_begin is
    char conversion = 0;           // 'r' or 's' for {x!r} / {x!s}, else 0
    std::string spec;              // the format spec after ':', e.g. ".4f"
};

struct Token {
    Tok kind = Tok::End;
    Loc loc;                       // where the token starts
    size_t begin = 0, end = 0;     // byte offsets of the token's text in the source
    std::string text;              // Name: the identifier; Str: the decoded value; Error: the message
    int64_t int_value = 0;         // Int
    double float_value = 0.0;      // Float
    bool at_eof = false;           // Error: the input ended too early (the REPL asks for more)
    std::vector<FStrPiece> pieces; // FStr
};

}  // namespace tg::lang
