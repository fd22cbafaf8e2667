#include "cli/repl.hpp"
#include "cli/debug_command.hpp"
#include "cli/line_input.hpp"
#include "cli/terminal_debugger.hpp"
#include "cli/open_brackets.hpp"
#include "cli/block_lines.hpp"

#include "cli/fault_for_tests.hpp"

#include "api/tool_api.hpp"

#include "cli/editline.hpp"
#include <langinfo.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <clocale>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

namespace tg::cli {

namespace {

// Ctrl-C while code runs sets this flag; the interpreter polls it and stops
// the statement with the error "interrupted" (the session's state stays).
// A signal handler can only reach a global; it is the REPL's, not libtg's.
std::atomic<bool> g_interrupt{false};

extern "C" void on_sigint(int) { g_interrupt.store(true, std::memory_order_relaxed); }

// Installs on_sigint while alive, so Ctrl-C at the prompt keeps libedit's behaviour.
class InterruptScope {
public:
    InterruptScope() {
        g_interrupt.store(false);
        struct sigaction sa {};
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &saved_);
    }
    ~InterruptScope() { sigaction(SIGINT, &saved_, nullptr); }
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    struct sigaction saved_ {};
};

// History kept across sessions: $TG_HISTORY, else ~/.tg_history.
std::string history_path() {
    if (const char* p = std::getenv("TG_HISTORY"); p && *p) return p;
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.tg_history";
    return {};
}

// Tab completion (docs/repl.md "Completion and help"): the interpreter's
// engine (Interpreter::complete) on the line typed so far — names in scope,
// keywords, builtins, and after `.` a module's names or a value's methods —
// and the `:` commands. libedit's completion callback has no user pointer,
// so the REPL keeps the session's interpreter and the candidates here.
const Interpreter* g_completing = nullptr;
std::vector<std::string> g_candidates;

const char* kCommands[] = {":trace", ":eager", ":graph", ":time", ":vars", ":load", ":reset", ":help", ":quit"};

char* next_candidate(const char* text, int state) {
    static size_t index;
    if (state == 0) {
        index = 0;
        g_candidates.clear();
        const LibEdit& edit = *editline();  // completing: libedit is loaded
        std::string_view line(*edit.rl_line_buffer ? *edit.rl_line_buffer : "");
        size_t point = std::min(static_cast<size_t>(std::max(*edit.rl_point, 0)), line.size());
        if (line.starts_with(':') && line.find(' ') == std::string_view::npos) {
            g_candidates.assign(std::begin(kCommands), std::end(kCommands));
        } else if (g_completing) {
            for (Completion& c : g_completing->complete(line, point).items) g_candidates.push_back(std::move(c.text));
        }
    }
    size_t len = std::strlen(text);
    while (index < g_candidates.size()) {
        const std::string& c = g_candidates[index++];
        if (c.compare(0, len, text) == 0) return strdup(c.c_str());
    }
    return nullptr;
}

char** complete(const char* text, int, int) {
    const LibEdit& edit = *editline();
    *edit.rl_attempted_completion_over = 1;  // no filename completion
    *edit.rl_completion_append_character = '\0';  // `zeros_l<Tab>` gives `zeros_like`, ready for `(`
    return edit.rl_completion_matches(text, next_candidate);
}


// Input is UTF-8 (docs/repl.md), also when typed: libedit decodes and redraws
// wide characters by LC_CTYPE, so the REPL asks for the user's locale and,
// when that is not UTF-8 (e.g. "C"), for C.UTF-8. Only LC_CTYPE: number
// formatting (LC_NUMERIC) stays "C".
void use_utf8_ctype() {
    const char* set = std::setlocale(LC_CTYPE, "");
    if (set && std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return;
    if (!std::setlocale(LC_CTYPE, "C.UTF-8")) std::setlocale(LC_CTYPE, "C");
}

void out(std::string_view s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
}

void err(std::string_view s) {
    std::fflush(stdout);
    std::fwrite(s.data(), 1, s.size(), stderr);
    std::fflush(stderr);
}

const char* kHelp =
    "Enter tg statements; a block ends with an empty line (in pasted text, only\n"
    "when the next line is not indented). help(name) shows a builtin's reference.\n"
    "  :eager on|off   run @graph functions eagerly\n"
    "  :trace on|off   trace every input into a graph (shown, then run) and log\n"
    "                  every trace of a @graph function with its graph\n"
    "  :graph NAME [dot]  show the traced graphs of @graph function NAME\n"
    "  :time STMT      run STMT and print the elapsed time\n"
    "  :debug STMT     run STMT under the debugger, stopped at its first line\n"
    "                  (breakpoint() in any input stops there too; docs/debugging.md)\n"
    "  :vars           list the variables\n"
    "  :load FILE      run a file in this session\n"
    "  :reset          forget every variable\n"
    "  :help, :quit\n";

// One REPL session: the interpreter, the toggles, and whether any input
// failed (piped input exits 1 then, docs/repl.md).
class Session {
public:
    Session(Options options, bool tty) : options_(std::move(options)), debugger_(tty, "<stdin>") {
        // breakpoint() in an input opens the debugger's prompt; the input
        // ends, the REPL goes on (docs/debugging.md "In the REPL")
        if (options_.breakpoints) options_.on_breakpoint = debugger_.hook();
        reset();
    }

    bool failed() const { return failed_; }
    const Interpreter& interpreter() const { return *interp_; }

    void fail(std::string_view message) {
        err(message);
        failed_ = true;
    }

    // Runs one input: traced into a graph, shown and run with `:trace on`
    // (docs/repl.md), else run with the value of an expression echoed.
    void run(const std::string& code) {
        auto echo = [](const Value& v) { out(v.repr() + "\n"); };
        InterruptScope scope;
        try {
            const std::string name = "<stdin:" + std::to_string(++counter_) + ">";
            if (options_.trace) interp_->run_traced(code, name);
            else interp_->run_interactive(code, name, echo);
        } catch (const Error& e) {
            if (!TerminalDebugger::is_quit(e)) fail(e.rendered());
        }
        debugger_.detach();  // the next input runs at full speed
    }

    // A `:command` line; false when it is :quit.
    bool command(const std::string& line) {
        std::string cmd = line.substr(1), arg;
        if (auto sp = cmd.find(' '); sp != std::string::npos) {
            arg = cmd.substr(sp + 1);
            cmd = cmd.substr(0, sp);
        }
        while (!arg.empty() && arg.back() == ' ') arg.pop_back();
        while (!arg.empty() && arg.front() == ' ') arg.erase(0, 1);
        if (cmd == "quit" || cmd == "q") return false;
        if (cmd == "help") out(kHelp);
        else if (cmd == "eager") {
            if (toggle(cmd, arg, options_.eager)) interp_->set_eager(options_.eager);
        } else if (cmd == "trace") {
            if (toggle(cmd, arg, options_.trace)) interp_->set_trace(options_.trace);
        } else if (cmd == "graph") show_graphs(arg);
        else if (cmd == "vars") {
            for (auto& n : interp_->variables()) out(n + " = " + interp_->get(n).repr() + "\n");
        } else if (cmd == "load") load(arg);
        else if (cmd == "reset") reset();
        else if (cmd == "time") time(arg);
        else if (cmd == "debug") {
            if (arg.empty()) return fail("usage: :debug STATEMENT\n"), true;
            debugger_.attach(*interp_, true);
            run(arg);
        }
        else fail("unknown command :" + cmd + " (try :help)\n");
        return true;
    }

private:
    void reset() {
        debugger_.detach();
        interp_ = std::make_unique<Interpreter>(options_);
        debugger_.set_interpreter(interp_.get());
        add_fault_for_tests(*interp_);
    }
    // `:eager on|off`, `:trace on|off`: anything else is a usage error
    bool toggle(const std::string& cmd, const std::string& arg, bool& flag) {
        if (arg != "on" && arg != "off") {
            fail("usage: :" + cmd + " on|off\n");
            return false;
        }
        flag = arg == "on";
        return true;
    }
    void show_graphs(const std::string& arg) {
        std::string name = arg, mode;
        if (auto sp = arg.find(' '); sp != std::string::npos) {
            name = arg.substr(0, sp);
            mode = arg.substr(sp + 1);
        }
        if (name.empty() || (!mode.empty() && mode != "dot")) return fail("usage: :graph NAME [dot]\n");
        try {
            auto gs = interp_->graphs(name, mode == "dot");
            if (gs.empty()) out("`" + name + "` has not been traced yet\n");
            for (auto& g : gs) out(g);
        } catch (const Error& e) {
            fail(e.message() + "\n");
        }
    }
    void load(const std::string& file) {
        if (file.empty()) return fail("usage: :load FILE\n");
        InterruptScope scope;
        try {
            interp_->run_file(file);
        } catch (const Error& e) {
            fail(e.rendered());
        }
    }
    void time(const std::string& statement) {
        if (statement.empty()) return fail("usage: :time STATEMENT\n");
        auto t0 = std::chrono::steady_clock::now();
        run(statement);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3f ms\n", ms);
        out(buf);
    }

    Options options_;
    std::unique_ptr<Interpreter> interp_;
    DebuggerOnBreakpoint debugger_;  // after interp_: detaches before it goes
    bool failed_ = false;
    int counter_ = 0;
};

// The REPL's input lines, with one line of lookahead: after an empty line
// inside a block, the next line decides whether the block goes on
// (cli/block_lines.hpp); when it does not, it is the next input's first line.
class Input {
public:
    explicit Input(bool tty) : tty_(tty) {}

    Read read(const char* prompt, std::string& line) {
        if (!pending_) return read_line(tty_, prompt, line);
        line = std::move(*pending_);
        pending_.reset();
        return Read::Line;
    }
    void put_back(std::string line) { pending_ = std::move(line); }
    // Whether a next line is already there: always for piped input; on a
    // terminal, when the rest of a paste is waiting to be read (typed lines
    // are not there yet, and an empty typed line ends the block).
    bool waiting() const {
        if (!tty_) return true;
        pollfd p{0, POLLIN, 0};
        return ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
    }

private:
    bool tty_;
    std::optional<std::string> pending_;
};

// After an empty line inside a block: the empty lines and the line after
// them when that one is indented (the block goes on: a paste), else nothing
// — the block ends, and a line read past it is put back.
std::optional<std::string> block_goes_on(Input& input) {
    std::string blanks = "\n", next;
    while (input.waiting()) {
        if (input.read("... ", next) != Read::Line) return std::nullopt;
        if (is_blank_line(next)) {
            blanks += "\n";
            continue;
        }
        if (is_indented_line(next)) return blanks + next;
        input.put_back(std::move(next));
        return std::nullopt;
    }
    return std::nullopt;
}

// The rest of a statement whose first line is `line`: a block ends at an
// empty line, unless an indented line follows at once (docs/repl.md
// "Multi-line input"); otherwise it is parsed only when it may be complete
// (linear in its length). Nothing when Ctrl-C or an overlong line drops it.
std::optional<std::string> read_statement(Session& session, Input& input, const std::string& line) {
    std::string code = line + "\n";
    bool block = opens_block(line);
    OpenBrackets brackets;
    brackets.feed(line);
    for (;;) {
        if (!block && !brackets.open() && !check_source(code, "<stdin>").incomplete) break;
        std::string more;
        Read m = input.read("... ", more);
        if (m == Read::Interrupted) return std::nullopt;  // Ctrl-C in a block drops the whole block
        if (m == Read::End) break;
        if (m == Read::TooLong) {
            session.fail("error: an input line is longer than 64 MiB; it was skipped\n");
            return std::nullopt;
        }
        if (more.empty() && block) {
            std::optional<std::string> rest = block_goes_on(input);
            if (!rest) break;
            more = std::move(*rest);  // the empty lines and the indented line after them
        }
        if (opens_block(more)) block = true;
        brackets.feed(more);
        code += more + "\n";
    }
    return code;
}


}  // namespace

int repl(Options options) {
    const bool tty = isatty(0);
    options.write_output = out;
    options.output_is_terminal = isatty(1) != 0;
    options.write_log = err;
    options.interrupt = &g_interrupt;
    Session session(options, tty);
    const LibEdit* edit = tty ? editline() : nullptr;
    std::string history = edit ? history_path() : std::string();
    if (tty) {
        use_utf8_ctype();
        out(std::string("tg ") + version() + " — :help for help, :quit to leave\n");
    }
    if (edit) {
        *edit->rl_attempted_completion_function = complete;
        // `.` ends a word, so `x.res<Tab>` completes `res` (the engine sees the whole line)
        static char word_breaks[] = " \t\n\"\\'`@$><=;|&{(,[.+-*/%";
        *edit->rl_completer_word_break_characters = word_breaks;
        *edit->rl_getc_function = read_key;
        if (!history.empty()) edit->read_history(history.c_str());
    }
    Input input(tty);
    std::string line;
    for (;;) {
        if (tty) g_completing = &session.interpreter();
        Read r = input.read(">>> ", line);
        if (r == Read::End) break;
        if (r == Read::TooLong) {
            session.fail("error: an input line is longer than 64 MiB; it was skipped\n");
            continue;
        }
        if (r == Read::Interrupted || line.empty()) continue;
        if (line[0] == ':') {
            if (!session.command(line)) break;
            continue;
        }
        if (std::optional<std::string> code = read_statement(session, input, line)) session.run(*code);
    }
    if (!history.empty()) edit->write_history(history.c_str());
    return session.failed() && !tty ? 1 : 0;
}

}  // namespace tg::cli
