// lang::parse: the entry point, token access, syntax errors and recovery.
#include "lang/parser.hpp"

#include "lang/parser_impl.hpp"

namespace tg::lang {

namespace detail {

Parser::Parser(SourcePtr source, std::vector<SyntaxError>& errors)
    : source_(std::move(source)), errors_(errors), lexed_(tokenize(*source_)), toks_(&lexed_.tokens) {}

// module: statement* END
void Parser::parse_module(Module& module) {
    while (!at(Tok::End)) {
        if (at(Tok::Dedent)) {  // cannot happen with a balanced lexer; never loop on it
            advance();
            continue;
        }
        parse_statement(module.body);
    }
    // A bracket never closed inside a block skipped after another error.
    if (lexed_.unclosed && !unclosed_reported_) {
        unclosed_reported_ = true;
        errors_.push_back({lexed_.unclosed->loc, unclosed_message(), true});
    }
}

Parser::Nest::Nest(Parser& p) : p_(p), tree_(p.tree_) {
    ++p_.nest_;
    ++p_.tree_;
    if (p_.nest_ <= kMaxNesting && p_.tree_ <= kMaxTreeDepth) return;
    // The destructor will not run for a constructor that throws: undo first.
    bool too_nested = p_.nest_ > kMaxNesting;
    --p_.nest_;
    p_.tree_ = tree_;
    if (too_nested)
        p_.fail(p_.cur(), "expression is nested too deeply (the limit is " + std::to_string(kMaxNesting) + " levels)");
    p_.fail(p_.cur(), "expression is too deep (the limit is " + std::to_string(kMaxTreeDepth) + " nested operations)");
}

Parser::Nest::~Nest() {
    --p_.nest_;
    p_.tree_ = tree_;
}

// Operator chains (a + b + c ..., f()()..., x.a.b...) deepen the tree without
// recursion: count each link against the same limit.
void Parser::grow_tree() {
    if (++tree_ > kMaxTreeDepth)
        fail(cur(), "expression is too deep (the limit is " + std::to_string(kMaxTreeDepth) + " nested operations)");
}

const Token& Parser::peek(size_t n) const {
    size_t i = pos_ + n;
    return i < toks_->size() ? (*toks_)[i] : toks_->back();
}

const Token& Parser::advance() {
    const Token& t = cur();
    if (pos_ + 1 < toks_->size()) ++pos_;
    return t;
}

bool Parser::accept(Tok k) {
    if (!at(k)) return false;
    advance();
    return true;
}

const Token& Parser::expect(Tok k, const char* what) {
    if (!at(k)) {
        std::string w = what ? what : describe(k);
        fail(cur(), "expected " + w + ", found " + found(cur()));
    }
    return advance();
}

std::string Parser::found(const Token& t) const {
    std::string_view text(source_->text().data() + t.begin, t.end - t.begin);
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

void Parser::record(const Token& at, std::string message) {
    SyntaxError e;
    e.loc = at.loc;
    e.message = std::move(message);
    if (at.kind == Tok::Error) e.message = at.text;
    bool at_end = !in_fstring_field() &&
                  (at.kind == Tok::End || (at.kind == Tok::Dedent && at.begin >= source_->text().size()));
    e.unexpected_eof = at_end || (at.kind == Tok::Error && at.at_eof);
    // Everything after a bracket that is never closed is inside it: the one
    // useful message is about the bracket (and the REPL should read on).
    // (A lexer error inside the bracket, like an unterminated string, is more
    // precise: it is reported instead.)
    if (lexed_.unclosed && at.begin > lexed_.unclosed->offset) {
        if (unclosed_reported_) return;
        unclosed_reported_ = true;
        if (at.kind != Tok::Error) {
            e.loc = lexed_.unclosed->loc;
            e.message = unclosed_message();
            e.unexpected_eof = true;
        }
    }
    errors_.push_back(std::move(e));
}

std::string Parser::unclosed_message() const {
    return std::string("'") + lexed_.unclosed->bracket + "' was never closed";
}

void Parser::fail(const Token& at, std::string message) {
    record(at, std::move(message));
    throw Bail{};
}

void Parser::fail_at(Loc loc, size_t offset, std::string message) {
    Token t;
    t.kind = Tok::Name;  // any ordinary kind: the message is used as given
    t.loc = loc;
    t.begin = t.end = offset;
    fail(t, std::move(message));
}

void Parser::fail_expected(const char* what) {
    fail(cur(), std::string("expected ") + what + ", found " + found(cur()));
}

// After an error: skip the rest of the logical line, and the indented block
// that follows it (it belonged to the broken header).
void Parser::synchronize() {
    while (!at(Tok::Newline) && !at(Tok::End) && !at(Tok::Dedent)) advance();
    if (accept(Tok::Newline) && at(Tok::Indent)) skip_block();
}

// Indent ... matching Dedent.
void Parser::skip_block() {
    int depth = 0;
    do {
        if (at(Tok::Indent)) ++depth;
        else if (at(Tok::Dedent)) --depth;
        if (at(Tok::End)) return;
        advance();
    } while (depth > 0);
}

}  // namespace detail

ParseResult parse(SourcePtr source) {
    ParseResult result;
    result.module = std::make_unique<Module>();
    if (!source) source = std::make_shared<const Source>("<input>", "");
    result.module->source = source;
    try {
        detail::Parser parser(source, result.errors);
        parser.parse_module(*result.module);
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
