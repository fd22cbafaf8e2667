#include "lang/diagnostics.hpp"

#include <cstdio>

namespace tg::lang {

namespace {

// Echoed source lines longer than this many characters are cut to a window
// around the caret (a 50 MB one-line expression must not be echoed whole).
constexpr size_t kMaxEchoChars = 1000;
constexpr size_t kEchoWindow = 200;  // characters shown on each side of the caret in a cut line
// Messages can quote source text (a name, a string): longer ones are cut.
constexpr size_t kMaxMessageChars = 500;

size_t char_length(std::string_view s, size_t i) {
    size_t n = 1;
    while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
    return n;
}

// One character as an error report shows it: a control character (C0, DEL,
// C1) is written as an escape, so a NUL does not cut the report and an ESC
// from the source never reaches the terminal. Tabs and (where allowed)
// newlines stay.
std::string shown_char(std::string_view ch, bool keep_newline) {
    char buf[16];
    unsigned char c = static_cast<unsigned char>(ch[0]);
    if (ch.size() == 1 && ((c < 0x20 && c != '\t' && !(keep_newline && c == '\n')) || c == 0x7F)) {
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        return buf;
    }
    if (ch.size() == 2 && c == 0xC2 && static_cast<unsigned char>(ch[1]) < 0xA0) {  // U+0080..U+009F
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(ch[1]));
        return buf;
    }
    return std::string(ch);
}

}  // namespace

std::string escape_controls(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        size_t n = char_length(text, i);
        out += shown_char(text.substr(i, n), keep_newlines);
        i += n;
    }
    return out;
}

std::string format_location(const Source* source, Loc loc) {
    std::string out = source ? escape_controls(source->name(), false) : std::string("<unknown>");
    if (loc.known()) out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
    return out;
}

std::string render(const Diagnostic& d) {
    std::string out;
    if (d.source) out += format_location(d.source.get(), d.loc) + ": ";
    std::string_view message = d.message;
    std::string cut;
    if (count_chars(message) > kMaxMessageChars) {
        size_t i = 0;
        for (size_t chars = 0; i < message.size() && chars < kMaxMessageChars; ++chars) i += char_length(message, i);
        cut = std::string(message.substr(0, i)) + "... (message cut)";
        message = cut;
    }
    out += "error: " + escape_controls(message, true) + "\n";
    if (d.source && d.loc.known() && d.loc.line <= d.source->line_count()) {
        std::string_view text = d.source->line_text(d.loc.line);
        // the characters shown: all of them, or a window around the caret
        size_t first = 1, last = count_chars(text);  // 1-based columns, inclusive
        if (last > kMaxEchoChars) {
            first = d.loc.col > kEchoWindow ? d.loc.col - kEchoWindow : 1;
            last = std::min<size_t>(last, std::max<size_t>(d.loc.col, 1) + kEchoWindow);
        }
        const bool cut_left = first > 1, cut_right = last < count_chars(text);
        char gutter[32];
        std::snprintf(gutter, sizeof gutter, "%5u | ", d.loc.line);
        out += gutter;
        std::string pad = "      | ";
        if (cut_left) {
            out += "...";
            pad += "   ";
        }
        // Pad with the line's own whitespace so tabs line up; an escaped
        // character is as wide as its escape.
        size_t col = 1;
        for (size_t i = 0; i < text.size() && col <= last; ++col) {
            size_t n = char_length(text, i);
            if (col >= first) {
                std::string s = shown_char(text.substr(i, n), false);
                out += s;
                if (col < d.loc.col) {
                    if (s == "\t") pad += '\t';
                    else if (s.size() > n) pad.append(s.size(), ' ');
                    else pad += ' ';
                }
            }
            i += n;
        }
        if (cut_right) out += "...";
        for (; col < d.loc.col; ++col) pad += ' ';
        out += "\n" + pad + "^\n";
    }
    for (const auto& n : d.notes) out += escape_controls(n, true) + "\n";
    return out;
}

}  // namespace tg::lang
