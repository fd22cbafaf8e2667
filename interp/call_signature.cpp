#include "interp/call_signature.hpp"

#include <algorithm>
#include <cstdint>

#include "interp/reference.hpp"
#include "interp/suggest.hpp"

namespace tg::interp {

namespace {

std::string_view trimmed(std::string_view s) {
    size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string_view::npos ? std::string_view{} : s.substr(b, e - b + 1);
}

// The parameters a positional argument can fill, in order (not keyword-only,
// not `*xs`), and whether `*xs` takes the rest.
size_t positional_params(const CallSignature& s, bool& variadic) {
    size_t n = 0;
    variadic = false;
    for (const ParamSig& p : s.params) {
        if (p.variadic) {
            variadic = true;
            break;
        }
        if (p.keyword_only) break;
        ++n;
    }
    return n;
}

// The fewest positional arguments a method takes: its leading required
// positional-only parameters (a required one that may be a keyword is
// "missing" instead).
size_t fewest_positional(const CallSignature& s) {
    size_t n = 0;
    while (n < s.params.size() && s.params[n].positional_only && !s.params[n].has_default && !s.params[n].variadic) ++n;
    return n;
}

std::string given_text(size_t given) { return std::to_string(given) + (given == 1 ? " was given" : " were given"); }

// x.clip(0, 1, 2): the count leaves out x, as the call was written
std::string called_on(std::string_view receiver) {
    return receiver.empty() ? std::string() : " after the " + std::string(receiver) + " it is called on,";
}

std::optional<ArgumentProblem> check_count(const CallSignature& s, size_t given, ArityWording wording,
                                           std::string_view receiver) {
    bool variadic = false;
    const size_t most = positional_params(s, variadic);
    const bool positional_only = std::any_of(s.params.begin(), s.params.end(), [](const ParamSig& p) { return p.positional_only; });
    if (wording == ArityWording::Function && !positional_only) {
        if (variadic || given <= most) return std::nullopt;
        return ArgumentProblem{arity_error(s.name, most, most, given, wording, receiver)};
    }
    const size_t fewest = fewest_positional(s);
    if ((variadic || given <= most) && given >= fewest) return std::nullopt;
    if (!variadic) return ArgumentProblem{arity_error(s.name, fewest, most, given, wording, receiver)};
    const size_t self = receiver.empty() || fewest == 0 ? 0 : 1;
    return ArgumentProblem{s.name + ": takes at least " + std::to_string(fewest - self) +
                           (fewest - self == 1 ? " argument" : " arguments") + called_on(receiver) + " but " +
                           given_text(given - std::min(given, self))};
}

}  // namespace

std::string takes_arguments(size_t lo, size_t hi, ArityWording) {
    if (hi == 0) return "takes no arguments";
    const std::string n = lo == hi ? std::to_string(hi) : std::to_string(lo) + " to " + std::to_string(hi);
    return "takes " + n + (lo == 1 && hi == 1 ? " argument" : " arguments");
}

std::string arity_error(std::string_view name, size_t lo, size_t hi, size_t given, ArityWording wording,
                        std::string_view receiver) {
    if (!receiver.empty()) {  // (the receiver fills the first parameter)
        auto less_one = [](size_t n) { return n ? n - 1 : 0; };
        lo = less_one(lo), hi = less_one(hi), given = less_one(given);
    }
    return std::string(name) + ": " + takes_arguments(lo, hi, wording) + called_on(receiver) + " but " + given_text(given);
}

std::string CallSignature::label() const {
    std::string out = name + "(";
    bool starred = false;  // a `*` or `*xs` is written: later parameters are keyword-only
    for (size_t i = 0; i < params.size(); ++i) {
        const ParamSig& p = params[i];
        if (i) out += ", ";
        if (p.keyword_only && !starred) out += "*, ";
        starred = starred || p.variadic || p.keyword_only;
        out += std::string(p.variadic ? "*" : "") + p.name;
        if (p.has_default) out += "=" + p.default_text;
        if (p.positional_only && (i + 1 == params.size() || !params[i + 1].positional_only)) out += ", /";
    }
    if (!any_keyword.empty()) out += std::string(params.empty() ? "" : ", ") + "**" + any_keyword;
    if (open) out += "...";
    return out + ")";
}

std::optional<CallSignature> parse_signature(std::string_view text) {
    const size_t open = text.find('('), close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
    CallSignature s{std::string(trimmed(text.substr(0, open))), {}, false, ""};
    bool keyword_only = false;
    for (std::string_view p : split_params(text.substr(open + 1, close - open - 1))) {
        if (p == "...") {
            s.open = true;
        } else if (p == "/") {
            for (ParamSig& q : s.params) q.positional_only = true;
        } else if (p == "*") {
            keyword_only = true;
        } else if (p.starts_with("**")) {
            s.any_keyword = std::string(trimmed(p.substr(2)));
        } else {
            ParamSig ps;
            ps.keyword_only = keyword_only;
            if (p.starts_with('*')) {
                ps.variadic = true;
                keyword_only = true;
                p.remove_prefix(1);
            }
            const size_t eq = p.find('=');
            ps.name = std::string(trimmed(p.substr(0, eq)));
            if (eq != std::string_view::npos) {
                ps.has_default = true;
                ps.default_text = std::string(trimmed(p.substr(eq + 1)));
            }
            s.params.push_back(std::move(ps));
        }
    }
    return s;
}

std::optional<ArgumentProblem> bind_arguments(const CallSignature& s, size_t positional,
                                              std::span<const std::string_view> keywords, ArityWording wording,
                                              std::string_view receiver) {
    if (s.open || s.params.size() > 64) return std::nullopt;  // (no signature has that many)
    if (auto p = check_count(s, positional, wording, receiver)) return p;
    // the parameters bound so far, one bit each (no allocation: the interpreter checks every method call)
    uint64_t bound = 0;
    for (size_t i = 0, filled = 0; i < s.params.size() && filled < positional; ++i)
        if (!s.params[i].variadic && !s.params[i].keyword_only) bound |= uint64_t(1) << i, ++filled;
    for (size_t k = 0; k < keywords.size(); ++k) {
        auto named = [&](const ParamSig& p) { return p.name == keywords[k] && !p.variadic && !p.positional_only; };
        const size_t i = static_cast<size_t>(std::find_if(s.params.begin(), s.params.end(), named) - s.params.begin());
        if (i == s.params.size() && !s.any_keyword.empty()) continue;
        const std::string name(keywords[k]);
        if (i == s.params.size()) {
            std::vector<std::string> names;
            for (const ParamSig& p : s.params)
                if (!p.variadic && !p.positional_only) names.push_back(p.name);
            return ArgumentProblem{s.name + ": unknown keyword argument `" + name + "`" + did_you_mean(name, names), int(k)};
        }
        if (bound >> i & 1) return ArgumentProblem{s.name + ": argument `" + name + "` given twice", int(k)};
        bound |= uint64_t(1) << i;
    }
    for (size_t i = 0; i < s.params.size(); ++i)
        if (!(bound >> i & 1) && !s.params[i].has_default && !s.params[i].variadic)
            return ArgumentProblem{s.name + ": missing argument `" + s.params[i].name + "`"};
    return std::nullopt;
}

}  // namespace tg::interp
