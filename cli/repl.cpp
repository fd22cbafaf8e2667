#include "cli/repl.hpp"

#include <editline/readline.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

namespace tg::cli {

namespace {

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
    "  :trace on|off   log traces (the tracer is not built yet)\n"
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
    auto interp = std::make_unique<Interpreter>(options);
    if (tty) out(std::string("tg ") + version() + " — :help for help, :quit to leave\n");
    int counter = 0;
    auto run = [&](const std::string& code) {
        auto echo = [](const Value& v) { out(v.repr() + "\n"); };
        try {
            interp->run_interactive(code, "<stdin:" + std::to_string(++counter) + ">", echo);
        } catch (const Error& e) {
            err(e.rendered());
        }
    };
    std::string line;
    while (read_line(tty, ">>> ", line)) {
        if (line.empty()) continue;
        if (line[0] == ':') {
            std::string cmd = line.substr(1), arg;
            if (auto sp = cmd.find(' '); sp != std::string::npos) {
                arg = cmd.substr(sp + 1);
                cmd = cmd.substr(0, sp);
            }
            if (cmd == "quit" || cmd == "q") break;
            if (cmd == "help") out(kHelp);
            else if (cmd == "eager") interp->set_eager(arg == "on");
            else if (cmd == "trace") {}  // accepted: results are the same either way
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
    return 0;
}

}  // namespace tg::cli
