// The grammar of tg (docs/language.md, operators of docs/language.md "Values") in Boost.Spirit X3, over the
// tokens of lang/lexer.cpp. The only translation unit that includes Spirit.
//
// Layout: primitive parsers over tokens; directives that keep the nesting
// limits and the loop/function context; semantic actions that build the AST;
// the rules, statements first, each with its grammar in a comment.
//
// Expressions, by increasing binding power (Python's):
//   lambda, x if c else y, or, and, not, comparisons (chained), | ^ & << >> + - * / // % @,
//   unary - + ~, ** (right-associative, binds tighter than a unary minus on its left),
//   calls / indexing / attributes, atoms.
//
// Every expression rule either succeeds or throws (an atom that matches
// nothing is "expected an expression"), so the alternatives never backtrack
// over a half-parsed expression: the grammar is LL(1) on tokens, plus a few
// lookaheads (`&`, `!`) of one or two tokens.
#include <algorithm>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include <boost/fusion/include/at_c.hpp>
#include <boost/spirit/home/x3.hpp>

#include "lang/parser_impl.hpp"
#include "lang/stack_bounds.hpp"

namespace tg::lang::detail {
namespace {

namespace x3 = boost::spirit::x3;
using boost::fusion::at_c;
using It = const Token*;

// ============================================================== the parse state

// The grammar's context carries the ParseState under this tag.
struct state_tag;

template <class Ctx>
ParseState& state_of(const Ctx& ctx) {
    return x3::get<state_tag>(ctx);
}

// Abandons the current statement after its error was recorded: the statement
// rules' handler skips from `resume` to the next statement.
[[noreturn]] void bail(It resume) {
    throw x3::expectation_failure<It>(resume, std::string());
}

// Records `message` at `at` and abandons the statement.
[[noreturn]] void fail(ParseState& s, It at, std::string message) {
    s.record(*at, std::move(message));
    bail(at);
}

// ============================================================== primitive parsers

// One token of kind `kind`. Its attribute is the token (tok) or nothing (lit);
// `what` names it in "expected ..." messages when it is an expectation point
// (`x3::expect[lit(Tok::Colon, "':' after the condition")]`).
template <bool WithAttribute>
struct token_parser : x3::parser<token_parser<WithAttribute>> {
    using attribute_type = std::conditional_t<WithAttribute, It, x3::unused_type>;
    static bool const has_attribute = WithAttribute;

    constexpr token_parser(Tok k, const char* w) : kind(k), what(w) {}

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator& last, const Ctx&, RCtx&, Attr& attr) const {
        if (first == last || first->kind != kind) return false;
        if constexpr (WithAttribute) attr = first;
        if (first->kind != Tok::End) ++first;  // End is never consumed
        return true;
    }

    Tok kind;
    const char* what;
};

token_parser<true> tok(Tok k, const char* what = nullptr) { return {k, what}; }
token_parser<false> lit(Tok k, const char* what = nullptr) { return {k, what}; }

// One token whose kind satisfies `pred` (an operator class); its attribute is the token.
struct token_class_parser : x3::parser<token_class_parser> {
    using attribute_type = It;
    static bool const has_attribute = true;

    constexpr explicit token_class_parser(bool (*p)(Tok)) : pred(p) {}

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator& last, const Ctx&, RCtx&, Attr& attr) const {
        if (first == last || first->kind == Tok::End || !pred(first->kind)) return false;
        attr = first++;
        return true;
    }

    bool (*pred)(Tok);
};

// A Name token spelled `text` (the Python-only `is`).
struct name_text_parser : x3::parser<name_text_parser> {
    using attribute_type = x3::unused_type;
    [[maybe_unused]] static bool const has_attribute = false;  // read by X3 traits, where clang sees no use

    constexpr explicit name_text_parser(const char* t) : text(t) {}

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator&, const Ctx&, RCtx&, Attr&) const {
        if (first->kind != Tok::Name || first->text != text) return false;
        ++first;
        return true;
    }

    const char* text;
};

// A statement's soft keyword (`del`, `global`, `nonlocal`: names elsewhere,
// so `del = 1` stays an assignment): a Name spelled `text` followed by a
// token that can start its operand. Its attribute is the keyword's token.
struct soft_keyword_parser : x3::parser<soft_keyword_parser> {
    using attribute_type = It;
    static bool const has_attribute = true;

    constexpr soft_keyword_parser(const char* t, bool d) : text(t), any_target(d) {}

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator&, const Ctx&, RCtx&, Attr& attr) const {
        if (first->kind != Tok::Name || first->text != text) return false;
        const Tok next = first[1].kind;
        if (!(next == Tok::Name || (any_target && (next == Tok::LParen || next == Tok::LBracket)))) return false;
        attr = first++;
        return true;
    }

    const char* text;
    bool any_target;  // `del (a, b)`, `del [a, b]`
};

// Matches nothing and yields the current token (to locate what follows).
struct here_parser : x3::parser<here_parser> {
    using attribute_type = It;
    static bool const has_attribute = true;

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator&, const Ctx&, RCtx&, Attr& attr) const {
        attr = first;
        return true;
    }
};
constexpr here_parser here{};

// Fails the statement with `message` at the current token.
struct error_parser : x3::parser<error_parser> {
    using attribute_type = x3::unused_type;
    [[maybe_unused]] static bool const has_attribute = false;  // read by X3 traits, where clang sees no use

    explicit error_parser(std::string m) : message(std::move(m)) {}

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator&, const Ctx& ctx, RCtx&, Attr&) const {
        fail(state_of(ctx), first, message);
    }

    std::string message;
};
error_parser error(std::string message) { return error_parser(std::move(message)); }

// "expected WHAT, found ..." at the current token: an expectation point that
// nothing can satisfy, for the end of a list of alternatives.
struct expected_parser : x3::parser<expected_parser> {
    using attribute_type = x3::unused_type;
    [[maybe_unused]] static bool const has_attribute = false;  // read by X3 traits, where clang sees no use

    constexpr explicit expected_parser(const char* w) : what(w) {}

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator&, const Ctx&, RCtx&, Attr&) const {
        throw x3::expectation_failure<Iterator>(first, what);
    }

    const char* what;
};
constexpr expected_parser expected(const char* what) { return expected_parser(what); }

// An Indent where no block may start: "unexpected indent", and the whole
// indented block is skipped.
struct unexpected_indent_parser : x3::parser<unexpected_indent_parser> {
    using attribute_type = x3::unused_type;
    [[maybe_unused]] static bool const has_attribute = false;  // read by X3 traits, where clang sees no use

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator&, const Ctx& ctx, RCtx&, Attr&) const {
        if (first->kind != Tok::Indent) return false;
        ParseState& s = state_of(ctx);
        // A bad indentation token (a tab...) says more than "unexpected indent".
        s.record(first[1].kind == Tok::Error ? first[1] : first[0], "unexpected indent");
        first = s.skip_block(first);
        return true;
    }
};
constexpr unexpected_indent_parser unexpected_indent{};

}  // namespace
}  // namespace tg::lang::detail

namespace boost::spirit::x3 {

// How the token parsers are named in expectation failures ("':' after the condition").
template <bool A>
struct get_info<tg::lang::detail::token_parser<A>> {
    using result_type = std::string;
    std::string operator()(const tg::lang::detail::token_parser<A>& p) const {
        return p.what ? p.what : tg::lang::describe(p.kind);
    }
};
// ... also with a semantic action attached.
template <bool A, class F>
struct get_info<action<tg::lang::detail::token_parser<A>, F>> {
    using result_type = std::string;
    std::string operator()(const action<tg::lang::detail::token_parser<A>, F>& p) const {
        return get_info<tg::lang::detail::token_parser<A>>()(p.subject);
    }
};

}  // namespace boost::spirit::x3

namespace tg::lang::detail {
namespace {

namespace x3 = boost::spirit::x3;

// ============================================================== directives

// `scoped<Guard>[p]` parses p with a Guard alive: constructed before (it may
// fail the statement), destroyed after, also when an error unwinds.
template <class Subject, class Guard>
struct scoped_directive : x3::unary_parser<Subject, scoped_directive<Subject, Guard>> {
    using base_type = x3::unary_parser<Subject, scoped_directive<Subject, Guard>>;
    static bool const is_pass_through_unary = true;

    constexpr explicit scoped_directive(const Subject& subject) : base_type(subject) {}

    template <class Iterator, class Ctx, class RCtx, class Attr>
    bool parse(Iterator& first, const Iterator& last, const Ctx& ctx, RCtx& rctx, Attr& attr) const {
        Guard guard(state_of(ctx), first);
        return this->subject.parse(first, last, ctx, rctx, attr);
    }
};

template <class Guard>
struct scoped_gen {
    template <class Subject>
    constexpr scoped_directive<typename x3::extension::as_parser<Subject>::value_type, Guard>
    operator[](const Subject& subject) const {
        return scoped_directive<typename x3::extension::as_parser<Subject>::value_type, Guard>(x3::as_parser(subject));
    }
};

// One level of expression recursion (and of tree depth), within the limits.
class NestGuard {
public:
    NestGuard(ParseState& s, It at) : s_(s), tree_(s.tree) {
        ++s_.nest;
        ++s_.tree;
        bool stack_left = !s_.stack_floor || static_cast<const char*>(__builtin_frame_address(0)) > s_.stack_floor;
        if (s_.nest <= kMaxNesting && s_.tree <= kMaxTreeDepth && stack_left) return;
        // The destructor will not run for a constructor that throws: undo first.
        bool too_nested = s_.nest > kMaxNesting;
        --s_.nest;
        s_.tree = tree_;
        if (too_nested)
            fail(s_, at, "expression is nested too deeply (the limit is " + std::to_string(kMaxNesting) + " levels)");
        // Only in builds with huge frames (-O0 with sanitizers) or on small thread stacks.
        if (!stack_left) fail(s_, at, "expression is nested too deeply for the parser's stack");
        fail(s_, at, "expression is too deep (the limit is " + std::to_string(kMaxTreeDepth) + " nested operations)");
    }
    ~NestGuard() {
        --s_.nest;
        s_.tree = tree_;
    }
    NestGuard(const NestGuard&) = delete;
    NestGuard& operator=(const NestGuard&) = delete;

private:
    ParseState& s_;
    int tree_;
};

// The body of a loop.
class LoopGuard {
public:
    LoopGuard(ParseState& s, It) : s_(s) { ++s_.loop_depth; }
    ~LoopGuard() { --s_.loop_depth; }
    LoopGuard(const LoopGuard&) = delete;
    LoopGuard& operator=(const LoopGuard&) = delete;

private:
    ParseState& s_;
};

// The body of a function: a new context, where loops outside it do not count.
class FunctionGuard {
public:
    FunctionGuard(ParseState& s, It) : s_(s), loops_(s.loop_depth) {
        s_.loop_depth = 0;
        ++s_.function_depth;
    }
    ~FunctionGuard() {
        s_.loop_depth = loops_;
        --s_.function_depth;
    }
    FunctionGuard(const FunctionGuard&) = delete;
    FunctionGuard& operator=(const FunctionGuard&) = delete;

private:
    ParseState& s_;
    int loops_;
};

constexpr scoped_gen<NestGuard> nest{};
constexpr scoped_gen<LoopGuard> loop_body{};
constexpr scoped_gen<FunctionGuard> function_body{};

// ============================================================== token classes

bool is_compare(Tok k) {
    return (k >= Tok::Eq && k <= Tok::Ge) || k == Tok::In || k == Tok::NotIn || k == Tok::Is || k == Tok::IsNot;
}
bool is_additive(Tok k) { return k == Tok::Plus || k == Tok::Minus; }
bool is_shift(Tok k) { return k == Tok::LShift || k == Tok::RShift; }
bool is_multiplicative(Tok k) {
    return k == Tok::Star || k == Tok::Slash || k == Tok::DoubleSlash || k == Tok::Percent || k == Tok::At;
}
bool is_unary(Tok k) { return k == Tok::Minus || k == Tok::Plus || k == Tok::Tilde; }
bool is_augmented(Tok k) { return k >= Tok::PlusAssign && k <= Tok::RShiftAssign; }
bool is_string(Tok k) { return k == Tok::Str || k == Tok::FStr; }
bool is_slice_end(Tok k) { return k == Tok::Colon || k == Tok::Comma || k == Tok::RBracket; }
bool is_line_end(Tok k) { return k == Tok::Newline || k == Tok::End; }
bool is_block_end(Tok k) { return k == Tok::Dedent || k == Tok::End; }
bool is_pipe(Tok k) { return k == Tok::Pipe; }
bool is_caret(Tok k) { return k == Tok::Caret; }
bool is_amp(Tok k) { return k == Tok::Amp; }
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
bool starts_compound(Tok k) {
    return k == Tok::If || k == Tok::While || k == Tok::For || k == Tok::Def || k == Tok::At ||
           k == Tok::Elif || k == Tok::Else;
}

constexpr token_class_parser any_of(bool (*pred)(Tok)) { return token_class_parser(pred); }

BinOp binary_op(Tok k) {
    switch (k) {
        case Tok::Pipe: return BinOp::BitOr;
        case Tok::Caret: return BinOp::BitXor;
        case Tok::Amp: return BinOp::BitAnd;
        case Tok::Plus: case Tok::PlusAssign: return BinOp::Add;
        case Tok::Minus: case Tok::MinusAssign: return BinOp::Sub;
        case Tok::Star: case Tok::StarAssign: return BinOp::Mul;
        case Tok::Slash: case Tok::SlashAssign: return BinOp::Div;
        case Tok::DoubleSlash: case Tok::DoubleSlashAssign: return BinOp::FloorDiv;
        case Tok::Percent: case Tok::PercentAssign: return BinOp::Mod;
        case Tok::DoubleStar: case Tok::DoubleStarAssign: return BinOp::Pow;
        case Tok::At: case Tok::AtAssign: return BinOp::MatMul;
        case Tok::AmpAssign: return BinOp::BitAnd;
        case Tok::PipeAssign: return BinOp::BitOr;
        case Tok::CaretAssign: return BinOp::BitXor;
        case Tok::LShift: case Tok::LShiftAssign: return BinOp::LShift;
        case Tok::RShift: case Tok::RShiftAssign: return BinOp::RShift;
        default: return BinOp::Add;
    }
}

CmpOp compare_op(Tok k) {
    switch (k) {
        case Tok::Ne: return CmpOp::Ne;
        case Tok::Lt: return CmpOp::Lt;
        case Tok::Le: return CmpOp::Le;
        case Tok::Gt: return CmpOp::Gt;
        case Tok::Ge: return CmpOp::Ge;
        case Tok::In: return CmpOp::In;
        case Tok::NotIn: return CmpOp::NotIn;
        case Tok::Is: return CmpOp::Is;
        case Tok::IsNot: return CmpOp::IsNot;
        default: return CmpOp::Eq;
    }
}

UnaryOp unary_op(Tok k) {
    switch (k) {
        case Tok::Plus: return UnaryOp::Pos;
        case Tok::Tilde: return UnaryOp::Invert;
        case Tok::Not: return UnaryOp::Not;
        default: return UnaryOp::Neg;
    }
}

// Python statements tg does not have, recognised to say so plainly.
constexpr std::string_view kPythonOnly[] = {
    "from", "class", "try", "except", "finally", "with", "raise", "yield", "async", "await",
};

constexpr const char* kNoGenerators = "generator expressions are not supported: use a list comprehension [... for ...]";

// ============================================================== semantic actions
//
// In an action, _val is the enclosing rule's node, _attr what the parser the
// action is attached to matched, and _where(ctx).begin() the token after it.

template <class T, class... A>
std::unique_ptr<T> make(A&&... a) {
    return std::make_unique<T>(std::forward<A>(a)...);
}

template <class Ctx>
It next_token(const Ctx& ctx) {
    return x3::_where(ctx).begin();
}

// The f-string replacement field between `piece`'s offsets, parsed as a
// testlist (defined after the rules). `resume` is where the statement goes on.
ExprPtr parse_fstring_field(ParseState& s, const FStrPiece& piece, It resume);

const auto set_val = [](auto& ctx) { x3::_val(ctx) = std::move(x3::_attr(ctx)); };
const auto append_all = [](auto& ctx) {
    for (auto& s : x3::_attr(ctx)) x3::_val(ctx).push_back(std::move(s));
};
const auto push_back = [](auto& ctx) { x3::_val(ctx).push_back(std::move(x3::_attr(ctx))); };

// Operator chains (a + b + c ..., f()()..., x.a.b...) deepen the tree without
// recursion: each link counts against the tree-depth limit.
const auto grow_tree = [](auto& ctx) {
    ParseState& s = state_of(ctx);
    if (++s.tree > kMaxTreeDepth)
        fail(s, next_token(ctx), "expression is too deep (the limit is " + std::to_string(kMaxTreeDepth) + " nested operations)");
};
const auto grow = x3::eps[grow_tree];

// ---- expressions

const auto name_node = [](auto& ctx) { It t = x3::_attr(ctx); x3::_val(ctx) = make<Name>(t->text, t->loc); };
const auto int_node = [](auto& ctx) { It t = x3::_attr(ctx); x3::_val(ctx) = make<IntLit>(t->int_value, t->loc); };
const auto float_node = [](auto& ctx) { It t = x3::_attr(ctx); x3::_val(ctx) = make<FloatLit>(t->float_value, t->loc); };
const auto true_node = [](auto& ctx) { x3::_val(ctx) = make<BoolLit>(true, x3::_attr(ctx)->loc); };
const auto false_node = [](auto& ctx) { x3::_val(ctx) = make<BoolLit>(false, x3::_attr(ctx)->loc); };
const auto none_node = [](auto& ctx) { x3::_val(ctx) = make<NoneLit>(x3::_attr(ctx)->loc); };
const auto ellipsis_node = [](auto& ctx) { x3::_val(ctx) = make<EllipsisLit>(x3::_attr(ctx)->loc); };

// Adjacent string literals concatenate, as in Python; with any f-string among
// them the result is an FString. _attr: the first literal; the last ends before next_token.
const auto strings_node = [](auto& ctx) {
    It first = x3::_attr(ctx), end = next_token(ctx);
    Loc loc = first->loc;
    if (std::none_of(first, end, [](const Token& t) { return t.kind == Tok::FStr; })) {
        std::string value;
        for (It t = first; t != end; ++t) value += t->text;
        x3::_val(ctx) = make<StrLit>(std::move(value), loc);
        return;
    }
    auto f = make<FString>(loc);
    auto add_text = [&](const std::string& text) {
        if (!f->parts.empty() && !f->parts.back().expr) f->parts.back().text += text;
        else f->parts.push_back(FStringPart{text, nullptr, ""});
    };
    for (It t = first; t != end; ++t) {
        if (t->kind == Tok::Str) {
            if (!t->text.empty()) add_text(t->text);
            continue;
        }
        for (const FStrPiece& piece : t->pieces) {
            if (!piece.is_field) {
                add_text(piece.text);
                continue;
            }
            FStringPart part;
            part.expr = parse_fstring_field(state_of(ctx), piece, t + 1);
            part.spec = piece.spec;
            f->parts.push_back(std::move(part));
        }
    }
    x3::_val(ctx) = std::move(f);
};

// _attr: (operator token, right operand)
const auto binary_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    It op = at_c<0>(a);
    x3::_val(ctx) = make<Binary>(binary_op(op->kind), std::move(x3::_val(ctx)), std::move(at_c<1>(a)), op->loc);
};
const auto unary_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    It op = at_c<0>(a);
    x3::_val(ctx) = make<Unary>(unary_op(op->kind), std::move(at_c<1>(a)), op->loc);
};
const auto bool_op_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    It op = at_c<0>(a);
    x3::_val(ctx) = make<BoolOp>(op->kind == Tok::And, std::move(x3::_val(ctx)), std::move(at_c<1>(a)), op->loc);
};
// The first comparison of a chain makes the Compare node; the next ones extend it.
const auto compare_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    It op = at_c<0>(a);
    auto cmp = make<Compare>(op->loc);
    cmp->first = std::move(x3::_val(ctx));
    cmp->ops.push_back(compare_op(op->kind));
    cmp->op_locs.push_back(op->loc);
    cmp->rest.push_back(std::move(at_c<1>(a)));
    x3::_val(ctx) = std::move(cmp);
};
const auto compare_more = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    It op = at_c<0>(a);
    auto& cmp = x3::_val(ctx)->template as<Compare>();
    cmp.ops.push_back(compare_op(op->kind));
    cmp.op_locs.push_back(op->loc);
    cmp.rest.push_back(std::move(at_c<1>(a)));
};
// _attr: ('if' token, condition, else-branch); _val: the then-branch.
const auto if_exp_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    x3::_val(ctx) = make<IfExp>(std::move(at_c<1>(a)), std::move(x3::_val(ctx)), std::move(at_c<2>(a)), at_c<0>(a)->loc);
};
// _attr: ('lambda' token, parameters, body)
const auto lambda_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    auto l = make<Lambda>(at_c<0>(a)->loc);
    l->params = std::move(at_c<1>(a).params);
    l->body = std::move(at_c<2>(a));
    x3::_val(ctx) = std::move(l);
};

// Tuples and lists are built in _val element by element.
const auto open_tuple = [](auto& ctx) { x3::_val(ctx) = make<TupleExpr>(x3::_attr(ctx)->loc); };
const auto open_list = [](auto& ctx) { x3::_val(ctx) = make<ListExpr>(x3::_attr(ctx)->loc); };
const auto tuple_push = [](auto& ctx) { x3::_val(ctx)->template as<TupleExpr>().elts.push_back(std::move(x3::_attr(ctx))); };
const auto list_push = [](auto& ctx) { x3::_val(ctx)->template as<ListExpr>().elts.push_back(std::move(x3::_attr(ctx))); };
// `(x)` is x itself.
const auto unwrap_paren = [](auto& ctx) {
    ExprPtr inner = std::move(x3::_val(ctx)->template as<TupleExpr>().elts.front());
    x3::_val(ctx) = std::move(inner);
};
// A comma after the first item of a testlist makes it a tuple located at that item.
const auto start_tuple = [](auto& ctx) {
    auto t = make<TupleExpr>(start_loc(*x3::_val(ctx)));
    t->elts.push_back(std::move(x3::_val(ctx)));
    x3::_val(ctx) = std::move(t);
};

// [elt for ...]: the list so far holds the element.
const auto open_comprehension = [](auto& ctx) {
    auto& list = x3::_val(ctx)->template as<ListExpr>();
    auto comp = make<ListComp>(list.loc);
    comp->elt = std::move(list.elts.front());
    x3::_val(ctx) = std::move(comp);
};
// The clause being parsed: the first one (the node's own fields) or the last of `more`.
template <class Ctx>
ExprPtr& clause_field(Ctx& ctx, ExprPtr ListComp::*first, ExprPtr CompClause::*later) {
    auto& comp = x3::_val(ctx)->template as<ListComp>();
    return comp.more.empty() ? comp.*first : comp.more.back().*later;
}
const auto comprehension_target = [](auto& ctx) {
    ParseState& s = state_of(ctx);
    if (!s.check_target(*x3::_attr(ctx), false, true)) bail(next_token(ctx));
    clause_field(ctx, &ListComp::target, &CompClause::target) = std::move(x3::_attr(ctx));
};
const auto comprehension_iter = [](auto& ctx) {
    clause_field(ctx, &ListComp::iter, &CompClause::iter) = std::move(x3::_attr(ctx));
};
// Several `if`s are joined with `and` (same result, same short-circuit). _attr: ('if', condition)
const auto comprehension_if = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    ExprPtr& field = clause_field(ctx, &ListComp::cond, &CompClause::cond);
    ExprPtr cond = std::move(at_c<1>(a));
    if (field) cond = make<BoolOp>(true, std::move(field), std::move(cond), at_c<0>(a)->loc);
    field = std::move(cond);
};
const auto comprehension_more = [](auto& ctx) { x3::_val(ctx)->template as<ListComp>().more.emplace_back(); };

// Dicts are built in _val entry by entry; {key: elt for ...} turns the first
// entry into a comprehension (a ListComp with a key, see ast.hpp).
const auto open_dict = [](auto& ctx) { x3::_val(ctx) = make<DictExpr>(x3::_attr(ctx)->loc); };
const auto dict_key_push = [](auto& ctx) { x3::_val(ctx)->template as<DictExpr>().keys.push_back(std::move(x3::_attr(ctx))); };
const auto dict_value_push = [](auto& ctx) { x3::_val(ctx)->template as<DictExpr>().values.push_back(std::move(x3::_attr(ctx))); };
const auto open_dict_comprehension = [](auto& ctx) {
    auto& dict = x3::_val(ctx)->template as<DictExpr>();
    auto comp = make<ListComp>(dict.loc);
    comp->key = std::move(dict.keys.front());
    comp->elt = std::move(dict.values.front());
    x3::_val(ctx) = std::move(comp);
};
// {a, ...}: the dict opened at `{` holds one key and no value; it becomes a
// set of that element, and {elt for ...} a set comprehension.
const auto open_set = [](auto& ctx) {
    auto& dict = x3::_val(ctx)->template as<DictExpr>();
    auto set = make<SetExpr>(dict.loc);
    set->elts.push_back(std::move(dict.keys.front()));
    x3::_val(ctx) = std::move(set);
};
const auto set_push = [](auto& ctx) { x3::_val(ctx)->template as<SetExpr>().elts.push_back(std::move(x3::_attr(ctx))); };
const auto open_set_comprehension = [](auto& ctx) {
    auto& set = x3::_val(ctx)->template as<SetExpr>();
    auto comp = make<ListComp>(set.loc);
    comp->elt = std::move(set.elts.front());
    comp->is_set = true;
    x3::_val(ctx) = std::move(comp);
};

// Postfix operations apply to _val. A call is located at the callee's name
// (for x.f(...), at f), per docs/language.md "Errors".
struct CallArgs {
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;
    std::unordered_set<std::string_view> keyword_names;
    bool unpacks = false;       // a `*xs` or a `**d` was written
    bool seen_double = false;   // a `**d` was written: no positional argument may follow
};
const auto call_node = [](auto& ctx) {
    ExprPtr& callee = x3::_val(ctx);
    Loc loc = (callee->kind == ExprKind::Name || callee->kind == ExprKind::Attribute) ? callee->loc : start_loc(*callee);
    auto call = make<Call>(loc);
    call->callee = std::move(callee);
    call->args = std::move(x3::_attr(ctx).args);
    call->keywords = std::move(x3::_attr(ctx).keywords);
    call->unpacks = x3::_attr(ctx).unpacks;
    x3::_val(ctx) = std::move(call);
};
const auto open_index = [](auto& ctx) {
    auto ix = make<Index>(x3::_attr(ctx)->loc);
    ix->value = std::move(x3::_val(ctx));
    x3::_val(ctx) = std::move(ix);
};
struct IndexItems {
    std::vector<ExprPtr> items;
    bool is_tuple = false;
};
const auto index_items_node = [](auto& ctx) {
    auto& ix = x3::_val(ctx)->template as<Index>();
    ix.indices = std::move(x3::_attr(ctx).items);
    ix.is_tuple = x3::_attr(ctx).is_tuple;
};
const auto attribute_node = [](auto& ctx) {
    It name = x3::_attr(ctx);
    x3::_val(ctx) = make<Attribute>(std::move(x3::_val(ctx)), name->text, name->loc);
};

// Call arguments (in a CallArgs _val).
const auto keyword_name = [](auto& ctx) {
    It name = x3::_attr(ctx);
    if (!x3::_val(ctx).keyword_names.insert(name->text).second)
        fail(state_of(ctx), name, "keyword argument '" + name->text + "' repeated");
    Keyword k;
    k.name = name->text;
    k.loc = name->loc;
    x3::_val(ctx).keywords.push_back(std::move(k));
};
const auto keyword_value = [](auto& ctx) { x3::_val(ctx).keywords.back().value = std::move(x3::_attr(ctx)); };
const auto positional_allowed = [](auto& ctx) {
    if (x3::_val(ctx).seen_double)
        fail(state_of(ctx), x3::_attr(ctx), "a positional argument follows keyword argument unpacking ('**')");
    if (!x3::_val(ctx).keywords.empty()) fail(state_of(ctx), x3::_attr(ctx), "a positional argument follows a keyword argument");
};
// `*xs` (after any keyword but `**d`, as Python) and `**d`. _attr: (the star token, the expression)
const auto starred_arg = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    CallArgs& call = x3::_val(ctx);
    if (call.seen_double)
        fail(state_of(ctx), at_c<0>(a), "iterable argument unpacking ('*') follows keyword argument unpacking ('**')");
    call.args.push_back(make<Starred>(std::move(at_c<1>(a)), at_c<0>(a)->loc));
    call.unpacks = true;
};
const auto double_starred_arg = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    CallArgs& call = x3::_val(ctx);
    Keyword k;
    k.value = std::move(at_c<1>(a));
    k.loc = at_c<0>(a)->loc;
    k.unpack = true;
    call.keywords.push_back(std::move(k));
    call.unpacks = call.seen_double = true;
};
const auto positional_arg = [](auto& ctx) { x3::_val(ctx).args.push_back(std::move(x3::_attr(ctx))); };

// Index items (in an IndexItems _val); slices are built in the subscript's _val.
const auto index_item = [](auto& ctx) { x3::_val(ctx).items.push_back(std::move(x3::_attr(ctx))); };
const auto index_comma = [](auto& ctx) { x3::_val(ctx).is_tuple = true; };
// The ':' turns what came before (or nothing) into the slice's lower bound.
const auto open_slice = [](auto& ctx) {
    ExprPtr& lo = x3::_val(ctx);
    auto slice = make<Slice>(lo ? start_loc(*lo) : x3::_attr(ctx)->loc);
    slice->lo = std::move(lo);
    x3::_val(ctx) = std::move(slice);
};
const auto slice_hi = [](auto& ctx) { x3::_val(ctx)->template as<Slice>().hi = std::move(x3::_attr(ctx)); };
const auto slice_step = [](auto& ctx) { x3::_val(ctx)->template as<Slice>().step = std::move(x3::_attr(ctx)); };

// Parameters (in a ParamList _val).
// The forms of docs/language.md "Calls": plain, then `*args` or a bare `*`,
// keyword-only ones, then `**kwargs` last.
struct ParamList {
    std::vector<Param> params;
    std::unordered_set<std::string_view> names;
    bool seen_default = false;
    It star = nullptr;          // the `*` (of *args, or bare): later parameters are keyword-only
    bool bare_star = false;     // a bare `*` not yet followed by a keyword-only parameter
    bool seen_double = false;   // a `**kwargs`: it must be last
};
void add_param(ParseState& s, ParamList& list, It name, ParamForm form) {
    if (list.seen_double) fail(s, name, "a parameter follows the '**' parameter (it must be last)");
    if (!list.names.insert(name->text).second) fail(s, name, "duplicate parameter '" + name->text + "'");
    Param p;
    p.name = name->text;
    p.loc = name->loc;
    p.form = form;
    list.params.push_back(std::move(p));
}
const auto param_name = [](auto& ctx) {
    It name = x3::_attr(ctx);
    ParamList& list = x3::_val(ctx);
    ParseState& s = state_of(ctx);
    // (keyword-only parameters may go without a default after ones with one, as Python's)
    if (list.seen_default && !list.star && next_token(ctx)->kind != Tok::Assign)
        fail(s, name, "parameter '" + name->text + "' without a default follows a parameter with a default");
    add_param(s, list, name, list.star ? ParamForm::KeywordOnly : ParamForm::Plain);
    list.bare_star = false;
};
const auto param_star = [](auto& ctx) {
    It star = x3::_attr(ctx);
    ParamList& list = x3::_val(ctx);
    if (list.seen_double) fail(state_of(ctx), star, "a parameter follows the '**' parameter (it must be last)");
    if (list.star) fail(state_of(ctx), star, "only one '*' parameter is allowed");
    list.star = star;
    list.bare_star = true;
};
const auto param_star_name = [](auto& ctx) {
    add_param(state_of(ctx), x3::_val(ctx), x3::_attr(ctx), ParamForm::VarArgs);
    x3::_val(ctx).bare_star = false;
};
const auto param_double_star_name = [](auto& ctx) {
    ParamList& list = x3::_val(ctx);
    if (list.bare_star) fail(state_of(ctx), list.star, "a bare '*' must be followed by a keyword-only parameter");
    add_param(state_of(ctx), list, x3::_attr(ctx), ParamForm::VarKeywords);
    list.seen_double = true;
};
const auto params_done = [](auto& ctx) {
    ParamList& list = x3::_val(ctx);
    if (list.bare_star) fail(state_of(ctx), list.star, "a bare '*' must be followed by a keyword-only parameter");
};
const auto param_default = [](auto& ctx) {
    x3::_val(ctx).params.back().default_value = std::move(x3::_attr(ctx));
    x3::_val(ctx).seen_default = true;
};

// ---- statements

const auto set_header = [](auto& ctx) { state_of(ctx).header = x3::_attr(ctx); };

const auto pass_node = [](auto& ctx) { x3::_val(ctx) = make<Pass>(x3::_attr(ctx)->loc); };
const auto break_node = [](auto& ctx) {
    It t = x3::_attr(ctx);
    ParseState& s = state_of(ctx);
    if (s.loop_depth == 0) s.record(*t, "'break' outside a loop");
    x3::_val(ctx) = make<Break>(t->loc);
};
const auto continue_node = [](auto& ctx) {
    It t = x3::_attr(ctx);
    ParseState& s = state_of(ctx);
    if (s.loop_depth == 0) s.record(*t, "'continue' outside a loop");
    x3::_val(ctx) = make<Continue>(t->loc);
};
const auto return_node = [](auto& ctx) {
    It t = x3::_attr(ctx);
    ParseState& s = state_of(ctx);
    if (s.function_depth == 0) s.record(*t, "'return' outside a function");
    x3::_val(ctx) = make<Return>(t->loc);
};
const auto return_value = [](auto& ctx) { x3::_val(ctx)->template as<Return>().value = std::move(x3::_attr(ctx)); };
// _attr: ('assert', condition)
const auto assert_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    auto s = make<Assert>(at_c<0>(a)->loc);
    s->cond = std::move(at_c<1>(a));
    x3::_val(ctx) = std::move(s);
};
const auto assert_msg = [](auto& ctx) { x3::_val(ctx)->template as<Assert>().msg = std::move(x3::_attr(ctx)); };

// A compound statement after ';' or ':' on the same line.
const auto not_compound = [](auto& ctx) {
    It t = next_token(ctx);
    if (starts_compound(t->kind))
        fail(state_of(ctx), t, std::string("a compound statement (") + describe(t->kind) + ") must start on its own line");
};
const auto not_python_only = [](auto& ctx) {
    It t = next_token(ctx);
    if (t->kind != Tok::Name) return;
    Tok next = t[1].kind;
    if (t->text == "yield" && next != Tok::Assign && next != Tok::Dot && next != Tok::LParen && next != Tok::LBracket &&
        next != Tok::Comma && !is_augmented(next))
        fail(state_of(ctx), t, "generators ('yield') are not supported: build and return a list");
    bool looks_like_stmt = next == Tok::Name || next == Tok::Colon || next == Tok::Str;
    if (!looks_like_stmt || std::find(std::begin(kPythonOnly), std::end(kPythonOnly), t->text) == std::end(kPythonOnly)) return;
    ParseState& s = state_of(ctx);
    if (t->text == "from") fail(s, t, "'from ... import' is not supported: use 'import module' and 'module.name'");
    fail(s, t, "'" + t->text + "' statements are not supported in tg");
};

// expr_stmt: the first testlist is an ExprStmt until an '=' or 'op=' follows. _attr: (first token, testlist)
const auto expr_stmt_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    x3::_val(ctx) = make<ExprStmt>(std::move(at_c<1>(a)), at_c<0>(a)->loc);
};
// Each '=': what came before it is a target.
const auto assign_eq = [](auto& ctx) {
    It eq = x3::_attr(ctx);
    StmtPtr& stmt = x3::_val(ctx);
    if (stmt->kind == StmtKind::Expr) {
        auto s = make<Assign>(stmt->loc);
        s->eq_loc = eq->loc;
        s->value = std::move(stmt->template as<ExprStmt>().expr);
        stmt = std::move(s);
    }
    auto& assign = stmt->template as<Assign>();
    if (!state_of(ctx).check_target(*assign.value, true, true)) bail(eq);
    assign.targets.push_back(std::move(assign.value));
};
const auto assign_value = [](auto& ctx) { x3::_val(ctx)->template as<Assign>().value = std::move(x3::_attr(ctx)); };
const auto augmented_op = [](auto& ctx) {
    It op = x3::_attr(ctx);
    StmtPtr& stmt = x3::_val(ctx);
    ExprPtr target = std::move(stmt->template as<ExprStmt>().expr);
    ParseState& s = state_of(ctx);
    if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
        s.record_at(start_loc(*target), "an augmented assignment needs a single target (a name or an index)");
        bail(op);
    }
    if (!s.check_target(*target, true, false)) bail(op);
    auto aug = make<AugAssign>(stmt->loc);
    aug->op = binary_op(op->kind);
    aug->op_loc = op->loc;
    aug->target = std::move(target);
    stmt = std::move(aug);
};
const auto augmented_value = [](auto& ctx) { x3::_val(ctx)->template as<AugAssign>().value = std::move(x3::_attr(ctx)); };
const auto no_annotation = [](auto& ctx) {
    if (x3::_val(ctx)->template as<ExprStmt>().expr->kind == ExprKind::Name)
        fail(state_of(ctx), next_token(ctx), "type annotations are not supported");
};

// del target (',' target)*: each a name, an index or a tuple/list of them.
// _attr: ('del', the target list)
bool check_del_target(ParseState& s, const Expr& e) {
    if (e.kind == ExprKind::Name || e.kind == ExprKind::Index) return true;
    if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List) {
        const auto& elts = e.kind == ExprKind::Tuple ? e.as<TupleExpr>().elts : e.as<ListExpr>().elts;
        for (const auto& x : elts)
            if (!check_del_target(s, *x)) return false;
        return true;
    }
    s.record_at(start_loc(e), "cannot delete this expression (del takes names and indexes: del x, del xs[i], del d[k])");
    return false;
}
const auto del_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    auto s = make<Delete>(at_c<0>(a)->loc);
    ExprPtr& targets = at_c<1>(a);
    if (!check_del_target(state_of(ctx), *targets)) bail(next_token(ctx));
    // `del a, b` and `del (a, b)` both delete a, then b (Python)
    if (targets->kind == ExprKind::Tuple) {
        for (auto& t : targets->template as<TupleExpr>().elts) s->targets.push_back(std::move(t));
    } else {
        s->targets.push_back(std::move(targets));
    }
    x3::_val(ctx) = std::move(s);
};
// global a, b / nonlocal a, b
const auto global_node = [](auto& ctx) {
    It t = x3::_attr(ctx);
    auto s = make<Global>(t->loc);
    s->is_nonlocal = t->text == "nonlocal";
    if (s->is_nonlocal && state_of(ctx).function_depth == 0)
        state_of(ctx).record(*t, "'nonlocal' outside a function (a module's names are written there directly)");
    x3::_val(ctx) = std::move(s);
};
const auto global_name = [](auto& ctx) {
    auto& g = x3::_val(ctx)->template as<Global>();
    g.names.push_back(x3::_attr(ctx)->text);
    g.name_locs.push_back(x3::_attr(ctx)->loc);
};

// import a [as b], c: one Import per module, located at 'import', each added
// to the line's Block as soon as it is parsed (a later error keeps it).
struct ImportSpec {
    It module = nullptr;
    It alias = nullptr;
};
const auto import_keyword = [](auto& ctx) { state_of(ctx).import_keyword = x3::_attr(ctx); };
const auto import_module = [](auto& ctx) { x3::_val(ctx).module = x3::_attr(ctx); };
const auto import_alias = [](auto& ctx) { x3::_val(ctx).alias = x3::_attr(ctx); };
const auto import_node = [](auto& ctx) {
    const ImportSpec& spec = x3::_attr(ctx);
    auto s = make<Import>(state_of(ctx).import_keyword->loc);
    s->module = spec.module->text;
    s->module_loc = spec.module->loc;
    s->alias = spec.alias ? spec.alias->text : s->module;
    x3::_val(ctx).push_back(std::move(s));
};

// if / elif / else: an `elif` is an If inside the orelse of the previous one.
If& last_if(StmtPtr& root, int* elifs = nullptr) {
    If* last = &root->as<If>();
    int n = 0;
    while (!last->orelse.empty()) {
        last = &last->orelse.back()->as<If>();
        ++n;
    }
    if (elifs) *elifs = n;
    return *last;
}
// _attr: (keyword, condition)
const auto if_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    auto s = make<If>(at_c<0>(a)->loc);
    s->cond = std::move(at_c<1>(a));
    x3::_val(ctx) = std::move(s);
};
const auto elif_keyword = [](auto& ctx) {
    It kw = x3::_attr(ctx);
    int elifs = 0;
    last_if(x3::_val(ctx), &elifs);
    if (elifs + 1 > kMaxElifs)
        fail(state_of(ctx), kw, "too many 'elif' branches (the limit is " + std::to_string(kMaxElifs) + ")");
    state_of(ctx).header = kw;
};
const auto elif_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    auto s = make<If>(at_c<0>(a)->loc);
    s->cond = std::move(at_c<1>(a));
    last_if(x3::_val(ctx)).orelse.push_back(std::move(s));
};
const auto if_body = [](auto& ctx) { last_if(x3::_val(ctx)).body = std::move(x3::_attr(ctx)); };
const auto if_else = [](auto& ctx) { last_if(x3::_val(ctx)).orelse = std::move(x3::_attr(ctx)); };

const auto while_node = [](auto& ctx) {
    auto& a = x3::_attr(ctx);
    auto s = make<While>(at_c<0>(a)->loc);
    s->cond = std::move(at_c<1>(a));
    x3::_val(ctx) = std::move(s);
};
const auto while_body = [](auto& ctx) { x3::_val(ctx)->template as<While>().body = std::move(x3::_attr(ctx)); };
const auto for_node = [](auto& ctx) { x3::_val(ctx) = make<For>(x3::_attr(ctx)->loc); };
const auto for_target = [](auto& ctx) {
    if (!state_of(ctx).check_target(*x3::_attr(ctx), true, true)) bail(next_token(ctx));
    x3::_val(ctx)->template as<For>().target = std::move(x3::_attr(ctx));
};
const auto for_iter = [](auto& ctx) { x3::_val(ctx)->template as<For>().iter = std::move(x3::_attr(ctx)); };
const auto for_body = [](auto& ctx) { x3::_val(ctx)->template as<For>().body = std::move(x3::_attr(ctx)); };

const auto def_node = [](auto& ctx) { x3::_val(ctx) = make<FunctionDef>(x3::_attr(ctx)->loc); };
const auto def_name = [](auto& ctx) {
    auto& d = x3::_val(ctx)->template as<FunctionDef>();
    d.name = x3::_attr(ctx)->text;
    d.name_loc = x3::_attr(ctx)->loc;
};
const auto def_params_action = [](auto& ctx) { x3::_val(ctx)->template as<FunctionDef>().params = std::move(x3::_attr(ctx).params); };
const auto def_body = [](auto& ctx) { x3::_val(ctx)->template as<FunctionDef>().body = std::move(x3::_attr(ctx)); };
// Decorators are collected in a placeholder FunctionDef, then moved to the def.
const auto open_decorators = [](auto& ctx) { x3::_val(ctx) = make<FunctionDef>(Loc{}); };
const auto decorator = [](auto& ctx) {
    x3::_val(ctx)->template as<FunctionDef>().decorators.push_back(std::move(x3::_attr(ctx)));
};
const auto attach_decorators = [](auto& ctx) {
    StmtPtr def = std::move(x3::_attr(ctx));
    def->template as<FunctionDef>().decorators = std::move(x3::_val(ctx)->template as<FunctionDef>().decorators);
    x3::_val(ctx) = std::move(def);
};

const auto no_indented_block = [](auto& ctx) {
    ParseState& s = state_of(ctx);
    It header = s.header;
    // Recorded without abandoning the statement: the header is fine and the
    // next line is most likely a good statement at the outer level.
    s.record(*next_token(ctx), std::string("expected an indented block after ") + describe(header->kind) +
                                   " on line " + std::to_string(header->loc.line));
};
const auto without_if = [](auto& ctx) {
    It t = next_token(ctx);
    fail(state_of(ctx), t, std::string(describe(t->kind)) + " without a matching 'if' (check the indentation)");
};
const auto no_loop_else = [](auto& ctx) {
    It t = next_token(ctx);
    if (t->kind == Tok::Else)
        fail(state_of(ctx), t, std::string("'else' after a ") + describe(x3::_val(ctx)->kind == StmtKind::For ? Tok::For : Tok::While) +
                                   " loop is not supported");
};

// ============================================================== error recovery

// The handler of the statement rules: record the error (unless it was
// recorded when thrown), skip to the next statement, and parse on.
struct recover_at_next_statement {
    template <class Iterator, class Exception, class Ctx>
    x3::error_handler_result on_error(Iterator& first, const Iterator&, const Exception& x, const Ctx& ctx) const {
        ParseState& s = state_of(ctx);
        if (!x.which().empty()) s.record_expected(*x.where(), x.which());
        first = s.synchronize(x.where());
        return x3::error_handler_result::accept;
    }
};

struct statement_class : recover_at_next_statement {};
struct line_suite_class : recover_at_next_statement {};

// ============================================================== rules


// ---- statements
const x3::rule<class module_class, Block> module_rule = "module";
const x3::rule<statement_class, Block> statement = "statement";
const x3::rule<class suite_class, Block> suite = "suite";
const x3::rule<line_suite_class, Block> line_suite = "line suite";
const x3::rule<class simple_stmt_class, StmtPtr> simple_stmt = "simple statement";
const x3::rule<class expr_stmt_class, StmtPtr> expr_stmt = "expression statement";
const x3::rule<class import_spec_class, ImportSpec> import_spec = "module";
const x3::rule<class if_stmt_class, StmtPtr> if_stmt = "if";
const x3::rule<class while_stmt_class, StmtPtr> while_stmt = "while";
const x3::rule<class for_stmt_class, StmtPtr> for_stmt = "for";
const x3::rule<class def_stmt_class, StmtPtr> def_stmt = "def";
const x3::rule<class decorated_class, StmtPtr> decorated = "decorated def";
const x3::rule<class def_params_class, ParamList> def_params = "parameters";
const x3::rule<class lambda_params_class, ParamList> lambda_params = "parameters";

// ---- expressions
const x3::rule<class testlist_class, ExprPtr> testlist = "testlist";
const x3::rule<class test_class, ExprPtr> test = "test";
const x3::rule<class lambda_class, ExprPtr> lambda = "lambda";
const x3::rule<class or_test_class, ExprPtr> or_test = "or_test";
const x3::rule<class and_test_class, ExprPtr> and_test = "and_test";
const x3::rule<class not_test_class, ExprPtr> not_test = "not_test";
const x3::rule<class comparison_class, ExprPtr> comparison = "comparison";
const x3::rule<class or_expr_class, ExprPtr> or_expr = "or_expr";
const x3::rule<class xor_expr_class, ExprPtr> xor_expr = "xor_expr";
const x3::rule<class and_expr_class, ExprPtr> and_expr = "and_expr";
const x3::rule<class shift_expr_class, ExprPtr> shift_expr = "shift_expr";
const x3::rule<class arith_class, ExprPtr> arith = "arith";
const x3::rule<class term_class, ExprPtr> term = "term";
const x3::rule<class factor_class, ExprPtr> factor = "factor";
const x3::rule<class power_class, ExprPtr> power = "power";
const x3::rule<class postfix_class, ExprPtr> postfix = "postfix";
const x3::rule<class atom_class, ExprPtr> atom = "atom";
const x3::rule<class paren_class, ExprPtr> paren = "paren";
const x3::rule<class list_display_class, ExprPtr> list_display = "list";
const x3::rule<class dict_display_class, ExprPtr> dict_display = "dict";
const x3::rule<class call_args_class, CallArgs> call_args = "arguments";
const x3::rule<class index_items_class, IndexItems> index_items = "index";
const x3::rule<class subscript_class, ExprPtr> subscript = "subscript";
const x3::rule<class target_list_class, ExprPtr> target_list = "target list";
const x3::rule<class fstring_field_class, ExprPtr> fstring_field = "f-string field";

// ---------------------------------------------------------------- statements

// module: (DEDENT | statement)* END
const auto module_rule_def = *(!lit(Tok::End) >> (lit(Tok::Dedent) | statement[append_all]));

// simple_line: simple_stmt (';' simple_stmt)* [';'] NEWLINE     (into the rule's Block)
// import_stmt: 'import' NAME ['as' NAME] (',' NAME ['as' NAME])*
const auto import_stmt = tok(Tok::Import)[import_keyword] >> (import_spec[import_node] % lit(Tok::Comma));
const auto simple_item = import_stmt | simple_stmt[push_back];
const auto simple_line =
    simple_item >> *(lit(Tok::Semicolon) >> !any_of(is_line_end) >> simple_item) >> -lit(Tok::Semicolon) >>
    (&lit(Tok::End) | (x3::expect[lit(Tok::Newline, "end of line")]));

// statement: if_stmt | while_stmt | for_stmt | funcdef | decorated | simple_line
// One line's statements, or one compound statement; on an error, recovery
// skips to the next statement (recover_at_next_statement).
const auto statement_def =
    if_stmt[push_back] | while_stmt[push_back] | for_stmt[push_back] | def_stmt[push_back] | decorated[push_back] |
    unexpected_indent |
    (&(lit(Tok::Elif) | lit(Tok::Else)) >> x3::eps[without_if]) |
    simple_line;

// suite: NEWLINE INDENT statement+ DEDENT | simple_line
const auto suite_def =
    (!lit(Tok::Newline) >> line_suite[set_val]) |
    (lit(Tok::Newline) >> ((lit(Tok::Indent) >> *(!any_of(is_block_end) >> statement[append_all]) >> -lit(Tok::Dedent)) |
                           x3::eps[no_indented_block]));

// A body on the header's line recovers by itself, so that a following
// `elif`/`else` still finds its `if`.
const auto line_suite_def = simple_line;

// simple_stmt: 'pass' | 'break' | 'continue' | return_stmt | assert_stmt | del_stmt | global_stmt | expr_stmt
// return_stmt: 'return' [testlist];  assert_stmt: 'assert' test [',' test]
// del_stmt: 'del' target_list;  global_stmt: ('global' | 'nonlocal') NAME (',' NAME)*
const auto simple_stmt_def =
    tok(Tok::Pass)[pass_node] |
    tok(Tok::Break)[break_node] |
    tok(Tok::Continue)[continue_node] |
    (tok(Tok::Return)[return_node] >> -(!(any_of(is_line_end) | lit(Tok::Semicolon)) >> testlist[return_value])) |
    ((tok(Tok::Assert) >> test)[assert_node] >> -(lit(Tok::Comma) >> test[assert_msg])) |
    (soft_keyword_parser("del", true) >> target_list)[del_node] |
    ((soft_keyword_parser("global", false)[global_node] | soft_keyword_parser("nonlocal", false)[global_node]) >>
     (x3::expect[tok(Tok::Name, "a name")][global_name] % lit(Tok::Comma))) |
    (x3::eps[not_compound] >> x3::eps[not_python_only] >> expr_stmt[set_val]);

// expr_stmt: testlist ('=' testlist)* | target augop testlist
const auto expr_stmt_def =
    (here >> testlist)[expr_stmt_node] >>
    -(+(tok(Tok::Assign)[assign_eq] >> testlist[assign_value]) |
      (any_of(is_augmented)[augmented_op] >> testlist[augmented_value]) |
      (&lit(Tok::Colon) >> x3::eps[no_annotation]));

// import_spec: NAME ['as' NAME]     (one module of an import statement)
const auto import_spec_def =
    (x3::expect[tok(Tok::Name, "a module name")])[import_module] >>
    -(&lit(Tok::Dot) >> error("dotted module names are not supported: 'import util' loads util.tg")) >>
    -(lit(Tok::As) >> x3::expect[tok(Tok::Name, "a name after 'as'")[import_alias]]);

// The ':' after a condition, with a hint for the usual slip `if x = 1:`.
const auto condition_colon =
    (&lit(Tok::Assign) >> error("expected ':' after the condition, found '=' (use '==' to compare)")) |
    x3::expect[lit(Tok::Colon, "':' after the condition")];

// if_stmt: 'if' test ':' suite ('elif' test ':' suite)* ['else' ':' suite]
const auto if_stmt_def =
    (tok(Tok::If)[set_header] >> test >> condition_colon)[if_node] >> suite[if_body] >>
    *((tok(Tok::Elif)[elif_keyword] >> test >> condition_colon)[elif_node] >> suite[if_body]) >>
    -((tok(Tok::Else)[set_header] >> -(&lit(Tok::If) >> error("expected ':' after 'else', found 'if' (write 'elif')")) >>
       x3::expect[lit(Tok::Colon, "':' after 'else'")]) >>
      suite[if_else]);

// while_stmt: 'while' test ':' suite
const auto while_stmt_def =
    (tok(Tok::While)[set_header] >> test >> condition_colon)[while_node] >>
    loop_body[suite[while_body]] >> x3::eps[no_loop_else];

// for_stmt: 'for' target_list 'in' testlist ':' suite
const auto for_stmt_def =
    tok(Tok::For)[set_header][for_node] >> target_list[for_target] >> x3::expect[lit(Tok::In, "'in'")] >> testlist[for_iter] >>
    x3::expect[lit(Tok::Colon, "':' after the iterable")] >> loop_body[suite[for_body]] >> x3::eps[no_loop_else];

// decorated: ('@' test NEWLINE)+ funcdef
const auto decorated_def =
    x3::eps[open_decorators] >> +(lit(Tok::At) >> test[decorator] >> x3::expect[lit(Tok::Newline, "end of line after the decorator")]) >>
    (def_stmt[attach_decorators] | expected("'def' after a decorator"));

// funcdef: 'def' NAME '(' [params] ')' ':' suite
const auto def_stmt_def =
    tok(Tok::Def)[set_header][def_node] >> x3::expect[tok(Tok::Name, "a function name")[def_name]] >>
    x3::expect[lit(Tok::LParen, "'(' after the function name")] >> def_params[def_params_action] >>
    x3::expect[lit(Tok::RParen, "')' or ','")] >> x3::expect[lit(Tok::Colon, "':'")] >> function_body[suite[def_body]];

// params: param (',' param)* [',']     (up to `closer`)
// param: NAME ['=' test] | '*' [NAME] | '**' NAME
template <class Closer>
auto params_of(Closer closer) {
    const auto no_default = -(&lit(Tok::Assign) >> error("a '*' or '**' parameter takes no default"));
    const auto param =
        (lit(Tok::DoubleStar) >> x3::expect[tok(Tok::Name, "a parameter name after '**'")][param_double_star_name] >> no_default) |
        (tok(Tok::Star)[param_star] >> -(tok(Tok::Name)[param_star_name] >> no_default)) |
        ((x3::expect[tok(Tok::Name, "a parameter name")])[param_name] >> -(lit(Tok::Assign) >> test[param_default]));
    return -(!closer >> param >> *(lit(Tok::Comma) >> !closer >> param)) >> -lit(Tok::Comma) >> x3::eps[params_done];
}
const auto def_params_def = params_of(lit(Tok::RParen));
const auto lambda_params_def = params_of(lit(Tok::Colon));

// ---------------------------------------------------------------- expressions

// testlist: test (',' test)* [',']    (a TupleExpr when a comma is written)
const auto testlist_def =
    test[set_val] >>
    -(&lit(Tok::Comma) >> x3::eps[start_tuple] >> *(lit(Tok::Comma) >> &any_of(starts_expression) >> test[tuple_push]) >>
      -lit(Tok::Comma));

// test: lambda | or_test ['if' or_test 'else' test]
const auto test_def =
    nest[lambda[set_val] |
         (or_test[set_val] >> -((tok(Tok::If) >> or_test >> x3::expect[lit(Tok::Else, "'else' in the conditional expression")]) >> test)[if_exp_node])];

// lambda: 'lambda' [params] ':' test
const auto lambda_def = (tok(Tok::Lambda) >> lambda_params >> x3::expect[lit(Tok::Colon, "':' after the lambda's parameters")] >> test)[lambda_node];

// or_test: and_test ('or' and_test)*;  and_test: not_test ('and' not_test)*
const auto or_test_def = and_test[set_val] >> *((tok(Tok::Or) >> grow >> and_test)[bool_op_node]);
const auto and_test_def = not_test[set_val] >> *((tok(Tok::And) >> grow >> not_test)[bool_op_node]);

// not_test: 'not' not_test | comparison
const auto not_test_def = (&lit(Tok::Not) >> nest[(tok(Tok::Not) >> not_test)[unary_node]]) | comparison[set_val];

// comparison: or_expr (('==' | '!=' | '<' | '<=' | '>' | '>=') or_expr)*
// `a < b < c` is one Compare node (Python's chained comparison). Python's
// `in`, `not in` and `is` get a plain message.
const auto comparison_def =
    or_expr[set_val] >>
    -((any_of(is_compare) >> grow >> or_expr)[compare_node] >> *((any_of(is_compare) >> grow >> or_expr)[compare_more]));

// or_expr: xor_expr ('|' xor_expr)* ... and_expr: shift_expr ('&' shift_expr)*,
// shift_expr: arith (('<<' | '>>') arith)* ... term: factor (('*' | '/' | '//' | '%' | '@') factor)*
// All left-associative.
template <class Operand>
auto left_assoc(Operand operand, bool (*op)(Tok)) {
    return operand[set_val] >> *((any_of(op) >> grow >> operand)[binary_node]);
}
const auto or_expr_def = left_assoc(xor_expr, is_pipe);
const auto xor_expr_def = left_assoc(and_expr, is_caret);
const auto and_expr_def = left_assoc(shift_expr, is_amp);
const auto shift_expr_def = left_assoc(arith, is_shift);
const auto arith_def = left_assoc(term, is_additive);
const auto term_def = left_assoc(factor, is_multiplicative);

// factor: ('-' | '+' | '~') factor | power
const auto factor_def = (&any_of(is_unary) >> nest[(any_of(is_unary) >> factor)[unary_node]]) | power[set_val];

// power: postfix ['**' factor]     (right-associative; -x**2 is -(x**2), 2**-1 is allowed)
const auto power_def = postfix[set_val] >> -(&lit(Tok::DoubleStar) >> nest[(tok(Tok::DoubleStar) >> factor)[binary_node]]);

// postfix: atom (call | index | '.' NAME)*
// call: '(' [arg (',' arg)* [',']] ')';  index: '[' subscript (',' subscript)* [','] ']'
const auto postfix_def =
    atom[set_val] >>
    *((&lit(Tok::LParen) >> grow >> lit(Tok::LParen) >> call_args[call_node] >> x3::expect[lit(Tok::RParen, "')' or ','")]) |
      (&lit(Tok::LBracket) >> grow >> tok(Tok::LBracket)[open_index] >> index_items[index_items_node] >> x3::expect[lit(Tok::RBracket, "']' or ','")]) |
      (&lit(Tok::Dot) >> grow >> lit(Tok::Dot) >> x3::expect[tok(Tok::Name, "an attribute name after '.'")[attribute_node]]));

// arg: NAME '=' test | test | '*' test | '**' test
const auto argument =
    (tok(Tok::DoubleStar) >> test)[double_starred_arg] |
    (tok(Tok::Star) >> test)[starred_arg] |
    ((tok(Tok::Name) >> lit(Tok::Assign))[keyword_name] >> test[keyword_value]) |
    (here[positional_allowed] >> test[positional_arg] >> -(&lit(Tok::For) >> error(kNoGenerators)));
const auto call_args_def = -(!lit(Tok::RParen) >> argument >> *(lit(Tok::Comma) >> !lit(Tok::RParen) >> argument)) >> -lit(Tok::Comma);

const auto index_items_def =
    (&lit(Tok::RBracket) >> error("an index needs at least one item")) |
    (subscript[index_item] >> *(lit(Tok::Comma)[index_comma] >> !lit(Tok::RBracket) >> subscript[index_item]) >>
     -lit(Tok::Comma)[index_comma]);

// subscript: '...' | test | [test] ':' [test] [':' [test]]
const auto slice_rest =
    tok(Tok::Colon)[open_slice] >> -(!any_of(is_slice_end) >> test[slice_hi]) >>
    -(lit(Tok::Colon) >> -(!any_of(is_slice_end) >> test[slice_step]));
const auto subscript_def =
    tok(Tok::Ellipsis)[ellipsis_node] | (&lit(Tok::Colon) >> slice_rest) | (test[set_val] >> -slice_rest);

// atom: NAME | NUMBER | STRING+ | True | False | None | paren | list | dict
const auto atom_def =
    tok(Tok::Name)[name_node] |
    tok(Tok::Int)[int_node] |
    tok(Tok::Float)[float_node] |
    (here >> x3::omit[+any_of(is_string)])[strings_node] |
    tok(Tok::True)[true_node] |
    tok(Tok::False)[false_node] |
    tok(Tok::None)[none_node] |
    paren[set_val] |
    list_display[set_val] |
    dict_display[set_val] |
    (&lit(Tok::Ellipsis) >> error("'...' is allowed only in an index, as in x[..., 0]")) |
    (&lit(Tok::Lambda) >> error("a lambda here must be written in parentheses")) |
    (&lit(Tok::Error) >> error("")) |  // the token's own message
    expected("an expression");

// paren: '(' ')' | '(' test ')' | '(' test ',' [test (',' test)* [',']] ')'
const auto paren_def =
    tok(Tok::LParen)[open_tuple] >>
    (lit(Tok::RParen) |
     (test[tuple_push] >> -(&lit(Tok::For) >> error(kNoGenerators)) >>
      ((&lit(Tok::Comma) >> *(lit(Tok::Comma) >> !lit(Tok::RParen) >> test[tuple_push]) >> -lit(Tok::Comma) >>
        x3::expect[lit(Tok::RParen, "')' or ','")]) |
       x3::expect[lit(Tok::RParen, "')'")][unwrap_paren])));

// list: '[' [test (',' test)* [',']] ']' | '[' test comp_for ']'
// comp_for: 'for' target_list 'in' or_test ('if' or_test)*     (after the 'for', into a ListComp; repeated)
const auto comp_for_rest = target_list[comprehension_target] >> x3::expect[lit(Tok::In, "'in'")] >>
                           or_test[comprehension_iter] >> *((tok(Tok::If) >> or_test)[comprehension_if]);
const auto comprehension = lit(Tok::For)[open_comprehension] >> comp_for_rest >>
                           *(lit(Tok::For)[comprehension_more] >> comp_for_rest) >> x3::expect[lit(Tok::RBracket, "']'")];
const auto list_display_def =
    tok(Tok::LBracket)[open_list] >>
    (lit(Tok::RBracket) |
     (test[list_push] >> ((&lit(Tok::For) >> comprehension) |
                          (*(lit(Tok::Comma) >> !lit(Tok::RBracket) >> test[list_push]) >> -lit(Tok::Comma) >>
                           x3::expect[lit(Tok::RBracket, "']' or ','")]))));

// dict: '{' [test ':' test (',' test ':' test)* [',']] '}' | '{' test ':' test comp_for '}'
// set:  '{' test (',' test)* [','] '}' | '{' test comp_for '}'      (`{}` is an empty dict)
const auto dict_comprehension = lit(Tok::For)[open_dict_comprehension] >> comp_for_rest >>
                                *(lit(Tok::For)[comprehension_more] >> comp_for_rest) >> x3::expect[lit(Tok::RBrace, "'}'")];
const auto set_comprehension = lit(Tok::For)[open_set_comprehension] >> comp_for_rest >>
                               *(lit(Tok::For)[comprehension_more] >> comp_for_rest) >> x3::expect[lit(Tok::RBrace, "'}'")];
const auto dict_colon = x3::expect[lit(Tok::Colon, "':' after the dict key")];
const auto set_rest =
    x3::eps[open_set] >>
    ((&lit(Tok::For) >> set_comprehension) |
     (*(lit(Tok::Comma) >> !lit(Tok::RBrace) >> test[set_push]) >> -lit(Tok::Comma) >> x3::expect[lit(Tok::RBrace, "'}' or ','")]));
const auto dict_rest =
    dict_colon >> test[dict_value_push] >>
    ((&lit(Tok::For) >> dict_comprehension) |
     (*(lit(Tok::Comma) >> !lit(Tok::RBrace) >> test[dict_key_push] >> dict_colon >> test[dict_value_push]) >>
      -lit(Tok::Comma) >> x3::expect[lit(Tok::RBrace, "'}' or ','")]));
const auto dict_display_def =
    tok(Tok::LBrace)[open_dict] >>
    (lit(Tok::RBrace) |
     (test[dict_key_push] >> ((&(lit(Tok::Comma) | lit(Tok::RBrace) | lit(Tok::For)) >> set_rest) | dict_rest)));

// target_list: or_expr (',' or_expr)* [',']     (stops at 'in')
const auto target_list_def =
    or_expr[set_val] >>
    -(&lit(Tok::Comma) >> x3::eps[start_tuple] >> *(lit(Tok::Comma) >> !lit(Tok::In) >> or_expr[tuple_push]) >> -lit(Tok::Comma));

// An f-string's replacement field: a testlist, then the end of the field.
const auto fstring_field_def = testlist[set_val] >> (&lit(Tok::End) | expected("'}' to end the f-string field"));

BOOST_SPIRIT_DEFINE(module_rule, statement, suite, line_suite, simple_stmt, expr_stmt, import_spec, if_stmt,
                    while_stmt, for_stmt, def_stmt, decorated, def_params, lambda_params)
BOOST_SPIRIT_DEFINE(testlist, test, lambda, or_test, and_test, not_test, comparison, or_expr, xor_expr, and_expr, shift_expr, arith,
                    term, factor, power, postfix, atom, paren, list_display, dict_display, call_args, index_items, subscript,
                    target_list, fstring_field)

// ============================================================== entry points

// A replacement field is lexed in place (so its locations are real) and parsed
// as a testlist; {x!r} becomes repr(x), {x!s} str(x).
ExprPtr parse_fstring_field(ParseState& s, const FStrPiece& piece, It resume) {
    LexResult sub = tokenize_fragment(*s.source, piece.expr_begin, piece.expr_end, piece.expr_loc);
    struct InField {
        ParseState& s;
        explicit InField(ParseState& st) : s(st) { ++s.fstring_field; }
        ~InField() { --s.fstring_field; }
    } in_field(s);
    It first = sub.tokens.data();
    It last = first + sub.tokens.size();
    ExprPtr e;
    try {
        x3::parse(first, last, x3::with<state_tag>(s)[fstring_field], e);
    } catch (const x3::expectation_failure<It>& x) {
        // Report inside the field; the statement goes on after the string.
        if (!x.which().empty()) s.record_expected(*x.where(), x.which());
        bail(resume);
    }
    if (piece.conversion) {
        Loc l = start_loc(*e);
        auto call = make<Call>(l);
        call->callee = make<Name>(piece.conversion == 'r' ? "repr" : "str", l);
        call->args.push_back(std::move(e));
        e = std::move(call);
    }
    return e;
}

// The lowest stack address the grammar's recursion may reach: a margin above
// the end of this thread's stack (null when unknown: the limits alone apply).
const char* find_stack_floor() {
    const StackBounds& b = stack_bounds();
    if (!b.low) return nullptr;
    return b.low + std::min<size_t>(b.size / 4, 512 * 1024);
}

}  // namespace

void parse_module(ParseState& s, Module& module) {
    thread_local const char* const floor = find_stack_floor();
    s.stack_floor = floor;
    It first = s.lexed.tokens.data();
    It last = first + s.lexed.tokens.size();
    x3::parse(first, last, x3::with<state_tag>(s)[module_rule], module.body);
}

}  // namespace tg::lang::detail
