// lang::parse: the entry point, and the parse state the grammar's actions
// share: syntax error messages, recovery, assignment-target checks.
// The grammar itself is in lang/grammar.cpp.
#include "lang/parser.hpp"

#include <new>

#include "lang/parser_impl.hpp"

namespace tg::lang {

namespace detail {

ParseState::ParseState(SourcePtr src, std::vector<SyntaxError>& errs)
    : source(std::move(src)), errors(errs), lexed(tokenize(*source)) {}

std::string ParseState::found(const Token& t) const {
    std::string_view text(source->text().data() + t.begin, t.end - t.begin);
    switch (t.kind) {
        case Tok::Name: return "name '" + t.text + "'";
        case Tok::Int: return "integer " + std::string(text);
        case Tok::Float: return "float " + std::string(text);
        case Tok::Str: case Tok::FStr: return "string " + std::string(text.substr(0, 40)) + (text.size() > 40 ? "..." : "");
        case Tok::End:
            if (in_fstring_field()) return "the end of the f-string field";
            return describe(t.kind);
        default: return describe(t.kind);
    }
}

void ParseState::record(const Token& at, std::string message) {
    SyntaxError e;
    e.loc = at.loc;
    e.message = std::move(message);
    if (at.kind == Tok::Error) e.message = at.text;
    bool at_end = !in_fstring_field() &&
                  (at.kind == Tok::End || (at.kind == Tok::Dedent && at.begin >= source->text().size()));
    e.unexpected_eof = at_end || (at.kind == Tok::Error && at.at_eof);
    // Everything after a bracket that is never closed is inside it: the one
    // useful message is about the bracket (and the REPL should read on).
    if (lexed.unclosed && at.begin > lexed.unclosed->offset) {
        // (A lexer error inside the bracket, like an unterminated string, is more
        // precise: it is reported instead.)
        if (unclosed_reported) return;
        unclosed_reported = true;
        if (at.kind != Tok::Error) {
            e.loc = lexed.unclosed->loc;
            e.message = unclosed_message();
            e.unexpected_eof = true;
        }
    }
    errors.push_back(std::move(e));
}

std::string ParseState::unclosed_message() const {
    return std::string("'") + lexed.unclosed->bracket + "' was never closed";
}

void ParseState::finish() {
    // A bracket never closed inside a block skipped after another error.
    if (lexed.unclosed && !unclosed_reported) {
        unclosed_reported = true;
        errors.push_back({lexed.unclosed->loc, unclosed_message(), true});
    }
}

void ParseState::record_at(Loc loc, std::string message) {
    Token t;
    t.kind = Tok::Name;  // any ordinary kind: the message is used as given
    t.loc = loc;
    t.begin = t.end = source->offset_of(loc);
    record(t, std::move(message));
}

void ParseState::record_expected(const Token& at, const std::string& what) {
    record(at, "expected " + what + ", found " + found(at));
}

const Token* ParseState::synchronize(const Token* it) const {
    while (it->kind != Tok::Newline && it->kind != Tok::End && it->kind != Tok::Dedent) ++it;
    if (it->kind == Tok::Newline) {
        ++it;
        if (it->kind == Tok::Indent) it = skip_block(it);
    }
    return it;
}

const Token* ParseState::skip_block(const Token* it) const {
    int depth = 0;
    do {
        if (it->kind == Tok::Indent) ++depth;
        else if (it->kind == Tok::Dedent) --depth;
        if (it->kind == Tok::End) return it;
        ++it;
    } while (depth > 0);
    return it;
}

bool ParseState::check_target(const Expr& e, bool allow_index, bool allow_tuple) {
    const char* what = nullptr;
    switch (e.kind) {
        case ExprKind::Name: return true;
        case ExprKind::Index:
            if (allow_index) return true;
            what = "an index here";
            break;
        case ExprKind::Tuple:
            if (allow_tuple) {
                for (const auto& elt : e.as<TupleExpr>().elts)
                    if (!check_target(*elt, allow_index, true)) return false;
                return true;
            }
            what = "a tuple here";
            break;
        case ExprKind::List:
            if (allow_tuple) {
                for (const auto& elt : e.as<ListExpr>().elts)
                    if (!check_target(*elt, allow_index, true)) return false;
                return true;
            }
            what = "a list here";
            break;
        case ExprKind::Attribute: what = "an attribute"; break;
        case ExprKind::Call: what = "a function call"; break;
        case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::FString:
        case ExprKind::Bool: case ExprKind::NoneLit: case ExprKind::Ellipsis: what = "a literal"; break;
        case ExprKind::ListComp:
            what = e.as<ListComp>().key ? "a dict comprehension" : e.as<ListComp>().is_set ? "a set comprehension" : "a list comprehension";
            break;
        case ExprKind::Dict: what = "a dict"; break;
        case ExprKind::Set: what = "a set"; break;
        case ExprKind::Lambda: what = "a lambda"; break;
        default: what = "an expression"; break;
    }
    record_at(start_loc(e), std::string("cannot assign to ") + what);
    return false;
}

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

}  // namespace detail

ParseResult parse(SourcePtr source) {
    ParseResult result;
    result.module = std::make_unique<Module>();
    if (!source) source = std::make_shared<const Source>("<input>", "");
    result.module->source = source;
    try {
        detail::ParseState state(source, result.errors);
        detail::parse_module(state, *result.module);
        state.finish();
    } catch (const std::bad_alloc&) {
        result.errors.push_back({Loc{1, 1}, "out of memory while parsing", false});
    }
    return result;
}

Diagnostic to_diagnostic(const SyntaxError& e, const SourcePtr& source) {
    Diagnostic d;
    d.message = e.message;
    d.source = source;
    d.loc = e.loc;
    return d;
}

}  // namespace tg::lang
