// libFuzzer target: the lexer (with the indentation pre-pass) and the parser
// on arbitrary source bytes; every syntax error is rendered and the AST
// printed, as `tg check --ast` would. Nothing may crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > (size_t{1} << 16)) return -1;  // reject: longer inputs only slow the search
    auto src = std::make_shared<tg::lang::Source>("fuzz.tg", std::string(reinterpret_cast<const char*>(data), size));
    tg::lang::ParseResult r = tg::lang::parse(src);
    size_t total = 0;
    for (const auto& e : r.errors) total += tg::lang::render(tg::lang::to_diagnostic(e, src)).size();
    if (r.module) total += tg::lang::print_ast(*r.module).size();
    return total == size_t(-1) ? -1 : 0;
}
