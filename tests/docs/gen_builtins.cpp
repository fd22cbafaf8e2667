// Prints the reference of tg's table builtins (every op of the stdlib's op
// table that is not internal) as Markdown: its signature, read from the
// op's parameters, and its one-line doc. docs/builtins.md holds this text
// between two markers; the ctest `builtins_reference` regenerates it and
// fails on any difference, so the reference never drifts from the table.
//   tg_gen_builtins            print the generated block
//   tg_gen_builtins --names    print every builtin name an interpreter has
//                              (table ops and the host-side ones), one a line
#include <tg/tg.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <variant>

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

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--names") == 0) {
        tg::Interpreter interp;
        for (const std::string& n : interp.builtin_names()) std::printf("%s\n", n.c_str());
        return 0;
    }
    std::printf("| builtin | what it computes |\n|---|---|\n");
    for (const OpDef* op : all_ops()) {
        if (op->flags & kInternal) continue;
        std::printf("| `%s` | %s |\n", cell(signature(*op)).c_str(),
                    op->doc.empty() ? "(no doc line: add one to the op's row)" : cell(op->doc).c_str());
    }
}
