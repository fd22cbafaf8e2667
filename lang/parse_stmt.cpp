// Statements (SPEC §3). Each function starts with its grammar rule.
#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "lang/parser_impl.hpp"

namespace tg::lang::detail {

namespace {

// Python statements tg does not have, recognised to say so plainly.
constexpr std::string_view kPythonOnly[] = {
    "from", "global", "nonlocal", "class", "try", "except", "finally", "with", "raise",
    "del", "yield", "async", "await",
};

std::optional<BinOp> aug_op(Tok k) {
    switch (k) {
        case Tok::PlusAssign: return BinOp::Add;
        case Tok::MinusAssign: return BinOp::Sub;
        case Tok::StarAssign: return BinOp::Mul;
        case Tok::SlashAssign: return BinOp::Div;
        case Tok::DoubleSlashAssign: return BinOp::FloorDiv;
        case Tok::PercentAssign: return BinOp::Mod;
        case Tok::DoubleStarAssign: return BinOp::Pow;
        case Tok::AtAssign: return BinOp::MatMul;
        case Tok::AmpAssign: return BinOp::BitAnd;
        case Tok::PipeAssign: return BinOp::BitOr;
        case Tok::CaretAssign: return BinOp::BitXor;
        default: return std::nullopt;
    }
}

// Adds `by` to a counter for the life of the guard (also when a Bail unwinds).
class Bump {
public:
    Bump(int& counter, int by) : counter_(counter), by_(by) { counter_ += by_; }
    ~Bump() { counter_ -= by_; }
    Bump(const Bump&) = delete;
    Bump& operator=(const Bump&) = delete;
private:
    int& counter_;
    int by_;
};

bool starts_compound(Tok k) {
    return k == Tok::If || k == Tok::While || k == Tok::For || k == Tok::Def || k == Tok::At ||
           k == Tok::Elif || k == Tok::Else;
}

}  // namespace

// block_body: statement* (until Dedent or End)
void Parser::parse_statements_until_dedent(Block& out) {
    while (!at(Tok::Dedent) && !at(Tok::End)) parse_statement(out);
}

// statement: compound_stmt | simple_line
// One statement, with recovery: after an error, skip to the next one.
void Parser::parse_statement(Block& out) {
    try {
        switch (cur().kind) {
            case Tok::If: out.push_back(parse_if()); return;
            case Tok::While: out.push_back(parse_while()); return;
            case Tok::For: out.push_back(parse_for()); return;
            case Tok::Def: out.push_back(parse_def({})); return;
            case Tok::At: out.push_back(parse_decorated()); return;
            case Tok::Indent:
                // A bad indentation token (a tab...) says more than "unexpected indent".
                record(peek().kind == Tok::Error ? peek() : cur(), "unexpected indent");
                skip_block();
                return;
            case Tok::Elif: case Tok::Else:
                fail(cur(), std::string(describe(cur().kind)) + " without a matching 'if' (check the indentation)");
            default: parse_simple_line(out); return;
        }
    } catch (const Bail&) {
        synchronize();
    }
}

// simple_line: simple_stmt (';' simple_stmt)* [';'] NEWLINE
void Parser::parse_simple_line(Block& out) {
    while (true) {
        if (at(Tok::Import)) parse_import(out);
        else out.push_back(parse_simple_statement());
        if (!accept(Tok::Semicolon)) break;
        if (at(Tok::Newline) || at(Tok::End)) break;
    }
    if (at(Tok::End)) return;
    expect(Tok::Newline, "end of line");
}

// simple_stmt: pass | break | continue | return_stmt | assert_stmt | expr_stmt
StmtPtr Parser::parse_simple_statement() {
    const Token& t = cur();
    switch (t.kind) {
        case Tok::Pass: advance(); return std::make_unique<Pass>(t.loc);
        case Tok::Break:
            if (loop_depth_ == 0) record(t, "'break' outside a loop");
            advance();
            return std::make_unique<Break>(t.loc);
        case Tok::Continue:
            if (loop_depth_ == 0) record(t, "'continue' outside a loop");
            advance();
            return std::make_unique<Continue>(t.loc);
        case Tok::Return: return parse_return();
        case Tok::Assert: return parse_assert();
        default: break;
    }
    if (starts_compound(t.kind))
        fail(t, std::string("a compound statement (") + describe(t.kind) + ") must start on its own line");
    if (t.kind == Tok::Name) {
        const Token& next = peek();
        bool looks_like_stmt = next.kind == Tok::Name || next.kind == Tok::Colon || next.kind == Tok::Str;
        if (looks_like_stmt && std::find(std::begin(kPythonOnly), std::end(kPythonOnly), t.text) != std::end(kPythonOnly)) {
            if (t.text == "from") fail(t, "'from ... import' is not supported: use 'import module' and 'module.name'");
            if (t.text == "global" || t.text == "nonlocal")
                fail(t, "'" + t.text + "' is not supported: a function cannot assign to variables outside itself");
            fail(t, "'" + t.text + "' statements are not supported in tg");
        }
    }
    return parse_expression_statement();
}

// expr_stmt: testlist ('=' testlist)* | target augop testlist
StmtPtr Parser::parse_expression_statement() {
    Loc start = cur().loc;
    ExprPtr first = parse_testlist();
    if (at(Tok::Assign)) {
        auto s = std::make_unique<Assign>(start);
        s->eq_loc = cur().loc;
        ExprPtr value = std::move(first);
        while (at(Tok::Assign)) {
            check_target(*value, true, true);
            s->targets.push_back(std::move(value));
            advance();
            value = parse_testlist();
        }
        s->value = std::move(value);
        return s;
    }
    if (auto op = aug_op(cur().kind)) {
        if (first->kind == ExprKind::Tuple || first->kind == ExprKind::List)
            fail_at(start_loc(*first), source_->offset_of(start_loc(*first)),
                    "an augmented assignment needs a single target (a name or an index)");
        check_target(*first, true, false);
        auto s = std::make_unique<AugAssign>(start);
        s->op = *op;
        s->op_loc = advance().loc;
        s->target = std::move(first);
        s->value = parse_testlist();
        return s;
    }
    if (at(Tok::Colon) && first->kind == ExprKind::Name)
        fail(cur(), "type annotations are not supported");
    return std::make_unique<ExprStmt>(std::move(first), start);
}

// Assignment targets: a name, an index, or a tuple/list of targets.
void Parser::check_target(const Expr& e, bool allow_index, bool allow_tuple) {
    const char* what = nullptr;
    switch (e.kind) {
        case ExprKind::Name: return;
        case ExprKind::Index:
            if (allow_index) return;
            what = "an index here";
            break;
        case ExprKind::Tuple:
            if (allow_tuple) {
                for (const auto& elt : e.as<TupleExpr>().elts) check_target(*elt, allow_index, true);
                return;
            }
            what = "a tuple here";
            break;
        case ExprKind::List:
            if (allow_tuple) {
                for (const auto& elt : e.as<ListExpr>().elts) check_target(*elt, allow_index, true);
                return;
            }
            what = "a list here";
            break;
        case ExprKind::Attribute: what = "an attribute"; break;
        case ExprKind::Call: what = "a function call"; break;
        case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::FString:
        case ExprKind::Bool: case ExprKind::NoneLit: case ExprKind::Ellipsis: what = "a literal"; break;
        case ExprKind::ListComp: what = "a list comprehension"; break;
        case ExprKind::Lambda: what = "a lambda"; break;
        default: what = "an expression"; break;
    }
    Loc l = start_loc(e);
    fail_at(l, source_->offset_of(l), std::string("cannot assign to ") + what);
}

// return_stmt: 'return' [testlist]
StmtPtr Parser::parse_return() {
    const Token& t = advance();
    if (function_depth_ == 0) record(t, "'return' outside a function");
    auto s = std::make_unique<Return>(t.loc);
    if (!at(Tok::Newline) && !at(Tok::Semicolon) && !at(Tok::End)) s->value = parse_testlist();
    return s;
}

// assert_stmt: 'assert' test [',' test]
StmtPtr Parser::parse_assert() {
    const Token& t = advance();
    auto s = std::make_unique<Assert>(t.loc);
    s->cond = parse_test();
    if (accept(Tok::Comma)) s->msg = parse_test();
    return s;
}

// import_stmt: 'import' NAME ['as' NAME] (',' NAME ['as' NAME])*
// `import a, b` becomes one Import per module.
void Parser::parse_import(Block& out) {
    const Token& t = advance();
    do {
        auto s = std::make_unique<Import>(t.loc);
        const Token& name = expect(Tok::Name, "a module name");
        s->module = name.text;
        s->module_loc = name.loc;
        if (at(Tok::Dot)) fail(cur(), "dotted module names are not supported: 'import util' loads util.tg");
        s->alias = s->module;
        if (accept(Tok::As)) s->alias = expect(Tok::Name, "a name after 'as'").text;
        out.push_back(std::move(s));
    } while (accept(Tok::Comma));
}

// suite: NEWLINE INDENT statement+ DEDENT | simple_line
Block Parser::parse_suite(const Token& header) {
    Block body;
    if (!at(Tok::Newline)) {
        // A body on the header's line: recover here, so that a following
        // `elif`/`else` still finds its `if`.
        try {
            parse_simple_line(body);
        } catch (const Bail&) {
            synchronize();
        }
        return body;
    }
    advance();
    if (!at(Tok::Indent)) {
        // Recorded without bailing: the header is fine and the next line is
        // most likely a good statement at the outer level.
        record(cur(), std::string("expected an indented block after ") + describe(header.kind) +
                          " on line " + std::to_string(header.loc.line));
        return body;
    }
    advance();
    parse_statements_until_dedent(body);
    accept(Tok::Dedent);
    return body;
}

// The ':' after a condition, with a hint for the usual slip `if x = 1:`.
void Parser::expect_condition_colon() {
    if (at(Tok::Assign)) fail(cur(), "expected ':' after the condition, found '=' (use '==' to compare)");
    expect(Tok::Colon, "':' after the condition");
}

// if_stmt: 'if' test ':' suite ('elif' test ':' suite)* ['else' ':' suite]
StmtPtr Parser::parse_if() {
    const Token& t = advance();
    auto root = std::make_unique<If>(t.loc);
    root->cond = parse_test();
    expect_condition_colon();
    root->body = parse_suite(t);
    If* last = root.get();
    int elifs = 0;
    while (at(Tok::Elif) || at(Tok::Else)) {
        const Token& kw = advance();
        if (kw.kind == Tok::Else) {
            if (at(Tok::If)) fail(cur(), "expected ':' after 'else', found 'if' (write 'elif')");
            expect(Tok::Colon, "':' after 'else'");
            last->orelse = parse_suite(kw);
            break;
        }
        if (++elifs > kMaxElifs) fail(kw, "too many 'elif' branches (the limit is " + std::to_string(kMaxElifs) + ")");
        auto next = std::make_unique<If>(kw.loc);
        next->cond = parse_test();
        expect_condition_colon();
        next->body = parse_suite(kw);
        If* raw = next.get();
        last->orelse.push_back(std::move(next));
        last = raw;
    }
    return root;
}

void Parser::reject_loop_else(const Token& loop) {
    if (at(Tok::Else))
        fail(cur(), std::string("'else' after a ") + describe(loop.kind) + " loop is not supported");
}

// while_stmt: 'while' test ':' suite
StmtPtr Parser::parse_while() {
    const Token& t = advance();
    auto s = std::make_unique<While>(t.loc);
    s->cond = parse_test();
    expect_condition_colon();
    {
        Bump in_loop(loop_depth_, 1);
        s->body = parse_suite(t);
    }
    reject_loop_else(t);
    return s;
}

// for_stmt: 'for' target_list 'in' testlist ':' suite
StmtPtr Parser::parse_for() {
    const Token& t = advance();
    auto s = std::make_unique<For>(t.loc);
    s->target = parse_target_list();
    check_target(*s->target, true, true);
    expect(Tok::In, "'in'");
    s->iter = parse_testlist();
    expect(Tok::Colon, "':' after the iterable");
    {
        Bump in_loop(loop_depth_, 1);
        s->body = parse_suite(t);
    }
    reject_loop_else(t);
    return s;
}

// decorated: ('@' test NEWLINE)+ funcdef
StmtPtr Parser::parse_decorated() {
    std::vector<ExprPtr> decorators;
    while (at(Tok::At)) {
        advance();
        decorators.push_back(parse_test());
        expect(Tok::Newline, "end of line after the decorator");
    }
    if (!at(Tok::Def)) fail_expected("'def' after a decorator");
    return parse_def(std::move(decorators));
}

// funcdef: 'def' NAME '(' [params] ')' ':' suite
StmtPtr Parser::parse_def(std::vector<ExprPtr> decorators) {
    const Token& t = advance();
    auto s = std::make_unique<FunctionDef>(t.loc);
    s->decorators = std::move(decorators);
    const Token& name = expect(Tok::Name, "a function name");
    s->name = name.text;
    s->name_loc = name.loc;
    expect(Tok::LParen, "'(' after the function name");
    s->params = parse_params(Tok::RParen);
    expect(Tok::RParen, "')' or ','");
    expect(Tok::Colon, "':'");
    // A function body is a new context: loops outside it do not count.
    Bump outside_loops(loop_depth_, -loop_depth_);
    Bump in_function(function_depth_, 1);
    s->body = parse_suite(t);
    return s;
}

// params: param (',' param)* [','];  param: NAME ['=' test]
std::vector<Param> Parser::parse_params(Tok closer) {
    std::vector<Param> params;
    bool seen_default = false;
    std::unordered_set<std::string_view> names;
    while (!at(closer)) {
        if (at(Tok::Star) || at(Tok::DoubleStar)) fail(cur(), "'*' and '**' parameters are not supported");
        const Token& name = expect(Tok::Name, "a parameter name");
        if (!names.insert(name.text).second) fail(name, "duplicate parameter '" + name.text + "'");
        Param p;
        p.name = name.text;
        p.loc = name.loc;
        if (accept(Tok::Assign)) {
            p.default_value = parse_test();
            seen_default = true;
        } else if (seen_default) {
            fail(name, "parameter '" + name.text + "' without a default follows a parameter with a default");
        }
        params.push_back(std::move(p));
        if (!accept(Tok::Comma)) break;
    }
    return params;
}

}  // namespace tg::lang::detail
