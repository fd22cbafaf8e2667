#include "interp/complete.hpp"

#include <algorithm>
#include <cctype>

#include "interp/method_signatures.hpp"
#include "interp/reference.hpp"
#include "interp/suggest.hpp"

namespace tg::interp {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The signature the reference shows for a builtin or method, if any.
std::string signature_of(const std::vector<BuiltinDoc>& docs, std::string_view name) {
    const BuiltinDoc* d = find_builtin_doc(docs, name);
    return d && !d->signatures.empty() ? d->signatures[0] : "";
}

void add(std::vector<Completion>& out, std::string_view prefix, std::string_view text, CompletionKind kind,
         std::string detail = "") {
    if (!text.starts_with(prefix)) return;
    for (const Completion& c : out)
        if (c.text == text) return;
    out.push_back(Completion{std::string(text), kind, std::move(detail)});
}

void sort_by_text(std::vector<Completion>& out) {
    // Public names first: `_private` ones only sort after (Python's habit).
    std::stable_sort(out.begin(), out.end(), [](const Completion& a, const Completion& b) {
        bool pa = a.text.starts_with('_'), pb = b.text.starts_with('_');
        return pa != pb ? pb : a.text < b.text;
    });
}

}  // namespace

const char* completion_kind_name(CompletionKind k) {
    switch (k) {
    case CompletionKind::Keyword: return "keyword";
    case CompletionKind::Builtin: return "builtin";
    case CompletionKind::Variable: return "variable";
    case CompletionKind::Function: return "function";
    case CompletionKind::Module: return "module";
    case CompletionKind::Method: return "method";
    case CompletionKind::Attribute: return "attribute";
    }
    return "name";
}

std::vector<std::string_view> keyword_names() {
    return {"and",   "as",    "assert", "break", "continue", "def",   "elif",   "else", "False", "for",
            "if",    "import", "in",    "is",    "lambda",   "None",  "not",    "or",   "pass",  "return",
            "True",  "while"};
}

CompletionRequest completion_request(std::string_view code, size_t cursor) {
    CompletionRequest r;
    cursor = std::min(cursor, code.size());
    size_t start = cursor;
    while (start > 0 && ident_char(code[start - 1])) --start;
    r.start = start;
    r.prefix = std::string(code.substr(start, cursor - start));
    if (start == 0 || code[start - 1] != '.') return r;
    r.after_dot = true;
    size_t end = start - 1, b = end;
    if (b > 0 && (code[b - 1] == '"' || code[b - 1] == '\'')) {
        r.receiver = "\"\"";  // a string literal: its methods
        return r;
    }
    while (b > 0 && (ident_char(code[b - 1]) || code[b - 1] == '.')) --b;
    std::string_view dotted = code.substr(b, end - b);
    if (!dotted.empty() && std::isdigit(static_cast<unsigned char>(dotted[0]))) {
        r.after_dot = false;  // `1.` is a float literal, not a receiver
        return r;
    }
    if (!dotted.starts_with('.')) r.receiver = std::string(dotted);
    return r;
}

std::vector<Completion> complete_names(std::string_view prefix, const Scope& scope) {
    const std::vector<BuiltinDoc>& docs = builtin_docs();
    std::vector<Completion> out;
    for (const Completion& c : scope.names) add(out, prefix, c.text, c.kind, c.detail);
    for (std::string_view k : keyword_names()) add(out, prefix, k, CompletionKind::Keyword);
    for (const std::string& b : scope.builtins) add(out, prefix, b, CompletionKind::Builtin, signature_of(docs, b));
    sort_by_text(out);
    return out;
}

std::vector<Completion> complete_members(ReceiverKind kind, std::string_view prefix, const Scope& scope,
                                         const std::vector<Completion>& members) {
    const std::vector<BuiltinDoc>& docs = builtin_docs();
    std::vector<Completion> out;
    // a kind's methods, each with its signature (interp/method_signatures.hpp)
    auto methods = [&](MethodOf of) {
        const std::span<const std::string_view> names = method_names(of), texts = method_signature_texts(of);
        for (size_t i = 0; i < names.size(); ++i) add(out, prefix, names[i], CompletionKind::Method, std::string(texts[i]));
    };
    const bool any = kind == ReceiverKind::Unknown;
    if (kind == ReceiverKind::Module || any)
        for (const Completion& m : members) add(out, prefix, m.text, m.kind, m.detail);
    if (kind == ReceiverKind::Tensor || any) {
        for (std::string_view n : tensor_attribute_names()) add(out, prefix, n, CompletionKind::Attribute);
        for (const std::string& b : scope.builtins) add(out, prefix, b, CompletionKind::Method, signature_of(docs, b));
    }
    if (kind == ReceiverKind::List || any) methods(MethodOf::List);
    if (kind == ReceiverKind::Dict || any) methods(MethodOf::Dict);
    if (kind == ReceiverKind::Set || any) methods(MethodOf::Set);
    if (kind == ReceiverKind::Str || any) methods(MethodOf::Str);
    sort_by_text(out);
    return out;
}

}  // namespace tg::interp
