// A call's arguments checked by the one binder (interp/call_signature.hpp)
// against a signature as docs/builtins.md writes it, in Python's notation
// ("grad(f, /, argnums=0, has_aux=False)"): an unlocated Error in the words
// the language server uses for the same call (docs/editors.md).
#pragma once

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

}  // namespace tg::interp
