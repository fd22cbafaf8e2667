// A minimal line-based REPL over the public API (the full REPL is a later issue).
#pragma once

#include <tg/tg.hpp>

namespace tg::cli {

// Reads statements from stdin until EOF or :quit. When stdin is a terminal it
// shows prompts and uses line editing; otherwise it prints no banner and no
// prompts, so it can be scripted. Returns the exit status.
int repl(Options options);

}  // namespace tg::cli
