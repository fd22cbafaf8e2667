// Reading a line of input, for the REPL and the terminal debugger (which
// share stdin: the debugger reads its commands where the REPL reads code).
// On a terminal: libedit, with history and Ctrl-C ending the line; piped:
// plain lines, bounded like source files.
#pragma once

#include <string>

namespace tg::cli {

enum class Read { Line, End, Interrupted, TooLong };
constexpr size_t kMaxInputLine = size_t{64} << 20;

Read read_line(bool tty, const char* prompt, std::string& line);

// libedit's key reader (rl_getc_function), so that Ctrl-C can end a read.
int read_key(FILE*);

}  // namespace tg::cli
