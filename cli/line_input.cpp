// Reading a line of input (cli/line_input.hpp).
#include "cli/line_input.hpp"

#include "cli/editline.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <stdexcept>
#include <cstdio>
#include <cstdlib>

namespace tg::cli {

namespace {

// Ctrl-C at the prompt: a SIGINT handler (without SA_RESTART) sets this flag,
// the read() in read_key fails with EINTR, and read_key ends the line as if
// at end of input; read_line then reports Interrupted and the REPL discards
// the line (or the unfinished block) and prompts again, as Python does.
std::atomic<bool> g_prompt_interrupt{false};

extern "C" void on_prompt_sigint(int) { g_prompt_interrupt.store(true, std::memory_order_relaxed); }

// libedit's key reader, replaced (rl_getc_function) so that Ctrl-C can end
// the read. It returns one character: UTF-8 is decoded here into a code
// point, which libedit's readline stores as one wide character.
}  // namespace

stdlib::SharedLibrary load_libedit() { return stdlib::SharedLibrary("libedit", {TG_LIBEDIT_SONAME, TG_LIBEDIT_PATH}); }

const LibEdit* editline() {
    try {
        static const LibEdit e;
        return &e;
    } catch (const std::runtime_error&) {
        return nullptr;
    }
}

int read_key(FILE*) {
    auto byte = [](unsigned char& b) {
        for (;;) {
            ssize_t n = ::read(0, &b, 1);
            if (n == 1) return true;
            if (n < 0 && errno == EINTR && !g_prompt_interrupt.load()) continue;
            return false;
        }
    };
    unsigned char b;
    if (!byte(b)) return EOF;
    if (b < 0x80) return b;
    int extra = (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2 : (b & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0) return 0xFFFD;
    int cp = b & (0x3F >> extra);
    for (int k = 0; k < extra; ++k) {
        if (!byte(b)) return EOF;
        if ((b & 0xC0) != 0x80) return 0xFFFD;
        cp = (cp << 6) | (b & 0x3F);
    }
    return cp;
}

Read read_line(bool tty, const char* prompt, std::string& line) {
    const LibEdit* edit = tty ? editline() : nullptr;
    if (tty && !edit) {  // no line editor: the prompt, then a plain line
        std::fputs(prompt, stdout);
        std::fflush(stdout);
    }
    if (edit) {
        g_prompt_interrupt.store(false);
        struct sigaction sa {}, saved {};
        sa.sa_handler = on_prompt_sigint;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;  // no SA_RESTART: read() returns EINTR
        sigaction(SIGINT, &sa, &saved);
        char* l = edit->readline(prompt);
        sigaction(SIGINT, &saved, nullptr);
        if (g_prompt_interrupt.load()) {
            std::free(l);
            std::fputs("\n", stdout);
            std::fflush(stdout);
            return Read::Interrupted;
        }
        if (!l) return Read::End;
        line = l;
        if (!line.empty()) edit->add_history(l);
        std::free(l);
        return Read::Line;
    }
    // piped input: lines are bounded like source files (a line of 64 MiB is
    // an error, and the rest of it is skipped)
    line.clear();
    bool too_long = false;
    int c = 0;
    while ((c = std::getchar()) != EOF && c != '\n') {
        if (line.size() < kMaxInputLine) line.push_back(static_cast<char>(c));
        else too_long = true;
    }
    if (c == EOF && line.empty() && !too_long) return Read::End;
    return too_long ? Read::TooLong : Read::Line;
}

}  // namespace tg::cli
