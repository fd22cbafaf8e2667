#include "interp/reference.hpp"

#include <algorithm>
#include <cctype>

namespace tg::interp {

namespace {

// The cells of a Markdown table row "| a | b |" (backquoted `|` kept: a cell
// may show `a | b`; `\|` is a `|` inside a cell, GitHub's escape).
std::vector<std::string> cells(std::string_view row) {
    std::vector<std::string> out;
    std::string cur;
    bool code = false;
    for (size_t i = 1; i < row.size(); ++i) {
        char c = row[i];
        if (c == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
            cur += '|';
            ++i;
            continue;
        }
        if (c == '`') code = !code;
        if (c == '|' && !code) {
            out.push_back(cur);
            cur.clear();
            continue;
        }
        cur += c;
    }
    for (std::string& s : out) {
        size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
        s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    }
    return out;
}

// The backquoted spans of a cell: `range(stop)`, `range(start, stop)`.
std::vector<std::string> code_spans(std::string_view cell) {
    std::vector<std::string> out;
    for (size_t i = cell.find('`'); i != std::string_view::npos; i = cell.find('`', i)) {
        size_t j = cell.find('`', i + 1);
        if (j == std::string_view::npos) break;
        out.emplace_back(cell.substr(i + 1, j - i - 1));
        i = j + 1;
    }
    return out;
}

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The name a signature documents ("range(stop)" -> "range"), or "" when the
// span is not a signature (an operator, a value).
std::string signature_name(std::string_view sig) {
    size_t n = 0;
    while (n < sig.size() && is_ident_char(sig[n])) ++n;
    if (n == 0 || std::isdigit(static_cast<unsigned char>(sig[0]))) return "";
    if (n < sig.size() && sig[n] != '(') return "";
    return std::string(sig.substr(0, n));
}

std::string_view trimmed(std::string_view s) {
    size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string_view::npos ? std::string_view{} : s.substr(b, e - b + 1);
}

// The text between a signature's parentheses ("" without them).
std::string_view params_text(std::string_view sig) {
    const size_t open = sig.find('('), close = sig.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {};
    return sig.substr(open + 1, close - open - 1);
}

// A signature added to a name's: left out when one of them widens it; the
// ones it widens give way to it, in its place.
void add_signature(std::vector<std::string>& sigs, const std::string& sig) {
    for (const std::string& s : sigs)  // (one written in two rows, the op's and the builtin's: norm, once)
        if (s == sig || widens(s, sig)) return;
    auto narrower = std::find_if(sigs.begin(), sigs.end(), [&](const std::string& s) { return widens(sig, s); });
    if (narrower == sigs.end()) {
        sigs.push_back(sig);
        return;
    }
    *narrower = sig;
    sigs.erase(std::remove_if(narrower + 1, sigs.end(), [&](const std::string& s) { return widens(sig, s); }), sigs.end());
}

void add_row(std::vector<BuiltinDoc>& docs, const std::vector<std::string>& row, const std::string& section) {
    if (row.size() < 2) return;
    std::string previous;  // the parameters of the row's signature before: `argsort(...)` takes them
    for (const std::string& span : code_spans(row[0])) {
        std::string name = signature_name(span);
        if (name.empty()) continue;
        std::string sig = span;
        if (trimmed(params_text(span)) == "..." && !previous.empty()) sig = name + "(" + previous + ")";
        if (!params_text(sig).empty()) previous = std::string(params_text(sig));
        auto it = std::find_if(docs.begin(), docs.end(), [&](const BuiltinDoc& d) { return d.name == name; });
        if (it == docs.end()) {
            docs.push_back(BuiltinDoc{name, {}, row[1], section});
            it = docs.end() - 1;
        } else if (it->summary.find(row[1]) == std::string::npos) {
            it->summary += " / " + row[1];
        }
        if (sig != name || it->signatures.empty()) add_signature(it->signatures, sig);
    }
}

}  // namespace

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

bool widens(std::string_view wide, std::string_view narrow) {
    if (wide == narrow || signature_name(wide) != signature_name(narrow)) return false;
    if (wide.find('(') == std::string_view::npos || narrow.find('(') == std::string_view::npos) return false;
    // the parameters' names (a bare `*` left out) and how many have no default
    auto names = [](std::string_view sig, size_t& required) {
        std::vector<std::string_view> out;
        required = 0;
        for (std::string_view p : split_params(params_text(sig))) {
            if (p == "*") continue;
            const size_t eq = p.find('=');
            required += eq == std::string_view::npos && !p.starts_with('*');
            out.push_back(trimmed(p.substr(0, eq)));
        }
        return out;
    };
    size_t wide_required, narrow_required;
    const auto w = names(wide, wide_required), n = names(narrow, narrow_required);
    if (std::find(n.begin(), n.end(), "...") != n.end() || n.size() > w.size()) return false;
    return std::equal(n.begin(), n.end(), w.begin()) && wide_required <= narrow_required;
}

namespace {

std::vector<BuiltinDoc> parse_builtin_docs() {
    std::vector<BuiltinDoc> docs;
    std::string_view text = builtin_reference_text();
    std::string section;
    while (!text.empty()) {
        size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (line.starts_with("## ")) section = std::string(line.substr(3));
        if (line.starts_with("| `")) add_row(docs, cells(line), section);
    }
    // A signature shown bare (`pi`) and with parameters: keep the ones with.
    for (BuiltinDoc& d : docs)
        if (d.signatures.size() > 1) std::erase(d.signatures, d.name);
    return docs;
}

}  // namespace

const std::vector<BuiltinDoc>& builtin_docs() {
    // the page is compiled in: read once per process (constant data, as the op registry)
    static const std::vector<BuiltinDoc> docs = parse_builtin_docs();
    return docs;
}

const BuiltinDoc* find_builtin_doc(const std::vector<BuiltinDoc>& docs, std::string_view name) {
    for (const BuiltinDoc& d : docs)
        if (d.name == name) return &d;
    if (size_t dot = name.rfind('.'); dot != std::string_view::npos) return find_builtin_doc(docs, name.substr(dot + 1));
    return nullptr;
}

std::string format_builtin_doc(const BuiltinDoc& d) {
    std::string out;
    for (const std::string& s : d.signatures) out += s + "\n";
    out += "    " + d.summary + "\n";
    return out;
}

}  // namespace tg::interp
