#include "interp/error.hpp"

namespace tg::interp {

std::vector<std::string> Error::traceback_lines() const {
    std::vector<std::string> out;
    for (const auto& t : traceback_) {
        std::string line = "  in " + t.function;
        if (t.source && t.loc.known()) line += " (" + lang::format_location(t.source.get(), t.loc) + ")";
        if (t.is_graph) line += ", a @graph function";
        out.push_back(std::move(line));
    }
    return out;
}

lang::Diagnostic Error::diagnostic() const {
    lang::Diagnostic d{message_, source_, loc_, notes};
    for (auto& l : traceback_lines()) d.notes.push_back(std::move(l));
    return d;
}

}  // namespace tg::interp
