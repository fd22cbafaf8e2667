// The names every interpreter starts with, and which of them are ops of
// the table (made once per process from interp::make_builtins: every
// workspace of the language server reads the same; lsp/workspace.cpp).
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "stdlib/op_table.hpp"

namespace tg::lsp {

struct BuiltinTables {
    std::unordered_set<std::string> names;
    std::vector<std::string> list;  // in the interpreter's order
    // The builtins that are an op of the table (not `max`, whose builtin
    // also takes Python's forms): their results follow the op's shape rule.
    std::unordered_map<std::string, const stdlib::OpDef*> ops;
    // Of those, the ones whose method call takes the op's parameters after
    // the receiver, NumPy's varargs forms too (`x.reshape(2, 3)`).
    std::unordered_map<std::string, const stdlib::OpDef*> method_ops;
    // Of `ops`, the builtins that take more than their op (norm's matrix
    // orders, eye's k, gelu's approximate: BuiltinObj::adds_params): a call
    // the op's shape rule rejects may still run, so it is not reported.
    std::unordered_set<std::string> extended;
    // The builtins named other than their op (`concatenate`, `ravel`,
    // `constant`): `tg run` names the op in their errors (`concat: ...`).
    std::unordered_map<std::string, std::string> op_names;
};

}  // namespace tg::lsp
