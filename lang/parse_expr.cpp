// Expressions (SPEC §2.1, §3), by increasing binding power:
//   lambda, x if c else y, or, and, not, comparisons, | ^ & + - * / // % @,
//   unary - + ~, **, calls / indexing / attributes, atoms.
// Each function starts with its grammar rule.
#include <optional>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "lang/parser_impl.hpp"

namespace tg::lang::detail {

namespace {

struct BinaryInfo {
    BinOp op;
    int prec;  // higher binds tighter
};

std::optional<BinaryInfo> binary_info(Tok k) {
    switch (k) {
        case Tok::Pipe: return BinaryInfo{BinOp::BitOr, 1};
        case Tok::Caret: return BinaryInfo{BinOp::BitXor, 2};
        case Tok::Amp: return BinaryInfo{BinOp::BitAnd, 3};
        case Tok::Plus: return BinaryInfo{BinOp::Add, 4};
        case Tok::Minus: return BinaryInfo{BinOp::Sub, 4};
        case Tok::Star: return BinaryInfo{BinOp::Mul, 5};
        case Tok::Slash: return BinaryInfo{BinOp::Div, 5};
        case Tok::DoubleSlash: return BinaryInfo{BinOp::FloorDiv, 5};
        case Tok::Percent: return BinaryInfo{BinOp::Mod, 5};
        case Tok::At: return BinaryInfo{BinOp::MatMul, 5};
        default: return std::nullopt;
    }
}

std::optional<CmpOp> compare_op(Tok k) {
    switch (k) {
        case Tok::Eq: return CmpOp::Eq;
        case Tok::Ne: return CmpOp::Ne;
        case Tok::Lt: return CmpOp::Lt;
        case Tok::Le: return CmpOp::Le;
        case Tok::Gt: return CmpOp::Gt;
        case Tok::Ge: return CmpOp::Ge;
        default: return std::nullopt;
    }
}

bool starts_expression(Tok k) {
    switch (k) {
        case Tok::Name: case Tok::Int: case Tok::Float: case Tok::Str: case Tok::FStr:
        case Tok::True: case Tok::False: case Tok::None: case Tok::LParen: case Tok::LBracket:
        case Tok::LBrace: case Tok::Minus: case Tok::Plus: case Tok::Tilde: case Tok::Not:
        case Tok::Lambda: case Tok::Ellipsis: case Tok::Error:
            return true;
        default:
            return false;
    }
}

constexpr const char* kNoGenerators = "generator expressions are not supported: use a list comprehension [... for ...]";

}  // namespace

Loc start_loc(const Expr& expr) {
    const Expr* e = &expr;
    while (true) {
        switch (e->kind) {
            case ExprKind::Binary: e = e->as<Binary>().lhs.get(); break;
            case ExprKind::BoolOp: e = e->as<BoolOp>().lhs.get(); break;
            case ExprKind::Compare: e = e->as<Compare>().first.get(); break;
            case ExprKind::IfExp: e = e->as<IfExp>().then_.get(); break;
            case ExprKind::Call: e = e->as<Call>().callee.get(); break;
            case ExprKind::Attribute: e = e->as<Attribute>().value.get(); break;
            case ExprKind::Index: e = e->as<Index>().value.get(); break;
            default: return e->loc;
        }
        if (!e) return expr.loc;
    }
}

// testlist: test (',' test)* [',']    (a TupleExpr when a comma is written)
ExprPtr Parser::parse_testlist() {
    ExprPtr first = parse_test();
    if (!at(Tok::Comma)) return first;
    auto tuple = std::make_unique<TupleExpr>(start_loc(*first));
    tuple->elts.push_back(std::move(first));
    while (accept(Tok::Comma)) {
        if (!starts_expression(cur().kind)) break;
        tuple->elts.push_back(parse_test());
    }
    return tuple;
}

// test: lambda | or_test ['if' or_test 'else' test]
ExprPtr Parser::parse_test() {
    Nest nest(*this);
    if (at(Tok::Lambda)) return parse_lambda();
    ExprPtr then_ = parse_or_test();
    if (!at(Tok::If)) return then_;
    const Token& kw = advance();
    ExprPtr cond = parse_or_test();
    expect(Tok::Else, "'else' in the conditional expression");
    ExprPtr else_ = parse_test();
    return std::make_unique<IfExp>(std::move(cond), std::move(then_), std::move(else_), kw.loc);
}

// or_test: and_test ('or' and_test)*
ExprPtr Parser::parse_or_test() {
    ExprPtr e = parse_and_test();
    while (at(Tok::Or)) {
        const Token& kw = advance();
        grow_tree();
        ExprPtr rhs = parse_and_test();
        e = std::make_unique<BoolOp>(false, std::move(e), std::move(rhs), kw.loc);
    }
    return e;
}

// and_test: not_test ('and' not_test)*
ExprPtr Parser::parse_and_test() {
    ExprPtr e = parse_not_test();
    while (at(Tok::And)) {
        const Token& kw = advance();
        grow_tree();
        ExprPtr rhs = parse_not_test();
        e = std::make_unique<BoolOp>(true, std::move(e), std::move(rhs), kw.loc);
    }
    return e;
}

// not_test: 'not' not_test | comparison
ExprPtr Parser::parse_not_test() {
    if (!at(Tok::Not)) return parse_comparison();
    Nest nest(*this);
    const Token& kw = advance();
    ExprPtr operand = parse_not_test();
    return std::make_unique<Unary>(UnaryOp::Not, std::move(operand), kw.loc);
}

// comparison: or_expr (('==' | '!=' | '<' | '<=' | '>' | '>=') or_expr)*
// `a < b < c` is one Compare node (Python's chained comparison).
ExprPtr Parser::parse_comparison() {
    ExprPtr first = parse_binary(1);
    std::unique_ptr<Compare> cmp;
    while (auto op = compare_op(cur().kind)) {
        const Token& t = advance();
        if (!cmp) {
            cmp = std::make_unique<Compare>(t.loc);
            cmp->first = std::move(first);
        }
        grow_tree();
        cmp->ops.push_back(*op);
        cmp->op_locs.push_back(t.loc);
        cmp->rest.push_back(parse_binary(1));
    }
    // Python operators tg does not have.
    if (at(Tok::In)) fail(cur(), "the 'in' operator is not supported ('in' appears only in 'for' loops)");
    if (at(Tok::Not) && peek().kind == Tok::In) fail(cur(), "the 'not in' operator is not supported");
    if (at(Tok::Name) && cur().text == "is")
        fail(cur(), "the 'is' operator is not supported: compare with '==' or '!='");
    if (cmp) return cmp;
    return first;
}

// or_expr .. term: precedence climbing over the binary operators (all left-associative).
ExprPtr Parser::parse_binary(int min_prec) {
    ExprPtr lhs = parse_unary();
    while (auto info = binary_info(cur().kind)) {
        if (info->prec < min_prec) break;
        const Token& t = advance();
        grow_tree();
        ExprPtr rhs = parse_binary(info->prec + 1);
        lhs = std::make_unique<Binary>(info->op, std::move(lhs), std::move(rhs), t.loc);
    }
    return lhs;
}

// factor: ('-' | '+' | '~') factor | power
ExprPtr Parser::parse_unary() {
    UnaryOp op;
    switch (cur().kind) {
        case Tok::Minus: op = UnaryOp::Neg; break;
        case Tok::Plus: op = UnaryOp::Pos; break;
        case Tok::Tilde: op = UnaryOp::Invert; break;
        default: return parse_power();
    }
    Nest nest(*this);
    const Token& t = advance();
    ExprPtr operand = parse_unary();
    return std::make_unique<Unary>(op, std::move(operand), t.loc);
}

// power: postfix ['**' factor]     (right-associative; -x**2 is -(x**2), 2**-1 is allowed)
ExprPtr Parser::parse_power() {
    ExprPtr base = parse_postfix();
    if (!at(Tok::DoubleStar)) return base;
    Nest nest(*this);
    const Token& t = advance();
    ExprPtr exponent = parse_unary();
    return std::make_unique<Binary>(BinOp::Pow, std::move(base), std::move(exponent), t.loc);
}

// postfix: atom (call | index | '.' NAME)*
ExprPtr Parser::parse_postfix() {
    ExprPtr e = parse_atom();
    while (true) {
        if (at(Tok::LParen)) {
            grow_tree();
            e = parse_call(std::move(e));
        } else if (at(Tok::LBracket)) {
            grow_tree();
            e = parse_index(std::move(e));
        } else if (at(Tok::Dot)) {
            grow_tree();
            advance();
            const Token& name = expect(Tok::Name, "an attribute name after '.'");
            e = std::make_unique<Attribute>(std::move(e), name.text, name.loc);
        } else {
            return e;
        }
    }
}

// call: '(' [arg (',' arg)* [',']] ')';  arg: NAME '=' test | test
// Located at the callee's name (for x.f(...), at f), per SPEC §6.
ExprPtr Parser::parse_call(ExprPtr callee) {
    Loc loc = (callee->kind == ExprKind::Name || callee->kind == ExprKind::Attribute) ? callee->loc : start_loc(*callee);
    auto call = std::make_unique<Call>(loc);
    call->callee = std::move(callee);
    expect(Tok::LParen);
    std::unordered_set<std::string_view> keyword_names;
    while (!at(Tok::RParen)) {
        if (at(Tok::Star) || at(Tok::DoubleStar)) fail(cur(), "'*' and '**' arguments are not supported");
        if (at(Tok::Name) && peek().kind == Tok::Assign) {
            const Token& name = advance();
            advance();
            if (!keyword_names.insert(name.text).second) fail(name, "keyword argument '" + name.text + "' repeated");
            Keyword k;
            k.name = name.text;
            k.loc = name.loc;
            k.value = parse_test();
            call->keywords.push_back(std::move(k));
        } else {
            if (!call->keywords.empty()) fail(cur(), "a positional argument follows a keyword argument");
            call->args.push_back(parse_test());
            if (at(Tok::For)) fail(cur(), kNoGenerators);
        }
        if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RParen, "')' or ','");
    return call;
}

// index: '[' subscript (',' subscript)* [','] ']'
ExprPtr Parser::parse_index(ExprPtr value) {
    const Token& open = advance();
    auto index = std::make_unique<Index>(open.loc);
    index->value = std::move(value);
    if (at(Tok::RBracket)) fail(cur(), "an index needs at least one item");
    index->indices.push_back(parse_subscript());
    while (accept(Tok::Comma)) {
        index->is_tuple = true;
        if (at(Tok::RBracket)) break;
        index->indices.push_back(parse_subscript());
    }
    expect(Tok::RBracket, "']' or ','");
    return index;
}

// subscript: '...' | test | [test] ':' [test] [':' [test]]
ExprPtr Parser::parse_subscript() {
    if (at(Tok::Ellipsis)) return std::make_unique<EllipsisLit>(advance().loc);
    Loc start = cur().loc;
    ExprPtr lo;
    if (!at(Tok::Colon)) {
        lo = parse_test();
        if (!at(Tok::Colon)) return lo;
        start = start_loc(*lo);
    }
    auto slice = std::make_unique<Slice>(start);
    slice->lo = std::move(lo);
    advance();  // ':'
    auto ends_part = [&] { return at(Tok::Colon) || at(Tok::Comma) || at(Tok::RBracket); };
    if (!ends_part()) slice->hi = parse_test();
    if (accept(Tok::Colon) && !ends_part()) slice->step = parse_test();
    return slice;
}

// atom: NAME | NUMBER | STRING+ | True | False | None | paren | list
ExprPtr Parser::parse_atom() {
    const Token& t = cur();
    switch (t.kind) {
        case Tok::Name: advance(); return std::make_unique<Name>(t.text, t.loc);
        case Tok::Int: advance(); return std::make_unique<IntLit>(t.int_value, t.loc);
        case Tok::Float: advance(); return std::make_unique<FloatLit>(t.float_value, t.loc);
        case Tok::Str: case Tok::FStr: return parse_strings();
        case Tok::True: advance(); return std::make_unique<BoolLit>(true, t.loc);
        case Tok::False: advance(); return std::make_unique<BoolLit>(false, t.loc);
        case Tok::None: advance(); return std::make_unique<NoneLit>(t.loc);
        case Tok::LParen: return parse_paren();
        case Tok::LBracket: return parse_list();
        case Tok::LBrace: fail(t, "dict and set literals are not supported");
        case Tok::Ellipsis: fail(t, "'...' is allowed only in an index, as in x[..., 0]");
        case Tok::Lambda: fail(t, "a lambda here must be written in parentheses");
        case Tok::Error: fail(t, t.text);
        default: fail_expected("an expression");
    }
}

// paren: '(' ')' | '(' test ')' | '(' test ',' [test (',' test)* [',']] ')'
ExprPtr Parser::parse_paren() {
    const Token& open = advance();
    if (accept(Tok::RParen)) return std::make_unique<TupleExpr>(open.loc);
    ExprPtr first = parse_test();
    if (at(Tok::For)) fail(cur(), kNoGenerators);
    if (!at(Tok::Comma)) {
        expect(Tok::RParen, "')'");
        return first;
    }
    auto tuple = std::make_unique<TupleExpr>(open.loc);
    tuple->elts.push_back(std::move(first));
    while (accept(Tok::Comma)) {
        if (at(Tok::RParen)) break;
        tuple->elts.push_back(parse_test());
    }
    expect(Tok::RParen, "')' or ','");
    return tuple;
}

// list: '[' [test (',' test)* [',']] ']' | '[' test comp_for ']'
ExprPtr Parser::parse_list() {
    const Token& open = advance();
    auto list = std::make_unique<ListExpr>(open.loc);
    if (accept(Tok::RBracket)) return list;
    ExprPtr first = parse_test();
    if (at(Tok::For)) return parse_comprehension(std::move(first), open.loc);
    list->elts.push_back(std::move(first));
    while (accept(Tok::Comma)) {
        if (at(Tok::RBracket)) break;
        list->elts.push_back(parse_test());
    }
    expect(Tok::RBracket, "']' or ','");
    return list;
}

// comp_for: 'for' target_list 'in' or_test ('if' or_test)* ']'
// Several `if`s are joined with `and` (same result, same short-circuit).
ExprPtr Parser::parse_comprehension(ExprPtr elt, Loc bracket) {
    auto comp = std::make_unique<ListComp>(bracket);
    comp->elt = std::move(elt);
    advance();  // 'for'
    comp->target = parse_target_list();
    check_target(*comp->target, false, true);
    expect(Tok::In, "'in'");
    comp->iter = parse_or_test();
    while (at(Tok::If)) {
        const Token& kw = advance();
        ExprPtr cond = parse_or_test();
        if (comp->cond) cond = std::make_unique<BoolOp>(true, std::move(comp->cond), std::move(cond), kw.loc);
        comp->cond = std::move(cond);
    }
    if (at(Tok::For)) fail(cur(), "a list comprehension may have only one 'for' (nested loops are not supported)");
    expect(Tok::RBracket, "']'");
    return comp;
}

// target_list: or_expr (',' or_expr)* [',']     (stops at 'in')
ExprPtr Parser::parse_target_list() {
    ExprPtr first = parse_binary(1);
    if (!at(Tok::Comma)) return first;
    auto tuple = std::make_unique<TupleExpr>(start_loc(*first));
    tuple->elts.push_back(std::move(first));
    while (accept(Tok::Comma)) {
        if (at(Tok::In)) break;
        tuple->elts.push_back(parse_binary(1));
    }
    return tuple;
}

// lambda: 'lambda' [params] ':' test
ExprPtr Parser::parse_lambda() {
    const Token& kw = advance();
    auto lambda = std::make_unique<Lambda>(kw.loc);
    lambda->params = parse_params(Tok::Colon);
    expect(Tok::Colon, "':' after the lambda's parameters");
    lambda->body = parse_test();
    return lambda;
}

// strings: (STRING | FSTRING)+    (adjacent literals concatenate, as in Python)
ExprPtr Parser::parse_strings() {
    Loc loc = cur().loc;
    bool any_f = false;
    for (size_t i = 0; peek(i).kind == Tok::Str || peek(i).kind == Tok::FStr; ++i) any_f |= peek(i).kind == Tok::FStr;
    if (!any_f) {
        std::string value;
        while (at(Tok::Str)) value += advance().text;
        return std::make_unique<StrLit>(std::move(value), loc);
    }
    auto f = std::make_unique<FString>(loc);
    while (at(Tok::Str) || at(Tok::FStr)) {
        const Token& t = advance();
        if (t.kind == Tok::FStr) {
            append_fstring(*f, t);
        } else if (!t.text.empty()) {
            if (!f->parts.empty() && !f->parts.back().expr) f->parts.back().text += t.text;
            else f->parts.push_back(FStringPart{t.text, nullptr, ""});
        }
    }
    return f;
}

void Parser::append_fstring(FString& out, const Token& t) {
    for (const FStrPiece& piece : t.pieces) {
        if (!piece.is_field) {
            if (!out.parts.empty() && !out.parts.back().expr) out.parts.back().text += piece.text;
            else out.parts.push_back(FStringPart{piece.text, nullptr, ""});
            continue;
        }
        FStringPart part;
        part.expr = parse_fstring_field(piece);
        part.spec = piece.spec;
        out.parts.push_back(std::move(part));
    }
}

// A replacement field is lexed in place (so its locations are real) and parsed
// as a testlist; {x!r} becomes repr(x), {x!s} str(x).
ExprPtr Parser::parse_fstring_field(const FStrPiece& piece) {
    LexResult sub = tokenize_fragment(*source_, piece.expr_begin, piece.expr_end, piece.expr_loc);
    struct Restore {
        Parser& p;
        const std::vector<Token>* toks;
        size_t pos;
        ~Restore() { p.toks_ = toks; p.pos_ = pos; }
    } restore{*this, toks_, pos_};
    toks_ = &sub.tokens;
    pos_ = 0;
    ExprPtr e = parse_testlist();
    if (!at(Tok::End)) fail_expected("'}' to end the f-string field");
    if (piece.conversion) {
        Loc l = start_loc(*e);
        auto call = std::make_unique<Call>(l);
        call->callee = std::make_unique<Name>(piece.conversion == 'r' ? "repr" : "str", l);
        call->args.push_back(std::move(e));
        e = std::move(call);
    }
    return e;
}

}  // namespace tg::lang::detail
