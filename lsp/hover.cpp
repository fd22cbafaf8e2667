// Hover (docs/editors.md "Hover"): a builtin's signatures and its line of
// the builtin reference; a tg function's signature and leading comment; a
// variable's type where it is known without running (lsp/types.hpp).
#include "interp/method_signatures.hpp"
#include "lang/doc_comment.hpp"
#include "lsp/features.hpp"
#include "lsp/signatures.hpp"
#include "lsp/types.hpp"

namespace tg::lsp {

namespace {

std::string code_block(const std::string& text) { return "```tg\n" + text + "\n```"; }

std::string symbol_markdown(Context c, const Index& ix, int id, const std::string& module_path) {
    const Symbol& s = ix.symbols()[size_t(id)];
    if (s.kind == SymbolKind::Function && s.function) return function_markdown(ix, *s.function);
    if (s.kind == SymbolKind::Module && s.import) {
        std::string text = code_block("import " + s.import->module + (s.name != s.import->module ? " as " + s.name : ""));
        return module_path.empty() ? text : text + "\n\n" + module_path;
    }
    if (s.kind == SymbolKind::Parameter) return code_block("(parameter) " + s.name);
    Types types(ix, c.ws.builtin_tables());
    const StaticType t = types.of_symbol(id);
    return code_block(s.name + (t.known() ? ": " + t.describe() : ""));
}

// `xs.append`: the list, dict, string, tensor or graph methods of that
// name (interp/method_signatures.hpp), each with its kind.
std::string method_markdown(const std::string& name) {
    std::string sigs;
    for (interp::MethodOf of : interp::kMethodKinds)
        if (const Signature* m = interp::method_signature(of, name))
            sigs += (sigs.empty() ? "" : "\n") + std::string(interp::method_kind_name(of)) + "." + m->label();
    return sigs.empty() ? "" : code_block(sigs);
}

}  // namespace

std::string function_markdown(const Index& ix, const lang::FunctionDef& f) {
    std::string out = code_block("def " + function_signature(f).label());
    const std::string doc = lang::doc_comment(*ix.source(), f.loc.line);
    if (!doc.empty()) out += "\n\n" + doc;
    return out;
}

Target target_at(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc) {
    Target t;
    t.at = ix->occurrence_at(loc);
    if (!t.at) return t;
    if (!t.at->attribute) {
        t.index = ix;
        t.symbol = t.at->symbol;
        if (t.symbol < 0 && t.at->builtin) t.builtin = t.at->name;
        if (t.symbol >= 0) (void)c.ws.module_of(*ix, t.symbol, &t.module_path);
        return t;
    }
    // `m.name`: a top-level name of module m; `x.name`: a method (a builtin)
    std::string path;
    if (auto module = c.ws.module_of(*ix, t.at->receiver, &path)) {
        t.index = module;
        t.symbol = module->top_level(t.at->name);
        if (t.symbol >= 0) (void)c.ws.module_of(*module, t.symbol, &t.module_path);
        return t;
    }
    t.builtin = t.at->name;
    return t;
}

nlohmann::json hover(Context c, const std::shared_ptr<const Index>& ix, lang::Loc loc) {
    const Target t = target_at(c, ix, loc);
    if (!t.at) return nullptr;
    std::string text;
    if (t.symbol >= 0) {
        text = symbol_markdown(c, *t.index, t.symbol, t.module_path);
    } else if (!t.builtin.empty()) {
        text = t.at->attribute ? method_markdown(t.builtin) : "";
        const interp::BuiltinDoc* d = interp::find_builtin_doc(c.ws.docs(), t.builtin);
        if (d) {
            std::string sigs;
            for (const std::string& s : d->signatures) sigs += (sigs.empty() ? "" : "\n") + s;
            text += (text.empty() ? "" : "\n\n") + code_block(sigs.empty() ? d->name : sigs) + "\n\n" + d->summary;
        }
        if (text.empty()) return nullptr;
    } else {
        return nullptr;
    }
    const lang::Loc end{t.at->loc.line, t.at->loc.col + t.at->length};
    return {{"contents", {{"kind", "markdown"}, {"value", text}}}, {"range", c.positions.range(*ix->source(), t.at->loc, end)}};
}

}  // namespace tg::lsp
