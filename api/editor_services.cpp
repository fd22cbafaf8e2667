// tg::Interpreter's editor services (docs/repl.md "Completion and help"):
// completion and help over the session's values, through the shared engine
// (interp/complete.hpp) and the compiled-in builtin reference
// (interp/help.hpp). Nothing here runs tg code.
#include "api/interpreter_impl.hpp"
#include "interp/complete.hpp"
#include "interp/help.hpp"

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

interp::ReceiverKind receiver_kind(const interp::Value& v) {
    if (v.is_tensor()) return interp::ReceiverKind::Tensor;
    switch (v.kind()) {
    case Kind::List: return interp::ReceiverKind::List;
    case Kind::Tuple: return interp::ReceiverKind::Tuple;
    case Kind::Dict: return interp::ReceiverKind::Dict;
    case Kind::Set: return interp::ReceiverKind::Set;
    case Kind::Str: return interp::ReceiverKind::Str;
    case Kind::Module: return interp::ReceiverKind::Module;
    default: return interp::ReceiverKind::Unknown;
    }
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
    } else if (const interp::Value* v = req.receiver.empty() ? nullptr : interp::lookup_dotted(m, req.receiver)) {
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
    return interp::help_for_name(impl_->rt.main_module(), name);
}

}  // namespace tg
