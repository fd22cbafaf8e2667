#include "lsp/signatures.hpp"

#include "interp/reference.hpp"

#include <cstdio>

#include "interp/suggest.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/op_table.hpp"

namespace tg::lsp {

namespace {

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

}  // namespace

std::vector<Signature> builtin_signatures(std::string_view name, const std::vector<interp::BuiltinDoc>& docs) {
    std::vector<Signature> out;
    if (const interp::BuiltinDoc* d = interp::find_builtin_doc(docs, name))
        for (const std::string& text : d->signatures)
            if (auto s = parse_signature(text); s && s->name == name) out.push_back(std::move(*s));
    if (auto s = op_signature(name)) {
        bool same = false;
        // (the reference's wider form of the op's signature stands for it: pad, clip, sum's dtype=)
        for (const Signature& o : out) same = same || o.label() == s->label() || interp::widens(o.label(), s->label());
        if (!same) out.push_back(std::move(*s));
    }
    return out;
}

Signature function_signature(const lang::FunctionDef& f) {
    Signature s{f.name, {}, false, ""};
    for (const lang::Param& p : f.params) {
        if (p.form == lang::ParamForm::VarKeywords) {
            s.any_keyword = p.name;
            continue;
        }
        ParamSig q{p.name, p.default_value ? literal_text(*p.default_value) : "", p.default_value != nullptr,
                   p.form == lang::ParamForm::VarArgs};
        q.keyword_only = p.form == lang::ParamForm::KeywordOnly;  // after `*args` or a bare `*`
        s.params.push_back(std::move(q));
    }
    return s;
}

std::optional<CallProblem> check_call(const lang::Call& call, const CallShape& shape,
                                      std::span<const Signature> signatures) {
    if (signatures.empty() || call.unpacks) return std::nullopt;  // (f(*xs): counted when it runs)
    std::vector<std::string_view> keywords;
    for (const lang::Keyword& k : call.keywords) keywords.push_back(k.name);
    const size_t given = call.args.size() + (shape.receiver ? 1 : 0);
    std::optional<CallProblem> first;
    size_t lo = SIZE_MAX, hi = 0;
    std::pair<bool, size_t> best{false, 0};  // of the problem reported: its form took the count; the form's width
    bool all_count = true;  // every form refuses the count, and counts by position only
    for (const Signature& s : signatures) {
        if (s.open) return std::nullopt;
        std::optional<interp::ArgumentProblem> p = interp::bind_arguments(s, given, keywords, shape.wording, shape.receiver_kind);
        if (!p) return std::nullopt;
        const bool count = p->keyword < 0 && p->message.find(": takes ") != std::string::npos;
        if (count && shape.receiver && shape.receiver_kind.empty()) return std::nullopt;  // (its words name the kind)
        // a form that takes the count says what is wrong past it (range(1, zzz=1):
        // the keyword); else the widest form's problem: a builtin that takes
        // more than its op is the widest, and `tg run` says what that one finds
        // (eye's `k` is known to eye(n, m=None, k=0, dtype=f32), not to the op's eye(n, dtype=f32))
        const std::pair<bool, size_t> rank{!count, s.params.size()};
        if (!first || rank > best) {
            const lang::Keyword* k = p->keyword >= 0 ? &call.keywords[size_t(p->keyword)] : nullptr;
            first = CallProblem{p->message, k ? k->loc : shape.name_loc,
                                k ? static_cast<uint32_t>(lang::count_chars(k->name)) : shape.name_length};
            best = rank;
        }
        size_t fewest = 0, most = 0;
        for (const ParamSig& q : s.params) {
            if (q.keyword_only || q.variadic) break;
            ++most;
            fewest += q.has_default ? 0 : 1;
        }
        const bool by_position = !s.params.empty() && s.params[0].positional_only;
        all_count = all_count && by_position && count;
        lo = std::min(lo, fewest), hi = std::max(hi, most);
    }
    // forms by position only that all refuse the count: the whole range, as
    // `tg run` counts them (range: takes 1 to 3 arguments)
    if (all_count && signatures.size() > 1) first->message = interp::arity_error(signatures[0].name, lo, hi, given, shape.wording, shape.receiver_kind);
    return first;
}

}  // namespace tg::lsp
