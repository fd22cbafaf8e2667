#include "lang/diagnostics.hpp"

#include <cstdio>

namespace tg::lang {

std::string format_location(const Source* source, Loc loc) {
    std::string out = source ? source->name() : std::string("<unknown>");
    if (loc.known()) out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
    return out;
}

std::string render(const Diagnostic& d) {
    std::string out;
    if (d.source) out += format_location(d.source.get(), d.loc) + ": ";
    out += "error: " + d.message + "\n";
    if (d.source && d.loc.known() && d.loc.line <= d.source->line_count()) {
        std::string_view text = d.source->line_text(d.loc.line);
        char gutter[32];
        std::snprintf(gutter, sizeof gutter, "%5u | ", d.loc.line);
        out += gutter;
        out += text;
        out += "\n      | ";
        // Pad with the line's own whitespace so tabs line up; one column per character.
        uint32_t col = 1;
        for (size_t i = 0; i < text.size() && col < d.loc.col; ++i) {
            unsigned char c = static_cast<unsigned char>(text[i]);
            if ((c & 0xC0) == 0x80) continue;
            out += (c == '\t') ? '\t' : ' ';
            ++col;
        }
        for (; col < d.loc.col; ++col) out += ' ';
        out += "^\n";
    }
    for (const auto& n : d.notes) out += n + "\n";
    return out;
}

}  // namespace tg::lang
