// libedit, the REPL's and the terminal debugger's line editor, loaded when a
// terminal first asks for a line (stdlib/shared_library.hpp): linked, it
// would cost every tg process, scripts included, its load and relocation
// (docs/performance.md "Start-up").
#pragma once

#include <editline/readline.h>

#include "stdlib/shared_library.hpp"

namespace tg::cli {

// Loads libedit (throws std::runtime_error when it cannot).
stdlib::SharedLibrary load_libedit();

// The functions and variables of libedit's readline interface tg uses
// (a variable's member points to it: *editline()->rl_point).
struct LibEdit {
    stdlib::SharedLibrary lib = load_libedit();
    TG_LIBRARY_FUNCTION(readline);
    TG_LIBRARY_FUNCTION(add_history);
    TG_LIBRARY_FUNCTION(read_history);
    TG_LIBRARY_FUNCTION(write_history);
    TG_LIBRARY_FUNCTION(rl_completion_matches);
    TG_LIBRARY_VARIABLE(rl_line_buffer);
    TG_LIBRARY_VARIABLE(rl_point);
    TG_LIBRARY_VARIABLE(rl_attempted_completion_over);
    TG_LIBRARY_VARIABLE(rl_completion_append_character);
    TG_LIBRARY_VARIABLE(rl_attempted_completion_function);
    TG_LIBRARY_VARIABLE(rl_completer_word_break_characters);
    TG_LIBRARY_VARIABLE(rl_getc_function);
};

// libedit, loaded by the first call; null when it cannot be loaded (a
// terminal then reads plain lines, without editing or history).
const LibEdit* editline();

}  // namespace tg::cli
