#include "interp/error.hpp"

namespace tg::interp {

std::vector<std::string> Error::traceback_lines() const {
    std::vector<std::string> out;
    // A frame repeated many times in a row (deep recursion) is shown three
    // times, then counted, as Python does.
    std::string last;
    size_t repeats = 0;
    auto flush = [&] {
        if (repeats > 3) out.push_back("  [the line above repeats " + std::to_string(repeats - 3) + " more times]");
        repeats = 0;
    };
    for (const auto& t : traceback_) {
        std::string line = "  in " + t.function;
        if (t.source && t.loc.known()) line += " (" + lang::format_location(t.source.get(), t.loc) + ")";
        if (t.is_graph) line += ", a @graph function";
        if (line == last) {
            if (++repeats <= 3) out.push_back(line);
            continue;
        }
        flush();
        last = line;
        repeats = 1;
        out.push_back(std::move(line));
    }
    flush();
    return out;
}

lang::Diagnostic Error::diagnostic() const {
    lang::Diagnostic d{message_, source_, loc_, notes};
    for (auto& l : traceback_lines()) d.notes.push_back(std::move(l));
    return d;
}

}  // namespace tg::interp
