// What the language server knows about one parsed file without running it
// (docs/editors.md): its scopes, every name's definitions and uses, the
// imports, the calls. Built by one walk over the AST with the scope rules of
// docs/language.md "Scopes" (the resolver's rules, interp/resolver.hpp, kept
// as locations instead of slots: an editor asks "where", the evaluator "which slot").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lang/ast.hpp"
#include "lang/parser.hpp"

namespace tg::lsp {

using lang::Loc;

enum class SymbolKind : uint8_t { Variable, Function, Parameter, Module };

// How a name got one of its definitions.
enum class DefKind : uint8_t { Assign, AugAssign, Unpack, ForTarget, Param, Def, Import, Implicit };

struct Symbol {
    std::string name;
    SymbolKind kind = SymbolKind::Variable;
    int scope = 0;
    std::vector<Loc> defs;              // every place it is assigned, in source order
    std::vector<DefKind> def_kinds;     // one per def
    std::vector<Loc> uses;              // every read
    const lang::FunctionDef* function = nullptr;  // the `def`, when one defines it
    const lang::Import* import = nullptr;         // the `import`, when one defines it
    const lang::Param* param = nullptr;           // the parameter, when it is one
    std::vector<const lang::Expr*> values;        // the values of `name = value` (types, docs/editors.md)
};

struct ScopeInfo {
    int parent = -1;
    const lang::FunctionDef* function = nullptr;  // null: the module, a lambda or a comprehension
    Loc start, end;                               // the lines it spans (the module: all)
    std::unordered_map<std::string, int> names;   // name -> symbol
};

// One spelled name in the text: a use or a definition of a symbol, a
// builtin, or the attribute of `receiver.attr`.
struct Occurrence {
    Loc loc;
    uint32_t length = 0;   // in characters
    int symbol = -1;       // -1: a builtin, an undefined name, or an attribute
    bool definition = false;
    bool builtin = false;
    std::string name;      // the name, or the attribute
    int receiver = -1;     // attributes: the symbol of a plain-name receiver (-1: another expression)
    int scope = 0;
    bool attribute = false;  // `receiver.name`: not a name of any scope
};

struct CallSite {
    const lang::Call* call = nullptr;
    int scope = 0;
};

class Index {
public:
    // Indexes `parsed` (which it keeps: symbols point into its AST).
    // `builtins`: the names the interpreter defines.
    Index(lang::ParseResult parsed, const std::unordered_set<std::string>& builtins);

    const lang::SourcePtr& source() const { return parsed_.module->source; }
    const lang::ParseResult& parsed() const { return parsed_; }
    const std::vector<Symbol>& symbols() const { return symbols_; }
    const std::vector<ScopeInfo>& scopes() const { return scopes_; }
    const std::vector<Occurrence>& occurrences() const { return occurrences_; }
    const std::vector<CallSite>& calls() const { return calls_; }
    const std::vector<const lang::Import*>& imports() const { return imports_; }

    // The innermost scope around `loc` (by lines).
    int scope_at(Loc loc) const;
    // The symbol `name` means in scope `scope`, or -1.
    int lookup(const std::string& name, int scope) const;
    // The occurrence whose text holds `loc`, or nullptr.
    const Occurrence* occurrence_at(Loc loc) const;
    // The module's top-level symbol `name`, or -1.
    int top_level(const std::string& name) const { return lookup_in(name, 0); }
    // Every name visible in `scope`, innermost first (each once).
    std::vector<int> visible(int scope) const;

private:
    friend class Binder;
    int lookup_in(const std::string& name, int scope) const;
    lang::ParseResult parsed_;
    std::vector<Symbol> symbols_;
    std::vector<ScopeInfo> scopes_;
    std::vector<Occurrence> occurrences_;
    std::vector<CallSite> calls_;
    std::vector<const lang::Import*> imports_;
};

// The length of an identifier in characters (the unit of Loc::col).
uint32_t name_length(const std::string& name);

}  // namespace tg::lsp
