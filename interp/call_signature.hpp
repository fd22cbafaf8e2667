// What a callable takes, written as Python writes a signature —
// `pop(index=-1, /)`, `split(sep=None, maxsplit=-1)`, `format(*args,
// **kwargs)` — and the check of a call's arguments against it. One binder
// for the interpreter (the methods of lists, dicts, strings and tensors,
// interp/method_signatures.hpp) and the language server (builtins, tg
// functions and methods, docs/editors.md "Diagnostics"), so both word a
// wrong call the same way.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tg::interp {

struct ParamSig {
    std::string name;
    std::string default_text;  // "" when required
    bool has_default = false;
    bool variadic = false;         // `*xs`: takes every further positional argument
    bool positional_only = false;  // before `/`: never a keyword
    bool keyword_only = false;     // after `*` or `*xs`: never positional
};

struct CallSignature {
    std::string name;
    std::vector<ParamSig> params;
    bool open = false;        // written `f(...)`: what it takes is not spelled out (never checked)
    std::string any_keyword;  // `**kwargs`: takes every other keyword (its name)
    std::string label() const;  // "zeros(shape, dtype=f32)", "pop(index=-1, /)"
};

// `range(start, stop, step=1)` as written; nullopt for a bare name (`pi`).
std::optional<CallSignature> parse_signature(std::string_view text);

// How an arity error counts: as a tg function's call does ("f: takes 2
// arguments but 3 were given", interp/calls.cpp: too many; too few is a
// missing argument by name), or as a method's, from the fewest to the most
// positional arguments ("pop: takes 0 to 1 arguments but 2 were given",
// "copy: takes no arguments but 1 was given"). A signature with
// positional-only parameters (`len(x, /)`) is counted as a method's either
// way: its parameters have no names a call could give.
enum class ArityWording : uint8_t { Function, Method };

struct ArgumentProblem {
    std::string message;  // "name: ..." (the signature's name)
    int keyword = -1;     // the keyword it is about (an index into `keywords`), or -1: the call
};

// Why a call with `positional` positional arguments and these keywords does
// not fit `s`, or nullopt when it does: too many or too few positional
// arguments, an unknown keyword (with "did you mean"), one given twice, a
// required parameter missing. `receiver`: the kind of the value a builtin is
// called on as a method (`x.clip(0, 1)`: "tensor"), which fills the first
// parameter; a count then leaves it out, as the call was written ("clip:
// takes 2 arguments after the tensor it is called on, but 3 were given").
std::optional<ArgumentProblem> bind_arguments(const CallSignature& s, size_t positional,
                                              std::span<const std::string_view> keywords, ArityWording wording,
                                              std::string_view receiver = {});

// "takes 2 arguments", "takes 1 to 3 arguments", "takes no arguments".
std::string takes_arguments(size_t lo, size_t hi, ArityWording wording);

// "f: takes 2 arguments but 3 were given", "len: takes 1 argument but 0
// were given", "time: takes no arguments but 1 was given": the words of
// every count the interpreter and the language server check (builtins,
// tg functions, methods, ops).
std::string arity_error(std::string_view name, size_t lo, size_t hi, size_t given, ArityWording wording,
                        std::string_view receiver = {});

}  // namespace tg::interp
