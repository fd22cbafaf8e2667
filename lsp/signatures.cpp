#include "lsp/signatures.hpp"

#include <cstdio>

#include "interp/suggest.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/op_table.hpp"

namespace tg::lsp {

namespace {

std::string_view trimmed(std::string_view s) {
    size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string_view::npos ? std::string_view{} : s.substr(b, e - b + 1);
}

// The parameters of "a, b=(1, 2), sep=\",\"": split at commas outside
// brackets and quotes.
std::vector<std::string_view> split_params(std::string_view s) {
    std::vector<std::string_view> out;
    int depth = 0;
    char quote = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quote) {
            if (c == '\\') ++i;
            else if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
            --depth;
        } else if (c == ',' && depth == 0) {
            out.push_back(trimmed(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (!trimmed(s.substr(start)).empty()) out.push_back(trimmed(s.substr(start)));
    return out;
}

std::string attr_text(const stdlib::Attr& a) {
    if (std::holds_alternative<int64_t>(a)) return std::to_string(std::get<int64_t>(a));
    if (std::holds_alternative<double>(a)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", std::get<double>(a));
        std::string s = buf;
        if (s.find_first_of(".en") == std::string::npos) s += ".0";
        return s;
    }
    if (std::holds_alternative<bool>(a)) return std::get<bool>(a) ? "True" : "False";
    if (std::holds_alternative<stdlib::DType>(a)) return stdlib::dtype_name(std::get<stdlib::DType>(a));
    if (std::holds_alternative<std::vector<int64_t>>(a)) {
        std::string s = "(";
        for (int64_t v : std::get<std::vector<int64_t>>(a)) s += std::to_string(v) + ", ";
        return s + ")";
    }
    return "None";
}

std::optional<Signature> op_signature(std::string_view name) {
    const stdlib::OpDef* op = stdlib::find_op(name);
    if (!op || (op->flags & stdlib::kInternal)) return std::nullopt;
    Signature s{std::string(name), {}, false, ""};
    for (const stdlib::ParamDef& p : op->params)
        s.params.push_back({std::string(p.name), p.required ? "" : attr_text(p.default_value), !p.required, false});
    return s;
}

// A default value as written, when it is a literal.
std::string literal_text(const lang::Expr& e) {
    using lang::ExprKind;
    switch (e.kind) {
    case ExprKind::Int: return std::to_string(e.as<lang::IntLit>().value);
    case ExprKind::Float: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", e.as<lang::FloatLit>().value);
        return buf;
    }
    case ExprKind::Str: return "\"" + e.as<lang::StrLit>().value + "\"";
    case ExprKind::Bool: return e.as<lang::BoolLit>().value ? "True" : "False";
    case ExprKind::NoneLit: return "None";
    case ExprKind::Name: return e.as<lang::Name>().id;
    case ExprKind::Unary:
        if (e.as<lang::Unary>().op == lang::UnaryOp::Neg && e.as<lang::Unary>().operand)
            return "-" + literal_text(*e.as<lang::Unary>().operand);
        return "...";
    default: return "...";
    }
}

std::string takes(size_t lo, size_t hi) {
    std::string n = lo == hi ? std::to_string(hi) : std::to_string(lo) + " to " + std::to_string(hi);
    return "takes " + n + (hi == 1 ? " argument" : " arguments");
}

// Why `call` does not fit `s` (prefix: "f: "), or nullopt when it does.
std::optional<CallProblem> bind(const lang::Call& call, const std::string& prefix, const Signature& s,
                                const CallProblem& at_name) {
    size_t positional_params = 0;
    bool variadic = false;
    for (const ParamSig& p : s.params) {
        if (p.variadic) {
            variadic = true;
            break;
        }
        ++positional_params;
    }
    const size_t given = call.args.size();
    if (!variadic && given > positional_params)
        return CallProblem{prefix + takes(positional_params, positional_params) + " but " + std::to_string(given) + " were given",
                           at_name.loc, at_name.length};
    std::vector<bool> bound(s.params.size(), false);
    for (size_t i = 0; i < std::min(given, positional_params); ++i) bound[i] = true;
    for (const lang::Keyword& k : call.keywords) {
        size_t i = 0;
        while (i < s.params.size() && (s.params[i].name != k.name || s.params[i].variadic)) ++i;
        const uint32_t len = static_cast<uint32_t>(lang::count_chars(k.name));
        if (i == s.params.size() && !s.any_keyword.empty()) continue;
        if (i == s.params.size()) {
            std::vector<std::string> names;
            for (const ParamSig& p : s.params)
                if (!p.variadic) names.push_back(p.name);
            return CallProblem{prefix + "unknown keyword argument `" + k.name + "`" + interp::did_you_mean(k.name, names),
                               k.loc, len};
        }
        if (bound[i]) return CallProblem{prefix + "argument `" + k.name + "` given twice", k.loc, len};
        bound[i] = true;
    }
    for (size_t i = 0; i < s.params.size(); ++i)
        if (!bound[i] && !s.params[i].has_default && !s.params[i].variadic)
            return CallProblem{prefix + "missing argument `" + s.params[i].name + "`", at_name.loc, at_name.length};
    return std::nullopt;
}

}  // namespace

std::string Signature::label() const {
    std::string out = name + "(";
    for (size_t i = 0; i < params.size(); ++i) {
        out += (i ? ", " : "") + std::string(params[i].variadic ? "*" : "") + params[i].name;
        if (params[i].has_default) out += "=" + params[i].default_text;
    }
    if (!any_keyword.empty()) out += std::string(params.empty() ? "" : ", ") + "**" + any_keyword;
    if (open) out += "...";
    return out + ")";
}

std::optional<Signature> parse_signature(std::string_view text) {
    const size_t open = text.find('('), close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
    Signature s{std::string(trimmed(text.substr(0, open))), {}, false, ""};
    for (std::string_view p : split_params(text.substr(open + 1, close - open - 1))) {
        if (p == "...") {
            s.open = true;
            continue;
        }
        ParamSig ps;
        if (p.starts_with("**")) {
            s.any_keyword = std::string(trimmed(p.substr(2)));
            continue;
        }
        if (p.starts_with('*')) {
            ps.variadic = true;
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
    return s;
}

std::vector<Signature> builtin_signatures(std::string_view name, const std::vector<interp::BuiltinDoc>& docs) {
    std::vector<Signature> out;
    if (const interp::BuiltinDoc* d = interp::find_builtin_doc(docs, name))
        for (const std::string& text : d->signatures)
            if (auto s = parse_signature(text); s && s->name == name) out.push_back(std::move(*s));
    if (auto s = op_signature(name)) {
        bool same = false;
        for (const Signature& o : out) same = same || o.label() == s->label();
        if (!same) out.push_back(std::move(*s));
    }
    return out;
}

Signature function_signature(const lang::FunctionDef& f) {
    Signature s{f.name, {}, false, ""};
    bool star = false;
    for (const lang::Param& p : f.params) {
        if (p.form == lang::ParamForm::VarKeywords) {
            s.any_keyword = p.name;
            continue;
        }
        // a bare `*` before keyword-only parameters: an unnamed variadic (label `*`)
        if (p.form == lang::ParamForm::KeywordOnly && !star) s.params.push_back({"", "", false, true});
        star = star || p.form != lang::ParamForm::Plain;
        s.params.push_back({p.name, p.default_value ? literal_text(*p.default_value) : "", p.default_value != nullptr,
                            p.form == lang::ParamForm::VarArgs});
    }
    return s;
}

std::optional<CallProblem> check_call(const lang::Call& call, std::string_view name, uint32_t name_length,
                                      const std::vector<Signature>& signatures) {
    if (signatures.empty() || call.unpacks) return std::nullopt;  // (f(*xs): counted when it runs)
    const std::string prefix = std::string(name) + ": ";
    const CallProblem at_name{"", call.loc, name_length};
    std::optional<CallProblem> first;
    size_t lo = SIZE_MAX, hi = 0;
    bool all_count = true;
    for (const Signature& s : signatures) {
        if (s.open) return std::nullopt;
        std::optional<CallProblem> p = bind(call, prefix, s, at_name);
        if (!p) return std::nullopt;
        if (!first) first = p;
        const bool count = p->message.find(": takes ") != std::string::npos;
        all_count = all_count && count;
        lo = std::min(lo, s.params.size()), hi = std::max(hi, s.params.size());
    }
    // too many arguments for every form: say the whole range (range: takes 1 to 3 arguments)
    if (all_count && signatures.size() > 1)
        first->message = prefix + takes(lo, hi) + " but " + std::to_string(call.args.size()) + " were given";
    return first;
}

}  // namespace tg::lsp
