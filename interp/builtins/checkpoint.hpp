// Trees of tensors in .npz files: checkpoints (docs/language.md "Files").
//
// save flattens nested dicts, lists and tuples of tensors to one member per
// leaf, named by its path: "l1/w", "layers/0/weight" (flax's and Orbax's
// flat names; NumPy's np.load reads them as they are). None and empty
// containers are empty subtrees, as in JAX: nothing is written for them.
// load gives the members back as nested dicts (the parts of each path as
// keys); load(path, like=tree) puts them in `tree`'s structure (flax's
// restore_checkpoint target): the lists, tuples, None and keys come from the
// template, each leaf from the file, which must hold exactly the template's
// leaves with their shapes and dtypes, so a training run resumes exactly.
#pragma once

#include <string>

#include "interp/values/value.hpp"
#include "stdlib/npz.hpp"

namespace tg::interp {

// The members of tree's .npz file; errors name the path of a bad leaf.
stdlib::NamedTensors flatten_tree(const Value& tree);
// The members as nested dicts (a name without "/" is a key of the top dict).
Value nest_members(stdlib::NamedTensors members);
// The members in `like`'s structure; `file` names the file in errors.
Value restore_like(stdlib::NamedTensors members, const Value& like, const std::string& file);

}  // namespace tg::interp
