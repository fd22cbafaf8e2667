#include "lang/source.hpp"

#include <algorithm>

namespace tg::lang {

Source::Source(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::string_view Source::line_text(uint32_t line) const {
    if (line == 0 || line > line_starts_.size()) return {};
    size_t begin = line_starts_[line - 1];
    size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
    if (end > begin && text_[end - 1] == '\r') --end;
    return std::string_view(text_).substr(begin, end - begin);
}

static bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

size_t count_chars(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s) n += !is_continuation(c);
    return n;
}

Loc Source::loc_of(size_t offset) const {
    offset = std::min(offset, text_.size());
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    size_t line = static_cast<size_t>(it - line_starts_.begin());
    size_t begin = line_starts_[line - 1];
    size_t col = count_chars(std::string_view(text_).substr(begin, offset - begin)) + 1;
    return {static_cast<uint32_t>(line), static_cast<uint32_t>(col)};
}

size_t Source::offset_of(Loc loc) const {
    if (loc.line == 0 || loc.line > line_starts_.size()) return text_.size();
    std::string_view line = line_text(loc.line);
    size_t begin = line_starts_[loc.line - 1];
    uint32_t col = 1;
    size_t i = 0;
    while (i < line.size() && col < loc.col) {
        ++i;
        while (i < line.size() && is_continuation(static_cast<unsigned char>(line[i]))) ++i;
        ++col;
    }
    return begin + i;
}

}  // namespace tg::lang
