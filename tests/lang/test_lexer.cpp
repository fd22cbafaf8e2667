// The lexer: literals, the indentation pre-pass, implicit line joining, errors.
#include <doctest/doctest.h>

#include <cmath>

#include "test_util.hpp"

using namespace tg::lang;
using tg::lang::test::lex;

namespace {

std::vector<Tok> kinds(const std::string& text) {
    std::vector<Tok> out;
    for (const auto& t : lex(text)) out.push_back(t.kind);
    return out;
}

const Token& first(const std::vector<Token>& ts, Tok k) {
    for (const auto& t : ts)
        if (t.kind == k) return t;
    static Token none;
    return none;
}

}  // namespace

TEST_CASE("integer literals, with underscores and bases") {
    auto ts = lex("0 42 1_000_000 0x_ff 0o17 0b101 9223372036854775807");
    std::vector<int64_t> want = {0, 42, 1000000, 255, 15, 5, INT64_MAX};
    REQUIRE(ts.size() == want.size() + 2);  // + Newline + End
    for (size_t i = 0; i < want.size(); ++i) {
        CHECK(ts[i].kind == Tok::Int);
        CHECK(ts[i].int_value == want[i]);
    }
}

TEST_CASE("float literals are the nearest double") {
    auto ts = lex("1.0 .5 2. 1e-3 6.02e23 1_0.2_5 1e999 1e-999 0.1");
    std::vector<double> want = {1.0, 0.5, 2.0, 0.001, 6.02e23, 10.25, HUGE_VAL, 0.0, 0.1};
    for (size_t i = 0; i < want.size(); ++i) {
        CHECK(ts[i].kind == Tok::Float);
        CHECK(ts[i].float_value == want[i]);
    }
}

TEST_CASE("malformed numbers are error tokens") {
    for (const char* bad : {"1__0", "1_", "007", "1abc", "1e", "0x", "9223372036854775808", "0xffffffffffffffffff"}) {
        CAPTURE(bad);
        CHECK(lex(bad)[0].kind == Tok::Error);
    }
    CHECK(lex("00")[0].kind == Tok::Int);  // zero with leading zeros is fine, as in Python
}

TEST_CASE("strings decode their escapes") {
    auto ts = lex(R"("a\nb" 'it\'s' "tab\there" "q\"q" "back\\slash" "\x41\u00e9")");
    std::vector<std::string> want = {"a\nb", "it's", "tab\there", "q\"q", "back\\slash", "A\xc3\xa9"};
    for (size_t i = 0; i < want.size(); ++i) {
        CHECK(ts[i].kind == Tok::Str);
        CHECK(ts[i].text == want[i]);
    }
}

TEST_CASE("bad strings") {
    CHECK(lex("\"abc")[0].kind == Tok::Error);
    CHECK(lex("\"abc\ndef\"")[0].kind == Tok::Error);
    CHECK(lex(R"("\q")")[0].text.find("unknown escape") != std::string::npos);
    CHECK(lex(R"("""doc""")")[0].text.find("triple-quoted") != std::string::npos);
}

TEST_CASE("keywords and names") {
    auto ts = lex("def return if elif else while for in break continue pass and or not True False None assert import as lambda x _y z9");
    std::vector<Tok> want = {Tok::Def, Tok::Return, Tok::If, Tok::Elif, Tok::Else, Tok::While, Tok::For,
                             Tok::In, Tok::Break, Tok::Continue, Tok::Pass, Tok::And, Tok::Or, Tok::Not,
                             Tok::True, Tok::False, Tok::None, Tok::Assert, Tok::Import, Tok::As, Tok::Lambda,
                             Tok::Name, Tok::Name, Tok::Name};
    for (size_t i = 0; i < want.size(); ++i) CHECK(ts[i].kind == want[i]);
    CHECK(ts[22].text == "_y");
}

TEST_CASE("operators take the longest match") {
    auto k = kinds("a **= b // c ** d //= e @= f ... != <= >= == -= @");
    std::vector<Tok> want = {Tok::Name, Tok::DoubleStarAssign, Tok::Name, Tok::DoubleSlash, Tok::Name,
                             Tok::DoubleStar, Tok::Name, Tok::DoubleSlashAssign, Tok::Name, Tok::AtAssign,
                             Tok::Name, Tok::Ellipsis, Tok::Ne, Tok::Le, Tok::Ge, Tok::Eq, Tok::MinusAssign, Tok::At,
                             Tok::Newline, Tok::End};
    CHECK(k == want);
}

TEST_CASE("indentation becomes Indent/Dedent, blank and comment lines are ignored") {
    auto k = kinds("if a:\n    b\n\n    # note\n    if c:\n        d\ne\n");
    std::vector<Tok> want = {Tok::If, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent, Tok::Name, Tok::Newline,
                             Tok::If, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent, Tok::Name, Tok::Newline,
                             Tok::Dedent, Tok::Dedent, Tok::Name, Tok::Newline, Tok::End};
    CHECK(k == want);
}

TEST_CASE("blocks open at end of input are closed") {
    auto k = kinds("if a:\n  b");  // no final newline
    std::vector<Tok> want = {Tok::If, Tok::Name, Tok::Colon, Tok::Newline, Tok::Indent, Tok::Name, Tok::Newline,
                             Tok::Dedent, Tok::End};
    CHECK(k == want);
}

TEST_CASE("newlines inside brackets and after a backslash join lines") {
    auto k = kinds("f(a,\n      b)\nx = 1 + \\\n    2\n");
    std::vector<Tok> want = {Tok::Name, Tok::LParen, Tok::Name, Tok::Comma, Tok::Name, Tok::RParen, Tok::Newline,
                             Tok::Name, Tok::Assign, Tok::Int, Tok::Plus, Tok::Int, Tok::Newline, Tok::End};
    CHECK(k == want);
}

TEST_CASE("a tab in indentation and a dedent to an unknown column are errors") {
    auto tab = lex("if a:\n\tb\n");
    CHECK(first(tab, Tok::Error).text.find("tab") != std::string::npos);
    CHECK(first(tab, Tok::Error).loc == Loc{2, 1});
    auto bad = lex("if a:\n    b\n  c\n");
    CHECK(first(bad, Tok::Error).text == "unindent does not match any outer indentation level");
    CHECK(first(bad, Tok::Error).loc == Loc{3, 3});
}

TEST_CASE("locations: lines and columns from 1, columns count characters") {
    auto ts = lex("x = 1\n\"é\" + y\n");
    CHECK(ts[0].loc == Loc{1, 1});
    CHECK(ts[2].loc == Loc{1, 5});
    CHECK(ts[4].loc == Loc{2, 1});  // the string
    CHECK(ts[5].loc == Loc{2, 5});  // '+' after a 3-character string holding a 2-byte character
    CHECK(ts[6].loc == Loc{2, 7});
}

TEST_CASE("the Newline token sits right after the line's last token") {
    auto ts = lex("def f(x)   # comment\n");
    const Token& nl = first(ts, Tok::Newline);
    CHECK(nl.loc == Loc{1, 9});
}

TEST_CASE("f-strings are split into text and fields") {
    auto ts = lex(R"(f"a{x}b{y:.4f}{{c}}{z!r}")");
    REQUIRE(ts[0].kind == Tok::FStr);
    const auto& p = ts[0].pieces;
    REQUIRE(p.size() == 6);
    CHECK(p[0].text == "a");
    CHECK(p[1].is_field);
    CHECK(p[1].expr_begin == 4);
    CHECK(p[1].expr_end == 5);
    CHECK(p[2].text == "b");
    CHECK(p[3].spec == ".4f");
    CHECK(p[4].text == "{c}");
    CHECK(p[5].conversion == 'r');
}

TEST_CASE("f-string errors") {
    CHECK(lex(R"(f"{}")")[0].text.find("empty expression") != std::string::npos);
    CHECK(lex(R"(f"a}")")[0].text.find("single '}'") != std::string::npos);
    CHECK(lex(R"(f"{x")")[0].kind == Tok::Error);
    CHECK(lex(R"(f"{x=}")")[0].text.find("'='") != std::string::npos);
}

TEST_CASE("unclosed brackets are reported with the outermost one") {
    Source s("t.tg", "x = [1,\n  (2,\n");
    auto r = tokenize(s);
    REQUIRE(r.unclosed.has_value());
    CHECK(r.unclosed->bracket == '[');
    CHECK(r.unclosed->loc == Loc{1, 5});
}

TEST_CASE("mismatched and unmatched closing brackets") {
    CHECK(lex("(]")[1].text.find("does not match") != std::string::npos);
    CHECK(lex(")")[0].text == "unmatched ')'");
}

TEST_CASE("unexpected characters are named, unprintable bytes as \\xNN") {
    CHECK(lex("$")[0].text == "unexpected character '$'");
    CHECK(lex("\xc3\xa9")[0].text == "unexpected character '\xc3\xa9'");
    CHECK(lex(std::string(1, '\0'))[0].text == "unexpected character '\\x00'");
    CHECK(lex("\xff")[0].text == "unexpected character '\\xff'");
    CHECK(lex("!")[0].text.find("use 'not'") != std::string::npos);
}
