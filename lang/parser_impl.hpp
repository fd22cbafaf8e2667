// The parser behind lang::parse (private to lang/): a Boost.Spirit X3 grammar
// over the lexer's tokens.
//
// - lang/lexer.cpp turns the text into tokens, with the indentation pre-pass
//   (Indent / Dedent / Newline), so the grammar is an ordinary one.
// - lang/grammar.cpp (the only translation unit that includes Spirit) holds
//   the grammar: one X3 rule per grammar rule of docs/language.md, over `const Token*`
//   iterators, with a primitive parser per token kind; semantic actions build
//   the AST of lang/ast.hpp.
// - This header and lang/parser.cpp hold what the grammar's actions share and
//   that needs no Spirit: the parse state (limits, loop/function context,
//   the error list) and the error messages and recovery.
//
// Errors: an expectation point (`x3::expect[p]`, the `>` of X3; spelled
// as the directive because `a > b >> c` groups as `a > (b >> c)` in C++)
// that fails throws
// x3::expectation_failure, whose `which` is what was expected ("':' after
// the condition"); the handler of the statement rules turns it into
// "expected ':' after the condition, found end of line". Errors with their
// own message are recorded first and thrown with an empty `which`. The
// statement rules (and the one-line suite of a compound statement) catch the
// failure, skip to the next statement (and the indented block of a broken
// header), and parse on, so one pass reports every broken statement without
// cascades.
#pragma once

#include <string>
#include <vector>

#include "lang/ast.hpp"
#include "lang/lexer.hpp"
#include "lang/parser.hpp"
#include "lang/token.hpp"

namespace tg::lang::detail {

// Nesting limits, so that no input overflows the stack of the parser or of the
// passes that walk the AST recursively (evaluator, printer, destructors).
inline constexpr int kMaxNesting = 200;     // brackets, unary operators, lambdas, ... (recursion)
inline constexpr int kMaxTreeDepth = 1000;  // depth of one expression tree, operator chains included
inline constexpr int kMaxElifs = 1000;

// Everything the grammar's semantic actions share during one parse.
struct ParseState {
    ParseState(SourcePtr source, std::vector<SyntaxError>& errors);

    SourcePtr source;
    std::vector<SyntaxError>& errors;
    LexResult lexed;
    bool unclosed_reported = false;
    int nest = 0;            // recursion depth of the expression grammar
    int tree = 0;            // depth of the expression tree being built
    int loop_depth = 0;      // loops around the current statement, inside its function
    int function_depth = 0;
    int fstring_field = 0;   // > 0 while parsing an f-string's replacement field
    const Token* header = nullptr;  // keyword of the compound statement whose suite comes next
    const Token* import_keyword = nullptr;  // the 'import' of the import statement being parsed
    const char* stack_floor = nullptr;  // expression nesting also stops before the stack gets this low

    bool in_fstring_field() const { return fstring_field > 0; }

    // How a token is named after "found": "name 'x'", "integer 2", "end of line".
    std::string found(const Token& t) const;
    // Records a syntax error at `at` (a Tok::Error token brings its own message).
    void record(const Token& at, std::string message);
    void record_at(Loc loc, std::string message);
    std::string unclosed_message() const;  // "'(' was never closed"
    // After the module: the error of a bracket never closed, if not reported yet.
    void finish();
    // "expected WHAT, found ..." at `at`.
    void record_expected(const Token& at, const std::string& what);

    // After an error at `from`: skip the rest of the logical line, and the
    // indented block that follows it (it belonged to the broken header).
    const Token* synchronize(const Token* from) const;
    // From an Indent, past its matching Dedent.
    const Token* skip_block(const Token* from) const;

    // Assignment targets: a name, an index, or a tuple/list of targets. Returns
    // false after recording "cannot assign to ..." at the offending target.
    bool check_target(const Expr& e, bool allow_index, bool allow_tuple);
};

// Parses the module's statements (lang/grammar.cpp).
void parse_module(ParseState& state, Module& module);

// Where an expression starts in the source (its leftmost token), for messages
// about the whole expression.
Loc start_loc(const Expr& e);

}  // namespace tg::lang::detail
