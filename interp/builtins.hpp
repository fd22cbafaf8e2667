// The builtins every interpreter starts with: the host builtins of SPEC §4
// (print, len, range, str, repr, int, float, time, type, seed, argv, graph),
// the dtypes, and one builtin per op of stdlib's op table.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "interp/value.hpp"

namespace tg::interp {

std::vector<std::pair<std::string, Value>> make_builtins();
// enumerate, zip, sorted, reversed, pi, e, inf, nan (builtins_seq.cpp)
void add_sequence_builtins(std::vector<std::pair<std::string, Value>>& out);
// gelu(x, approximate=False), isclose, allclose: made of table ops (builtins_math.cpp)
void add_math_builtins(std::vector<std::pair<std::string, Value>>& out);

}  // namespace tg::interp
