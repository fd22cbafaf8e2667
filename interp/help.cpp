// help(): a function's signature and leading comment, a builtin's lines
// from the compiled-in reference (docs/repl.md "Completion and help").
#include "interp/help.hpp"

#include "interp/reference.hpp"
#include "interp/values/printing.hpp"
#include "lang/doc_comment.hpp"

namespace tg::interp {

namespace {

// The source text that defines `f`: the chunk (a REPL input, a notebook
// cell) whose top-level `def` it is, else its module's source.
const lang::Source* defining_source(const FunctionObj& f) {
    if (!f.module) return nullptr;
    for (const auto& chunk : f.module->chunks)
        for (const lang::StmtPtr& st : chunk->body)
            if (st->kind == lang::StmtKind::FunctionDef && &static_cast<const lang::FunctionDef&>(*st).body == f.body)
                return chunk->source.get();
    return f.module->source.get();
}

std::string builtin_help(std::string_view name) {
    const std::vector<BuiltinDoc>& docs = builtin_docs();
    const BuiltinDoc* d = find_builtin_doc(docs, name);
    return d ? format_builtin_doc(*d) : "";
}

}  // namespace

const Value* lookup_dotted(const ModuleState& m, std::string_view dotted) {
    size_t dot = dotted.find('.');
    int slot = m.find(dotted.substr(0, dot));
    if (slot < 0 || !m.globals[size_t(slot)].defined()) return nullptr;
    const Value& v = m.globals[size_t(slot)];
    if (dot == std::string_view::npos) return &v;
    return v.is(Kind::Module) ? lookup_dotted(*v.module(), dotted.substr(dot + 1)) : nullptr;
}

std::string function_help(const FunctionObj& f) {
    std::string sig = f.name + "(";
    const auto& params = *f.params;
    bool star = false;
    for (size_t i = 0; i < params.size(); ++i) {
        const lang::ParamForm form = params[i].form;
        sig += i ? ", " : "";
        if (form == lang::ParamForm::KeywordOnly && !star) sig += "*, ";  // a bare `*`
        star = star || (form != lang::ParamForm::Plain && form != lang::ParamForm::VarKeywords);
        sig += (form == lang::ParamForm::VarArgs ? "*" : form == lang::ParamForm::VarKeywords ? "**" : "") + params[i].name;
        if (i < f.defaults.size() && f.defaults[i].defined()) sig += "=" + element_str(f.defaults[i]);
    }
    sig += ")\n";
    uint32_t def_line = 0;
    if (!params.empty()) def_line = params[0].loc.line;
    else if (f.body && !f.body->empty()) def_line = (*f.body)[0]->loc.line - 1;
    std::string doc;
    const lang::Source* source = defining_source(f);
    if (source && def_line) doc = lang::doc_comment(*source, def_line);
    for (size_t p = 0; !doc.empty() && p != std::string::npos;) {
        size_t nl = doc.find('\n', p);
        sig += "    " + doc.substr(p, nl == std::string::npos ? nl : nl - p) + "\n";
        p = nl == std::string::npos ? nl : nl + 1;
    }
    return sig;
}

std::string help_for_name(const ModuleState& m, std::string_view name) {
    if (const Value* v = lookup_dotted(m, name); v && v->is(Kind::Function)) return function_help(v->function());
    return builtin_help(name);
}

std::string help_for_value(const ModuleState& m, const Value& v) {
    if (v.is(Kind::Str)) return help_for_name(m, v.text());
    if (v.is(Kind::Function)) return function_help(v.function());
    if (v.is(Kind::Builtin)) return builtin_help(v.builtin().name);
    if (v.is(Kind::BoundMethod)) return help_for_value(m, v.bound().fn);
    return "";
}

}  // namespace tg::interp
