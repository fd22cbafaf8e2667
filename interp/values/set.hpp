// Sets (docs/language.md "Sets"): elements, printing, the set operators and
// methods, and the `set` builtin.
//
// A set holds strings and integers — the kinds of dict keys
// (interp/values/dict.hpp), stored the same way — with value semantics like
// every tg value: `s.add(x)` and the other changing methods change the
// variable s (copy-on-write, as lists and dicts). The storage is SetObj
// (interp/values/value.hpp).
//
// Decisions (docs/language.md "Sets"): a set is iterated and printed in
// sorted order — integers ascending, then strings by code point — not in
// insertion order: CPython's order is its hash table's, which is ascending
// for small non-negative integers and changes from run to run for strings,
// so sorted order prints what CPython prints where CPython's output is
// reproducible at all, and every run of a tg program prints the same.
// `pop()` removes the first (smallest) element. Inside @graph the elements
// must be static (an element that depends on tensor contents is a trace
// error, as a dict key).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interp/method_signatures.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

class Runtime;

// The element `v` stands for; an unlocated error if it cannot be one.
DictKey set_element(const Runtime& rt, const Value& v);
// {1, 2, 'a'}, or set() when empty: Python's text (str and repr alike).
std::string set_str(const SetObj& s);
// The elements as tg values (an int as an i64, as dict keys), in order.
std::vector<Value> set_values(const SetObj& s);
// The elements of anything a `for` loop walks (`what` names the argument in errors).
SetObj set_from(Runtime& rt, const Value& iterable, const std::string& what);

// Runs set method `m` on `set` (which it may change) with `args` (the
// arguments after the set). Throws unlocated errors.
Value call_set_method(Runtime& rt, Method m, Value& set, const CallArgs& args);

// a | b, a & b, a - b, a ^ b of two sets; nullopt for any other operator.
std::optional<Value> set_binary(lang::BinOp op, const SetObj& a, const SetObj& b);
// a < b, a <= b, a > b, a >= b: proper subset, subset, proper superset, superset.
bool set_compare(lang::CmpOp op, const SetObj& a, const SetObj& b);

// The `set` builtin: set(), set(iterable).
void add_set_builtins(std::vector<std::pair<std::string, Value>>& out);

}  // namespace tg::interp
