// The terminal debugger's commands, named as pdb names them (gdb's where
// pdb has none): docs/debugging.md "Commands".
#include "cli/terminal_debugger.hpp"

#include <cstdio>

namespace tg::cli {

namespace {
std::string trim(std::string s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return "";
    const size_t b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
}

bool all_digits(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

std::vector<int> numbers(const std::string& args) {
    std::vector<int> out;
    size_t i = 0;
    while (i < args.size()) {
        while (i < args.size() && (args[i] == ' ' || args[i] == ',')) ++i;
        size_t j = i;
        while (j < args.size() && args[j] != ' ' && args[j] != ',') ++j;
        if (j > i) {
            const std::string w = args.substr(i, j - i);
            out.push_back(all_digits(w) ? std::stoi(w) : -1);
        }
        i = j;
    }
    return out;
}

std::string where_of(const tg::BreakpointSpec& b) {
    return b.line > 0 ? "at " + b.file + ":" + std::to_string(b.line) : "in " + b.function + "()";
}
}  // namespace

std::optional<tg::Resume> TerminalDebugger::command(const std::string& input) {
    const std::string line = trim(input);
    const size_t sp = line.find(' ');
    const std::string cmd = line.substr(0, sp);
    const std::string args = sp == std::string::npos ? "" : trim(line.substr(sp + 1));
    auto is = [&](std::initializer_list<const char*> names) {
        for (const char* n : names)
            if (cmd == n) return true;
        return false;
    };
    if (is({"c", "cont", "continue"})) return tg::Resume::Continue;
    if (is({"n", "next"})) return tg::Resume::StepOver;
    if (is({"s", "step"})) return tg::Resume::StepIn;
    if (is({"r", "return"})) return tg::Resume::StepOut;
    if (is({"unt", "until"})) return tg::Resume::Until;
    if (is({"q", "quit", "exit"})) return tg::Resume::Terminate;
    if (is({"b", "break"})) {
        if (args.empty()) list_breakpoints();
        else break_command(args, false);
    } else if (is({"tbreak"})) {
        break_command(args, true);
    } else if (is({"cl", "clear"})) {
        clear_command(args);
    } else if (is({"disable", "enable"})) {
        enable_command(args, cmd == "enable");
    } else if (is({"w", "where", "bt"})) {
        where();
    } else if (is({"u", "up"}) || is({"d", "down"})) {
        const bool up = cmd[0] == 'u';
        if (up ? frame_ + 1 >= stop_->frames.size() : frame_ == 0) {
            say(up ? "*** Oldest frame\n" : "*** Newest frame\n");
        } else {
            frame_ = up ? frame_ + 1 : frame_ - 1;
            list_next_ = 0;
            show_frame(frame_, true);
        }
    } else if (is({"l", "list"})) {
        const std::vector<int> n = numbers(args);
        if (n.size() >= 2) list(n[0], n[1]);
        else if (n.size() == 1) list(n[0] - 5, n[0] + 5);
        else if (list_next_ > 0) list(list_next_, list_next_ + 10);
        else list(frame().line() - 5, frame().line() + 5);
    } else if (is({"ll", "longlist"})) {
        long_list();
    } else if (is({"p", "pp"})) {
        print_value(args, cmd == "pp");
    } else if (is({"display"})) {
        if (args.empty()) {
            for (const Display& d : displays_) say("display " + d.expr + "\n");
        } else {
            displays_.push_back({args, ""});
            show_displays();
        }
    } else if (is({"undisplay"})) {
        if (args.empty()) displays_.clear();
        else std::erase_if(displays_, [&](const Display& d) { return d.expr == args; });
    } else if (is({"locals", "a", "args"})) {
        show_locals();
    } else if (is({"h", "help"})) {
        help();
    } else if (line[0] == '!') {
        run_statement(line.substr(1));
    } else {
        run_statement(line);  // pdb: what is not a command runs as code
    }
    return std::nullopt;
}

void TerminalDebugger::break_command(const std::string& text, bool temporary) {
    tg::BreakpointSpec b;
    b.temporary = temporary;
    std::string where = text;
    // `b 12 if x > 3` (gdb) or `b 12, x > 3` (pdb)
    if (size_t i = text.find(" if "); i != std::string::npos) {
        where = trim(text.substr(0, i));
        b.condition = trim(text.substr(i + 4));
    } else if (size_t c = text.find(','); c != std::string::npos) {
        where = trim(text.substr(0, c));
        b.condition = trim(text.substr(c + 1));
    }
    const size_t colon = where.rfind(':');
    if (colon != std::string::npos && all_digits(where.substr(colon + 1))) {
        b.file = where.substr(0, colon);
        b.line = std::stoi(where.substr(colon + 1));
    } else if (all_digits(where)) {
        b.file = stop_ ? frame().file() : main_file_;
        b.line = std::stoi(where);
    } else if (!where.empty()) {
        b.function = where;
    } else {
        say("*** usage: b FILE:LINE | LINE | FUNCTION [if CONDITION]\n");
        return;
    }
    const int id = interp_.add_breakpoint(b);
    say(std::string(temporary ? "Breakpoint " : "Breakpoint ") + std::to_string(id) + " " + where_of(b) +
        (temporary ? " (temporary)" : "") + "\n");
}

void TerminalDebugger::list_breakpoints() {
    const auto all = interp_.breakpoints();
    if (all.empty()) {
        say("No breakpoints.\n");
        return;
    }
    say("Num Type         Disp Enb   Where\n");
    for (const tg::BreakpointInfo& b : all) {
        char row[64];
        std::snprintf(row, sizeof row, "%-3d breakpoint   %-4s %-5s ", b.id, b.spec.temporary ? "del" : "keep",
                      b.spec.enabled ? "yes" : "no");
        say(std::string(row) + where_of(b.spec) + "\n");
        if (!b.spec.condition.empty()) say("\tstop only if " + b.spec.condition + "\n");
        if (b.hits > 0)
            say("\tbreakpoint already hit " + std::to_string(b.hits) + (b.hits == 1 ? " time\n" : " times\n"));
    }
}

void TerminalDebugger::clear_command(const std::string& args) {
    const auto all = interp_.breakpoints();
    if (args.empty()) {
        interp_.clear_breakpoints();
        for (const tg::BreakpointInfo& b : all)
            say("Deleted breakpoint " + std::to_string(b.id) + " " + where_of(b.spec) + "\n");
        return;
    }
    for (int id : numbers(args)) {
        auto it = std::find_if(all.begin(), all.end(), [id](const tg::BreakpointInfo& b) { return b.id == id; });
        if (it == all.end() || !interp_.remove_breakpoint(id)) {
            say("*** No breakpoint numbered " + std::to_string(id) + "\n");
            continue;
        }
        say("Deleted breakpoint " + std::to_string(id) + " " + where_of(it->spec) + "\n");
    }
}

void TerminalDebugger::enable_command(const std::string& args, bool on) {
    const auto all = interp_.breakpoints();
    for (int id : numbers(args)) {
        auto it = std::find_if(all.begin(), all.end(), [id](const tg::BreakpointInfo& b) { return b.id == id; });
        if (it == all.end() || !interp_.enable_breakpoint(id, on)) {
            say("*** No breakpoint numbered " + std::to_string(id) + "\n");
            continue;
        }
        say(std::string(on ? "Enabled" : "Disabled") + " breakpoint " + std::to_string(id) + " " +
            where_of(it->spec) + "\n");
    }
}

void TerminalDebugger::print_value(const std::string& expr, bool repr) {
    if (expr.empty()) {
        say("*** usage: p EXPRESSION\n");
        return;
    }
    try {
        say(show_value(frame().evaluate(expr), repr) + "\n");
    } catch (const tg::Error& e) {
        say("*** " + e.message() + "\n");
    }
}

void TerminalDebugger::run_statement(const std::string& code) {
    try {
        tg::Value v = frame().evaluate(code);
        if (!v.is_none()) say(show_value(v, false) + "\n");
    } catch (const tg::Error& e) {
        say("*** " + e.message() + "\n");
    }
}

void TerminalDebugger::show_locals() {
    const tg::DebugFrame& f = frame();
    if (f.is_compiled()) {
        say("*** " + f.function() + " is running compiled code: no variables to show\n");
        return;
    }
    const auto vars = f.function() == "<module>" ? f.globals() : f.locals();
    for (const auto& [name, v] : vars) {
        if (v.kind() == tg::Value::Kind::Function || v.kind() == tg::Value::Kind::Module) continue;
        std::string shown = show_value(v, false);
        if (const size_t nl = shown.find('\n'); nl != std::string::npos && v.is_tensor() && v.as_tensor().size() > 8)
            shown = shown.substr(0, nl);  // a big tensor: its type and summary
        else if (nl != std::string::npos)
            shown.replace(nl, 1, " ");
        say(name + " = " + shown + "\n");
    }
}

void TerminalDebugger::help() {
    say("Commands (pdb's; docs/debugging.md):\n"
        "  b [FILE:]LINE [if COND] | b FUNCTION   set a breakpoint (b alone lists them)\n"
        "  tbreak ...       a breakpoint removed at its first stop\n"
        "  cl [N...]        clear breakpoints (all without N)\n"
        "  disable N / enable N\n"
        "  c                continue          n   next line (over calls)\n"
        "  s                step into calls   r   run until the function returns\n"
        "  unt              until a line after this one\n"
        "  w / bt           the stack         u / d   up / down the stack\n"
        "  l [FIRST[, LAST]]  source around the line;  ll  the whole function\n"
        "  p EXPR / pp EXPR  a value (tensors: type and summary first)\n"
        "  display EXPR     show EXPR at each stop when it changed;  undisplay [EXPR]\n"
        "  locals           the frame's variables\n"
        "  !STATEMENT       run tg code in the frame (also any text that is not a command)\n"
        "  q                end the program\n"
        "  Enter            repeat the last command\n");
}

}  // namespace tg::cli
