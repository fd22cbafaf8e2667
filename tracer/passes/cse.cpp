// Common-subexpression elimination with scoped tables: a node may reuse an
// equal node from its own region (earlier) or from an enclosing region
// (which dominates it), never from a sibling region.
#include <cstdio>

#include <cstring>
#include <unordered_map>

#include "tracer/passes.hpp"
#include "tracer/passes/rewrite.hpp"
#include "tracer/printer.hpp"

namespace tg::tracer {

using stdlib::Tensor;
using namespace passes;

namespace {

void append_id(std::string& key, uint32_t v) {
    key.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Exact bits of a constant, so that 0.0 and -0.0 (or two NaNs with different
// payloads) never merge.
void append_tensor(std::string& key, const Tensor& t) {
    key += stdlib::dtype_name(t.dtype());
    key += t.weak() ? "w" : "s";
    key += t.shape().to_string();
    if (t.rank() == 0) {
        if (stdlib::is_float(t.dtype())) {
            double d = t.weak() || t.dtype() == stdlib::DType::F64 ? t.item_f64() : static_cast<float>(t.item_f64());
            key.append(reinterpret_cast<const char*>(&d), sizeof d);
        } else {
            int64_t i = t.item_i64();
            key.append(reinterpret_cast<const char*>(&i), sizeof i);
        }
        return;
    }
    if (t.numel() > kFoldLimit) {
        // A big constant (a captured tensor) is keyed by its storage, not its
        // bytes: copying them into the key would cost as much memory again.
        char id[64];
        std::snprintf(id, sizeof id, "@%p+%lld", t.raw_data(), static_cast<long long>(t.numel()));
        key += id;
        for (int64_t s : t.strides()) key += "," + std::to_string(s);
        return;
    }
    Tensor c = t.contiguous();
    key.append(static_cast<const char*>(c.raw_data()), static_cast<size_t>(c.numel()) * stdlib::dtype_size(c.dtype()));
}

// A key equal for two nodes exactly when they compute the same value.
std::optional<std::string> key_of(const Node& node) {
    std::string key;
    key += static_cast<char>(node.op);
    switch (node.op) {
        case Op::Apply:
            key += node.def->name;
            for (const auto& a : node.attrs) {
                key += '|';
                key += static_cast<char>('0' + a.index());
                key += format_attr(a);
            }
            break;
        case Op::Constant: append_tensor(key, std::get<Tensor>(node.payload)); break;
        case Op::Truth: break;
        case Op::Index: case Op::IndexAssign: {
            const IndexSpec& spec = std::get<IndexSpec>(node.payload);
            for (size_t i = 0; i < spec.items.size(); ++i) {
                const auto& it = spec.items[i];
                key += '|' + std::to_string(it.kind) + ',' + std::to_string(it.index) + ',' +
                       (it.lo ? std::to_string(*it.lo) : "_") + ',' + (it.hi ? std::to_string(*it.hi) : "_") + ',' +
                       (it.step ? std::to_string(*it.step) : "_") + (spec.dynamic[i] ? "d" : "s");
            }
            break;
        }
        // control flow, effects, and undefined contents are never merged
        case Op::Undef: case Op::Cond: case Op::While: case Op::Yield: case Op::Print: case Op::Assert:
        case Op::Raise: case Op::HostCall: return std::nullopt;
    }
    key += '(';
    for (ValueId v : node.operands) append_id(key, v);
    return key;
}

class Cse {
public:
    explicit Cse(Graph& g) : g_(g), sub_(g) {}

    bool run() {
        region(Graph::kBody);
        return sub_.finish();
    }

private:
    void region(RegionId r) {
        std::vector<std::string> added;  // undo log: keys this scope introduced
        std::vector<NodeId> nodes = g_.region(r).nodes;
        for (NodeId n : nodes) {
            sub_.visit(n);
            const Node& node = g_.node(n);
            for (RegionId sub : node.regions) region(sub);
            // (a size constant is its symbol's size: its payload is only the traced one)
            if (has_side_effect(g_, n) || !node.regions.empty() || g_.is_size_constant(n)) continue;
            std::optional<std::string> key = key_of(node);
            if (!key) continue;
            auto it = table_.find(*key);
            if (it != table_.end()) {
                sub_.replace_node(n, g_.node(it->second).results);
            } else {
                table_.emplace(*key, n);
                added.push_back(std::move(*key));
            }
        }
        for (const std::string& k : added) table_.erase(k);
    }

    Graph& g_;
    std::unordered_map<std::string, NodeId> table_;
    Substitution sub_;
};

}  // namespace

bool eliminate_common_subexpressions(Graph& g) { return Cse(g).run(); }

}  // namespace tg::tracer
