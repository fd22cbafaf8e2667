// print_ast: one node per line, children indented by two spaces, each line
// ending in the node's location. Deterministic, so golden tests can compare it.
//
//   Assign @1:1 (= @1:3)
//     target: Name x @1:1
//     value: Binary + @1:7
//       Name a @1:5
//       Int 1 @1:9
#include <charconv>
#include <cstdio>

#include "lang/parser.hpp"

namespace tg::lang {

namespace {

std::string at(Loc l) { return "@" + std::to_string(l.line) + ":" + std::to_string(l.col); }

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\x%02x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out + "\"";
}

// The shortest text that reads back as the same double.
std::string float_text(double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // "n": inf, nan
    return s;
}

class Printer {
public:
    std::string out;

    void expr(const Expr& e, int depth, const std::string& role = "") {
        std::string head = std::string(depth * 2, ' ') + (role.empty() ? "" : role + ": ");
        switch (e.kind) {
            case ExprKind::Name:
                line(head + "Name " + e.as<Name>().id, e.loc);
                return;
            case ExprKind::Int:
                line(head + "Int " + std::to_string(e.as<IntLit>().value), e.loc);
                return;
            case ExprKind::Float:
                line(head + "Float " + float_text(e.as<FloatLit>().value), e.loc);
                return;
            case ExprKind::Str:
                line(head + "Str " + quoted(e.as<StrLit>().value), e.loc);
                return;
            case ExprKind::Bool:
                line(head + (e.as<BoolLit>().value ? "True" : "False"), e.loc);
                return;
            case ExprKind::NoneLit: line(head + "None", e.loc); return;
            case ExprKind::Ellipsis: line(head + "Ellipsis", e.loc); return;
            case ExprKind::FString: {
                line(head + "FString", e.loc);
                for (const auto& p : e.as<FString>().parts) {
                    if (!p.expr) {
                        out += std::string(depth * 2 + 2, ' ') + "text " + quoted(p.text) + "\n";
                    } else {
                        expr(*p.expr, depth + 1, p.spec.empty() ? "field" : "field " + quoted(p.spec));
                    }
                }
                return;
            }
            case ExprKind::Unary: {
                const auto& u = e.as<Unary>();
                line(head + "Unary " + to_string(u.op), e.loc);
                expr(*u.operand, depth + 1);
                return;
            }
            case ExprKind::Binary: {
                const auto& b = e.as<Binary>();
                line(head + "Binary " + to_string(b.op), e.loc);
                expr(*b.lhs, depth + 1);
                expr(*b.rhs, depth + 1);
                return;
            }
            case ExprKind::BoolOp: {
                const auto& b = e.as<BoolOp>();
                line(head + "BoolOp " + (b.is_and ? "and" : "or"), e.loc);
                expr(*b.lhs, depth + 1);
                expr(*b.rhs, depth + 1);
                return;
            }
            case ExprKind::Compare: {
                const auto& c = e.as<Compare>();
                std::string ops;
                for (size_t i = 0; i < c.ops.size(); ++i)
                    ops += std::string(i ? ", " : "") + to_string(c.ops[i]) + " " + at(c.op_locs[i]);
                line(head + "Compare " + ops, e.loc);
                expr(*c.first, depth + 1);
                for (const auto& r : c.rest) expr(*r, depth + 1);
                return;
            }
            case ExprKind::IfExp: {
                const auto& i = e.as<IfExp>();
                line(head + "IfExp", e.loc);
                expr(*i.cond, depth + 1, "cond");
                expr(*i.then_, depth + 1, "then");
                expr(*i.else_, depth + 1, "else");
                return;
            }
            case ExprKind::Call: {
                const auto& c = e.as<Call>();
                line(head + "Call", e.loc);
                expr(*c.callee, depth + 1, "callee");
                for (const auto& a : c.args) expr(*a, depth + 1, "arg");
                for (const auto& k : c.keywords)
                    expr(*k.value, depth + 1, k.unpack ? "** " + at(k.loc) : "keyword " + k.name + " " + at(k.loc));
                return;
            }
            case ExprKind::Attribute: {
                const auto& a = e.as<Attribute>();
                line(head + "Attribute ." + a.attr, e.loc);
                expr(*a.value, depth + 1);
                return;
            }
            case ExprKind::Index: {
                const auto& i = e.as<Index>();
                line(head + (i.is_tuple ? "Index (tuple)" : "Index"), e.loc);
                expr(*i.value, depth + 1, "value");
                for (const auto& x : i.indices) expr(*x, depth + 1, "index");
                return;
            }
            case ExprKind::Slice: {
                const auto& s = e.as<Slice>();
                line(head + "Slice", e.loc);
                if (s.lo) expr(*s.lo, depth + 1, "lo");
                if (s.hi) expr(*s.hi, depth + 1, "hi");
                if (s.step) expr(*s.step, depth + 1, "step");
                return;
            }
            case ExprKind::List:
                line(head + "List", e.loc);
                for (const auto& x : e.as<ListExpr>().elts) expr(*x, depth + 1);
                return;
            case ExprKind::Tuple:
                line(head + "Tuple", e.loc);
                for (const auto& x : e.as<TupleExpr>().elts) expr(*x, depth + 1);
                return;
            case ExprKind::Lambda: {
                const auto& l = e.as<Lambda>();
                line(head + "Lambda", e.loc);
                params(l.params, depth + 1);
                expr(*l.body, depth + 1, "body");
                return;
            }
            case ExprKind::Dict: {
                const auto& d = e.as<DictExpr>();
                line(head + "Dict", e.loc);
                for (size_t i = 0; i < d.keys.size(); ++i) {
                    expr(*d.keys[i], depth + 1, "key");
                    expr(*d.values[i], depth + 1, "value");
                }
                return;
            }
            case ExprKind::Set:
                line(head + "Set", e.loc);
                for (const auto& x : e.as<SetExpr>().elts) expr(*x, depth + 1);
                return;
            case ExprKind::Starred:
                line(head + "Starred", e.loc);
                expr(*e.as<Starred>().value, depth + 1);
                return;
            case ExprKind::ListComp: {
                const auto& c = e.as<ListComp>();
                line(head + (c.key ? "DictComp" : c.is_set ? "SetComp" : "ListComp"), e.loc);
                if (c.key) expr(*c.key, depth + 1, "key");
                expr(*c.elt, depth + 1, "elt");
                expr(*c.target, depth + 1, "target");
                expr(*c.iter, depth + 1, "iter");
                if (c.cond) expr(*c.cond, depth + 1, "if");
                for (const CompClause& m : c.more) {
                    expr(*m.target, depth + 1, "target");
                    expr(*m.iter, depth + 1, "iter");
                    if (m.cond) expr(*m.cond, depth + 1, "if");
                }
                return;
            }
        }
    }

    void params(const std::vector<Param>& ps, int depth) {
        for (const auto& p : ps) {
            static constexpr const char* kForms[] = {"", "(keyword-only) ", "*", "**"};
            line(std::string(depth * 2, ' ') + "Param " + kForms[static_cast<int>(p.form)] + p.name, p.loc);
            if (p.default_value) expr(*p.default_value, depth + 1, "default");
        }
    }

    void block(const Block& b, int depth, const char* label) {
        out += std::string(depth * 2, ' ') + label + ":\n";
        for (const auto& s : b) stmt(*s, depth + 1);
    }

    void stmt(const Stmt& s, int depth) {
        std::string head(depth * 2, ' ');
        switch (s.kind) {
            case StmtKind::Expr:
                line(head + "ExprStmt", s.loc);
                expr(*s.as<ExprStmt>().expr, depth + 1);
                return;
            case StmtKind::Assign: {
                const auto& a = s.as<Assign>();
                line(head + "Assign (= " + at(a.eq_loc) + ")", s.loc);
                for (const auto& t : a.targets) expr(*t, depth + 1, "target");
                expr(*a.value, depth + 1, "value");
                return;
            }
            case StmtKind::AugAssign: {
                const auto& a = s.as<AugAssign>();
                line(head + "AugAssign (" + to_string(a.op) + "= " + at(a.op_loc) + ")", s.loc);
                expr(*a.target, depth + 1, "target");
                expr(*a.value, depth + 1, "value");
                return;
            }
            case StmtKind::If: {
                const auto& i = s.as<If>();
                line(head + "If", s.loc);
                expr(*i.cond, depth + 1, "cond");
                block(i.body, depth + 1, "body");
                if (!i.orelse.empty()) block(i.orelse, depth + 1, "else");
                return;
            }
            case StmtKind::While: {
                const auto& w = s.as<While>();
                line(head + "While", s.loc);
                expr(*w.cond, depth + 1, "cond");
                block(w.body, depth + 1, "body");
                return;
            }
            case StmtKind::For: {
                const auto& f = s.as<For>();
                line(head + "For", s.loc);
                expr(*f.target, depth + 1, "target");
                expr(*f.iter, depth + 1, "iter");
                block(f.body, depth + 1, "body");
                return;
            }
            case StmtKind::Break: line(head + "Break", s.loc); return;
            case StmtKind::Continue: line(head + "Continue", s.loc); return;
            case StmtKind::Pass: line(head + "Pass", s.loc); return;
            case StmtKind::Return: {
                line(head + "Return", s.loc);
                if (const auto& v = s.as<Return>().value) expr(*v, depth + 1);
                return;
            }
            case StmtKind::Assert: {
                const auto& a = s.as<Assert>();
                line(head + "Assert", s.loc);
                expr(*a.cond, depth + 1, "cond");
                if (a.msg) expr(*a.msg, depth + 1, "msg");
                return;
            }
            case StmtKind::FunctionDef: {
                const auto& f = s.as<FunctionDef>();
                line(head + "FunctionDef " + f.name + " (name " + at(f.name_loc) + ")", s.loc);
                for (const auto& d : f.decorators) expr(*d, depth + 1, "decorator");
                params(f.params, depth + 1);
                block(f.body, depth + 1, "body");
                return;
            }
            case StmtKind::Import: {
                const auto& i = s.as<Import>();
                line(head + "Import " + i.module + (i.alias != i.module ? " as " + i.alias : "") + " (module " +
                         at(i.module_loc) + ")",
                     s.loc);
                return;
            }
            case StmtKind::Delete: case StmtKind::Global: names_stmt(s, depth); return;
        }
    }

    // del targets; global / nonlocal names
    void names_stmt(const Stmt& s, int depth) {
        std::string head(depth * 2, ' ');
        if (s.kind == StmtKind::Delete) {
            line(head + "Delete", s.loc);
            for (const auto& t : s.as<Delete>().targets) expr(*t, depth + 1, "target");
            return;
        }
        const auto& g = s.as<Global>();
        std::string names;
        for (size_t i = 0; i < g.names.size(); ++i) names += " " + g.names[i] + " " + at(g.name_locs[i]);
        line(head + (g.is_nonlocal ? "Nonlocal" : "Global") + names, s.loc);
    }

private:
    void line(const std::string& text, Loc loc) { out += text + " " + at(loc) + "\n"; }
};

}  // namespace

std::string print_ast(const Module& module) {
    Printer p;
    p.out = "Module " + (module.source ? module.source->name() : std::string("<input>")) + "\n";
    for (const auto& s : module.body) p.stmt(*s, 1);
    return p.out;
}

std::string print_ast(const Expr& expr) {
    Printer p;
    p.expr(expr, 0);
    return p.out;
}

}  // namespace tg::lang
