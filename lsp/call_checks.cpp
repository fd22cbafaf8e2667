// Calls that do not fit their callee (docs/editors.md "Diagnostics"): a
// builtin, a function of the file, a function of an imported module
// (`util.scale(...)`, `optim.adam(...)`), a method (`xs.append(...)`,
// `s.split(...)`, `x.sum(...)`). A method's callee depends on what the
// receiver is at run time (interp/calls.cpp): the list, dict, string or
// tensor method of the table (interp/method_signatures.hpp) when the value
// is of that kind, else the builtin of that name with the value first. When
// the receiver's type is not known, every one of those it could be is
// tried, and the call is reported only when it fits none.
#include "interp/method_signatures.hpp"
#include "lsp/diagnose.hpp"
#include "lsp/signatures.hpp"
#include "lsp/types.hpp"

namespace tg::lsp {

namespace {

using lang::Loc;

// One thing the callee may be: its signatures and how a call of it is
// checked, or what is wrong with the call when that is known already.
struct Candidate {
    std::span<const Signature> signatures;  // the workspace's or the table's (not copied: every call is checked)
    CallShape shape;
    std::optional<CallProblem> problem;
    std::optional<Signature> own;  // a tg function's, made for the call
    std::string_view op_name;      // a builtin named other than its op: the name `tg run` reports (concat)
    std::span<const Signature> all() const { return own ? std::span<const Signature>(&*own, 1) : signatures; }
};

// The op's name of a builtin that is an op under another name (`concatenate`), or "".
std::string_view op_name_of(const Workspace& ws, const std::string& builtin) {
    const auto& names = ws.builtin_tables().op_names;
    const auto it = names.find(builtin);
    return it == names.end() ? std::string_view{} : std::string_view(it->second);
}

// A tg function, when nothing but its `def` binds its name.
std::optional<Signature> function_of(const Index& ix, int symbol) {
    if (symbol < 0) return std::nullopt;
    const Symbol& s = ix.symbols()[size_t(symbol)];
    if (s.kind != SymbolKind::Function || !s.function || s.defs.size() != 1) return std::nullopt;
    return function_signature(*s.function);
}

// The kinds of value with methods of their own that the receiver may be.
std::vector<interp::MethodOf> receiver_kinds(const StaticType& t) {
    using interp::MethodOf;
    switch (t.kind) {
    case StaticType::Unknown:
        return {std::begin(interp::kMethodKinds), std::end(interp::kMethodKinds)};
    case StaticType::Int:
    case StaticType::Float:
    case StaticType::Bool:
    case StaticType::Tensor: return {MethodOf::Tensor};
    case StaticType::List: return {MethodOf::List};
    case StaticType::Dict: return {MethodOf::Dict};
    case StaticType::Str: return {MethodOf::Str};
    default: return {};  // a tuple, None, a function, a dtype: only the builtins as methods
    }
}

// The kind a value of type t is at run time, as kind_name says it (interp/values/value.cpp),
// or "" when not known.
std::string_view receiver_name(const StaticType& t) {
    switch (t.kind) {
    case StaticType::Int:
    case StaticType::Float:
    case StaticType::Bool:
    case StaticType::Tensor: return "tensor";
    case StaticType::List: return "list";
    case StaticType::Tuple: return "tuple";
    case StaticType::Str: return "str";
    case StaticType::Dict: return "dict";
    case StaticType::None: return "None";
    case StaticType::Function: return "function";
    case StaticType::DType: return "dtype";
    default: return "";
    }
}

// `x.op(...)` of a table op (interp/calls.cpp method_arguments): NumPy's
// varargs form (`x.reshape(2, 3)`, ints after the tensor) is not checked,
// and too many arguments are counted without the tensor.
std::optional<CallProblem> op_method_count(const stdlib::OpDef& op, const lang::Call& call, int scope, Types& types,
                                           const CallShape& shape, bool& unchecked) {
    const size_t n = op.params.size(), given = call.args.size();
    if (n == 0) return std::nullopt;  // (takes no receiver: the builtin's own signature says so)
    // the varargs form, unless an argument is known not to be an int
    unchecked = n >= 2 &&
                (op.params[1].kind == stdlib::ParamKind::Shape || op.params[1].kind == stdlib::ParamKind::Axis) &&
                given >= 2;
    for (const lang::ExprPtr& arg : call.args) {
        const StaticType t = unchecked && arg ? types.of(*arg, scope) : StaticType{};
        if (t.known() && t.kind != StaticType::Int) unchecked = false;
    }
    if (unchecked || given + 1 <= n) return std::nullopt;
    if (shape.receiver_kind.empty()) return std::nullopt;  // (its words name the kind)
    return CallProblem{interp::arity_error(shape.name, n, n, given + 1, interp::ArityWording::Function, shape.receiver_kind),
                       shape.name_loc, shape.name_length};
}

// What a call of `receiver.name(...)` is checked against; false when one
// thing it may be is not checked (a module's member, a graph's method, an
// op's varargs form).
bool method_candidates(const lang::Call& call, const lang::Attribute& a, int scope, Workspace& ws, Types& types,
                       std::vector<Candidate>& out) {
    // `str.upper(s)`: the method as a function of the string (docs/language.md "Strings"), not checked
    if (a.value->kind == lang::ExprKind::Name && a.value->as<lang::Name>().id == "str") return false;
    const CallShape at_name{a.attr, a.loc, name_length(a.attr), false, interp::ArityWording::Method, {}};
    bool own_method = false;  // a method of the kind: the builtin is not reached for it
    const StaticType receiver = types.of(*a.value, scope);
    if (receiver.kind == StaticType::Module) return false;
    const std::vector<interp::MethodOf> kinds = receiver_kinds(receiver);
    for (interp::MethodOf of : kinds) {
        const Signature* s = interp::method_signature(of, a.attr);
        if (!s) continue;
        if (of == interp::MethodOf::Graph) return false;
        out.push_back({{s, 1}, at_name, std::nullopt, std::nullopt, {}});
        own_method = kinds.size() == 1;
    }
    if (own_method || !ws.builtins().count(a.attr)) return true;
    const CallShape bound{a.attr, a.loc, name_length(a.attr), true, interp::ArityWording::Function,
                          receiver_name(receiver)};
    if (const stdlib::OpDef* op = ws.method_op(a.attr)) {
        bool unchecked = false;
        std::optional<CallProblem> p = op_method_count(*op, call, scope, types, bound, unchecked);
        if (unchecked) return false;
        if (p) {
            out.push_back({{}, bound, p, std::nullopt, {}});
            return true;
        }
    }
    out.push_back({ws.signatures(a.attr), bound, std::nullopt, std::nullopt, op_name_of(ws, a.attr)});
    return true;
}

// The things `call`'s callee may be; false: not checked.
bool candidates(const Index& ix, Workspace& ws, Types& types, const CallSite& c, std::vector<Candidate>& out) {
    const lang::Expr& callee = *c.call->callee;
    if (callee.kind == lang::ExprKind::Name) {
        const std::string& name = callee.as<lang::Name>().id;
        const CallShape shape{name, c.call->loc, name_length(name), false, interp::ArityWording::Function, {}};
        const int sym = ix.lookup(name, c.scope);
        if (sym < 0 && ws.builtins().count(name))
            out.push_back({ws.signatures(name), shape, std::nullopt, std::nullopt, op_name_of(ws, name)});
        if (auto f = function_of(ix, sym)) out.push_back({{}, shape, std::nullopt, std::move(f), {}});
        return !out.empty();
    }
    if (callee.kind != lang::ExprKind::Attribute) return false;
    const auto& a = callee.as<lang::Attribute>();
    if (!a.value) return false;
    // `m.f(...)`: a function of an imported module
    if (a.value->kind == lang::ExprKind::Name) {
        const int sym = ix.lookup(a.value->as<lang::Name>().id, c.scope);
        if (sym >= 0 && ix.symbols()[size_t(sym)].kind == SymbolKind::Module) {
            const std::shared_ptr<const Index> module = ws.module_of(ix, sym);
            if (!module) return false;
            const std::optional<Signature> f = function_of(*module, module->top_level(a.attr));
            if (!f) return false;
            out.push_back({{}, {a.attr, a.loc, name_length(a.attr), false, interp::ArityWording::Function, {}}, std::nullopt, f, {}});
            return true;
        }
    }
    return method_candidates(*c.call, a, c.scope, ws, types, out) && !out.empty();
}

}  // namespace

void call_problems(const Index& ix, Workspace& ws, Types& types, std::vector<Problem>& out) {
    for (const CallSite& c : ix.calls()) {
        if (!c.call->callee) continue;
        std::vector<Candidate> options;
        if (!candidates(ix, ws, types, c, options)) continue;
        std::optional<CallProblem> first;
        bool fits = false;
        for (const Candidate& o : options) {
            // no signatures and no problem: nothing is known of it (`pi`, a dtype), it is not checked
            std::optional<CallProblem> p = o.problem ? o.problem : check_call(*c.call, o.shape, o.all());
            if (!p) fits = true;
            if (!p || first) continue;
            first = std::move(p);
            const std::string called = o.all().empty() ? "" : o.all()[0].name + ":";
            if (!o.op_name.empty() && first->message.starts_with(called))
                first->message = std::string(o.op_name) + ":" + first->message.substr(called.size());
        }
        if (fits || !first) continue;
        out.push_back({first->loc, {first->loc.line, first->loc.col + std::max<uint32_t>(first->length, 1)},
                       Severity::Error, first->message, false});
    }
}

}  // namespace tg::lsp
