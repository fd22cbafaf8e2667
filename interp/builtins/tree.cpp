// JAX's tree utilities (docs/builtins.md, docs/training.md "Pytrees"):
// tree_map, tree_leaves, tree_flatten, tree_unflatten, tree_structure over
// nested lists, tuples and dicts. None is an empty subtree; every other
// value is a leaf. Dicts keep their insertion order (Python's, and PyTorch's
// state_dict's), where JAX sorts their keys. A tree's structure (a
// "treedef") is the tree with each leaf replaced by its position among the
// leaves: {'w': 0, 'b': [1, 2]}, an ordinary value.
#include <string>

#include "interp/builtins/builtins.hpp"
#include "interp/check_args.hpp"
#include "interp/dispatch.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "interp/runtime.hpp"
#include "interp/values/dict.hpp"

namespace tg::interp {

namespace {

bool is_container(const Value& v) { return v.is_sequence() || v.is(Kind::Dict); }

void leaves_of(const Value& v, std::vector<Value>& out) {
    if (v.is(Kind::None)) return;
    if (!is_container(v)) {
        out.push_back(v);
        return;
    }
    for (const Value& x : v.child_values()) leaves_of(x, out);
}

// The structure: leaves replaced by their positions.
Value structure_of(const Value& v, int64_t& next) {
    if (v.is(Kind::None)) return v;
    if (!is_container(v)) return Value::from_int(next++);
    std::vector<Value> items;
    for (const Value& x : v.child_values()) items.push_back(structure_of(x, next));
    return v.with_children(std::move(items));
}

Value unflatten(const Value& def, std::span<const Value> leaves, size_t& k) {
    if (def.is(Kind::None)) return def;
    if (!is_container(def)) {
        if (k >= leaves.size())
            throw Error("tree_unflatten: the structure has more leaves than the " + std::to_string(leaves.size()) + " given");
        return leaves[k++];
    }
    std::vector<Value> items;
    for (const Value& x : def.child_values()) items.push_back(unflatten(x, leaves, k));
    return def.with_children(std::move(items));
}

std::string describe(const Value& v) {
    if (v.is(Kind::Dict)) return "a dict with keys " + keys_repr(v.dict());
    if (v.is_sequence()) return std::string("a ") + kind_name(v.kind()) + " of " + std::to_string(v.items().size());
    return std::string("a ") + kind_name(v.kind());
}

// f applied to the leaves of `trees` (all of tree[0]'s structure) at `path`.
Value map_trees(Runtime& rt, const Value& f, const std::vector<Value>& trees, const std::string& path,
                const CallArgs& a) {
    const Value& first = trees[0];
    if (first.is(Kind::None)) return first;
    if (!is_container(first)) {
        Evaluator ev(rt);
        return ev.call(f, CallArgs{trees, {}, {}, a.loc}, rt.builtin_call_source ? *rt.builtin_call_source : nullptr);
    }
    const std::span<const Value> kids = first.child_values();
    for (size_t t = 1; t < trees.size(); ++t) {
        const Value& other = trees[t];
        const bool same = other.kind() == first.kind() && other.children()->size() == kids.size() &&
                          (!first.is(Kind::Dict) || other.dict().keys() == first.dict().keys());
        if (!same)
            throw Error("tree_map: tree " + std::to_string(t + 1) + " differs from the first at " +
                        (path.empty() ? "the top" : path) + ": " + describe(other) + " where the first has " +
                        describe(first));
    }
    std::vector<Value> items;
    for (size_t i = 0; i < kids.size(); ++i) {
        std::vector<Value> at;
        for (const Value& t : trees) at.push_back(t.child_values()[i]);
        items.push_back(map_trees(rt, f, at, path + child_suffix(first, i), a));
    }
    return first.with_children(std::move(items));
}

Value tree_map(Runtime& rt, const CallArgs& a) {
    check_arguments("tree_map(f, tree, /, *rest)", a);  // docs/builtins.md
    const std::vector<Value> trees(a.positional.begin() + 1, a.positional.end());
    return map_trees(rt, a.positional[0], trees, "", a);
}

Value one_arg(const std::string& fn, const CallArgs& a, const char* name) {
    return *bind_args(fn, a, {name}, 1)[0];
}

}  // namespace

void add_tree_builtins(std::vector<std::pair<std::string, Value>>& out) {
    auto add = [&](const std::string& name, BuiltinFn fn) {
        out.emplace_back(name, Value::builtin(std::make_shared<BuiltinObj>(BuiltinObj{name, std::move(fn), nullptr})));
    };
    add("tree_map", tree_map);
    add("tree_leaves", [](Runtime&, const CallArgs& a) {
        std::vector<Value> leaves;
        leaves_of(one_arg("tree_leaves", a, "tree"), leaves);
        return Value::list(std::move(leaves));
    });
    add("tree_structure", [](Runtime&, const CallArgs& a) {
        int64_t next = 0;
        return structure_of(one_arg("tree_structure", a, "tree"), next);
    });
    add("tree_flatten", [](Runtime&, const CallArgs& a) {
        const Value tree = one_arg("tree_flatten", a, "tree");
        std::vector<Value> leaves;
        leaves_of(tree, leaves);
        int64_t next = 0;
        return Value::tuple({Value::list(std::move(leaves)), structure_of(tree, next)});
    });
    add("tree_unflatten", [](Runtime&, const CallArgs& a) {
        const auto args = bind_args("tree_unflatten", a, {"treedef", "leaves"}, 2);
        if (!args[1]->is_sequence()) throw Error("tree_unflatten: argument `leaves` must be a list or tuple");
        size_t k = 0;
        Value r = unflatten(*args[0], args[1]->items(), k);
        if (k != args[1]->items().size())
            throw Error("tree_unflatten: " + std::to_string(args[1]->items().size()) + " leaves given for a structure of " +
                        std::to_string(k));
        return r;
    });
}

}  // namespace tg::interp
