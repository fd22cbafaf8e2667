// Golden tests: golden/NAME.tg parsed and printed with print_ast must equal
// golden/NAME.ast; golden/NAME_errors.tg rendered must equal NAME_errors.err.
// The expected files were checked by hand against SPEC §1, §3 and §6.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "test_util.hpp"

using namespace tg::lang;

namespace {

std::string read(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("golden: the AST of a program that uses every construct") {
    std::string text = read("golden/program.tg");
    REQUIRE(!text.empty());
    auto r = parse(std::make_shared<const Source>("program.tg", text));
    for (const auto& e : r.errors) FAIL_CHECK(e.loc.line << ":" << e.loc.col << ": " << e.message);
    CHECK(print_ast(*r.module) == read("golden/program.ast"));
}

TEST_CASE("golden: every syntax error of a broken file, rendered") {
    std::string text = read("golden/errors.tg");
    REQUIRE(!text.empty());
    auto src = std::make_shared<const Source>("errors.tg", text);
    auto r = parse(src);
    std::string out;
    for (const auto& e : r.errors) out += render(to_diagnostic(e, src));
    CHECK(out == read("golden/errors.err"));
}
