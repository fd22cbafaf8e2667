#include "interp/values/cycles.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "interp/tracing/graph_cache.hpp"
#include "interp/values/value.hpp"

namespace tg::interp {

void CycleCollector::frame_kept(const std::shared_ptr<Env>& env, long locals) {
    const long uses = env.use_count();
    long own = 0;  // closures of this frame that only its slots hold
    for (const Value& v : env->slots)
        if (v.is(Kind::Function)) {
            const auto& f = v.function_ptr();
            if (f->env.get() == env.get() && f.use_count() == 1) ++own;
        }
    if (uses == locals + own) {  // nothing else refers to the frame or to those closures: garbage
        std::vector<Value> doomed = std::move(env->slots);
        env->slots.clear();
        ++cleared_total_;
        return;  // (doomed goes here, after the frame's slots are already empty)
    }
    suspect(env);
}

void CycleCollector::suspect(const std::shared_ptr<Env>& env) {
    suspects_.push_back(env);
    if (suspects_.size() >= threshold_) {
        collect();
        threshold_ = std::max<size_t>(256, 2 * suspects_.size());
    }
}

// One object of the graph the collector walks.
struct CycleCollector::Node {
    enum Kind : uint8_t { Frame, Object, Cache } kind = Object;
    bool reachable = false;
    const void* ptr = nullptr;
    const Value* value = nullptr;  // Object: a value holding it (to find its references)
    long uses = 0;                 // its reference count
    long internal = 0;             // references to it from inside the walked set
    uint32_t first_out = 0, num_out = 0;  // its references: out_[first_out, first_out + num_out)
};

// The walk's storage, kept between collections (cleared, not freed).
struct CycleCollector::Scratch {
    std::vector<Node> nodes;
    std::vector<uint32_t> out;       // edges, grouped by source node
    std::vector<uint32_t> pending;   // edges of the node being expanded
    std::unordered_map<const void*, uint32_t> index;
    std::vector<uint32_t> stack;

    void clear() {
        nodes.clear();
        out.clear();
        index.clear();
        stack.clear();
    }

    uint32_t node(Node::Kind kind, const void* ptr, long uses, const Value* value = nullptr) {
        auto [it, fresh] = index.emplace(ptr, static_cast<uint32_t>(nodes.size()));
        if (fresh) {
            Node n;
            n.kind = kind;
            n.ptr = ptr;
            n.uses = uses;
            n.value = value;
            nodes.push_back(n);
        }
        return it->second;
    }

    void edge(uint32_t to) {
        nodes[to].internal += 1;
        pending.push_back(to);
    }

    void value_edge(const Value& v) {
        const Value::Ref r = v.ref();
        if (r.object) edge(node(Node::Object, r.object, r.uses, &v));
    }

    void frame_edge(const std::shared_ptr<Env>& e) {
        if (e) edge(node(Node::Frame, e.get(), e.use_count()));
    }

    // Walks every node reachable from the ones added so far, counting the
    // references among them.
    void walk() {
        for (size_t i = 0; i < nodes.size(); ++i) {  // nodes grows as it goes
            pending.clear();
            expand(nodes[i]);
            nodes[i].first_out = static_cast<uint32_t>(out.size());
            nodes[i].num_out = static_cast<uint32_t>(pending.size());
            out.insert(out.end(), pending.begin(), pending.end());
        }
    }

    void expand(const Node& n0) {
        const Node n = n0;  // (copy: nodes may grow)
        if (n.kind == Node::Frame) {
            const Env& e = *static_cast<const Env*>(n.ptr);
            for (const Value& v : e.slots) value_edge(v);
            frame_edge(e.parent);
            return;
        }
        if (n.kind == Node::Cache) {
            const GraphCache& c = *static_cast<const GraphCache*>(n.ptr);
            for (const auto& entry : c.entries()) {
                for (const Capture& cap : entry->captures) {
                    frame_edge(cap.env);
                    value_edge(cap.value);
                }
                value_edge(entry->result);
            }
            for (const auto& d : c.derived) edge(node(Node::Cache, d.second.get(), d.second.use_count()));  // grad(f)'s
            return;
        }
        const Value& v = *n.value;
        switch (v.kind()) {
            case Kind::List:
            case Kind::Tuple:
                for (const Value& x : v.items()) value_edge(x);
                break;
            case Kind::Dict:
                for (const Value& x : v.dict().values()) value_edge(x);
                break;
            case Kind::Function: {
                const FunctionObj& f = v.function();
                frame_edge(f.env);
                for (const Value& d : f.defaults) value_edge(d);
                if (f.graph_cache) edge(node(Node::Cache, f.graph_cache.get(), f.graph_cache.use_count()));
                break;
            }
            case Kind::BoundMethod:
                value_edge(v.bound().self);
                value_edge(v.bound().fn);
                break;
            default:
                if (const MaybeUndefObj* m = v.maybe_undef()) {
                    value_edge(m->inner);
                    value_edge(m->flag);
                }
                break;
        }
    }
};

CycleCollector::CycleCollector() = default;
CycleCollector::~CycleCollector() = default;

size_t CycleCollector::collect() {
    if (!scratch_) scratch_ = std::make_unique<Scratch>();
    Scratch& w = *scratch_;
    w.clear();
    // Hold the live suspects while walking; each hold is a reference the
    // walk must not count as one from outside.
    std::vector<std::shared_ptr<Env>> held;
    held.reserve(suspects_.size());
    for (const auto& s : suspects_)
        if (auto e = s.lock()) held.push_back(std::move(e));
    suspects_.clear();
    for (const auto& e : held) w.node(Node::Frame, e.get(), e.use_count());
    for (const auto& e : held) w.nodes[w.index.at(e.get())].uses -= 1;
    w.walk();
    // Reachable: from every node with more references than the walk found.
    for (uint32_t i = 0; i < w.nodes.size(); ++i)
        if (w.nodes[i].uses > w.nodes[i].internal) {
            w.nodes[i].reachable = true;
            w.stack.push_back(i);
        }
    while (!w.stack.empty()) {
        const Node& n = w.nodes[w.stack.back()];
        w.stack.pop_back();
        for (uint32_t k = n.first_out; k < n.first_out + n.num_out; ++k)
            if (!w.nodes[w.out[k]].reachable) {
                w.nodes[w.out[k]].reachable = true;
                w.stack.push_back(w.out[k]);
            }
    }
    // Cut the garbage frames; what they held is destroyed once `doomed` goes.
    std::vector<Value> doomed;
    std::vector<std::shared_ptr<Env>> parents;
    size_t cleared = 0;
    for (const Node& n : w.nodes) {
        if (n.reachable || n.kind != Node::Frame) continue;
        Env& e = *const_cast<Env*>(static_cast<const Env*>(n.ptr));
        for (Value& v : e.slots) doomed.push_back(std::move(v));
        e.slots.clear();
        if (e.parent) parents.push_back(std::move(e.parent));
        ++cleared;
    }
    w.clear();
    for (auto& e : held)
        if (e.use_count() > 1 && !e->slots.empty()) suspects_.push_back(e);  // survivors stay suspects
    held.clear();
    doomed.clear();
    parents.clear();
    cleared_total_ += cleared;
    return cleared;
}

size_t CycleCollector::drop_traces(const std::vector<Value>& roots) {
    if (!scratch_) scratch_ = std::make_unique<Scratch>();
    Scratch& w = *scratch_;
    w.clear();
    for (const Value& v : roots)
        if (const Value::Ref r = v.ref(); r.object) w.node(Node::Object, r.object, r.uses, &v);
    w.walk();
    // Take every entry out first: destroying one may free another cache.
    std::vector<std::unique_ptr<GraphEntry>> doomed;
    size_t emptied = 0;
    for (const Node& n : w.nodes) {
        if (n.kind != Node::Cache) continue;
        auto& cache = *const_cast<GraphCache*>(static_cast<const GraphCache*>(n.ptr));
        for (auto& e : cache.take_entries()) doomed.push_back(std::move(e));
        ++emptied;
    }
    w.clear();
    doomed.clear();
    return emptied;
}

}  // namespace tg::interp
