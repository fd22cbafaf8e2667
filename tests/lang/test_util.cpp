#include "test_util.hpp"

#include <cstdio>

namespace tg::lang::test {

namespace {

std::string opt(const ExprPtr& e) { return e ? sexpr(*e) : "_"; }

std::string params(const std::vector<Param>& ps) {
    std::string s = "(";
    for (size_t i = 0; i < ps.size(); ++i) {
        static constexpr const char* kForms[] = {"", "kw:", "*", "**"};
        s += (i ? " " : "") + std::string(kForms[static_cast<int>(ps[i].form)]) + ps[i].name;
        if (ps[i].default_value) s += "=" + sexpr(*ps[i].default_value);
    }
    return s + ")";
}

}  // namespace

std::string sexpr(const Expr& e) {
    switch (e.kind) {
        case ExprKind::Name: return e.as<Name>().id;
        case ExprKind::Int: return std::to_string(e.as<IntLit>().value);
        case ExprKind::Float: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%gf", e.as<FloatLit>().value);
            return buf;
        }
        case ExprKind::Str: return "\"" + e.as<StrLit>().value + "\"";
        case ExprKind::Bool: return e.as<BoolLit>().value ? "True" : "False";
        case ExprKind::NoneLit: return "None";
        case ExprKind::Ellipsis: return "...";
        case ExprKind::FString: {
            std::string s = "(f";
            for (const auto& p : e.as<FString>().parts) {
                if (!p.expr) s += " \"" + p.text + "\"";
                else s += " {" + sexpr(*p.expr) + (p.spec.empty() ? "" : ":" + p.spec) + "}";
            }
            return s + ")";
        }
        case ExprKind::Unary: {
            const auto& u = e.as<Unary>();
            return std::string("(") + to_string(u.op) + " " + sexpr(*u.operand) + ")";
        }
        case ExprKind::Binary: {
            const auto& b = e.as<Binary>();
            return std::string("(") + to_string(b.op) + " " + sexpr(*b.lhs) + " " + sexpr(*b.rhs) + ")";
        }
        case ExprKind::BoolOp: {
            const auto& b = e.as<BoolOp>();
            return std::string("(") + (b.is_and ? "and " : "or ") + sexpr(*b.lhs) + " " + sexpr(*b.rhs) + ")";
        }
        case ExprKind::Compare: {
            const auto& c = e.as<Compare>();
            if (c.ops.size() == 1) return std::string("(") + to_string(c.ops[0]) + " " + sexpr(*c.first) + " " + sexpr(*c.rest[0]) + ")";
            std::string s = "(cmp " + sexpr(*c.first);
            for (size_t i = 0; i < c.ops.size(); ++i) s += std::string(" ") + to_string(c.ops[i]) + " " + sexpr(*c.rest[i]);
            return s + ")";
        }
        case ExprKind::IfExp: {
            const auto& i = e.as<IfExp>();
            return "(if " + sexpr(*i.cond) + " " + sexpr(*i.then_) + " " + sexpr(*i.else_) + ")";
        }
        case ExprKind::Call: {
            const auto& c = e.as<Call>();
            std::string s = "(call " + sexpr(*c.callee);
            for (const auto& a : c.args) s += " " + sexpr(*a);
            for (const auto& k : c.keywords) s += " " + (k.unpack ? std::string("**") : k.name + "=") + sexpr(*k.value);
            return s + ")";
        }
        case ExprKind::Attribute: {
            const auto& a = e.as<Attribute>();
            return "(. " + sexpr(*a.value) + " " + a.attr + ")";
        }
        case ExprKind::Index: {
            const auto& i = e.as<Index>();
            std::string s = std::string(i.is_tuple ? "(index, " : "(index ") + sexpr(*i.value);
            for (const auto& x : i.indices) s += " " + sexpr(*x);
            return s + ")";
        }
        case ExprKind::Slice: {
            const auto& s = e.as<Slice>();
            return "(slice " + opt(s.lo) + " " + opt(s.hi) + " " + opt(s.step) + ")";
        }
        case ExprKind::List: {
            std::string s = "[";
            const auto& elts = e.as<ListExpr>().elts;
            for (size_t i = 0; i < elts.size(); ++i) s += (i ? " " : "") + sexpr(*elts[i]);
            return s + "]";
        }
        case ExprKind::Tuple: {
            std::string s = "(tuple";
            for (const auto& x : e.as<TupleExpr>().elts) s += " " + sexpr(*x);
            return s + ")";
        }
        case ExprKind::Lambda: {
            const auto& l = e.as<Lambda>();
            return "(lambda " + params(l.params) + " " + sexpr(*l.body) + ")";
        }
        case ExprKind::Dict: {
            const auto& d = e.as<DictExpr>();
            std::string s = "{";
            for (size_t i = 0; i < d.keys.size(); ++i) s += (i ? " " : "") + sexpr(*d.keys[i]) + ":" + sexpr(*d.values[i]);
            return s + "}";
        }
        case ExprKind::Set: {
            std::string s = "{set";
            for (const auto& x : e.as<SetExpr>().elts) s += " " + sexpr(*x);
            return s + "}";
        }
        case ExprKind::Starred: return "*" + sexpr(*e.as<Starred>().value);
        case ExprKind::ListComp: {
            const auto& c = e.as<ListComp>();
            if (c.is_set)
                return "(setcomp " + sexpr(*c.elt) + " " + sexpr(*c.target) + " " + sexpr(*c.iter) + " " + opt(c.cond) + ")";
            if (c.key)
                return "(dictcomp " + sexpr(*c.key) + ":" + sexpr(*c.elt) + " " + sexpr(*c.target) + " " + sexpr(*c.iter) +
                       " " + opt(c.cond) + ")";
            return "(listcomp " + sexpr(*c.elt) + " " + sexpr(*c.target) + " " + sexpr(*c.iter) + " " + opt(c.cond) + ")";
        }
    }
    return "?";
}

std::string expr_of(const std::string& text) {
    auto r = parse_text(text);
    if (!r.ok()) return "ERROR: " + r.errors[0].message;
    if (r.module->body.size() != 1 || r.module->body[0]->kind != StmtKind::Expr) return "NOT ONE EXPRESSION";
    return sexpr(*r.module->body[0]->as<ExprStmt>().expr);
}

std::string first_error(const std::string& text) {
    auto r = parse_text(text);
    return r.ok() ? "" : r.errors[0].message;
}

}  // namespace tg::lang::test
