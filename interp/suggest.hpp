// "Did you mean ...?" for a name the user misspelt (docs/language.md
// "Errors"): an unknown variable, keyword argument, method or module
// attribute names the closest known one; a NumPy name that tg spells
// differently (`array`, `float32`, `arctan2`) names tg's; a NumPy or PyTorch
// form tg writes otherwise (`np.sum`, `x.fill`, `dim=`) says what tg writes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tg::interp {

// The suffix for an error message — "; did you mean `argmax`?" — or "" when
// no candidate is close enough. Close: at most one edit (insert, delete,
// substitute, swap two neighbours) for names up to 5 characters, two up to
// 11, three beyond (none for a word under 3 characters); among equally
// close ones, the first in `candidates`.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// What to write instead of a NumPy or PyTorch name tg does not have, when
// that is more than a name (`np.sum` -> "... without the `np.` prefix",
// `x.fill(0)`, `dim=`), or "": given only when the name the hint leads to is
// among `candidates` (a keyword hint only for a function with that parameter).
std::string_view porting_hint(std::string_view word, std::span<const std::string_view> candidates);

// tg's name for a NumPy or Python spelling (`array` -> `tensor`), or
// "" if `word` is not one of them.
std::string_view tg_spelling(std::string_view word);

// The methods of a kind of value, for suggestions (list, dict, set, str, tensor).
std::span<const std::string_view> list_method_names();
std::span<const std::string_view> set_method_names();
std::span<const std::string_view> string_method_names();
std::span<const std::string_view> dict_method_names();
std::span<const std::string_view> tensor_attribute_names();

}  // namespace tg::interp
