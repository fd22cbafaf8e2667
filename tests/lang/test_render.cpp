// How error reports show hostile source text (item 7): control
// bytes escaped (a NUL used to cut the report, an ESC reached the terminal),
// huge lines cut around the caret.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "lang/diagnostics.hpp"

using namespace tg::lang;

namespace {
std::string report(std::string text, Loc loc, std::string message = "bad") {
    auto src = std::make_shared<Source>("t.tg", std::move(text));
    return render(Diagnostic{std::move(message), src, loc, {}});
}
}  // namespace

TEST_CASE("control bytes in the echoed line are escaped and the caret still lines up") {
    std::string text = "x = \"a";
    text += '\0';
    text += "b\" + \x1b[31m\n";
    CHECK(report(text, {1, 12}) ==
          "t.tg:1:12: error: bad\n"
          "    1 | x = \"a\\x00b\" + \\x1b[31m\n"
          "      | " + std::string(14, ' ') + "^\n");
    CHECK(report(text, {1, 13}) ==
          "t.tg:1:13: error: bad\n"
          "    1 | x = \"a\\x00b\" + \\x1b[31m\n"
          "      | " + std::string(15, ' ') + "^\n");
    // tabs stay tabs; DEL and C1 controls are escaped too
    CHECK(report("\tx\x7f = \xc2\x9b\n", {1, 6}) ==
          "t.tg:1:6: error: bad\n"
          "    1 | \tx\\x7f = \\u009b\n"
          "      | \t" + std::string(7, ' ') + "^\n");
}

TEST_CASE("control bytes in the message and in the file name are escaped") {
    auto src = std::make_shared<Source>("a\x1b.tg", "x\n");
    CHECK(render(Diagnostic{"unexpected character '\x1b'", src, {1, 1}, {}}) ==
          "a\\x1b.tg:1:1: error: unexpected character '\\x1b'\n"
          "    1 | x\n"
          "      | ^\n");
}

TEST_CASE("a huge line is cut to a window around the caret") {
    std::string text = "y = " + std::string(5000, '1') + " +\n";
    std::string r = report(text, {1, 3000});
    std::string expected = "t.tg:1:3000: error: bad\n    1 | ..." + std::string(401, '1') + "...\n      |    " +
                           std::string(200, ' ') + "^\n";
    CHECK(r == expected);
    // at the start of the line: cut on the right only
    r = report(text, {1, 1});
    CHECK(r == "t.tg:1:1: error: bad\n    1 | y = " + std::string(197, '1') + "...\n      | ^\n");
    // lines up to 1000 characters are shown whole
    std::string ok = std::string(999, 'a') + "\n";
    CHECK(report(ok, {1, 999}).find(std::string(999, 'a')) != std::string::npos);
}

TEST_CASE("a huge message is cut") {
    std::string r = report("x\n", {1, 1}, std::string(3000, 'm'));
    CHECK(r.substr(0, 40) == "t.tg:1:1: error: " + std::string(23, 'm'));
    CHECK(r.find(std::string(500, 'm') + "... (message cut)\n") != std::string::npos);
    CHECK(r.find(std::string(501, 'm')) == std::string::npos);
}
