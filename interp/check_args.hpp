// A call's arguments checked by the one binder (interp/call_signature.hpp)
// against a signature as docs/builtins.md writes it, in Python's notation
// ("grad(f, /, argnums=0, has_aux=False)"): an unlocated Error in the words
// the language server uses for the same call (docs/editors.md).
#pragma once

#include <atomic>
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
//
// Which counts fit is learned per count, by its first call: binding all 64
// counts up front (an error message made for each that does not fit) cost
// about 1.3 ms the first time a program called any method.
class SignatureCheck {
public:
    explicit SignatureCheck(std::string_view text, ArityWording wording = ArityWording::Function);
    SignatureCheck(const SignatureCheck& o);
    SignatureCheck& operator=(const SignatureCheck&) = delete;
    // check_arguments of the signature: an unlocated Error when `args` do not fit.
    void operator()(const CallArgs& args) const;
    const CallSignature& signature() const { return signature_; }

private:
    CallSignature signature_;
    ArityWording wording_;
    // bit n of known_: n positional arguments and no keyword were bound once;
    // of fits_: they fit. (Atomic: the method signatures are one table for
    // every interpreter in the process; a count two threads learn at once
    // is bound by both, with the same answer.)
    mutable std::atomic<uint64_t> known_{0}, fits_{0};
};

}  // namespace tg::interp
