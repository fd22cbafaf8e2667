// Signature help (docs/editors.md "Signature help"): inside the brackets of
// a call, the callee's signatures with the parameter being typed. The text
// is read up to the cursor (the call is usually unfinished, so not in the
// AST): the innermost open `(`, the dotted name before it, the commas and
// the `name=` of the argument at the cursor.
#include "interp/method_signatures.hpp"
#include "lsp/features.hpp"
#include "lsp/signatures.hpp"

namespace tg::lsp {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct OpenCall {
    std::string callee;   // "f", "m.f", "x.sum"
    size_t commas = 0;    // arguments before the one at the cursor
    std::string keyword;  // `name=` of the argument at the cursor
};

// The call whose brackets hold byte `cursor` of `text`, if any.
std::optional<OpenCall> open_call(std::string_view text, size_t cursor) {
    struct Open {
        char bracket;
        size_t at, commas;
        size_t arg_start;
    };
    std::vector<Open> stack;
    char quote = 0;
    for (size_t i = 0; i < cursor && i < text.size(); ++i) {
        const char ch = text[i];
        if (quote) {
            if (ch == '\\') ++i;
            else if (ch == quote || ch == '\n') quote = 0;
        } else if (ch == '"' || ch == '\'') {
            quote = ch;
        } else if (ch == '#') {
            while (i + 1 < cursor && text[i + 1] != '\n') ++i;
        } else if (ch == '(' || ch == '[' || ch == '{') {
            stack.push_back({ch, i, 0, i + 1});
        } else if ((ch == ')' || ch == ']' || ch == '}') && !stack.empty()) {
            stack.pop_back();
        } else if (ch == ',' && !stack.empty()) {
            ++stack.back().commas;
            stack.back().arg_start = i + 1;
        }
    }
    if (stack.empty() || stack.back().bracket != '(') return std::nullopt;
    const Open& o = stack.back();
    size_t b = o.at;
    while (b > 0 && (ident_char(text[b - 1]) || text[b - 1] == '.')) --b;
    OpenCall call{std::string(text.substr(b, o.at - b)), o.commas, ""};
    if (call.callee.empty() || call.callee.starts_with('.')) return std::nullopt;
    // `name=` at the start of the argument being typed
    std::string_view arg = text.substr(o.arg_start, std::min(cursor, text.size()) - o.arg_start);
    const size_t eq = arg.find('=');
    if (eq != std::string_view::npos && (eq + 1 >= arg.size() || arg[eq + 1] != '=')) {
        std::string_view name = arg.substr(0, eq);
        while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
        while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
        if (!name.empty() && std::all_of(name.begin(), name.end(), ident_char)) call.keyword = name;
    }
    return call;
}

// A builtin called as a method: its receiver is the first argument, the
// signature shows the rest (`x.sum(axis=None, keepdims=False)`); one that
// takes `*xs` first takes the receiver as one of them.
Signature without_receiver(Signature s) {
    if (!s.params.empty() && !s.params[0].variadic && !s.params[0].keyword_only) s.params.erase(s.params.begin());
    return s;
}

// The signatures of `callee` as the file at `ix` sees it. After a dot, a
// method: the list, dict, string, tensor methods of that name
// (interp/method_signatures.hpp) and the builtin without its receiver.
std::vector<Signature> signatures_of(Context c, const std::shared_ptr<const Index>& ix, int scope, const std::string& callee) {
    const size_t dot = callee.rfind('.');
    const std::string name = callee.substr(dot == std::string::npos ? 0 : dot + 1);
    if (dot == std::string::npos) {
        const int sym = ix->lookup(name, scope);
        if (sym >= 0) {
            const Symbol& s = ix->symbols()[size_t(sym)];
            if (s.function) return {function_signature(*s.function)};
            return {};
        }
        return c.ws.signatures(name);
    }
    const std::string receiver = callee.substr(0, dot);
    if (receiver.find('.') == std::string::npos)
        if (auto module = c.ws.module_of(*ix, ix->lookup(receiver, scope))) {
            const int sym = module->top_level(name);
            if (sym >= 0 && module->symbols()[size_t(sym)].function)
                return {function_signature(*module->symbols()[size_t(sym)].function)};
            return {};
        }
    std::vector<Signature> out;
    for (interp::MethodOf of : interp::kMethodKinds)
        if (const Signature* m = interp::method_signature(of, name)) out.push_back(*m);
    if (c.ws.builtins().count(name))
        for (const Signature& b : c.ws.signatures(name)) out.push_back(without_receiver(b));
    return out;
}

}  // namespace

nlohmann::json signature_help(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc) {
    const std::optional<OpenCall> call = open_call(ix->source()->text(), ix->source()->offset_of(loc));
    if (!call) return nullptr;
    const std::vector<Signature> sigs = signatures_of(c, ix, ix->scope_at(loc), call->callee);
    if (sigs.empty()) return nullptr;
    nlohmann::json out = {{"signatures", nlohmann::json::array()}, {"activeSignature", 0}};
    const interp::BuiltinDoc* doc = interp::find_builtin_doc(c.ws.docs(), sigs[0].name);
    bool chosen = false;
    for (size_t k = 0; k < sigs.size(); ++k) {
        const Signature& s = sigs[k];
        size_t active = call->commas;
        for (size_t i = 0; i < s.params.size() && !call->keyword.empty(); ++i)
            if (s.params[i].name == call->keyword) active = i;
        for (size_t i = 0; i < s.params.size(); ++i)
            if (s.params[i].variadic && active > i && call->keyword.empty()) active = i;
        nlohmann::json params = nlohmann::json::array();
        for (const ParamSig& p : s.params) {
            std::string label = (p.variadic ? "*" : "") + p.name + (p.has_default ? "=" + p.default_text : "");
            params.push_back({{"label", label}});
        }
        nlohmann::json j = {{"label", s.label()}, {"parameters", params}, {"activeParameter", active}};
        if (doc && s.name == doc->name) j["documentation"] = doc->summary;
        if (!chosen && active < s.params.size()) out["activeSignature"] = k, chosen = true;
        out["signatures"].push_back(std::move(j));
    }
    return out;
}

}  // namespace tg::lsp
