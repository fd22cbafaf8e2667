// Dicts (docs/language.md "Values"): keys, lookups, the dict methods and the `dict` builtin.
//
// A dict maps strings and integers to any values, in insertion order, with
// value semantics like every tg value: `d[k] = v` and the changing methods
// (pop, update, setdefault, clear) change the variable d (copy-on-write, as
// lists: interp/builtins/list_methods.hpp). The storage is DictObj (interp/values/value.hpp).
//
// Decisions (docs/language.md, "Dicts"): keys are str or integer values
// (0-d i32/i64 tensors, stored as i64); a float, a bool, a tensor with
// elements, a list, a tuple, a dict, None or a function as a key is an error
// naming its kind. keys() / values() / items() return lists (tg has no
// views). Inside @graph a key must be static (a key that depends on tensor
// contents is a trace error); the values may be traced tensors.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interp/method_signatures.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

// What a key is for, to name it in errors: a dict's key or a set's element
// (docs/language.md "Sets": the same kinds).
enum class KeyUse : uint8_t { DictKey, SetElement };
// The key `k` stands for; an unlocated error if it cannot be one (`rt` names
// the arguments a key computed from tensor contents comes from, while tracing).
DictKey dict_key(const Runtime& rt, const Value& k, KeyUse use = KeyUse::DictKey);
DictKey dict_key(const Value& k, KeyUse use = KeyUse::DictKey);  // outside any trace (the embedding API)
// "a tensor of shape [2]", "a float (f32)", "a bool", "None", "a list": what a value is, in errors.
std::string kind_desc(const Value& v);
// The key as a tg value: a str, or an i64 (as range() and len() give ints).
Value key_value(const DictKey& k);
std::string key_repr(const DictKey& k);  // 'w', "it's", 3
std::string keys_repr(const DictObj& d); // ['w', 'b']
// How names of graph inputs and messages show part i of a container:
// "[2]" for an item of a list or a tuple, "['w']" for a dict's value.
std::string child_suffix(const Value& container, size_t i);
// "key 'x' is not in the dict" (unlocated).
[[noreturn]] void missing_key(const DictKey& k);
// d[k], or the missing-key error.
const Value& dict_item(const Runtime& rt, const Value& d, const Value& k);

// Runs dict method `m` on `dict` (which it may change) with `args` (the
// arguments after the dict). Throws unlocated errors.
Value call_dict_method(Runtime& rt, Method m, Value& dict, const CallArgs& args);

// The `dict` builtin: dict(), dict(other), dict(pairs), dict(a=1, ...).
void add_dict_builtins(std::vector<std::pair<std::string, Value>>& out);

}  // namespace tg::interp
