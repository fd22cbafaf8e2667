// The terminal debugger: its stops and what it shows (cli/terminal_debugger.hpp).
#include "cli/terminal_debugger.hpp"

#include "cli/line_input.hpp"
#include "cli/tensor_summary.hpp"

#include <cstdio>
#include <sstream>

namespace tg::cli {

void say(std::string_view s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
}

namespace {
constexpr std::string_view kQuit = "terminated by the debugger";
}  // namespace

TerminalDebugger::TerminalDebugger(tg::Interpreter& interp, bool tty, std::string main_file)
    : interp_(interp), tty_(tty), main_file_(std::move(main_file)) {}

bool TerminalDebugger::is_quit(const tg::Error& e) { return e.message() == kQuit; }

void TerminalDebugger::output(std::string_view text) { say(text); }

std::string show_value(const tg::Value& v, bool repr) {
    if (!v.is_tensor()) return v.repr();
    const tg::Tensor t = v.as_tensor();
    if (t.rank() == 0) return (repr ? v.repr() : v.str()) + "  (" + tensor_type(t) + ")";
    std::string head = tensor_type(t);
    if (std::string s = tensor_summary(t); !s.empty() && t.size() > 1) head += "  " + s;
    return head + "\n" + (repr ? v.repr() : v.str());
}

tg::Resume TerminalDebugger::stopped(const tg::DebugStop& s) {
    stop_ = &s;
    frame_ = 0;
    list_next_ = 0;
    show_header(s);
    show_displays();
    for (;;) {
        std::string line;
        const Read r = read_line(tty_, "(tgdb) ", line);
        if (r == Read::End) {
            if (!tty_) say("\n");
            stop_ = nullptr;
            return tg::Resume::Terminate;  // pdb: end of input quits
        }
        if (r != Read::Line) continue;
        if (!tty_) say(line + "\n");  // the transcript shows the command
        if (line.find_first_not_of(" \t") == std::string::npos) {
            line = last_command_;  // Enter repeats the last command
        } else {
            last_command_ = line;
        }
        if (line.empty()) continue;
        if (std::optional<tg::Resume> resume = command(line)) {
            stop_ = nullptr;
            return *resume;
        }
    }
}

void TerminalDebugger::show_header(const tg::DebugStop& s) {
    switch (s.reason) {
    case tg::StopReason::Exception:
        if (s.error) say(s.error->rendered());
        say("Post-mortem: stopped in the frame that raised the error (`c` or `q` ends the program).\n");
        break;
    case tg::StopReason::Nan:
        if (s.error) say(s.error->rendered());
        break;
    case tg::StopReason::Return:
        say("--Return-- " + s.frames[0].function() + "() -> " + (s.returned ? s.returned->repr() : "None") + "\n");
        break;
    case tg::StopReason::Pause: say("--Paused--\n"); break;
    default: break;
    }
    show_frame(0, true);
}

void TerminalDebugger::show_frame(size_t i, bool marker) {
    const tg::DebugFrame& f = stop_->frames[i];
    std::string head = std::string(marker ? "> " : "  ") + f.file() + "(" + std::to_string(f.line()) + ")" +
                       f.function() + "()";
    if (f.is_compiled()) head += "  [@graph, running compiled code]";
    else if (f.is_graph()) head += "  [@graph, running eagerly]";
    say(head + "\n");
    if (!f.is_compiled()) say("-> " + line_text(f, f.line()) + "\n");
}

void TerminalDebugger::show_displays() {
    for (Display& d : displays_) {
        std::string now;
        try {
            now = show_value(frame().evaluate(d.expr), false);
        } catch (const tg::Error& e) {
            now = "*** " + e.message();
        }
        if (now == d.last) continue;  // pdb shows a display when it changed
        say("display " + d.expr + ": " + now + "\n");
        d.last = now;
    }
}

void TerminalDebugger::where() {
    for (size_t i = stop_->frames.size(); i-- > 0;) show_frame(i, i == frame_);
}

const std::vector<std::string>* TerminalDebugger::source_lines(const tg::DebugFrame& f) {
    auto it = lines_.find(f.file());
    if (it == lines_.end()) {
        std::vector<std::string> lines;
        std::istringstream in(f.source_text());
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        it = lines_.emplace(f.file(), std::move(lines)).first;
    }
    return it->second.empty() ? nullptr : &it->second;
}

std::string TerminalDebugger::line_text(const tg::DebugFrame& f, int line) {
    const auto* lines = source_lines(f);
    if (!lines || line < 1 || line > static_cast<int>(lines->size())) return "";
    std::string s = (*lines)[static_cast<size_t>(line - 1)];
    const size_t start = s.find_first_not_of(" \t");
    return start == std::string::npos ? "" : s.substr(start);
}

void TerminalDebugger::list(int first, int last) {
    const tg::DebugFrame& f = frame();
    const auto* lines = source_lines(f);
    if (!lines) {
        say("*** no source for " + f.file() + "\n");
        return;
    }
    std::vector<int> marked;
    for (const tg::BreakpointInfo& b : interp_.breakpoints())
        if (b.spec.line > 0 && b.spec.enabled) marked.push_back(b.spec.line);
    if (first < 1) {  // near the top: still 11 lines
        last += 1 - first;
        first = 1;
    }
    const int end = std::min<int>(last, static_cast<int>(lines->size()));
    for (int n = first; n <= end; ++n) {
        char num[16];
        std::snprintf(num, sizeof num, "%4d", n);
        const bool bp = std::find(marked.begin(), marked.end(), n) != marked.end();
        std::string mark = std::string(bp ? "B" : " ") + (n == f.line() ? "->" : "  ");
        say(std::string(num) + " " + mark + " " + (*lines)[static_cast<size_t>(n - 1)] + "\n");
    }
    list_next_ = end + 1;
}

// The whole function of the selected frame: from its `def` line (the
// nearest one above, indented less than the current line) to the last
// line indented more than it.
void TerminalDebugger::long_list() {
    const tg::DebugFrame& f = frame();
    const auto* lines = source_lines(f);
    if (!lines) return;
    if (f.function() == "<module>") {
        list(1, static_cast<int>(lines->size()));
        return;
    }
    auto indent = [&](int n) {
        const std::string& l = (*lines)[static_cast<size_t>(n - 1)];
        const size_t i = l.find_first_not_of(" \t");
        return i == std::string::npos ? -1 : static_cast<int>(i);
    };
    int def = f.line();
    while (def > 1) {
        const std::string& l = (*lines)[static_cast<size_t>(def - 1)];
        const int ind = indent(def);
        if (ind >= 0 && l.compare(static_cast<size_t>(ind), 4 + f.function().size(), "def " + f.function()) == 0) break;
        --def;
    }
    int first = def;
    while (first > 1 && indent(first - 1) == indent(def) && line_text(f, first - 1).rfind('@', 0) == 0) --first;
    int end = def;
    for (int n = def + 1; n <= static_cast<int>(lines->size()); ++n) {
        const int ind = indent(n);
        if (ind < 0) continue;
        if (ind <= indent(def)) break;
        end = n;
    }
    list(first, end);
}

}  // namespace tg::cli
