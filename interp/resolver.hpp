// The resolver: one pass over a parsed chunk that maps every Name to a slot
// (lang::Name::scope / slot / depth) and fills each function's FunctionFacts,
// so the evaluator never looks a variable up by its string.
//
// Rules (docs/language.md): a name assigned anywhere in a function (parameter, `=`,
// `+=`, `for` target, `def`, `import`) is local to it; otherwise it is read
// from the nearest enclosing function that assigns it, then from the module,
// then from the builtins. A comprehension is its own scope (Python 3).
#pragma once

#include "interp/runtime.hpp"
#include "lang/ast.hpp"

namespace tg::interp {

// Resolves `chunk` as top-level code of module `m` (which gains global slots
// for the names the chunk assigns).
void resolve(lang::Module& chunk, ModuleState& m, Runtime& rt);

// Resolves `chunk` as the body of a function with parameters `params` (a
// traced REPL input, interp/tracing/trace_input.cpp): the names it assigns are locals
// of that function, the others resolve as in module `m`. Fills `facts`.
void resolve_as_function(lang::Module& chunk, const std::vector<std::string>& params, FunctionFacts& facts,
                         ModuleState& m, Runtime& rt);

}  // namespace tg::interp
