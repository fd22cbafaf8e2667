#include "lang/doc_comment.hpp"

#include <vector>

namespace tg::lang {

namespace {

std::string_view trimmed(std::string_view s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string_view::npos ? std::string_view{} : s.substr(b, e - b + 1);
}

// Whether the line is a comment; its text into `out`.
bool comment_text(std::string_view line, std::string& out) {
    std::string_view t = trimmed(line);
    if (!t.starts_with('#')) return false;
    t.remove_prefix(1);
    if (t.starts_with(' ')) t.remove_prefix(1);
    out = std::string(t);
    return true;
}

std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
    return out;
}

}  // namespace

std::string doc_comment(const Source& source, uint32_t def_line) {
    std::vector<std::string> above;
    std::string text;
    uint32_t line = def_line;
    while (line > 1 && trimmed(source.line_text(line - 1)).starts_with('@')) --line;  // decorators
    for (uint32_t l = line; l > 1 && comment_text(source.line_text(l - 1), text); --l) above.insert(above.begin(), text);
    if (!above.empty()) return join(above);
    std::vector<std::string> inside;
    for (uint32_t l = def_line + 1; l <= source.line_count() && comment_text(source.line_text(l), text); ++l)
        inside.push_back(text);
    return join(inside);
}

}  // namespace tg::lang
