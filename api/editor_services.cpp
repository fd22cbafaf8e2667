// tg::Interpreter's editor services (docs/repl.md "Completion and help"):
// completion and help over the session's values, through the shared engine
// (interp/complete.hpp) and the compiled-in builtin reference
// (interp/reference.hpp). Nothing here runs tg code.
#include "api/interpreter_impl.hpp"
#include "interp/complete.hpp"
#include "interp/reference.hpp"
#include "interp/values/printing.hpp"
#include "lang/doc_comment.hpp"

namespace tg {

namespace {

using interp::CompletionKind;
using interp::Kind;

CompletionKind kind_of(const interp::Value& v) {
    if (v.is(Kind::Function) || v.is(Kind::Builtin) || v.is(Kind::BoundMethod) || v.is(Kind::Graph))
        return CompletionKind::Function;
    if (v.is(Kind::Module)) return CompletionKind::Module;
    return CompletionKind::Variable;
}

std::vector<interp::Completion> globals_of(const interp::ModuleState& m) {
    std::vector<interp::Completion> out;
    for (const auto& [name, slot] : m.index)
        if (m.globals[size_t(slot)].defined()) out.push_back({name, kind_of(m.globals[size_t(slot)]), ""});
    return out;
}

// The value a dotted name ("x", "nn.init") holds in module `m`, or nullptr.
const interp::Value* lookup_dotted(const interp::ModuleState& m, std::string_view dotted) {
    size_t dot = dotted.find('.');
    int slot = m.find(dotted.substr(0, dot));
    if (slot < 0 || !m.globals[size_t(slot)].defined()) return nullptr;
    const interp::Value& v = m.globals[size_t(slot)];
    if (dot == std::string_view::npos) return &v;
    return v.is(Kind::Module) ? lookup_dotted(*v.module(), dotted.substr(dot + 1)) : nullptr;
}

interp::ReceiverKind receiver_kind(const interp::Value& v) {
    if (v.is_tensor()) return interp::ReceiverKind::Tensor;
    switch (v.kind()) {
    case Kind::List: return interp::ReceiverKind::List;
    case Kind::Tuple: return interp::ReceiverKind::Tuple;
    case Kind::Dict: return interp::ReceiverKind::Dict;
    case Kind::Str: return interp::ReceiverKind::Str;
    case Kind::Module: return interp::ReceiverKind::Module;
    default: return interp::ReceiverKind::Unknown;
    }
}

// The source text that defines `f`: the chunk (a REPL input, a notebook
// cell) whose top-level `def` it is, else its module's source.
const lang::Source* defining_source(const interp::FunctionObj& f) {
    if (!f.module) return nullptr;
    for (const auto& chunk : f.module->chunks)
        for (const lang::StmtPtr& st : chunk->body)
            if (st->kind == lang::StmtKind::FunctionDef && &static_cast<const lang::FunctionDef&>(*st).body == f.body)
                return chunk->source.get();
    return f.module->source.get();
}

// `name(a, b=2)` and the leading comment of a tg function.
std::string function_help(const interp::FunctionObj& f) {
    std::string sig = f.name + "(";
    const auto& params = *f.params;
    for (size_t i = 0; i < params.size(); ++i) {
        sig += (i ? ", " : "") + params[i].name;
        if (i < f.defaults.size() && f.defaults[i].defined()) sig += "=" + interp::element_str(f.defaults[i]);
    }
    sig += ")\n";
    uint32_t def_line = 0;
    if (!params.empty()) def_line = params[0].loc.line;
    else if (f.body && !f.body->empty()) def_line = (*f.body)[0]->loc.line - 1;
    std::string doc;
    const lang::Source* source = defining_source(f);
    if (source && def_line) doc = lang::doc_comment(*source, def_line);
    if (!doc.empty()) {
        for (size_t p = 0; p != std::string::npos;) {
            size_t nl = doc.find('\n', p);
            sig += "    " + doc.substr(p, nl == std::string::npos ? nl : nl - p) + "\n";
            p = nl == std::string::npos ? nl : nl + 1;
        }
    }
    return sig;
}

}  // namespace

Completions Interpreter::complete(std::string_view code, size_t cursor) const {
    const interp::CompletionRequest req = interp::completion_request(code, cursor);
    interp::ModuleState& m = impl_->rt.main_module();
    interp::Scope scope{globals_of(m), impl_->rt.builtin_names()};
    std::vector<interp::Completion> found;
    if (!req.after_dot) {
        found = interp::complete_names(req.prefix, scope);
    } else if (req.receiver == "\"\"") {
        found = interp::complete_members(interp::ReceiverKind::Str, req.prefix, scope);
    } else if (const interp::Value* v = req.receiver.empty() ? nullptr : lookup_dotted(m, req.receiver)) {
        std::vector<interp::Completion> members;
        if (v->is(Kind::Module)) members = globals_of(*v->module());
        found = interp::complete_members(receiver_kind(*v), req.prefix, scope, members);
    } else if (req.receiver.empty()) {
        found = interp::complete_members(interp::ReceiverKind::Unknown, req.prefix, scope);
    }
    Completions out;
    out.start = req.start;
    out.end = req.start + req.prefix.size();
    for (interp::Completion& c : found)
        out.items.push_back(Completion{std::move(c.text), interp::completion_kind_name(c.kind), std::move(c.detail)});
    return out;
}

std::string Interpreter::help(std::string_view name) const {
    const interp::ModuleState& m = impl_->rt.main_module();
    if (const interp::Value* v = lookup_dotted(m, name); v && v->is(Kind::Function))
        return function_help(v->function());
    const std::vector<interp::BuiltinDoc> docs = interp::builtin_docs();
    if (const interp::BuiltinDoc* d = interp::find_builtin_doc(docs, name)) return interp::format_builtin_doc(*d);
    return "";
}

}  // namespace tg
