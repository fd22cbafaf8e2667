// Types of calls (lsp/types.hpp): a builtin op of the table, called as a
// function or as a method of a tensor (`x.sum(0)` is `sum(x, 0)`), gets its
// arguments bound as the interpreter binds them (interp/dispatch.cpp) and
// its result from the op's shape rule (whose errors a builtin that takes
// more than its op, norm's matrix orders, is left to: lsp/builtin_tables.hpp).
#include "lsp/types.hpp"

#include "stdlib/dtype.hpp"

namespace tg::lsp {

using namespace lang;
using stdlib::ParamKind;
using stdlib::TensorType;

namespace {

std::optional<stdlib::Attr> attr_for(const StaticType& t, ParamKind kind) {
    if (t.kind == StaticType::None && (kind == ParamKind::Axis || kind == ParamKind::DType || kind == ParamKind::Shape))
        return stdlib::Attr{};
    if (kind == ParamKind::DType && t.kind == StaticType::DType) return stdlib::Attr{t.dtype};
    if (kind == ParamKind::Bool && t.kind == StaticType::Bool && t.int_value) return stdlib::Attr{*t.int_value != 0};
    if (t.kind == StaticType::Int && t.int_value) {
        if (kind == ParamKind::Int || kind == ParamKind::Scalar || kind == ParamKind::Axis)
            return stdlib::Attr{*t.int_value};
        if (kind == ParamKind::Shape) return stdlib::Attr{std::vector<int64_t>{*t.int_value}};
    }
    if (t.ints && (kind == ParamKind::Axis || kind == ParamKind::Shape)) return stdlib::Attr{*t.ints};
    return std::nullopt;
}

bool operand(const StaticType& t) { return t.kind == StaticType::Tensor || t.converts; }

}  // namespace

const stdlib::OpDef* Types::op_named(const std::string& name) const {
    const auto it = ops_.find(name);
    return it == ops_.end() ? nullptr : it->second;
}

StaticType Types::call(const Call& c, int scope) {
    if (!c.callee) return {};
    for (const ExprPtr& a : c.args)
        if (a) (void)of(*a, scope);  // nested calls report their own shape errors
    if (c.callee->kind == ExprKind::Name) {
        const std::string& id = c.callee->as<Name>().id;
        if (ix_.lookup(id, scope) >= 0) return {};  // a tg function: its result is not known
        const stdlib::OpDef* op = op_named(id);
        if (!op) return {};
        return op_call(*op, c, scope, nullptr, c.loc, name_length(id), !extended_.count(id));
    }
    if (c.callee->kind == ExprKind::Attribute) {
        const auto& a = c.callee->as<Attribute>();
        if (!a.value || of(*a.value, scope).kind != StaticType::Tensor) return {};
        const stdlib::OpDef* op = op_named(a.attr);
        if (!op) return {};
        return op_call(*op, c, scope, a.value.get(), a.loc, name_length(a.attr), !extended_.count(a.attr));
    }
    return {};
}

StaticType Types::op_call(const stdlib::OpDef& op, const Call& c, int scope, const Expr* receiver, Loc loc,
                          uint32_t length, bool report) {
    std::vector<const Expr*> given(op.params.size(), nullptr);
    std::vector<const Expr*> positional;
    if (receiver) positional.push_back(receiver);
    for (const ExprPtr& a : c.args) positional.push_back(a.get());
    if (positional.size() > op.params.size()) return {};  // the call check reports it
    for (size_t i = 0; i < positional.size(); ++i) given[i] = positional[i];
    for (const Keyword& k : c.keywords) {
        size_t i = 0;
        while (i < op.params.size() && op.params[i].name != k.name) ++i;
        if (i == op.params.size() || given[i]) return {};
        given[i] = k.value.get();
    }
    std::vector<TensorType> inputs, listed;
    std::vector<stdlib::Attr> attrs(op.params.size());
    std::optional<stdlib::DType> dtype_attr;
    for (size_t i = 0; i < op.params.size(); ++i) {
        const stdlib::ParamDef& p = op.params[i];
        if (!given[i]) {
            if (p.required) return {};
            attrs[i] = p.default_value;
            continue;
        }
        const StaticType t = of(*given[i], scope);
        if (p.kind == ParamKind::Tensor || p.kind == ParamKind::Value) {
            if (!operand(t)) return {};
            inputs.push_back(t.tensor);
            if (p.kind == ParamKind::Value) inputs.back().weak = false;
        } else if (p.kind == ParamKind::TensorList) {
            const Expr& e = *given[i];
            const auto* elts = e.kind == ExprKind::List    ? &e.as<ListExpr>().elts
                               : e.kind == ExprKind::Tuple ? &e.as<TupleExpr>().elts
                                                           : nullptr;
            if (!elts) return {};
            for (const ExprPtr& x : *elts) {
                const StaticType xt = x ? of(*x, scope) : StaticType{};
                if (!operand(xt)) return {};
                listed.push_back(xt.tensor);
            }
        } else {
            std::optional<stdlib::Attr> a = attr_for(t, p.kind);
            if (!a) return {};
            attrs[i] = *a;
            if (p.kind == ParamKind::DType && std::holds_alternative<stdlib::DType>(*a))
                dtype_attr = std::get<stdlib::DType>(*a);
        }
    }
    // data given with a dtype is converted to it first (interp/dispatch.cpp eager_inputs)
    for (size_t i = 0, k = 0; i < op.params.size(); ++i)
        if (op.params[i].kind == ParamKind::Tensor || op.params[i].kind == ParamKind::Value) {
            if (!given[i]) continue;
            if (op.params[i].kind == ParamKind::Value && dtype_attr) inputs[k].dtype = *dtype_attr;
            ++k;
        }
    inputs.insert(inputs.end(), listed.begin(), listed.end());
    return apply(op, std::move(inputs), std::move(attrs), loc, length, report);
}

}  // namespace tg::lsp
