#include "cli/repl.hpp"

#include "interp/tool_api.hpp"

#include <editline/readline.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <iostream>
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

// Tab completion: names in scope (variables and builtins) and `:` commands.
// libedit's completion callback has no user pointer, so the REPL keeps the
// candidate list here and refreshes it before each prompt.
std::vector<std::string> g_candidates;

char* next_candidate(const char* text, int state) {
    static size_t index;
    if (state == 0) index = 0;
    size_t len = std::strlen(text);
    while (index < g_candidates.size()) {
        const std::string& c = g_candidates[index++];
        if (c.compare(0, len, text) == 0) return strdup(c.c_str());
    }
    return nullptr;
}

char** complete(const char* text, int, int) {
    rl_attempted_completion_over = 1;  // no filename completion
    rl_completion_append_character = '\0';  // `zeros_l<Tab>` gives `zeros_like`, ready for `(`
    return rl_completion_matches(text, next_candidate);
}

const char* kCommands[] = {":trace", ":eager", ":graph", ":time", ":vars", ":load", ":reset", ":help", ":quit"};

bool read_line(bool tty, const char* prompt, std::string& line) {
    if (tty) {
        char* l = readline(prompt);
        if (!l) return false;
        line = l;
        if (!line.empty()) add_history(l);
        std::free(l);
        return true;
    }
    return static_cast<bool>(std::getline(std::cin, line));
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
    "Enter tg statements; a block ends with an empty line.\n"
    "  :eager on|off   run @graph functions eagerly\n"
    "  :trace on|off   trace every input into a graph (shown, then run) and log\n"
    "                  every trace of a @graph function with its graph\n"
    "  :graph NAME [dot]  show the traced graphs of @graph function NAME\n"
    "  :time STMT      run STMT and print the elapsed time\n"
    "  :vars           list the variables\n"
    "  :load FILE      run a file in this session\n"
    "  :reset          forget every variable\n"
    "  :help, :quit\n";

}  // namespace

int repl(Options options) {
    const bool tty = isatty(0);
    options.write_output = out;
    options.write_log = err;
    options.interrupt = &g_interrupt;
    auto interp = std::make_unique<Interpreter>(options);
    std::string history = tty ? history_path() : std::string();
    if (tty) {
        out(std::string("tg ") + version() + " — :help for help, :quit to leave\n");
        rl_attempted_completion_function = complete;
        if (!history.empty()) read_history(history.c_str());
    }
    auto refresh_candidates = [&](const Interpreter& in) {
        g_candidates.assign(std::begin(kCommands), std::end(kCommands));
        for (auto& n : in.variables()) g_candidates.push_back(n);
        for (auto& n : in.builtin_names()) g_candidates.push_back(n);
    };
    int counter = 0;
    auto run = [&](const std::string& code) {
        auto echo = [](const Value& v) { out(v.repr() + "\n"); };
        InterruptScope scope;
        try {
            const std::string name = "<stdin:" + std::to_string(++counter) + ">";
            // :trace on: the input is traced into a graph, shown, run (SPEC §7)
            if (options.trace) interp->run_traced(code, name);
            else interp->run_interactive(code, name, echo);
        } catch (const Error& e) {
            err(e.rendered());
        }
    };
    std::string line;
    for (;;) {
        if (tty) refresh_candidates(*interp);
        if (!read_line(tty, ">>> ", line)) break;
        if (line.empty()) continue;
        if (line[0] == ':') {
            std::string cmd = line.substr(1), arg;
            if (auto sp = cmd.find(' '); sp != std::string::npos) {
                arg = cmd.substr(sp + 1);
                cmd = cmd.substr(0, sp);
            }
            if (cmd == "quit" || cmd == "q") break;
            if (cmd == "help") out(kHelp);
            else if (cmd == "eager") interp->set_eager(options.eager = arg == "on");
            else if (cmd == "trace") interp->set_trace(options.trace = arg == "on");
            else if (cmd == "graph") {
                std::string name = arg, mode;
                if (auto sp = arg.find(' '); sp != std::string::npos) {
                    name = arg.substr(0, sp);
                    mode = arg.substr(sp + 1);
                }
                try {
                    auto gs = interp->graphs(name, mode == "dot");
                    if (gs.empty()) out("`" + name + "` has not been traced yet\n");
                    for (auto& g : gs) out(g);
                } catch (const Error& e) {
                    err(e.message() + "\n");
                }
            }
            else if (cmd == "vars") {
                for (auto& n : interp->variables()) out(n + " = " + interp->get(n).repr() + "\n");
            } else if (cmd == "load") {
                try {
                    interp->run_file(arg);
                } catch (const Error& e) {
                    err(e.rendered());
                }
            } else if (cmd == "reset") {
                interp = std::make_unique<Interpreter>(options);
            } else if (cmd == "time") {
                auto t0 = std::chrono::steady_clock::now();
                run(arg);
                double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.3f ms\n", ms);
                out(buf);
            } else {
                err("unknown command :" + cmd + " (try :help)\n");
            }
            continue;
        }
        std::string code = line + "\n";
        bool block = !line.empty() && line.back() == ':';
        for (;;) {
            CheckResult c = check_source(code, "<stdin>");
            if (!block && !c.incomplete) break;
            std::string more;
            if (!read_line(tty, "... ", more)) break;
            if (more.empty() && block) break;
            if (!more.empty() && more.back() == ':') block = true;
            code += more + "\n";
        }
        run(code);
    }
    if (!history.empty()) write_history(history.c_str());
    return 0;
}

}  // namespace tg::cli
