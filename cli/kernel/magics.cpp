#include "cli/kernel/magics.hpp"

#include "cli/kernel/dot_svg.hpp"

#include <chrono>
#include <cstdio>

namespace tg::kernel {

namespace {

const char* kMagics = "%trace on|off, %eager on|off, %time [STATEMENT], %graph NAME [dot], %vars, %reset";

// As tg reports an error: "<cell:3>:2:1: error: MESSAGE", the numbered line
// and a caret under column `col`.
CellError located(const std::string& name, int line, int col, std::string_view text, const std::string& message) {
    CellError e{"Error", message, {}};
    const std::string number = std::to_string(line);
    e.traceback.push_back(name + ":" + number + ":" + std::to_string(col) + ": error: " + message);
    e.traceback.push_back("    " + number + " | " + std::string(text));
    e.traceback.push_back("    " + std::string(number.size(), ' ') + " | " + std::string(static_cast<size_t>(col - 1), ' ') + "^");
    return e;
}

struct MagicLine {
    std::string_view text;  // the whole line
    std::string word, arg;  // "trace", "on"
    int line = 1;
};

MagicLine split(std::string_view text, int line) {
    MagicLine m{text, {}, {}, line};
    std::string_view body = text.substr(1);
    size_t sp = body.find_first_of(" \t");
    m.word = std::string(body.substr(0, sp));
    if (sp != std::string_view::npos) {
        std::string_view arg = body.substr(sp);
        size_t a = arg.find_first_not_of(" \t"), b = arg.find_last_not_of(" \t\r");
        if (a != std::string_view::npos) m.arg = std::string(arg.substr(a, b - a + 1));
    }
    return m;
}

}  // namespace

// The members of Session the magics use (friend of Session).
class Magics {
public:
    Magics(Session& s, const std::string& name) : s_(s), name_(name) {}

    // One magic; `rest` is the cell after it (for `%time` alone).
    std::optional<CellError> run(const MagicLine& m, std::string& rest) {
        if (m.word == "trace" || m.word == "eager") return toggle(m);
        if (m.word == "vars" && m.arg.empty()) return vars();
        if (m.word == "reset" && m.arg.empty()) return s_.reset(), std::nullopt;
        if (m.word == "graph") return graph(m);
        if (m.word == "time") return time(m, rest);
        if (m.word == "vars" || m.word == "reset")
            return located(name_, m.line, 1, m.text, "%" + m.word + " takes no argument");
        return located(name_, m.line, 1, m.text, "unknown magic %" + m.word + " (magics: " + kMagics + ")");
    }

private:
    std::optional<CellError> toggle(const MagicLine& m) {
        if (m.arg != "on" && m.arg != "off")
            return located(name_, m.line, static_cast<int>(m.word.size()) + (m.arg.empty() ? 1 : 3), m.text,
                           "usage: %" + m.word + " on|off");
        const bool on = m.arg == "on";
        if (m.word == "trace") {
            s_.options_.trace = on;
            s_.interp_->set_trace(on);
        } else {
            s_.options_.eager = on;
            s_.interp_->set_eager(on);
        }
        return std::nullopt;
    }
    std::optional<CellError> vars() {
        std::string text;
        for (const std::string& n : s_.interp_->variables())
            if (!n.starts_with("__")) text += n + " = " + s_.interp_->get(n).repr() + "\n";  // not __name__
        s_.out_.stream("stdout", text);
        return std::nullopt;
    }
    // %graph NAME [dot]: each traced graph as a picture, its IR (or DOT) text beside it
    std::optional<CellError> graph(const MagicLine& m) {
        std::string name = m.arg, mode;
        if (size_t sp = name.find(' '); sp != std::string::npos) {
            mode = name.substr(sp + 1);
            name = name.substr(0, sp);
        }
        if (name.empty() || (!mode.empty() && mode != "dot"))
            return located(name_, m.line, 1, m.text, "usage: %graph NAME [dot]");
        try {
            std::vector<std::string> texts = s_.interp_->graphs(name, mode == "dot");
            std::vector<std::string> dots = s_.interp_->graphs(name, true);
            if (texts.empty()) s_.out_.stream("stdout", "`" + name + "` has not been traced yet\n");
            for (size_t i = 0; i < texts.size(); ++i) {
                nlohmann::json bundle = {{"text/plain", texts[i]}};
                if (std::string svg = dot_to_svg(dots[i]); !svg.empty()) bundle["image/svg+xml"] = svg;
                s_.out_.display(bundle);
            }
        } catch (const Error& e) {
            return located(name_, m.line, 8, m.text, e.message());
        }
        return std::nullopt;
    }
    // %time STATEMENT, or %time alone: the rest of the cell
    std::optional<CellError> time(const MagicLine& m, std::string& rest) {
        std::string code = m.arg.empty() ? rest : std::string(m.line - 1, '\n') + m.arg + "\n";
        if (m.arg.empty()) rest.clear();
        const auto t0 = std::chrono::steady_clock::now();
        std::optional<CellError> e = s_.run_code(code, name_);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        char buf[64];
        std::snprintf(buf, sizeof buf, "time: %.3f ms\n", ms);
        s_.out_.stream("stdout", buf);
        return e;
    }

    Session& s_;
    const std::string& name_;
};

std::optional<CellError> run_magics(Session& s, std::string_view code, const std::string& name, std::string& rest) {
    Magics magics(s, name);
    int line = 1;
    size_t pos = 0;
    std::vector<MagicLine> found;
    // the magic lines first (blank lines may come between them), then the code
    while (pos < code.size()) {
        size_t end = code.find('\n', pos);
        if (end == std::string_view::npos) end = code.size();
        std::string_view text = code.substr(pos, end - pos);
        if (!text.starts_with('%') && text.find_first_not_of(" \t\r") != std::string_view::npos) break;
        if (text.starts_with('%')) found.push_back(split(text, line));
        rest += '\n';
        pos = end + 1;
        ++line;
    }
    if (pos < code.size()) rest += code.substr(pos);
    for (const MagicLine& m : found)
        if (std::optional<CellError> e = magics.run(m, rest)) return e;
    return std::nullopt;
}

}  // namespace tg::kernel
