// What the language server knows of a value's type without running the
// program (docs/editors.md "Types on hover"): literals, names assigned one
// kind of value, tensors made by creation calls with literal shapes and
// everything that follows from them by the op table's shape rules (the
// same rules `@graph` tracing uses, stdlib/op_table.hpp). Anything else —
// parameters, loops, indexing, values of other modules — is unknown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lsp/builtin_tables.hpp"
#include "lsp/index.hpp"
#include "stdlib/op_table.hpp"

namespace tg::lsp {

struct StaticType {
    enum Kind : uint8_t { Unknown, Int, Float, Bool, Str, None, Tensor, List, Tuple, Dict, Function, Module, DType };
    Kind kind = Unknown;
    stdlib::TensorType tensor;                  // Tensor; and what a number or nested list converts to
    bool converts = false;                      // a number or a nested list of numbers: a tensor operand
    std::optional<int64_t> int_value;           // Int: the literal's value
    std::optional<std::vector<int64_t>> ints;   // a tuple or list of known ints (a shape, axes)
    stdlib::DType dtype = stdlib::DType::F32;   // DType: which one

    static StaticType of_kind(Kind k) {
        StaticType t;
        t.kind = k;
        return t;
    }
    bool known() const { return kind != Unknown; }
    // "f32[2, 3]", "i64[] (weak)", "int = 4", "tuple (2, 3)", "list", "str"...
    std::string describe() const;
};

// A shape error the op table's rule finds with every operand known: the
// run would stop there with this message (docs/editors.md).
struct ShapeProblem {
    const lang::Call* call = nullptr;  // or null for an operator
    lang::Loc loc;
    uint32_t length = 1;
    std::string message;
};

class Types {
public:
    // `builtins`: which builtins are ops of the table (Workspace::builtin_tables).
    Types(const Index& ix, const BuiltinTables& builtins) : ix_(ix), ops_(builtins.ops), extended_(builtins.extended) {}

    StaticType of_symbol(int symbol);
    StaticType of(const lang::Expr& e, int scope);
    // Every shape error of the file (each call and operator once).
    std::vector<ShapeProblem> problems();

private:
    StaticType call(const lang::Call& c, int scope);
    StaticType op_call(const stdlib::OpDef& op, const lang::Call& c, int scope, const lang::Expr* receiver,
                       lang::Loc loc, uint32_t length, bool report);
    StaticType binary(const lang::Binary& b, int scope);
    StaticType attribute(const lang::Attribute& a, int scope);
    StaticType sequence(const std::vector<lang::ExprPtr>& elts, int scope, StaticType::Kind kind);
    // The op's result type; its shape rule's error is a problem when `report`
    // (else the call is left to a builtin that takes more than the op).
    StaticType apply(const stdlib::OpDef& op, std::vector<stdlib::TensorType> inputs, std::vector<stdlib::Attr> attrs,
                     lang::Loc loc, uint32_t length, bool report = true);

    const stdlib::OpDef* op_named(const std::string& name) const;

    const Index& ix_;
    const std::unordered_map<std::string, const stdlib::OpDef*>& ops_;
    const std::unordered_set<std::string>& extended_;
    std::unordered_map<int, StaticType> symbols_;
    std::unordered_map<int, bool> busy_;  // a symbol being typed (x = x + 1): unknown inside
    std::vector<ShapeProblem> problems_;
};

}  // namespace tg::lsp
