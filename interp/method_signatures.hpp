// The methods of lists, dicts, strings and sets, the tensor methods that are
// not builtins (docs/language.md "Lists", "Dicts", "Strings", "Sets") and a graph
// value's `dot` (docs/language.md "Graphs as values"), with what
// each takes: the one table the interpreter checks a method call's
// arguments against (list_methods.cpp, string_methods.cpp, values/dict.cpp, values/set.cpp,
// tensor_methods.cpp, tracing/graph_value.cpp) and the language server checks, completes and shows
// (docs/editors.md). Every other method of a value is a builtin called with
// the value first (`x.sum(0)` is `sum(x, 0)`).
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "interp/call_signature.hpp"
#include "lang/ast.hpp"

namespace tg::interp {

struct CallArgs;
class Value;

enum class MethodOf : uint8_t { List, Dict, Str, Set, Tensor, Graph };
inline constexpr MethodOf kMethodKinds[] = {MethodOf::List, MethodOf::Dict,   MethodOf::Str,
                                            MethodOf::Set,  MethodOf::Tensor, MethodOf::Graph};
// "list", "dict", "str", "set", "tensor", "graph" (as type(x) names them)
const char* method_kind_name(MethodOf of);

// The methods of a kind, in the table's order, and their signatures as
// written ("pop(index=-1, /)").
std::span<const std::string_view> method_names(MethodOf of);
std::span<const std::string_view> method_signature_texts(MethodOf of);

// The signature of method `name` of kind `of` (parsed once), or nullptr.
const CallSignature* method_signature(MethodOf of, std::string_view name);

// One method of one kind: an entry of the table.
struct Method {
    MethodOf of = MethodOf::List;
    uint8_t index = 0;                       // in method_names(of)
    std::string_view name() const { return method_names(of)[index]; }
    const CallSignature& signature() const;  // parsed once per process
    // It changes the list, dict or set it is called on (`xs.append(v)`,
    // `d.pop(k)`: the variable changes, copy-on-write).
    bool changes_receiver() const;
};
std::optional<Method> find_method(MethodOf of, std::string_view name);

// What a method's name is for every kind at once: a call site `x.name(...)`
// looks its name up once, when the resolver sees it (method_code), not at
// each call.
struct alignas(8) MethodIds {  // (8 bytes: copied as one word)
    std::array<int8_t, std::size(kMethodKinds)> index{};  // per kind: in method_names(of), or -1
    uint8_t changing = 0;  // per kind, bit `of`: the method changes_receiver()
    std::optional<Method> of(MethodOf k) const {
        const int8_t i = index[static_cast<size_t>(k)];
        if (i < 0) return std::nullopt;
        return Method{k, static_cast<uint8_t>(i)};
    }
    bool changes(MethodOf k) const { return changing >> static_cast<unsigned>(k) & 1; }
};
MethodIds method_ids(std::string_view name);
// What the resolver keeps on a call's lang::Attribute (its `code`), and
// what a call site reads back: those ids, or ones computed now for an
// attribute it did not see.
std::unique_ptr<lang::ExprCode> method_code(std::string_view name);
MethodIds method_ids_of(const lang::Attribute& a);

// The kind whose method `ids` names, when `recv` is of that kind (a list,
// dict, set, str or tensor that has the method); none otherwise (then
// `recv.name` is an attribute: a module's function, a bound method...).
std::optional<MethodOf> method_kind(const MethodIds& ids, const Value& recv);

// Throws an unlocated Error when `args` do not fit method `m` (its arity,
// keywords, a missing argument; bind_arguments' messages).
void check_method_arguments(Method m, const CallArgs& args);

}  // namespace tg::interp
