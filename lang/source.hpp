// Source text with line:column positions. Columns count characters (UTF-8
// code points), from 1, as docs/language.md "Errors" requires.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tg::lang {

// A position in a source file. line and col count from 1; {0, 0} means "unknown".
struct Loc {
    uint32_t line = 0;
    uint32_t col = 0;
    bool known() const { return line != 0; }
    friend bool operator==(Loc, Loc) = default;
};

class Source {
public:
    // `name` is how diagnostics show the file (the path as the user gave it).
    Source(std::string name, std::string text);

    const std::string& name() const { return name_; }
    const std::string& text() const { return text_; }
    uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }

    // The text of line `line` (1-based) without its newline; empty if out of range.
    std::string_view line_text(uint32_t line) const;
    // Byte offset -> line:col (col in characters).
    Loc loc_of(size_t offset) const;
    // line:col -> byte offset (clamped to the end of the line).
    size_t offset_of(Loc loc) const;

private:
    std::string name_;
    std::string text_;
    std::vector<size_t> line_starts_;
};

using SourcePtr = std::shared_ptr<const Source>;

// Number of UTF-8 code points in `s` (invalid bytes count one each).
size_t count_chars(std::string_view s);
// The UTF-8 bytes of code point cp appended to out (the lexer's \u escapes, chr).
void append_utf8(std::string& out, uint32_t cp);

// The largest source file tg reads (a script, a module, :load): 64 MiB.
inline constexpr size_t kMaxSourceBytes = size_t{64} << 20;

// Reads a source file, never more than `limit` + 1 bytes (so `/dev/zero` or
// a huge file is an error, not an exhausted memory). `missing` tells the
// importer to look elsewhere; every other failure has a message for the user:
// "cannot open file 'x'", "'d' is a directory", "'x' is larger than ...".
struct ReadResult {
    enum Status { Ok, Missing, Failed } status = Ok;
    std::string error;  // empty when Ok
};
ReadResult read_source_file(const std::string& path, std::string& text, size_t limit = kMaxSourceBytes);

}  // namespace tg::lang
