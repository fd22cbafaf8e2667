// What help(name) shows (docs/repl.md "Completion and help"): a builtin's
// signatures and line from the builtin reference (interp/reference.hpp), a
// tg function's signature and leading comment. One implementation for the
// help() builtin, tg::Interpreter::help (the REPL, the Jupyter kernel's
// inspection).
#pragma once

#include "interp/runtime.hpp"

#include <string>
#include <string_view>

namespace tg::interp {

// The value a dotted name ("x", "nn.init") holds in module `m`, or nullptr.
const Value* lookup_dotted(const ModuleState& m, std::string_view dotted);

// `name(a, b=2)` and the function's leading comment, indented.
std::string function_help(const FunctionObj& f);

// help for a name: a function of `m` (dotted: "nn.linear"), else a builtin
// or method ("zeros", "x.reshape", "reshape"). "" when nothing is known.
std::string help_for_name(const ModuleState& m, std::string_view name);

// help for a value: a function, a builtin, a bound method (`x.reshape`), or a
// string naming one (help_for_name). "" when nothing is known.
std::string help_for_value(const ModuleState& m, const Value& v);

}  // namespace tg::interp
