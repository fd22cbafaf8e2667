#include "interp/check_args.hpp"

#include <array>
#include <vector>

#include "interp/error.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

void check_arguments(const CallSignature& s, const CallArgs& args, ArityWording wording) {
    // the keywords' names without allocating for the usual few (every method call is checked)
    std::array<std::string_view, 16> few;
    std::vector<std::string_view> many;
    std::span<const std::string_view> keywords;
    if (args.keywords.size() <= few.size()) {
        for (size_t k = 0; k < args.keywords.size(); ++k) few[k] = args.keywords[k].name;
        keywords = std::span<const std::string_view>(few.data(), args.keywords.size());
    } else {
        for (const KwArg& k : args.keywords) many.push_back(k.name);
        keywords = many;
    }
    if (auto p = bind_arguments(s, args.positional.size(), keywords, wording, method_receiver(args))) throw Error(p->message);
}

std::string_view method_receiver(const CallArgs& args) {
    return args.method && !args.positional.empty() ? kind_name(args.positional[0].kind()) : std::string_view();
}

SignatureCheck::SignatureCheck(std::string_view text, ArityWording wording) : wording_(wording) {
    const std::optional<CallSignature> s = parse_signature(text);
    if (!s) throw Error("internal error: a builtin's signature does not parse: " + std::string(text));
    signature_ = *s;
}

SignatureCheck::SignatureCheck(const SignatureCheck& o)
    : signature_(o.signature_), wording_(o.wording_), known_(o.known_.load(std::memory_order_relaxed)),
      fits_(o.fits_.load(std::memory_order_relaxed)) {}

void SignatureCheck::operator()(const CallArgs& args) const {
    const size_t n = args.positional.size();
    if (args.keywords.empty() && n < 64) {
        const uint64_t bit = uint64_t(1) << n;
        if (known_.load(std::memory_order_relaxed) & bit) {
            if (fits_.load(std::memory_order_relaxed) & bit) return;
        } else if (!bind_arguments(signature_, n, {}, wording_, {})) {
            fits_.fetch_or(bit, std::memory_order_relaxed);  // (before known_: a thread that sees known_ alone binds again)
            known_.fetch_or(bit, std::memory_order_relaxed);
            return;
        } else {
            known_.fetch_or(bit, std::memory_order_relaxed);
        }
    }
    check_arguments(signature_, args, wording_);
}

void check_arguments(std::string_view signature, const CallArgs& args) {
    const std::optional<CallSignature> s = parse_signature(signature);
    if (!s) throw Error("internal error: a builtin's signature does not parse: " + std::string(signature));
    check_arguments(*s, args, ArityWording::Function);
}

}  // namespace tg::interp
