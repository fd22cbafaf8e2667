#include "tracer/printer.hpp"

#include <charconv>
#include <unordered_map>

namespace tg::tracer {

using stdlib::DType;
using stdlib::Tensor;

namespace {

template <class F>
std::string shortest(F v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, res.ptr);
    if (s.find_first_of(".eni") == std::string::npos) s += ".0";  // 7 -> 7.0; keeps inf, nan, 1e+16
    return s;
}

// Element i (row-major) of a contiguous tensor, formatted.
std::string element(const Tensor& c, int64_t i, bool full_precision) {
    switch (c.dtype()) {
        case DType::Bool: return c.data<bool>()[i] ? "true" : "false";
        case DType::I32: return std::to_string(c.data<int32_t>()[i]);
        case DType::I64: return std::to_string(c.data<int64_t>()[i]);
        case DType::F32: return full_precision ? shortest(static_cast<double>(c.data<float>()[i])) : shortest(c.data<float>()[i]);
        case DType::F64: return shortest(c.data<double>()[i]);
    }
    return "?";
}

std::string escape(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        switch (ch) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default: out += ch;
        }
    }
    return out + "\"";
}

class Printer {
public:
    Printer(const Graph& g, const PrintOptions& o) : g_(g), opts_(o) {}

    std::string run() {
        const Region& body = g_.region(Graph::kBody);
        // Named inputs keep their names (deduplicated), everything else is numbered.
        std::unordered_map<std::string, int> taken;
        for (ValueId a : body.args) {
            const std::string& hint = g_.value(a).name;
            if (hint.empty()) continue;
            std::string name = hint;
            if (int k = taken[hint]++) name += "_" + std::to_string(k);
            names_[a] = "%" + name;
        }
        out_ = "func @" + g_.name() + "(";
        args(body.args);
        out_ += ")";
        const Node* ret = body.nodes.empty() ? nullptr : &g_.node(body.nodes.back());
        if (ret && ret->op == Op::Yield) {
            out_ += " -> (";
            for (size_t i = 0; i < ret->operands.size(); ++i) {
                if (i) out_ += ", ";
                out_ += g_.type_string(ret->operands[i]);
            }
            out_ += ")";
        }
        out_ += " {\n";
        region_body(Graph::kBody, 1);
        out_ += "}\n";
        return out_;
    }

private:
    const std::string& name(ValueId v) {
        auto it = names_.find(v);
        if (it != names_.end()) return it->second;
        return names_[v] = "%" + std::to_string(next_++);
    }
    void args(const std::vector<ValueId>& list) {
        for (size_t i = 0; i < list.size(); ++i) {
            if (i) out_ += ", ";
            out_ += name(list[i]) + ": " + g_.type_string(list[i]);
        }
    }
    std::string operand_list(const std::vector<ValueId>& ops, size_t from = 0) {
        std::string s;
        for (size_t i = from; i < ops.size(); ++i) {
            if (i > from) s += ", ";
            s += name(ops[i]);
        }
        return s;
    }
    std::string types(const std::vector<ValueId>& vals) {
        std::string s;
        for (size_t i = 0; i < vals.size(); ++i) {
            if (i) s += ", ";
            s += g_.type_string(vals[i]);
        }
        return s;
    }
    std::string text(const Node& node) {
        std::string s;
        for (const TextPiece& p : std::get<Template>(node.payload)) {
            s += ", ";
            switch (p.kind) {
                case TextPiece::Text: s += escape(p.text); break;
                case TextPiece::Str: s += "str(" + name(node.operands[p.operand]) + ")"; break;
                case TextPiece::Repr: s += "repr(" + name(node.operands[p.operand]) + ")"; break;
                case TextPiece::Format:
                    s += "format(" + name(node.operands[p.operand]) + ", " + escape(p.text) + ")";
                    break;
            }
        }
        return s;
    }
    std::string index_items(const Node& node, size_t first_dynamic) {
        const IndexSpec& spec = std::get<IndexSpec>(node.payload);
        std::string s = "[";
        size_t dyn = first_dynamic;
        for (size_t i = 0; i < spec.items.size(); ++i) {
            if (i) s += ", ";
            const stdlib::IndexItem& it = spec.items[i];
            switch (it.kind) {
                case stdlib::IndexItem::Int:
                    s += spec.dynamic[i] ? name(node.operands[dyn++]) : std::to_string(it.index);
                    break;
                case stdlib::IndexItem::Slice:
                    if (it.lo) s += std::to_string(*it.lo);
                    s += ":";
                    if (it.hi) s += std::to_string(*it.hi);
                    if (it.step) s += ":" + std::to_string(*it.step);
                    break;
                case stdlib::IndexItem::Ellipsis: s += "..."; break;
            }
        }
        return s + "]";
    }
    void loc(const Node& node) {
        if (opts_.locations && node.loc.loc.known()) out_ += "  loc(" + to_string(node.loc) + ")";
    }

    void region_body(RegionId r, int depth) {
        for (NodeId n : g_.region(r).nodes) line(n, depth);
    }

    void line(NodeId n, int depth) {
        const Node& node = g_.node(n);
        std::string pad(static_cast<size_t>(depth) * 2, ' ');
        out_ += pad;
        if (!node.results.empty()) out_ += operand_list(node.results) + " = ";
        switch (node.op) {
            case Op::Apply: {
                out_ += std::string(node.def->name) + " " + operand_list(node.operands);
                std::string attrs;
                for (size_t i = 0; i < node.attrs.size() && i < node.def->params.size(); ++i) {
                    if (std::holds_alternative<std::monostate>(node.attrs[i])) continue;
                    if (!attrs.empty()) attrs += ", ";
                    attrs += std::string(node.def->params[i].name) + "=" + format_attr(node.attrs[i]);
                    for (const Graph::ShapeAttr& a : g_.shape_attrs())  // the result's shape at run time
                        if (a.node == n && a.attr == i) attrs += " (" + g_.type_string(node.results[0]) + ")";
                }
                if (!attrs.empty()) out_ += " {" + attrs + "}";
                break;
            }
            case Op::Constant:
                out_ += "const " + format_constant(std::get<Tensor>(node.payload));
                if (const Graph::SizeConstant* c = g_.size_constant(n))  // "(= 2 * ?0)"
                    out_ += " (= " + (c->factor != 1 ? std::to_string(c->factor) + " * " : std::string()) + "?" +
                            std::to_string(c->symbol) + ")";
                break;
            case Op::Undef: out_ += "undef"; break;
            case Op::Truth: out_ += "truth " + operand_list(node.operands); break;
            case Op::Index:
                out_ += "index " + name(node.operands[0]) + index_items(node, 1);
                break;
            case Op::IndexAssign:
                out_ += "index_assign " + name(node.operands[0]) + index_items(node, 2) + " = " + name(node.operands[1]);
                break;
            case Op::Yield: out_ += "yield " + operand_list(node.operands); break;
            case Op::Print: out_ += "print " + name(node.operands[0]) + text(node); break;
            case Op::Assert:
                out_ += "assert " + name(node.operands[0]) + ", " + name(node.operands[1]) + text(node);
                break;
            case Op::Raise: out_ += "raise " + name(node.operands[0]) + text(node); break;
            case Op::HostCall: {
                const HostFn& fn = std::get<HostFn>(node.payload);
                out_ += "host_call @" + fn.name + "#" + std::to_string(fn.id) + "(" + operand_list(node.operands) + ")";
                break;
            }
            case Op::Cond: case Op::While: {
                bool is_cond = node.op == Op::Cond;
                out_ += is_cond ? "cond " + name(node.operands[0]) + " (" + operand_list(node.operands, 1) + ")"
                                : "while (" + operand_list(node.operands) + ")";
                loc(node);
                out_ += " {\n";
                const char* labels[2] = {is_cond ? "then" : "cond", is_cond ? "else" : "body"};
                for (size_t i = 0; i < node.regions.size() && i < 2; ++i) {
                    out_ += pad + labels[i] + "(";
                    args(g_.region(node.regions[i]).args);
                    out_ += "):\n";
                    region_body(node.regions[i], depth + 1);
                }
                out_ += pad + "}";
                if (!node.results.empty()) out_ += " : " + types(node.results);
                out_ += "\n";
                return;
            }
        }
        if (!node.results.empty()) out_ += " : " + types(node.results);
        loc(node);
        out_ += "\n";
    }

    const Graph& g_;
    PrintOptions opts_;
    std::unordered_map<ValueId, std::string> names_;
    int next_ = 0;
    std::string out_;
};

}  // namespace

std::string format_constant(const Tensor& t) {
    if (t.rank() == 0) {
        if (t.weak()) return t.dtype() == DType::F32 ? shortest(t.item_f64()) : std::to_string(t.item_i64());
        switch (t.dtype()) {
            case DType::Bool: return t.item_bool() ? "true" : "false";
            case DType::I32: case DType::I64: return std::to_string(t.item_i64());
            case DType::F32: return shortest(static_cast<float>(t.item_f64()));
            case DType::F64: return shortest(t.item_f64());
        }
    }
    Tensor c = t.contiguous();
    const int64_t n = c.numel();
    const int64_t shown = std::min<int64_t>(n, 16);
    // Nested brackets, row-major; past 16 elements the rest is "...".
    std::string s;
    const auto dims = c.shape().dims();
    int64_t i = 0;
    std::function<void(size_t)> rec = [&](size_t axis) {
        s += '[';
        for (int64_t k = 0; k < dims[axis]; ++k) {
            if (i >= shown) {
                s += "...";
                break;
            }
            if (k) s += ", ";
            if (axis + 1 == dims.size()) {
                s += element(c, i++, false);
            } else {
                rec(axis + 1);
            }
        }
        s += ']';
    };
    rec(0);
    return s;
}

std::string format_attr(const stdlib::Attr& a) {
    struct V {
        std::string operator()(std::monostate) const { return "none"; }
        std::string operator()(int64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const { return shortest(v); }
        std::string operator()(bool v) const { return v ? "true" : "false"; }
        std::string operator()(DType d) const { return stdlib::dtype_name(d); }
        std::string operator()(const std::vector<int64_t>& v) const {
            std::string s = "(";
            for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
            return s + (v.size() == 1 ? ",)" : ")");
        }
    };
    return std::visit(V{}, a);
}

std::string print_graph(const Graph& g, const PrintOptions& options) { return Printer(g, options).run(); }

// ---------------------------------------------------------------- DOT

namespace {

std::string dot_escape(const std::string& s) {
    std::string out;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        if (ch == '\n') {
            out += "\\n";
            continue;
        }
        out += ch;
    }
    return out;
}

// Graphviz DOT meant for people: region arguments carry the names of the
// tg variables they hold; each region is a cluster labelled with its
// construct and source line ("while at train.tg:12: body"); print and
// assert nodes show their text; edges into non-commutative ops are numbered;
// each node's tooltip is its source line.
class DotWriter {
public:
    explicit DotWriter(const Graph& g) : g_(g) {}

    std::string run() {
        out_ = "digraph \"" + dot_escape(g_.name()) + "\" {\n  node [shape=box, fontname=\"monospace\"];\n";
        region(Graph::kBody, 1);
        out_ += edges_;
        out_ += "}\n";
        return out_;
    }

private:
    std::string src(ValueId v) {
        const ValueInfo& info = g_.value(v);
        return info.def != kNoId ? "n" + std::to_string(info.def) : "a" + std::to_string(v);
    }
    // "f.tg:12", or "" when unknown.
    static std::string line_of(const SrcLoc& l) {
        if (!l.loc.known()) return "";
        return (l.source ? l.source->name() + ":" : std::string("line ")) + std::to_string(l.loc.line);
    }
    // ", tooltip=\"f.tg:12: h = relu(x @ w1 + b1)\"" for a node with a location.
    static std::string tooltip(const SrcLoc& l) {
        if (!l.loc.known()) return "";
        std::string text = line_of(l);
        if (l.source) {
            std::string_view line = l.source->line_text(l.loc.line);
            while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
            if (!line.empty()) text += ": " + std::string(line);
        }
        return ", tooltip=\"" + dot_escape(text) + "\"";
    }
    // print/assert/raise text with its values as {}: "y = {}" (print's final newline dropped).
    static std::string template_text(const Template& t) {
        std::string out;
        for (const TextPiece& p : t) out += p.kind == TextPiece::Text ? p.text : "{}";
        if (!out.empty() && out.back() == '\n') out.pop_back();  // print's end
        if (out.size() > 60) out = out.substr(0, 57) + "...";
        return out;
    }
    static bool commutative(const Node& n) {
        const auto* k = std::get_if<stdlib::BinaryKind>(&n.def->kind);
        if (!k) return false;
        using B = stdlib::BinaryKind;
        switch (*k) {  // every kind named: a new one is a compile error (-Wswitch) until it is sorted here
            case B::Add: case B::Mul: case B::Maximum: case B::Minimum: case B::Eq: case B::Ne:
            case B::BitAnd: case B::BitOr: case B::BitXor: case B::Logaddexp: return true;
            case B::Sub: case B::Div: case B::FloorDiv: case B::Mod: case B::Pow: case B::Lt: case B::Le:
            case B::Gt: case B::Ge: case B::Atan2: case B::LeftShift: case B::RightShift: return false;
        }
        return false;
    }
    // Operand order matters unless the node is a commutative op or has at most one tensor operand.
    bool numbered(const Node& n) const {
        if (n.op == Op::Yield || n.op == Op::Cond || n.op == Op::While) return false;
        size_t tensors = 0;
        for (ValueId v : n.operands) tensors += g_.type(v).token ? 0 : 1;
        return tensors >= 2 && !(n.op == Op::Apply && commutative(n));
    }
    void region(RegionId r, int depth) {
        std::string pad(static_cast<size_t>(depth) * 2, ' ');
        for (ValueId a : g_.region(r).args) {
            const ValueInfo& info = g_.value(a);
            std::string label = !info.name.empty() ? info.name
                                : g_.type(a).token ? std::string("effects")
                                                   : "arg " + std::to_string(info.index);
            out_ += pad + "a" + std::to_string(a) + " [shape=ellipse, label=\"" +
                    dot_escape(label + "\n" + g_.type_string(a)) + "\"];\n";
        }
        for (NodeId n : g_.region(r).nodes) {
            const Node& node = g_.node(n);
            std::string label = node.op == Op::Apply ? std::string(node.def->name) : op_name(node.op);
            if (node.op == Op::Constant) label += " " + format_constant(std::get<stdlib::Tensor>(node.payload));
            if (const Template* t = std::get_if<Template>(&node.payload)) label += " \"" + template_text(*t) + "\"";
            for (ValueId v : node.results) label += "\n" + g_.type_string(v);
            out_ += pad + "n" + std::to_string(n) + " [label=\"" + dot_escape(label) + "\"" + tooltip(node.loc) +
                    (has_side_effect(g_, n) ? ", style=filled, fillcolor=lightyellow" : "") + "];\n";
            const bool number = numbered(node);
            for (size_t k = 0; k < node.operands.size(); ++k) {
                ValueId v = node.operands[k];
                std::string attrs;
                if (g_.type(v).token) attrs = "style=dashed";
                else if (number) attrs = "label=\"" + std::to_string(k) + "\"";
                edges_ += "  " + src(v) + " -> n" + std::to_string(n) + (attrs.empty() ? "" : " [" + attrs + "]") + ";\n";
            }
            const std::string where = line_of(node.loc);
            for (size_t i = 0; i < node.regions.size(); ++i) {
                RegionId sub = node.regions[i];
                const char* names[2] = {node.op == Op::Cond ? "then" : "cond", node.op == Op::Cond ? "else" : "body"};
                const std::string construct = node.op == Op::Cond ? "if" : "while";
                const std::string title =
                    construct + (where.empty() ? "" : " at " + where) + ": " + names[i < 2 ? i : 1];
                out_ += pad + "subgraph cluster_r" + std::to_string(sub) + " {\n" + pad + "  label=\"" +
                        dot_escape(title) + "\";\n";
                region(sub, depth + 1);
                out_ += pad + "}\n";
                if (!g_.region(sub).nodes.empty())
                    edges_ += "  n" + std::to_string(g_.region(sub).nodes.back()) + " -> n" + std::to_string(n) +
                              " [style=dotted];\n";
            }
        }
    }

    const Graph& g_;
    std::string out_, edges_;
};

}  // namespace

std::string to_dot(const Graph& g) { return DotWriter(g).run(); }

}  // namespace tg::tracer
