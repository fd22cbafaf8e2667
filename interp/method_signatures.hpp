// The methods of lists, dicts, strings and sets, the tensor methods that are
// not builtins (docs/language.md "Lists", "Dicts", "Strings", "Sets") and a graph
// value's `dot` (docs/language.md "Graphs as values"), with what
// each takes: the one table the interpreter checks a method call's
// arguments against (list_methods.cpp, string_methods.cpp, values/dict.cpp, values/set.cpp,
// tensor_methods.cpp, tracing/graph_value.cpp) and the language server checks, completes and shows
// (docs/editors.md). Every other method of a value is a builtin called with
// the value first (`x.sum(0)` is `sum(x, 0)`).
#pragma once

#include <span>
#include <string_view>

#include "interp/call_signature.hpp"

namespace tg::interp {

struct CallArgs;

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

// Throws an unlocated Error when `args` do not fit method `name` of kind
// `of` (its arity, keywords, a missing argument; bind_arguments' messages).
void check_method_arguments(MethodOf of, std::string_view name, const CallArgs& args);

}  // namespace tg::interp
