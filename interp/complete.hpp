// Completion (docs/repl.md "Completion"): one engine for the REPL, the
// Jupyter kernel and the language server. It knows tg's words (keywords,
// builtins, the methods of each kind of value, from the same lists the
// interpreter's "did you mean" uses); the caller knows the names in scope
// and what a receiver before `.` is — the REPL and the kernel from the
// running program's values, the language server from the source.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tg::interp {

enum class CompletionKind : uint8_t { Keyword, Builtin, Variable, Function, Module, Method, Attribute };
const char* completion_kind_name(CompletionKind k);  // "keyword", "builtin", ...

struct Completion {
    std::string text;
    CompletionKind kind = CompletionKind::Variable;
    std::string detail;  // a signature, when known: `zeros(shape, dtype=f32)`
};

// What is being completed at byte `cursor` of `code`: the word before the
// cursor (`prefix`, starting at byte `start`) and, when it follows a `.`,
// the dotted name before the dot (`receiver`: "x", "nn.init"; a string
// literal before the dot gives "\"\""). Empty receiver after a dot that
// follows something else (a call, a subscript): `after_dot` with an empty
// receiver (the caller may offer every method).
struct CompletionRequest {
    size_t start = 0;
    std::string prefix;
    bool after_dot = false;
    std::string receiver;
};
CompletionRequest completion_request(std::string_view code, size_t cursor);

// The kinds of value whose members are known without running anything.
enum class ReceiverKind : uint8_t { Unknown, Tensor, List, Tuple, Dict, Set, Str, Module };

struct Scope {
    std::vector<Completion> names;     // variables, functions, modules in scope (kind set by the caller)
    std::vector<std::string> builtins;  // the interpreter's builtin names
};

// Names starting with `prefix`: the scope's, then keywords and builtins;
// sorted, each once (a scope name shadows a builtin of the same name).
std::vector<Completion> complete_names(std::string_view prefix, const Scope& scope);

// Members of a receiver starting with `prefix`: a tensor's attributes and
// every builtin (each is a method of its first argument); the methods of
// lists, dicts and strings (tuples have none); a module's `members` (given by the
// caller). Unknown: the union of all, as an editor offers without types.
std::vector<Completion> complete_members(ReceiverKind kind, std::string_view prefix, const Scope& scope,
                                         const std::vector<Completion>& members = {});

std::vector<std::string_view> keyword_names();

}  // namespace tg::interp
