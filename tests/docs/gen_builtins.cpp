// Prints the reference of tg's table builtins (every op of the stdlib's op
// table that is not internal) as Markdown: its signature, read from the
// op's parameters, and its one-line doc. docs/builtins.md holds this text
// between two markers; the ctest `builtins_reference` regenerates it and
// fails on any difference, so the reference never drifts from the table.
//   tg_gen_builtins            print the generated block
//   tg_gen_builtins --names    print every builtin name an interpreter has
//                              (table ops and the host-side ones), one a line
//   tg_gen_builtins --json     the same as data for the builtin matrix
//                              (tests/matrix, docs/testing.md): every name,
//                              and every table op with its parameters (name,
//                              kind, default), flags and gradient rule
#include <tg/tg.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <variant>

#include "interp/batching/batching.hpp"
#include "stdlib/dtype.hpp"
#include "stdlib/op_table.hpp"
#include "stdlib/format.hpp"

using namespace tg::stdlib;

namespace {

// A default value as tg source writes it.
std::string literal(const Attr& a) {
    struct V {
        std::string operator()(std::monostate) const { return "None"; }
        std::string operator()(int64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const { return to_str(Tensor::scalar(v)); }
        std::string operator()(bool v) const { return v ? "True" : "False"; }
        std::string operator()(DType d) const { return dtype_name(d); }
        std::string operator()(const std::vector<int64_t>& v) const {
            std::string s = "(";
            for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
            return s + (v.size() == 1 ? ",)" : ")");
        }
    };
    return std::visit(V{}, a);
}

std::string signature(const OpDef& op) {
    std::string s = std::string(op.name) + "(";
    for (size_t i = 0; i < op.params.size(); ++i) {
        const ParamDef& p = op.params[i];
        if (i) s += ", ";
        s += p.name;
        if (!p.required) s += "=" + literal(p.default_value);
    }
    return s + ")";
}

// Markdown table cells: a `|` would end the cell.
std::string cell(std::string_view text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

const char* kind_name(ParamKind k) {
    switch (k) {
    case ParamKind::Tensor: return "tensor";
    case ParamKind::TensorList: return "tensor_list";
    case ParamKind::Int: return "int";
    case ParamKind::Scalar: return "scalar";
    case ParamKind::Axis: return "axis";
    case ParamKind::Shape: return "shape";
    case ParamKind::DType: return "dtype";
    case ParamKind::Bool: return "bool";
    case ParamKind::Widths: return "widths";
    case ParamKind::Value: return "value";
    }
    return "?";
}

// A JSON string (names, docs and default literals are ASCII without control characters).
std::string json_str(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

void print_json(const tg::Interpreter& interp) {
    std::printf("{\"names\": [");
    bool first = true;
    for (const std::string& n : interp.builtin_names()) {
        std::printf("%s%s", first ? "" : ", ", json_str(n).c_str());
        first = false;
    }
    std::printf("],\n \"ops\": [\n");
    first = true;
    for (const OpDef* op : all_ops()) {
        if (op->flags & kInternal) continue;
        std::printf("%s  {\"name\": %s, \"params\": [", first ? "" : ",\n", json_str(op->name).c_str());
        first = false;
        for (size_t i = 0; i < op->params.size(); ++i) {
            const ParamDef& p = op->params[i];
            std::printf("%s{\"name\": %s, \"kind\": \"%s\", \"default\": %s}", i ? ", " : "",
                        json_str(p.name).c_str(), kind_name(p.kind),
                        p.required ? "null" : json_str(literal(p.default_value)).c_str());
        }
        const char* grad = op->grad.mode == GradRule::Vjp ? "vjp"
                           : op->grad.mode == GradRule::NoGradient ? "none" : "missing";
        std::printf("], \"elementwise\": %s, \"reduction\": %s, \"random\": %s, \"creation\": %s, "
                    "\"grad\": \"%s\", \"vmap_rule_status\": %s}",
                    op->flags & kElementwise ? "true" : "false", op->flags & kReduction ? "true" : "false",
                    op->flags & kRandom ? "true" : "false", op->flags & kCreation ? "true" : "false", grad,
                    json_str(tg::interp::batch_rule_status(*op)).c_str());
    }
    std::printf("\n]}\n");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--names") == 0) {
        tg::Interpreter interp;
        for (const std::string& n : interp.builtin_names()) std::printf("%s\n", n.c_str());
        return 0;
    }
    if (argc > 1 && std::strcmp(argv[1], "--json") == 0) {
        tg::Interpreter interp;
        print_json(interp);
        return 0;
    }
    std::printf("| builtin | what it computes |\n|---|---|\n");
    for (const OpDef* op : all_ops()) {
        if (op->flags & kInternal) continue;
        std::printf("| `%s` | %s |\n", cell(signature(*op)).c_str(),
                    op->doc.empty() ? "(no doc line: add one to the op's row)" : cell(op->doc).c_str());
    }
}
