// The recursive-descent parser behind lang::parse (private to lang/).
//
// Statements are parsed in parse_stmt.cpp, expressions (a precedence-climbing
// loop over the binary operators) and f-strings in parse_expr.cpp, errors and
// recovery in parser.cpp. Each parse function starts with its grammar rule.
//
// Errors: `fail` records a SyntaxError and throws Bail; the statement loop of
// the innermost block catches it and skips to the next statement (and the
// indented block of a broken header), so one pass reports every broken
// statement without cascades.
#pragma once

#include <optional>
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

class Parser {
public:
    Parser(SourcePtr source, std::vector<SyntaxError>& errors);
    void parse_module(Module& module);

private:
    struct Bail {};  // abandons the current statement after an error was recorded

    // Counts one level of recursion (and of tree depth) while alive.
    class Nest {
    public:
        explicit Nest(Parser& p);
        ~Nest();
        Nest(const Nest&) = delete;
        Nest& operator=(const Nest&) = delete;
    private:
        Parser& p_;
        int tree_;
    };

    // ---- tokens (parser.cpp)
    const Token& cur() const { return (*toks_)[pos_]; }
    const Token& peek(size_t n = 1) const;
    bool at(Tok k) const { return cur().kind == k; }
    const Token& advance();
    bool accept(Tok k);
    bool in_fstring_field() const { return toks_ != &lexed_.tokens; }
    const Token& expect(Tok k, const char* what = nullptr);  // what: e.g. "':' after the condition"

    // ---- errors and recovery (parser.cpp)
    [[noreturn]] void fail(const Token& at, std::string message);
    [[noreturn]] void fail_at(Loc loc, size_t offset, std::string message);
    [[noreturn]] void fail_expected(const char* what);
    void record(const Token& at, std::string message);
    std::string found(const Token& t) const;
    std::string unclosed_message() const;
    void synchronize();
    void skip_block();
    void grow_tree();

    // ---- statements (parse_stmt.cpp)
    void parse_statements_until_dedent(Block& out);
    void parse_statement(Block& out);
    void parse_simple_line(Block& out);
    StmtPtr parse_simple_statement();
    StmtPtr parse_expression_statement();
    StmtPtr parse_return();
    StmtPtr parse_assert();
    void parse_import(Block& out);
    StmtPtr parse_if();
    StmtPtr parse_while();
    StmtPtr parse_for();
    StmtPtr parse_decorated();
    StmtPtr parse_def(std::vector<ExprPtr> decorators);
    Block parse_suite(const Token& header);
    void expect_condition_colon();
    std::vector<Param> parse_params(Tok closer);
    void reject_loop_else(const Token& loop);
    void check_target(const Expr& e, bool allow_index, bool allow_tuple);

    // ---- expressions (parse_expr.cpp)
    ExprPtr parse_testlist();
    ExprPtr parse_test();
    ExprPtr parse_or_test();
    ExprPtr parse_and_test();
    ExprPtr parse_not_test();
    ExprPtr parse_comparison();
    ExprPtr parse_binary(int min_prec);
    ExprPtr parse_unary();
    ExprPtr parse_power();
    ExprPtr parse_postfix();
    ExprPtr parse_atom();
    ExprPtr parse_lambda();
    ExprPtr parse_paren();
    ExprPtr parse_list();
    ExprPtr parse_comprehension(ExprPtr elt, Loc bracket);
    ExprPtr parse_target_list();
    ExprPtr parse_call(ExprPtr callee);
    ExprPtr parse_index(ExprPtr value);
    ExprPtr parse_subscript();
    ExprPtr parse_strings();
    void append_fstring(FString& out, const Token& t);
    ExprPtr parse_fstring_field(const FStrPiece& piece);

    SourcePtr source_;
    std::vector<SyntaxError>& errors_;
    LexResult lexed_;
    const std::vector<Token>* toks_;
    size_t pos_ = 0;
    bool unclosed_reported_ = false;
    int nest_ = 0;
    int tree_ = 0;
    int loop_depth_ = 0;
    int function_depth_ = 0;
};

// Where an expression starts in the source (its leftmost token), for messages
// about the whole expression.
Loc start_loc(const Expr& e);

}  // namespace tg::lang::detail
