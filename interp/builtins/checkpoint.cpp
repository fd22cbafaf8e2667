#include "interp/builtins/checkpoint.hpp"

#include <map>
#include <set>

#include "interp/error.hpp"
#include "interp/values/dict.hpp"

namespace tg::interp {

namespace {

std::string shown(const std::string& path) { return path.empty() ? "the value" : "'" + path + "'"; }
std::string joined(const std::string& prefix, const std::string& part) { return prefix.empty() ? part : prefix + "/" + part; }

void flatten(const Value& v, const std::string& path, stdlib::NamedTensors& out) {
    if (v.is(Kind::None)) return;  // an empty subtree
    if (v.is_tensor()) {
        if (path.empty())
            throw Error("save: a .npz file holds a dict (or a tree) of tensors, not one tensor (save it as .npy)");
        out.emplace_back(path, v.tensor());
        return;
    }
    if (v.is(Kind::Dict)) {
        const DictObj& d = v.dict();
        for (size_t i = 0; i < d.keys().size(); ++i) {
            const DictKey& k = d.keys()[i];
            if (k.is_int())
                throw Error("save: a .npz file names its tensors by strings; the key " + key_repr(k) +
                            (path.empty() ? "" : " in " + shown(path)) + " is an integer");
            if (k.s().empty() || k.s().find('/') != std::string::npos)
                throw Error("save: the key " + key_repr(k) + (path.empty() ? "" : " in " + shown(path)) +
                            " cannot name a member of a .npz file: '/' separates the parts of a path, and a part "
                            "cannot be empty");
            flatten(d.values()[i], joined(path, k.s()), out);
        }
        return;
    }
    if (v.is_sequence()) {
        const auto& items = v.items();
        for (size_t i = 0; i < items.size(); ++i) flatten(items[i], joined(path, std::to_string(i)), out);
        return;
    }
    throw Error("save: a .npz file holds tensors, but " + shown(path) + " is a " + kind_name(v.kind()));
}

// The leaves of a template, by path, in order (None and empty containers have none).
void template_paths(const Value& v, const std::string& path, std::vector<std::string>& out) {
    if (v.is(Kind::None)) return;
    if (v.is_tensor()) {
        out.push_back(path);
        return;
    }
    if (v.is(Kind::Dict)) {
        const DictObj& d = v.dict();
        for (size_t i = 0; i < d.keys().size(); ++i)
            template_paths(d.values()[i], joined(path, d.keys()[i].is_int() ? std::to_string(d.keys()[i].i()) : d.keys()[i].s()), out);
        return;
    }
    if (v.is_sequence()) {
        for (size_t i = 0; i < v.items().size(); ++i) template_paths(v.items()[i], joined(path, std::to_string(i)), out);
        return;
    }
    throw Error("load: argument `like` must be a tree of tensors (dicts, lists, tuples, None), but " + shown(path) +
                " is a " + kind_name(v.kind()));
}

Value rebuild(const Value& v, const std::string& path, std::map<std::string, stdlib::Tensor>& leaves,
              const std::string& file) {
    if (v.is(Kind::None)) return v;
    if (v.is_tensor()) {
        const stdlib::Tensor& t = leaves.at(path);
        const stdlib::TensorType want = v.tensor_type();
        if (!(t.shape() == want.shape) || t.dtype() != want.dtype)
            throw Error("load: '" + file + "': '" + path + "' is " + stdlib::dtype_name(t.dtype()) + t.shape().to_string() +
                        " in the file but " + stdlib::dtype_name(want.dtype) + want.shape.to_string() + " in `like`");
        return Value(t);
    }
    std::vector<Value> children;
    const std::span<const Value> from = v.child_values();
    for (size_t i = 0; i < from.size(); ++i) {
        std::string part = std::to_string(i);
        if (v.is(Kind::Dict)) {
            const DictKey& k = v.dict().keys()[i];
            part = k.is_int() ? std::to_string(k.i()) : k.s();
        }
        children.push_back(rebuild(from[i], joined(path, part), leaves, file));
    }
    return v.with_children(std::move(children));
}

}  // namespace

stdlib::NamedTensors flatten_tree(const Value& tree) {
    stdlib::NamedTensors out;
    flatten(tree, "", out);
    return out;
}

Value nest_members(stdlib::NamedTensors members) {
    // one level at a time: the first part of each name, in the file's order
    std::vector<std::string> order;
    std::map<std::string, stdlib::NamedTensors> below;
    std::map<std::string, stdlib::Tensor> here;
    for (auto& [name, t] : members) {
        const size_t slash = name.find('/');
        const std::string head = name.substr(0, slash);
        if (!here.count(head) && !below.count(head)) order.push_back(head);
        if (slash == std::string::npos) here.emplace(head, std::move(t));
        else below[head].emplace_back(name.substr(slash + 1), std::move(t));
    }
    DictObj d;
    for (const std::string& head : order) {
        if (here.count(head) && below.count(head))
            throw Error("load: the file has both a tensor '" + head + "' and tensors under '" + head + "/'");
        d.set(DictKey::of_str(head), here.count(head) ? Value(here.at(head)) : nest_members(std::move(below[head])));
    }
    return Value::dict(std::move(d));
}

Value restore_like(stdlib::NamedTensors members, const Value& like, const std::string& file) {
    std::vector<std::string> wanted;
    template_paths(like, "", wanted);
    std::map<std::string, stdlib::Tensor> leaves;
    for (auto& [name, t] : members) leaves.emplace(name, std::move(t));
    const std::set<std::string> want(wanted.begin(), wanted.end());
    for (const std::string& p : wanted)
        if (!leaves.count(p)) throw Error("load: '" + file + "' has no tensor '" + p + "', which `like` has");
    for (const auto& [name, t] : leaves)
        if (!want.count(name)) throw Error("load: '" + file + "' has a tensor '" + name + "', which `like` does not have");
    return rebuild(like, "", leaves, file);
}

}  // namespace tg::interp
