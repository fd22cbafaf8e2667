// The terminal debugger: `tg debug FILE`, breakpoint() under `tg run` on a
// terminal, and the REPL's `:debug` (docs/debugging.md "tg debug"). pdb's
// commands and look, over the embedding API's debug hooks (include/tg/debug.hpp).
#pragma once

#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tg::cli {

class TerminalDebugger : public tg::Debugger {
public:
    // `tty`: stdin is a terminal (line editing; piped, each command is echoed
    // after the prompt, so a transcript reads as a session). `main_file`:
    // where `b LINE` sets a breakpoint before the program stops anywhere.
    TerminalDebugger(tg::Interpreter& interp, bool tty, std::string main_file);

    tg::Resume stopped(const tg::DebugStop& stop) override;
    void output(std::string_view text) override;

    // The message an error has when `q` ended the program.
    static bool is_quit(const tg::Error& e);

private:
    tg::Interpreter& interp_;
    bool tty_;
    std::string main_file_;
    const tg::DebugStop* stop_ = nullptr;
    size_t frame_ = 0;  // the selected frame (u / d), 0 = innermost
    std::string last_command_;
    int list_next_ = 0;  // `l` with no argument goes on from here
    struct Display {
        std::string expr, last;
    };
    std::vector<Display> displays_;
    std::map<std::string, std::vector<std::string>> lines_;  // a source's lines, for l / ll

    // One command; a Resume ends the stop (debugger_commands.cpp).
    std::optional<tg::Resume> command(const std::string& line);
    void break_command(const std::string& args, bool temporary);
    void list_breakpoints();
    void clear_command(const std::string& args);
    void enable_command(const std::string& args, bool on);
    void print_value(const std::string& expr, bool repr);
    void run_statement(const std::string& code);
    void show_locals();
    void help();

    // Showing where the program is (terminal_debugger.cpp).
    const tg::DebugFrame& frame() const { return stop_->frames[frame_]; }
    void show_header(const tg::DebugStop& s);
    void show_frame(size_t i, bool marker);
    void show_displays();
    void where();
    void list(int first, int last);
    void long_list();
    const std::vector<std::string>* source_lines(const tg::DebugFrame& f);
    std::string line_text(const tg::DebugFrame& f, int line);
};

// The debugger's own output: to stdout, flushed (in order with print()'s).
void say(std::string_view s);

// How a value is shown by `p`: a tensor's type and summary line, then its
// values; anything else as repr.
std::string show_value(const tg::Value& v, bool repr);

}  // namespace tg::cli
