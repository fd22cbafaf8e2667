#include "lang/lexer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <string>
#include <string_view>

namespace tg::lang {

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

struct KeywordSpelling {
    std::string_view word;
    Tok kind;
};
constexpr KeywordSpelling kKeywords[] = {
    {"def", Tok::Def}, {"return", Tok::Return}, {"if", Tok::If}, {"elif", Tok::Elif},
    {"else", Tok::Else}, {"while", Tok::While}, {"for", Tok::For}, {"in", Tok::In}, {"is", Tok::Is},
    {"break", Tok::Break}, {"continue", Tok::Continue}, {"pass", Tok::Pass}, {"and", Tok::And},
    {"or", Tok::Or}, {"not", Tok::Not}, {"True", Tok::True}, {"False", Tok::False},
    {"None", Tok::None}, {"assert", Tok::Assert}, {"import", Tok::Import}, {"as", Tok::As},
    {"lambda", Tok::Lambda},
};

struct Punct {
    std::string_view text;
    Tok kind;
};
// Longest first, so the first match is the longest one.
constexpr Punct kPuncts[] = {
    {"**=", Tok::DoubleStarAssign}, {"//=", Tok::DoubleSlashAssign}, {"...", Tok::Ellipsis},
    {"<<=", Tok::LShiftAssign}, {">>=", Tok::RShiftAssign}, {"<<", Tok::LShift}, {">>", Tok::RShift},
    {"**", Tok::DoubleStar}, {"//", Tok::DoubleSlash}, {"==", Tok::Eq}, {"!=", Tok::Ne},
    {"<=", Tok::Le}, {">=", Tok::Ge}, {"+=", Tok::PlusAssign}, {"-=", Tok::MinusAssign},
    {"*=", Tok::StarAssign}, {"/=", Tok::SlashAssign}, {"%=", Tok::PercentAssign},
    {"@=", Tok::AtAssign}, {"&=", Tok::AmpAssign}, {"|=", Tok::PipeAssign}, {"^=", Tok::CaretAssign},
    {"(", Tok::LParen}, {")", Tok::RParen}, {"[", Tok::LBracket}, {"]", Tok::RBracket},
    {"{", Tok::LBrace}, {"}", Tok::RBrace}, {",", Tok::Comma}, {":", Tok::Colon},
    {";", Tok::Semicolon}, {".", Tok::Dot}, {"@", Tok::At}, {"=", Tok::Assign},
    {"+", Tok::Plus}, {"-", Tok::Minus}, {"*", Tok::Star}, {"/", Tok::Slash},
    {"%", Tok::Percent}, {"&", Tok::Amp}, {"|", Tok::Pipe}, {"^", Tok::Caret},
    {"~", Tok::Tilde}, {"<", Tok::Lt}, {">", Tok::Gt},
};

// Operators Python users may try that tg does not have: a clear message instead
// of a confusing parse error.
struct Unsupported {
    std::string_view text;
    const char* message;
};
constexpr Unsupported kUnsupported[] = {
    {":=", "assignment expressions (':=') are not supported"},
    {"->", "return annotations are not supported"},
};


int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

class Lexer {
public:
    Lexer(const Source& source, size_t begin, Loc begin_loc, size_t end, bool layout)
        : src_(source), text_(source.text()), cache_offset_(begin), cache_loc_(begin_loc),
          pos_(begin), end_(end), layout_(layout) {
        indents_.push_back({0, false});
        // Real code has fewer than one token per two bytes: one allocation, no
        // regrowth copies (fresh memory is costly to touch; unused capacity is not).
        result_.tokens.reserve((end - begin) / 2 + 16);
    }

    LexResult run() {
        // A UTF-8 byte-order mark some editors write at the start of a file.
        if (layout_ && pos_ == 0 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
        while (true) {
            if (layout_ && at_line_start_ && brackets_.empty()) {
                if (!indentation()) break;  // end of input
            }
            skip_blanks();
            if (pos_ >= end_) break;
            char c = text_[pos_];
            if (c == '#') {
                while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
            } else if (c == '\n') {
                ++pos_;
                end_line();
            } else if (c == '\\') {
                line_continuation();
            } else if (is_ident_start(c)) {
                word();
            } else if (is_digit(c) || (c == '.' && pos_ + 1 < end_ && is_digit(text_[pos_ + 1]))) {
                number();
            } else if (c == '"' || c == '\'') {
                string(pos_, pos_);
            } else {
                punct();
            }
        }
        finish();
        return std::move(result_);
    }

private:
    struct Level {
        size_t width;
        bool phantom;  // pushed to recover from a bad dedent: closes without a Dedent
    };
    struct Open {
        char bracket;
        size_t offset;
        Loc loc;
    };

    Token& emit(Tok kind, size_t begin, size_t end) {
        // `not in` and `is not` are one comparison operator each
        if (!result_.tokens.empty()) {
            Token& prev = result_.tokens.back();
            const bool not_in = kind == Tok::In && prev.kind == Tok::Not;
            const bool is_not = kind == Tok::Not && prev.kind == Tok::Is;
            if (not_in || is_not) {
                prev.kind = not_in ? Tok::NotIn : Tok::IsNot;
                prev.end = end;
                last_end_ = end;
                return prev;
            }
        }
        Token t;
        t.kind = kind;
        t.begin = begin;
        t.end = end;
        t.loc = loc_at(begin);
        result_.tokens.push_back(std::move(t));
        if (kind != Tok::Newline && kind != Tok::Indent && kind != Tok::Dedent) last_end_ = end;
        return result_.tokens.back();
    }
    Token& error(size_t at, std::string message, bool at_eof = false) {
        Token& t = emit(Tok::Error, at, at);
        t.text = std::move(message);
        t.at_eof = at_eof;
        return t;
    }
    // Source::loc_of counts from the start of the line: on one very long line
    // that is quadratic, so walk forward from the previous token instead.
    Loc loc_at(size_t offset) {
        if (offset < cache_offset_) return src_.loc_of(offset);
        for (size_t i = cache_offset_; i < offset; ++i) {
            unsigned char c = static_cast<unsigned char>(text_[i]);
            if (c == '\n') {
                ++cache_loc_.line;
                cache_loc_.col = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++cache_loc_.col;
            }
        }
        cache_offset_ = offset;
        return cache_loc_;
    }

    bool line_has_tokens() const {
        if (result_.tokens.empty()) return false;
        Tok k = result_.tokens.back().kind;
        return k != Tok::Newline && k != Tok::Indent && k != Tok::Dedent;
    }

    void skip_blanks() {
        while (pos_ < end_) {
            char c = text_[pos_];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f') ++pos_;
            else if (c == '\n' && !(layout_ && brackets_.empty())) ++pos_;  // implicit line joining
            else break;
        }
    }

    // At the start of a logical line: skip blank and comment-only lines, then
    // compare the indentation with the open blocks. Returns false at end of input.
    bool indentation() {
        while (true) {
            size_t p = pos_, width = 0;
            std::optional<size_t> tab;
            while (p < end_ && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\f')) {
                if (text_[p] == '\t') {
                    if (!tab) tab = p;
                    width = (width / 8 + 1) * 8;
                } else if (text_[p] == ' ') {
                    ++width;
                }
                ++p;
            }
            if (p >= end_) { pos_ = p; return false; }
            char c = text_[p];
            if (c == '\r' && p + 1 < end_ && text_[p + 1] == '\n') ++p, c = '\n';
            if (c == '\n') { pos_ = p + 1; continue; }
            if (c == '#') {
                while (p < end_ && text_[p] != '\n') ++p;
                pos_ = p;
                continue;
            }
            pos_ = p;
            at_line_start_ = false;
            change_indent(width, p);
            if (tab) error(*tab, "a tab in indentation: indent with spaces");
            return true;
        }
    }

    void change_indent(size_t width, size_t at) {
        if (width > indents_.back().width) {
            if (indents_.size() > kMaxIndentLevels) {
                error(at, "too many levels of indentation (the limit is " + std::to_string(kMaxIndentLevels) + ")");
                indents_.push_back({width, true});
                return;
            }
            indents_.push_back({width, false});
            emit(Tok::Indent, at, at);
            return;
        }
        while (indents_.back().width > width) {
            if (!indents_.back().phantom) emit(Tok::Dedent, at, at);
            indents_.pop_back();
        }
        if (indents_.back().width != width) {
            error(at, "unindent does not match any outer indentation level");
            indents_.push_back({width, true});
        }
    }

    void end_line() {
        if (!layout_ || !brackets_.empty()) return;
        if (line_has_tokens()) emit(Tok::Newline, last_end_, last_end_);
        at_line_start_ = true;
    }

    void line_continuation() {
        size_t p = pos_ + 1;
        if (p < end_ && text_[p] == '\r') ++p;
        if (p < end_ && text_[p] == '\n') {
            pos_ = p + 1;
            return;
        }
        if (p >= end_) {
            error(pos_, "unexpected end of input after a line continuation '\\'", true);
            pos_ = end_;
            return;
        }
        error(pos_, "unexpected character '\\' (a line continuation must end its line)");
        ++pos_;
    }

    void word() {
        size_t b = pos_;
        while (pos_ < end_ && is_ident_char(text_[pos_])) ++pos_;
        std::string_view w(text_.data() + b, pos_ - b);
        if (pos_ < end_ && (text_[pos_] == '"' || text_[pos_] == '\'')) {
            if (w == "f" || w == "F") { fstring(b, pos_); return; }
            if (w == "r" || w == "R" || w == "b" || w == "B" || w == "rb" || w == "br" || w == "fr" ||
                w == "rf" || w == "u" || w == "U") {
                error(b, "string prefix '" + std::string(w) + "' is not supported");
                skip_to_line_end();
                return;
            }
        }
        for (const auto& k : kKeywords) {
            if (k.word == w) { emit(k.kind, b, pos_); return; }
        }
        emit(Tok::Name, b, pos_).text = std::string(w);
    }

    void skip_to_line_end() {
        while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
    }

    // Digits of `base` with single underscores between them; returns false on a misplaced '_'.
    bool digits(int base, std::string& out, bool underscore_first_ok = false) {
        bool prev_digit = underscore_first_ok;
        while (pos_ < end_) {
            char c = text_[pos_];
            int v = hex_value(c);
            if (v >= 0 && v < base && (base == 16 || is_digit(c))) {
                out += c;
                prev_digit = true;
                ++pos_;
            } else if (c == '_') {
                if (!prev_digit || pos_ + 1 >= end_ || hex_value(text_[pos_ + 1]) < 0 ||
                    hex_value(text_[pos_ + 1]) >= base)
                    return false;
                prev_digit = false;
                ++pos_;
            } else {
                break;
            }
        }
        return true;
    }

    void number() {
        size_t b = pos_;
        auto bad = [&](const std::string& msg) {
            error(b, msg);
            while (pos_ < end_ && (is_ident_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
        };
        // 0x / 0o / 0b integers.
        if (text_[pos_] == '0' && pos_ + 1 < end_) {
            char p = static_cast<char>(text_[pos_ + 1] | 0x20);
            int base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
            if (base) {
                pos_ += 2;
                std::string ds;
                if (!digits(base, ds, true) || ds.empty() || (pos_ < end_ && is_ident_char(text_[pos_])))
                    return bad("invalid integer literal");
                uint64_t v = 0;
                for (char c : ds) {
                    uint64_t d = static_cast<uint64_t>(hex_value(c));
                    if (v > (static_cast<uint64_t>(INT64_MAX) - d) / base) return bad("integer literal is too large for i64");
                    v = v * base + d;
                }
                emit(Tok::Int, b, pos_).int_value = static_cast<int64_t>(v);
                return;
            }
        }
        std::string int_part, frac_part, exp_part;
        bool is_float = false;
        if (!digits(10, int_part)) return bad("invalid decimal literal (misplaced '_')");
        if (pos_ < end_ && text_[pos_] == '.' && !(pos_ + 1 < end_ && text_[pos_ + 1] == '.')) {
            is_float = true;
            ++pos_;
            if (!digits(10, frac_part)) return bad("invalid decimal literal (misplaced '_')");
        }
        if (pos_ < end_ && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            size_t save = pos_;
            ++pos_;
            std::string sign;
            if (pos_ < end_ && (text_[pos_] == '+' || text_[pos_] == '-')) sign = text_[pos_++];
            if (pos_ < end_ && is_digit(text_[pos_])) {
                if (!digits(10, exp_part)) return bad("invalid decimal literal (misplaced '_')");
                exp_part = sign + exp_part;
                is_float = true;
            } else {
                pos_ = save;  // reported just below as an invalid literal
            }
        }
        if (pos_ < end_ && is_ident_char(text_[pos_])) return bad("invalid decimal literal");
        if (!is_float) {
            if (int_part.size() > 1 && int_part[0] == '0' && int_part.find_first_not_of('0') != std::string::npos)
                return bad("leading zeros in decimal integer literals are not permitted");
            int64_t v = 0;
            auto [p, ec] = std::from_chars(int_part.data(), int_part.data() + int_part.size(), v);
            if (ec != std::errc() || p != int_part.data() + int_part.size())
                return bad("integer literal is too large for i64 (the largest is 9223372036854775807)");
            emit(Tok::Int, b, pos_).int_value = v;
            return;
        }
        std::string s = (int_part.empty() ? "0" : int_part) + "." + frac_part;
        if (!exp_part.empty()) s += "e" + exp_part;
        double v = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc::result_out_of_range) {
            // Too large is inf, too small is 0, as in Python.
            bool any_nonzero = (int_part + frac_part).find_first_not_of('0') != std::string::npos;
            bool negative_exp = !exp_part.empty() && exp_part[0] == '-';
            v = (any_nonzero && !negative_exp) ? HUGE_VAL : 0.0;
        } else if (ec != std::errc()) {
            return bad("invalid float literal");
        }
        emit(Tok::Float, b, pos_).float_value = v;
    }

    // Decodes the escape at pos_ (a backslash) into out. On an error, adds an
    // Error token and returns false.
    bool escape(std::string& out) {
        size_t at = pos_;
        ++pos_;
        if (pos_ >= end_) {
            error(at, "unterminated string literal");
            return false;
        }
        char c = text_[pos_++];
        switch (c) {
            case 'n': out += '\n'; return true;
            case 't': out += '\t'; return true;
            case 'r': out += '\r'; return true;
            case '0': out += '\0'; return true;
            case 'a': out += '\a'; return true;
            case 'b': out += '\b'; return true;
            case 'f': out += '\f'; return true;
            case 'v': out += '\v'; return true;
            case '\\': out += '\\'; return true;
            case '\'': out += '\''; return true;
            case '"': out += '"'; return true;
            case '\n': return true;  // backslash-newline inside a string: nothing
            case 'x': case 'u': case 'U': {
                int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
                uint32_t cp = 0;
                for (int i = 0; i < n; ++i) {
                    int h = pos_ < end_ ? hex_value(text_[pos_]) : -1;
                    if (h < 0) {
                        error(at, std::string("truncated \\") + c + " escape: expected " + std::to_string(n) + " hex digits");
                        return false;
                    }
                    cp = cp * 16 + static_cast<uint32_t>(h);
                    ++pos_;
                }
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    error(at, "invalid unicode code point in escape");
                    return false;
                }
                append_utf8(out, cp);
                return true;
            }
            default:
                error(at, "unknown escape sequence '\\" + std::string(1, c) +
                              "' (escapes are \\n \\t \\\\ \\\" \\' \\r \\0 \\xhh \\uhhhh)");
                return false;
        }
    }

    bool triple_quote(size_t q) const {
        return q + 2 < end_ && text_[q + 1] == text_[q] && text_[q + 2] == text_[q];
    }

    // A plain string literal whose token starts at `b` and whose quote is at `q`.
    void string(size_t b, size_t q) {
        char quote = text_[q];
        if (triple_quote(q)) {
            error(b, "triple-quoted strings are not supported");
            skip_to_line_end();
            return;
        }
        pos_ = q + 1;
        std::string value;
        while (true) {
            if (pos_ >= end_ || text_[pos_] == '\n' || (text_[pos_] == '\r' && pos_ + 1 < end_ && text_[pos_ + 1] == '\n')) {
                error(b, "unterminated string literal");
                return;
            }
            char c = text_[pos_];
            if (c == quote) { ++pos_; break; }
            if (c == '\\') {
                if (!escape(value)) { skip_to_line_end(); return; }
                continue;
            }
            value += c;
            ++pos_;
        }
        emit(Tok::Str, b, pos_).text = std::move(value);
    }

    // Skips a string literal inside an f-string field (quote at pos_). False if unterminated.
    bool skip_nested_string() {
        char quote = text_[pos_++];
        while (pos_ < end_ && text_[pos_] != '\n') {
            if (text_[pos_] == '\\') { pos_ += 2; continue; }
            if (text_[pos_++] == quote) return true;
        }
        return false;
    }

    // f"...": literal text and {expr[!r][:spec]} fields.
    void fstring(size_t b, size_t q) {
        char quote = text_[q];
        if (triple_quote(q)) {
            error(b, "triple-quoted strings are not supported");
            skip_to_line_end();
            return;
        }
        pos_ = q + 1;
        std::vector<FStrPiece> pieces;
        std::string text;
        auto flush = [&] {
            if (text.empty()) return;
            FStrPiece piece;
            piece.text = std::move(text);
            pieces.push_back(std::move(piece));
            text.clear();
        };
        while (true) {
            if (pos_ >= end_ || text_[pos_] == '\n' || text_[pos_] == '\r') return (void)fstring_fail(b, "unterminated f-string");
            char c = text_[pos_];
            if (c == quote) { ++pos_; break; }
            if (c == '\\') {
                if (!escape(text)) { skip_to_line_end(); return; }
                continue;
            }
            if (c == '}') {
                if (pos_ + 1 < end_ && text_[pos_ + 1] == '}') { text += '}'; pos_ += 2; continue; }
                return (void)fstring_fail(pos_, "f-string: single '}' is not allowed (write '}}' for a literal brace)");
            }
            if (c != '{') { text += c; ++pos_; continue; }
            if (pos_ + 1 < end_ && text_[pos_ + 1] == '{') { text += '{'; pos_ += 2; continue; }
            flush();
            FStrPiece field;
            if (!fstring_field(quote, field)) return;
            pieces.push_back(std::move(field));
        }
        flush();
        emit(Tok::FStr, b, pos_).pieces = std::move(pieces);
    }

    // An error in an f-string: the rest of the line is skipped. False.
    bool fstring_fail(size_t at, std::string msg) {
        error(at, std::move(msg));
        skip_to_line_end();
        return false;
    }

    // A replacement field {expr[!r][:spec]} of an f-string quoted with
    // `quote`, from its '{' at pos_ to past its '}'. False after an error.
    bool fstring_field(char quote, FStrPiece& field) {
        const size_t open = pos_++;
        field.is_field = true;
        field.expr_begin = pos_;
        field.expr_loc = loc_at(pos_);
        if (!fstring_field_expr(quote, open, field)) return false;
        std::string_view expr(text_.data() + field.expr_begin, field.expr_end - field.expr_begin);
        if (expr.find_first_not_of(" \t") == std::string_view::npos)
            return fstring_fail(open, "f-string: empty expression not allowed");
        if (text_[pos_] == '!') {
            ++pos_;
            if (pos_ < end_ && (text_[pos_] == 'r' || text_[pos_] == 's')) {
                field.conversion = text_[pos_++];
            } else {
                return fstring_fail(pos_, "f-string: invalid conversion character (expected 'r' or 's')");
            }
            if (pos_ >= end_ || (text_[pos_] != ':' && text_[pos_] != '}'))
                return fstring_fail(pos_, "f-string: expecting '}' after the conversion");
        }
        if (text_[pos_] == ':') {
            ++pos_;
            while (pos_ < end_ && text_[pos_] != '}') {
                char s = text_[pos_];
                if (s == '\n' || s == quote) return fstring_fail(open, "f-string: expecting '}' to close this field");
                if (s == '{') return fstring_fail(pos_, "f-string: nested fields in a format spec are not supported");
                field.spec += s;
                ++pos_;
            }
            if (pos_ >= end_) return fstring_fail(open, "f-string: expecting '}' to close this field");
        }
        ++pos_;  // the closing '}'
        return true;
    }

    // The expression part of a field: up to a '}', ':' or '!' outside
    // brackets (field.expr_end). False after an error.
    bool fstring_field_expr(char quote, size_t open, FStrPiece& field) {
        int depth = 0;
        for (;;) {
            if (pos_ >= end_ || text_[pos_] == '\n') return fstring_fail(open, "f-string: expecting '}' to close this field");
            char d = text_[pos_];
            if (d == quote) return fstring_fail(open, "f-string: expecting '}' to close this field");
            if (d == '\\') return fstring_fail(pos_, "f-string: an expression part cannot include a backslash");
            if (d == '#') return fstring_fail(pos_, "f-string: an expression part cannot include '#'");
            if (d == '"' || d == '\'') {
                if (!skip_nested_string()) return fstring_fail(open, "f-string: unterminated string in a field");
                continue;
            }
            if (d == '(' || d == '[' || d == '{') { ++depth; ++pos_; continue; }
            if ((d == ')' || d == ']' || d == '}') && depth > 0) { --depth; ++pos_; continue; }
            if (depth == 0 && (d == '}' || d == ':' || (d == '!' && !(pos_ + 1 < end_ && text_[pos_ + 1] == '=')))) {
                field.expr_end = pos_;
                return true;
            }
            if (depth == 0 && d == '=' && pos_ + 1 < end_ && (text_[pos_ + 1] == '}' || text_[pos_ + 1] == ':' || text_[pos_ + 1] == '!') &&
                pos_ > field.expr_begin && std::string_view("=!<>").find(text_[pos_ - 1]) == std::string_view::npos)
                return fstring_fail(pos_, "f-string: the '=' specifier is not supported");
            ++pos_;
        }
    }

    void punct() {
        std::string_view rest(text_.data() + pos_, end_ - pos_);
        for (const auto& u : kUnsupported) {
            if (rest.starts_with(u.text)) {
                error(pos_, u.message);
                pos_ += u.text.size();
                return;
            }
        }
        for (const auto& p : kPuncts) {
            if (!rest.starts_with(p.text)) continue;
            size_t b = pos_;
            pos_ += p.text.size();
            char c = p.text[0];
            if (p.text.size() == 1 && (c == '(' || c == '[' || c == '{')) {
                brackets_.push_back({c, b, loc_at(b)});
            } else if (p.text.size() == 1 && (c == ')' || c == ']' || c == '}')) {
                if (brackets_.empty()) {
                    error(b, std::string("unmatched '") + c + "'");
                    return;
                }
                Open open = brackets_.back();
                brackets_.pop_back();
                char want = open.bracket == '(' ? ')' : open.bracket == '[' ? ']' : '}';
                if (c != want) {
                    Loc l = open.loc;
                    error(b, std::string("closing '") + c + "' does not match '" + open.bracket + "' opened at " +
                                 std::to_string(l.line) + ":" + std::to_string(l.col));
                    return;
                }
            }
            emit(p.kind, b, pos_);
            return;
        }
        // An unexpected character: name it (a whole UTF-8 sequence).
        size_t b = pos_;
        ++pos_;
        while (pos_ < end_ && (static_cast<unsigned char>(text_[pos_]) & 0xC0) == 0x80) ++pos_;
        std::string ch(text_.data() + b, pos_ - b);
        unsigned char lead = static_cast<unsigned char>(ch[0]);
        if (ch.size() == 1 && (lead < 0x20 || lead >= 0x7F)) {  // unprintable or not UTF-8: show the byte
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", lead);
            ch = buf;
        }
        std::string msg = "unexpected character '" + ch + "'";
        if (ch == "!") msg += " (use 'not' for negation)";
        error(b, msg);
    }

    void finish() {
        if (!brackets_.empty()) {
            const Open& o = brackets_.front();
            result_.unclosed = UnclosedBracket{o.bracket, o.loc, o.offset};
        }
        if (layout_) {
            if (line_has_tokens()) emit(Tok::Newline, last_end_, last_end_);
            for (size_t i = indents_.size(); i-- > 1;)
                if (!indents_[i].phantom) emit(Tok::Dedent, end_, end_);
        }
        emit(Tok::End, end_, end_);
    }

    const Source& src_;
    const std::string& text_;
    size_t cache_offset_ = 0;
    Loc cache_loc_{1, 1};
    size_t pos_;
    size_t end_;
    bool layout_;
    bool at_line_start_ = true;
    size_t last_end_ = 0;
    std::vector<Level> indents_;
    std::vector<Open> brackets_;
    LexResult result_;
};

}  // namespace

const char* describe(Tok kind) {
    switch (kind) {
        case Tok::Newline: return "end of line";
        case Tok::Indent: return "an indented block";
        case Tok::Dedent: return "the end of the block";
        case Tok::End: return "end of input";
        case Tok::Error: return "an invalid token";
        case Tok::Name: return "a name";
        case Tok::Int: return "an integer";
        case Tok::Float: return "a float";
        case Tok::Str: return "a string";
        case Tok::FStr: return "an f-string";
        case Tok::Def: return "'def'";
        case Tok::Return: return "'return'";
        case Tok::If: return "'if'";
        case Tok::Elif: return "'elif'";
        case Tok::Else: return "'else'";
        case Tok::While: return "'while'";
        case Tok::For: return "'for'";
        case Tok::In: return "'in'";
        case Tok::Is: return "'is'";
        case Tok::NotIn: return "'not in'";
        case Tok::IsNot: return "'is not'";
        case Tok::Break: return "'break'";
        case Tok::Continue: return "'continue'";
        case Tok::Pass: return "'pass'";
        case Tok::And: return "'and'";
        case Tok::Or: return "'or'";
        case Tok::Not: return "'not'";
        case Tok::True: return "'True'";
        case Tok::False: return "'False'";
        case Tok::None: return "'None'";
        case Tok::Assert: return "'assert'";
        case Tok::Import: return "'import'";
        case Tok::As: return "'as'";
        case Tok::Lambda: return "'lambda'";
        case Tok::LParen: return "'('";
        case Tok::RParen: return "')'";
        case Tok::LBracket: return "'['";
        case Tok::RBracket: return "']'";
        case Tok::LBrace: return "'{'";
        case Tok::RBrace: return "'}'";
        case Tok::Comma: return "','";
        case Tok::Colon: return "':'";
        case Tok::Semicolon: return "';'";
        case Tok::Dot: return "'.'";
        case Tok::Ellipsis: return "'...'";
        case Tok::At: return "'@'";
        case Tok::Assign: return "'='";
        case Tok::Plus: return "'+'";
        case Tok::Minus: return "'-'";
        case Tok::Star: return "'*'";
        case Tok::Slash: return "'/'";
        case Tok::DoubleSlash: return "'//'";
        case Tok::Percent: return "'%'";
        case Tok::DoubleStar: return "'**'";
        case Tok::Amp: return "'&'";
        case Tok::Pipe: return "'|'";
        case Tok::Caret: return "'^'";
        case Tok::Tilde: return "'~'";
        case Tok::LShift: return "'<<'"; case Tok::RShift: return "'>>'";
        case Tok::Eq: return "'=='";
        case Tok::Ne: return "'!='";
        case Tok::Lt: return "'<'";
        case Tok::Le: return "'<='";
        case Tok::Gt: return "'>'";
        case Tok::Ge: return "'>='";
        case Tok::PlusAssign: return "'+='";
        case Tok::MinusAssign: return "'-='";
        case Tok::StarAssign: return "'*='";
        case Tok::SlashAssign: return "'/='";
        case Tok::DoubleSlashAssign: return "'//='";
        case Tok::PercentAssign: return "'%='";
        case Tok::DoubleStarAssign: return "'**='";
        case Tok::AtAssign: return "'@='";
        case Tok::AmpAssign: return "'&='";
        case Tok::PipeAssign: return "'|='";
        case Tok::CaretAssign: return "'^='";
        case Tok::LShiftAssign: return "'<<='"; case Tok::RShiftAssign: return "'>>='";
    }
    return "a token";
}

LexResult tokenize(const Source& source) {
    return Lexer(source, 0, Loc{1, 1}, source.text().size(), true).run();
}

LexResult tokenize_fragment(const Source& source, size_t begin, size_t end, std::optional<Loc> begin_loc) {
    end = std::min(end, source.text().size());
    begin = std::min(begin, end);
    return Lexer(source, begin, begin_loc ? *begin_loc : source.loc_of(begin), end, false).run();
}

}  // namespace tg::lang
