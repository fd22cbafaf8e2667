// Golden tests: golden/NAME.tg parsed and printed with print_ast must equal
// golden/NAME.ast; golden/NAME_errors.tg rendered must equal NAME_errors.err.
// The expected files were checked by hand against docs/language.md.
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

TEST_CASE("the conformance scripts parse, the syntax-error case fails where it says") {
    int parsed = 0;
    for (const char* name : {"01_eager_basics", "02_native_if", "03_tomato_egg", "04_graph_cond", "05_graph_while",
                             "06_print_in_graph", "07_broadcast", "08_matmul", "09_grad", "10_div_by_zero",
                             "11_graph_error_location", "12_retrace_shapes", "13_for_range_graph",
                             "14_break_in_graph", "15_value_semantics", "16_fstring"}) {
        std::string text = read(std::string("../conformance/") + name + ".tg");
        if (text.empty()) continue;
        CAPTURE(name);
        auto r = parse(std::make_shared<const Source>(name, text));
        CHECK(r.ok());
        ++parsed;
    }
    CHECK(parsed >= 10);
    std::string text = read("../conformance/17_syntax_error.tg");
    REQUIRE(!text.empty());
    auto src = std::make_shared<const Source>("17_syntax_error.tg", text);
    auto r = parse(src);
    REQUIRE(r.errors.size() == 1);
    // The case's own expectation: ^17_syntax_error\.tg:1:9: error: .*':'
    std::string first_line = render(to_diagnostic(r.errors[0], src));
    first_line = first_line.substr(0, first_line.find('\n'));
    CHECK(first_line.rfind("17_syntax_error.tg:1:9: error: ", 0) == 0);
    CHECK(first_line.find("':'") != std::string::npos);
}
