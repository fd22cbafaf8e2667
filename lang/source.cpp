#include "lang/source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

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

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

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

ReadResult read_source_file(const std::string& path, std::string& text, size_t limit) {
    text.clear();
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        if (e == ENOENT || e == ENOTDIR) return {ReadResult::Missing, "cannot open file '" + path + "'"};
        return {ReadResult::Failed, "cannot open file '" + path + "': " + std::strerror(e)};
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        return {ReadResult::Failed, "'" + path + "' is a directory, not a source file"};
    }
    auto too_large = [&] {
        return ReadResult{ReadResult::Failed, "'" + path + "' is larger than the " + std::to_string(limit >> 20) +
                                                  " MiB limit for a source file"};
    };
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > limit) {
        ::close(fd);
        return too_large();
    }
    // a regular file is read in one go; a pipe or a device in chunks, up to the limit
    text.resize(S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) + 1 : size_t{64} << 10);
    size_t used = 0;
    for (;;) {
        if (used == text.size()) {
            if (used > limit) break;
            text.resize(std::min(text.size() * 2, limit + 1));
        }
        ssize_t n = ::read(fd, text.data() + used, text.size() - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int e = errno;
            ::close(fd);
            text.clear();
            return {ReadResult::Failed, "cannot read file '" + path + "': " + std::strerror(e)};
        }
        if (n == 0) break;
        used += static_cast<size_t>(n);
    }
    ::close(fd);
    if (used > limit) {
        text.clear();
        text.shrink_to_fit();
        return too_large();
    }
    text.resize(used);
    return {};
}

}  // namespace tg::lang
