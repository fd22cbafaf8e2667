// docs/repl.md's tracing toggle for REPL inputs (`:trace on`,
// tg::Interpreter::run_traced): each input is traced into one graph whose
// free variables are its inputs, the graph is shown, run, and released.
// interp/tracing/trace_input.cpp has the design; docs/repl.md the rules.
#pragma once

#include "interp/runtime.hpp"
#include "lang/source.hpp"

namespace tg::interp {

// Runs `source` as the next input of module `m` (the REPL's session), traced.
// Echoes (repr of an expression statement's value, and a newline) go to
// rt.write, in order with print's output; the graph and the notes go to
// rt.options.write_log. Output, results and errors are the same as eager's:
// whatever the graph cannot reproduce runs eagerly instead, with a one-line
// note. Throws Error like Runtime::run_chunk.
void run_input_traced(Runtime& rt, ModuleState& m, lang::SourcePtr source);

// Test hook: how many per-input graphs exist now, in this process. Each is
// destroyed (with whatever is attached to its GraphEntry, e.g. compiled code)
// as soon as its input has run, so this is 0 between inputs.
int live_input_graphs();

}  // namespace tg::interp
