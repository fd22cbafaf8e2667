// No input may crash the parser (docs/language.md "Errors"): deep nesting, long chains, and
// random or mutated text. Errors must still come back with valid locations.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <sstream>

#include "test_util.hpp"

using namespace tg::lang;
using tg::lang::test::first_error;
using tg::lang::test::parse_text;

namespace {

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

// A small deterministic generator (xorshift), so failures reproduce.
struct Rng {
    uint64_t s;
    uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    size_t below(size_t n) { return static_cast<size_t>(next() % n); }
};

// Parses, prints the (partial) AST, and checks every error location is inside the text.
void survive(const std::string& text) {
    auto src = std::make_shared<const Source>("fuzz.tg", text);
    auto r = parse(src);
    REQUIRE(r.module != nullptr);
    (void)print_ast(*r.module);
    for (const auto& e : r.errors) {
        CHECK(e.loc.line >= 1);
        CHECK(e.loc.line <= src->line_count());
        CHECK(!e.message.empty());
        (void)render(to_diagnostic(e, src));
    }
}

}  // namespace

TEST_CASE("deep nesting is an error, not a stack overflow") {
    CHECK(first_error(repeat("(", 100000) + "1" + repeat(")", 100000) + "\n").find("nested too deeply") != std::string::npos);
    CHECK(first_error(repeat("[", 100000) + repeat("]", 100000) + "\n").find("nested too deeply") != std::string::npos);
    CHECK(first_error(repeat("[", 100000) + "\n") == "'[' was never closed");
    CHECK(first_error("x = " + repeat("-", 100000) + "1\n").find("nested too deeply") != std::string::npos);
    CHECK(first_error("x = " + repeat("not ", 100000) + "1\n").find("nested too deeply") != std::string::npos);
    CHECK(first_error("x = " + repeat("lambda: ", 100000) + "1\n").find("nested too deeply") != std::string::npos);
    CHECK(first_error("x = 2" + repeat(" ** 2", 100000) + "\n").find("nested too deeply") != std::string::npos);
    CHECK(first_error("x = " + repeat("f(", 100000) + "\n") == "'(' was never closed");
    CHECK(first_error(repeat("f\"{", 3000) + "\n").size() > 0);
}

TEST_CASE("very long lines are lexed in linear time") {
    // Each of these takes seconds if locations are recomputed from the line start.
    CHECK(first_error("x = [" + repeat("1, ", 300000) + "]\n").empty());
    CHECK(first_error("s = f'" + repeat("{x}", 100000) + "'\n").empty());
    CHECK(first_error(repeat("(]", 100000) + "\n").find("does not match") != std::string::npos);
}

TEST_CASE("long operator chains are limited too (the AST is walked recursively)") {
    CHECK(first_error("x = 1" + repeat(" + 1", 100000) + "\n").find("too deep") != std::string::npos);
    CHECK(first_error("x = y" + repeat("[0]", 100000) + "\n").find("too deep") != std::string::npos);
    CHECK(first_error("x = y" + repeat(".a", 100000) + "\n").find("too deep") != std::string::npos);
    CHECK(first_error("x = a" + repeat(" or a", 100000) + "\n").find("too deep") != std::string::npos);
    // Ordinary long expressions are fine.
    CHECK(first_error("x = 1" + repeat(" + 1", 500) + "\n").empty());
}

TEST_CASE("block nesting: 100 levels is the limit, long elif chains are bounded") {
    std::string ok, deep;
    for (int i = 0; i < 99; ++i) ok += std::string(i * 1, ' ') + "if x:\n";
    ok += std::string(99, ' ') + "pass\n";
    CHECK(first_error(ok).empty());
    for (int i = 0; i < 150; ++i) deep += std::string(i, ' ') + "if x:\n";
    deep += std::string(150, ' ') + "pass\n";
    CHECK(first_error(deep).find("too many levels of indentation") != std::string::npos);
    CHECK(first_error("if a:\n    pass\n" + repeat("elif a:\n    pass\n", 2000)).find("too many 'elif'") != std::string::npos);
}

TEST_CASE("random text never crashes the parser") {
    const std::vector<std::string> pieces = {
        "(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "+", "-", "*", "**", "/", "//", "%", "@", "<", ">=",
        "==", "!", "~", "&", "|", "^", "#", "'", "\"", "\\", "\n", " ", "    ", "\t", "0", "1.5", "1e", "_",
        "x", "f", "f\"", "{x}", "if", "elif", "else", "def", "for", "in", "while", "lambda", "return", "and",
        "not", "None", "...", ";", "é", "\xff", "\r", "import", "as", "assert", "break", "0x", "1_0",
    };
    Rng rng{0x9E3779B97F4A7C15ull};
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        size_t n = rng.below(40);
        for (size_t j = 0; j < n; ++j) text += pieces[rng.below(pieces.size())];
        CAPTURE(text);
        survive(text);
    }
}

TEST_CASE("random bytes never crash the parser") {
    Rng rng{12345};
    for (int i = 0; i < 5000; ++i) {
        std::string text(rng.below(100), '\0');
        for (auto& c : text) c = static_cast<char>(rng.below(256));
        survive(text);
    }
}

TEST_CASE("mutated real programs never crash the parser") {
    std::vector<std::string> programs;
    for (const char* name : {"../conformance/03_tomato_egg.tg", "../conformance/09_grad.tg",
                             "../conformance/14_break_in_graph.tg", "golden/program.tg"}) {
        std::ifstream f(name);
        std::stringstream ss;
        ss << f.rdbuf();
        if (!ss.str().empty()) programs.push_back(ss.str());
    }
    REQUIRE(programs.size() >= 2);
    Rng rng{777};
    const std::string alphabet = "()[]:,.=+-*\n #'\"\\{}fxi0 \t";
    for (int i = 0; i < 5000; ++i) {
        std::string text = programs[rng.below(programs.size())];
        size_t edits = 1 + rng.below(4);
        for (size_t k = 0; k < edits && !text.empty(); ++k) {
            size_t at = rng.below(text.size());
            switch (rng.below(3)) {
                case 0: text.erase(at, 1); break;
                case 1: text.insert(at, 1, alphabet[rng.below(alphabet.size())]); break;
                default: text[at] = alphabet[rng.below(alphabet.size())]; break;
            }
        }
        survive(text);
    }
}
