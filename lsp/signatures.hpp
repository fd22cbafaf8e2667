// What a function takes, for the language server's call checks and
// signature help (docs/editors.md): a builtin's from the op table (its
// parameters) or from the builtin reference (docs/builtins.md, its
// signatures as written), a tg function's from its `def`.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interp/call_signature.hpp"
#include "interp/reference.hpp"
#include "lang/ast.hpp"

namespace tg::lsp {

// (interp/call_signature.hpp: the interpreter's methods are checked by the same binder)
using ParamSig = interp::ParamSig;
using Signature = interp::CallSignature;
using interp::parse_signature;

// A builtin's signatures: the op table's parameters for a tensor op that
// takes only them, else every signature the reference gives.
std::vector<Signature> builtin_signatures(std::string_view name, const std::vector<interp::BuiltinDoc>& docs);

// A tg function's signature from its definition (defaults shown when they
// are literals, else `...`).
Signature function_signature(const lang::FunctionDef& f);

// What is wrong with a call against every signature of its callee (one
// that accepts it is enough; else the widest one's problem is reported),
// worded as the interpreter words it at run
// time (interp/calls.cpp, interp/dispatch.cpp, interp/method_signatures.hpp):
// "f: takes 2 arguments but 3 were given", "f: unknown keyword argument `k`;
// did you mean `axis`?". `receiver`: the call is a method of a value that
// the first parameter takes (`x.sum(0)` is `sum(x, 0)`); `wording`: how a
// wrong count is said (a method of the table says "takes 0 to 1 arguments").
struct CallProblem {
    std::string message;
    lang::Loc loc;        // the callee's name, or the keyword
    uint32_t length = 0;  // characters
};
struct CallShape {
    std::string_view name;     // the callee's name as written (`x.ravel()`: ravel)
    lang::Loc name_loc;        // where the callee's name is written
    uint32_t name_length = 0;  // characters
    bool receiver = false;
    interp::ArityWording wording = interp::ArityWording::Function;
    // with a receiver: its kind as `type(x)` says it ("tensor"), which a
    // count leaves out ("takes 2 arguments after the tensor it is called
    // on"); "" when not known, and then a wrong count is not reported
    std::string_view receiver_kind;
};
std::optional<CallProblem> check_call(const lang::Call& call, const CallShape& shape,
                                      std::span<const Signature> signatures);

}  // namespace tg::lsp
