#include "lsp/protocol.hpp"

#include <algorithm>

namespace tg::lsp {

namespace {

// The byte length of the UTF-8 sequence starting with `c` (1 for a stray byte).
size_t sequence_length(unsigned char c) {
    if (c >= 0xF0 && c <= 0xF7) return 4;
    if (c >= 0xE0) return 3;
    if (c >= 0xC0) return 2;
    return 1;
}

// Bytes of `line` up to character `n` (0-based) in the connection's unit.
size_t bytes_to(std::string_view line, uint64_t n, bool utf16) {
    size_t at = 0;
    uint64_t units = 0;
    while (at < line.size() && units < n) {
        const size_t len = std::min(sequence_length(static_cast<unsigned char>(line[at])), line.size() - at);
        units += (utf16 && len == 4) ? 2 : 1;
        at += len;
    }
    return at;
}

uint64_t units_in(std::string_view bytes, bool utf16) {
    uint64_t units = 0;
    for (size_t at = 0; at < bytes.size();) {
        const size_t len = std::min(sequence_length(static_cast<unsigned char>(bytes[at])), bytes.size() - at);
        units += (utf16 && len == 4) ? 2 : 1;
        at += len;
    }
    return units;
}

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

uint64_t field(const nlohmann::json& position, const char* name) {
    const int64_t v = position.at(name).get<int64_t>();
    return v < 0 ? 0 : static_cast<uint64_t>(v);
}

}  // namespace

nlohmann::json Positions::position(const lang::Source& src, lang::Loc loc) const {
    if (!loc.known()) return {{"line", 0}, {"character", 0}};
    const std::string_view line = src.line_text(loc.line);
    // columns count characters from 1: the bytes before column `col`
    const size_t bytes = bytes_to(line, loc.col - 1, false);
    return {{"line", loc.line - 1}, {"character", units_in(line.substr(0, bytes), utf16)}};
}

nlohmann::json Positions::range(const lang::Source& src, lang::Loc start, lang::Loc end) const {
    return {{"start", position(src, start)}, {"end", position(src, end)}};
}

lang::Loc Positions::loc(const lang::Source& src, const nlohmann::json& position) const {
    const uint64_t line = std::min<uint64_t>(field(position, "line") + 1, std::max<uint32_t>(src.line_count(), 1));
    const std::string_view text = src.line_text(static_cast<uint32_t>(line));
    const size_t bytes = bytes_to(text, field(position, "character"), utf16);
    return {static_cast<uint32_t>(line), static_cast<uint32_t>(units_in(text.substr(0, bytes), false) + 1)};
}

size_t Positions::offset(std::string_view text, const nlohmann::json& position) const {
    uint64_t line = field(position, "line");
    size_t at = 0;
    for (; line > 0; --line) {
        const size_t nl = text.find('\n', at);
        if (nl == std::string_view::npos) return text.size();
        at = nl + 1;
    }
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    return at + bytes_to(text.substr(at, end - at), field(position, "character"), utf16);
}

std::string path_of_uri(std::string_view uri) {
    if (!uri.starts_with("file://")) return std::string(uri);
    uri.remove_prefix(7);
    const size_t slash = uri.find('/');  // file://host/path: the host (usually empty) is dropped
    uri.remove_prefix(slash == std::string_view::npos ? uri.size() : slash);
    std::string out;
    for (size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
            out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

std::string uri_of_path(std::string_view path) {
    if (path.empty() || path[0] != '/') return std::string(path);  // not a file: as the client named it
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out = "file://";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

}  // namespace tg::lsp
