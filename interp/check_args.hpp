// A call's arguments checked by the one binder (interp/call_signature.hpp)
// against a signature as docs/builtins.md writes it, in Python's notation
// ("grad(f, /, argnums=0, has_aux=False)"): an unlocated Error in the words
// the language server uses for the same call (docs/editors.md).
#pragma once

#include <cstdint>
#include <string_view>

#include "interp/call_signature.hpp"

namespace tg::interp {

struct CallArgs;
void check_arguments(const CallSignature& s, const CallArgs& args, ArityWording wording);

// The kind of the value a builtin is called on as a method (`x.clip(0, 1)`:
// "tensor"; CallArgs::method), or "" for a call written as a function's.
std::string_view method_receiver(const CallArgs& args);
// `signature` parsed for the check (a builtin's, written where it is defined)
void check_arguments(std::string_view signature, const CallArgs& args);

// A signature parsed once (a method's, or a function-local static at a hot
// builtin: `static const SignatureCheck check("int(x, /, base=10)")`), with
// the numbers of positional arguments (below 64) it takes when no keyword
// is given — what almost every call passes, accepted without binding.
class SignatureCheck {
public:
    explicit SignatureCheck(std::string_view text, ArityWording wording = ArityWording::Function);
    // check_arguments of the signature: an unlocated Error when `args` do not fit.
    void operator()(const CallArgs& args) const;
    const CallSignature& signature() const { return signature_; }

private:
    CallSignature signature_;
    ArityWording wording_;
    uint64_t plain_counts_ = 0;  // bit n: n positional arguments and no keyword fit
};

}  // namespace tg::interp
