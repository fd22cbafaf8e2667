#include "cli/kernel/cell_text.hpp"

#include "api/tool_api.hpp"
#include "cli/block_lines.hpp"

#include <cctype>

namespace tg::kernel {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The last line that is not empty or only blanks, and whether the code ends
// with an empty line after it.
std::string_view last_line(std::string_view code, bool& ends_blank) {
    size_t end = code.size();
    int newlines = 0;
    while (end > 0 && (code[end - 1] == '\n' || code[end - 1] == ' ' || code[end - 1] == '\t' || code[end - 1] == '\r'))
        newlines += code[--end] == '\n';
    ends_blank = newlines >= 2;
    size_t start = code.rfind('\n', end == 0 ? 0 : end - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    return code.substr(start, end - start);
}

}  // namespace

std::string completeness(std::string_view code) {
    bool ends_blank = false;
    std::string_view last = last_line(code, ends_blank);
    if (last.empty()) return "complete";
    // an indented last line continues a block only when some line opened one
    // (`x = [1,\n 2]` is complete); empty lines before it do not end the
    // block (cli/block_lines.hpp)
    bool opened = false;
    for (size_t p = 0; p < code.size() && !opened;) {
        size_t nl = code.find('\n', p);
        opened = cli::opens_block(code.substr(p, nl == std::string_view::npos ? nl : nl - p));
        p = nl == std::string_view::npos ? code.size() : nl + 1;
    }
    const bool in_block = cli::opens_block(last) || (opened && cli::is_indented_line(last));
    CheckResult r = check_source(code, "<cell>");
    if (r.incomplete || (in_block && !ends_blank)) return "incomplete";
    return r.errors ? "invalid" : "complete";
}

size_t byte_offset(std::string_view code, size_t cursor) {
    size_t i = 0;
    for (size_t n = 0; i < code.size() && n < cursor; ++n) {
        ++i;
        while (i < code.size() && (static_cast<unsigned char>(code[i]) & 0xC0) == 0x80) ++i;  // continuation bytes
    }
    return i;
}

size_t code_points(std::string_view code, size_t bytes) {
    size_t n = 0;
    for (size_t i = 0; i < bytes && i < code.size(); ++i)
        if ((static_cast<unsigned char>(code[i]) & 0xC0) != 0x80) ++n;
    return n;
}

std::string name_at(std::string_view code, size_t at) {
    at = std::min(at, code.size());
    // `f(|` and `f(x|`: Jupyter asks about the call the cursor is in
    if ((at == code.size() || !is_name_char(code[at])) && (at == 0 || !is_name_char(code[at - 1]))) {
        int depth = 0;
        size_t i = at;
        while (i > 0) {
            char c = code[--i];
            if (c == ')') ++depth;
            else if (c == '(' && depth-- == 0) break;
            else if (c == '\n') return "";
        }
        if (i == 0 || code[i] != '(') return "";
        at = i;
    }
    size_t start = at, end = at;
    while (start > 0 && is_name_char(code[start - 1])) --start;
    while (end < code.size() && is_name_char(code[end])) ++end;
    std::string name(code.substr(start, end - start));
    while (!name.empty() && name.front() == '.') name.erase(0, 1);
    while (!name.empty() && name.back() == '.') name.pop_back();
    return name;
}

}  // namespace tg::kernel
