// The op table: built once from the group registration functions.
#include "stdlib/op_registry.hpp"

#include "stdlib/grad.hpp"
#include "stdlib/index_gather.hpp"

#include <array>
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
    // by the index, not a scan of every op: ~300 rules over ~300 ops were
    // 10% of a short script's process (docs/performance.md "Start-up")
    const OpDef* d = find(name);
    if (!d || d->name != name) throw std::logic_error("gradient rule of an unknown op: " + std::string(name));
    const_cast<OpDef*>(d)->grad = rule;  // one of defs_, which this registry owns
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
        register_decomposition_ops(r);
        register_factor_ops(r);
        register_pinv_op(r);
        register_creation_ops(r);
        register_random_ops(r);
        register_nn_ops(r);
        register_conv_ops(r);
        register_pool_ops(r);
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

namespace {

// A new alternative of OpKind without its overload here is a compile error.
struct KindName {
    std::string_view operator()(std::monostate) const { return {}; }
    std::string_view operator()(UnaryKind k) const { return unary_row(k).name; }
    std::string_view operator()(BinaryKind k) const { return binary_row(k).name; }
    std::string_view operator()(ReduceKind k) const { return kReduceNames[static_cast<int>(k)]; }
    std::string_view operator()(ElementwiseKind k) const { return elementwise_name(k); }
    std::string_view operator()(OtherKind k) const { return other_name(k); }
};

// The op of each value of the kind enum K, indexed by the value: filled from
// the ops' own kinds (no name is looked up), once.
template <class K, int N>
const OpDef& op_by_kind(K kind) {
    static const std::array<const OpDef*, N> ops = [] {
        std::array<const OpDef*, N> a{};
        for (const OpDef* d : all_ops())
            if (const K* k = std::get_if<K>(&d->kind)) a[static_cast<size_t>(*k)] = d;
        for (size_t i = 0; i < a.size(); ++i)
            if (!a[i])
                throw std::logic_error("no op has the kind `" + std::string(op_kind_name(static_cast<K>(i))) + "`");
        return a;
    }();
    return *ops[static_cast<size_t>(kind)];
}

}  // namespace

std::string_view op_kind_name(const OpKind& kind) { return std::visit(KindName{}, kind); }

const OpDef& op_of(UnaryKind kind) { return op_by_kind<UnaryKind, kNumUnaryKinds>(kind); }
const OpDef& op_of(BinaryKind kind) { return op_by_kind<BinaryKind, kNumBinaryKinds>(kind); }
const OpDef& op_of(ReduceKind kind) { return op_by_kind<ReduceKind, kNumReduceKinds>(kind); }
const OpDef& op_of(ElementwiseKind kind) { return op_by_kind<ElementwiseKind, kNumElementwiseKinds>(kind); }
const OpDef& op_of(OtherKind kind) { return op_by_kind<OtherKind, kNumOtherKinds>(kind); }

}  // namespace tg::stdlib
