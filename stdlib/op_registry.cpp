// The op table: built once from the group registration functions.
#include "stdlib/op_registry.hpp"

#include "stdlib/grad.hpp"
#include "stdlib/index_gather.hpp"

#include <stdexcept>
#include <string>

namespace tg::stdlib {

void OpRegistry::add(OpDef def) {
    if (by_name_.count(def.name)) throw std::logic_error("op registered twice: " + std::string(def.name));
    defs_.push_back(std::move(def));
    const OpDef* d = &defs_.back();
    order_.push_back(d);
    by_name_.emplace(d->name, d);
}

void OpRegistry::alias(std::string_view alias, std::string_view target) {
    const OpDef* d = find(target);
    if (!d) throw std::logic_error("alias of an unknown op: " + std::string(target));
    if (by_name_.count(alias)) throw std::logic_error("op registered twice: " + std::string(alias));
    by_name_.emplace(alias, d);
}

void OpRegistry::set_grad(std::string_view name, GradRule rule) {
    for (OpDef& d : defs_)
        if (d.name == name) {
            d.grad = rule;
            return;
        }
    throw std::logic_error("gradient rule of an unknown op: " + std::string(name));
}

const OpDef* OpRegistry::find(std::string_view name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
}

const OpRegistry& op_registry() {
    static const OpRegistry registry = [] {
        OpRegistry r;
        register_elementwise_ops(r);
        register_reduction_ops(r);
        register_linalg_ops(r);
        register_shape_ops(r);
        register_layout_ops(r);
        register_select_ops(r);
        register_solve_ops(r);
        register_creation_ops(r);
        register_random_ops(r);
        register_nn_ops(r);
        register_scan_ops(r);
        register_norm_ops(r);
        register_stack_ops(r);
        register_gather_ops(r);
        attach_grad_rules(r);
        return r;
    }();
    return registry;
}

const OpDef* find_op(std::string_view name) { return op_registry().find(name); }

void complete_attrs(const OpDef& def, std::vector<Attr>& attrs) {
    const size_t given = attrs.size();
    attrs.resize(def.params.size());
    for (size_t i = given; i < attrs.size(); ++i)
        if (!def.params[i].required) attrs[i] = def.params[i].default_value;
}

std::span<const OpDef* const> all_ops() { return op_registry().all(); }

}  // namespace tg::stdlib
