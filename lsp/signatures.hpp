// What a function takes, for the language server's call checks and
// signature help (docs/editors.md): a builtin's from the op table (its
// parameters) or from the builtin reference (docs/builtins.md, its
// signatures as written), a tg function's from its `def`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/reference.hpp"
#include "lang/ast.hpp"

namespace tg::lsp {

struct ParamSig {
    std::string name;
    std::string default_text;  // "" when required
    bool has_default = false;
    bool variadic = false;     // `*xs`: takes every further positional argument
};

struct Signature {
    std::string name;
    std::vector<ParamSig> params;
    bool open = false;  // written `f(...)`: what it takes is not spelled out (never checked)
    std::string any_keyword;  // `**kwargs`: takes every other keyword (its name)
    std::string label() const;  // "zeros(shape, dtype=f32)"
};

// `range(start, stop, step=1)` as the reference writes it; nullopt for a
// bare name (`graph`, `pi`).
std::optional<Signature> parse_signature(std::string_view text);

// A builtin's signatures: the op table's parameters for a tensor op that
// takes only them, else every signature the reference gives.
std::vector<Signature> builtin_signatures(std::string_view name, const std::vector<interp::BuiltinDoc>& docs);

// A tg function's signature from its definition (defaults shown when they
// are literals, else `...`).
Signature function_signature(const lang::FunctionDef& f);

// What is wrong with a call against every signature of its callee (the
// first that accepts it wins), worded as the interpreter words it at run
// time (interp/calls.cpp, interp/dispatch.cpp): "f: takes 2 arguments but 3
// were given", "f: unknown keyword argument `k`; did you mean `axis`?".
struct CallProblem {
    std::string message;
    lang::Loc loc;        // the callee's name, or the keyword
    uint32_t length = 0;  // characters
};
std::optional<CallProblem> check_call(const lang::Call& call, std::string_view name, uint32_t name_length,
                                      const std::vector<Signature>& signatures);

}  // namespace tg::lsp
