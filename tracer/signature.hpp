// Signatures of @graph calls and the trace cache keyed by them (SPEC §5.1).
//
// A signature describes a call by what a trace depends on: the dtype and
// shape of every tensor argument (also inside lists, tuples and dicts), the
// structure of lists and tuples, the keys of dicts (in order), the value of every other argument (strings, functions,
// dtypes, None, ...), and the variables the body captured from enclosing
// scopes. Weak literal arguments are described by their strong dtype.
//
// The description is tracer-side and plain: interp converts its own values
// into ArgDesc (tracer knows nothing of interp's Value).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "stdlib/dtype.hpp"
#include "stdlib/shape.hpp"

namespace tg::tracer {

struct ArgDesc {
    enum class Kind : uint8_t { Tensor, List, Tuple, Static, Dict };
    Kind kind = Kind::Static;
    stdlib::DType dtype = stdlib::DType::F32;  // Tensor
    stdlib::Shape shape;                       // Tensor
    bool weak = false;                         // Tensor: a weak literal (SPEC §2.1); it keeps
                                               // its weak promotion in the graph, so it is
                                               // part of the signature
    std::vector<ArgDesc> items;                // List, Tuple; Dict: the values
    std::vector<std::string> keys;             // Dict: its keys as written ('w', 3), in order
    // Static: `key` is equal for two values exactly when the values are equal
    // ("str:abc", "dtype:f32", "fn:<id>", "none"); `display` is how messages
    // show the value ("'abc'", "f32", "<function g>", "None").
    std::string key;
    std::string display;

    static ArgDesc tensor(stdlib::DType d, stdlib::Shape s, bool weak = false);
    static ArgDesc list(std::vector<ArgDesc> items);
    static ArgDesc tuple(std::vector<ArgDesc> items);
    static ArgDesc value(std::string key, std::string display);
    static ArgDesc dict(std::vector<std::string> keys, std::vector<ArgDesc> values);

    friend bool operator==(const ArgDesc& a, const ArgDesc& b);
};

struct NamedArg {
    std::string name;
    ArgDesc desc;
    friend bool operator==(const NamedArg&, const NamedArg&) = default;
};

struct Signature {
    std::vector<NamedArg> args;      // parameters, in order
    std::vector<NamedArg> captures;  // captured module / enclosing variables, by name

    friend bool operator==(const Signature&, const Signature&) = default;
    size_t hash() const;
    // "x: f32[3], xs: [f32[], i64[2]], mode: 'a' | captured w: f32[4]" (for --trace).
    std::string to_string() const;
};

// One line per difference from `from` to `to`, e.g.
//   "argument `x`: shape (3,) → (4,)", "argument `xs[1]`: dtype f32 → f64",
//   "argument `xs`: length 2 → 3", "argument `mode`: 'a' → 'b'",
//   "argument `p`: keys ['w'] → ['w', 'b']", "argument `p['w']`: shape (3,) → (4,)",
//   "captured `w`: f32[4] → f32[5]", "captured `scale`: 2 → 3".
std::vector<std::string> differences(const Signature& from, const Signature& to);
// How many things differ — per leaf, a tensor's dtype and shape apart (what "closest" minimizes).
size_t distance(const Signature& a, const Signature& b);

struct SignatureHash {
    size_t operator()(const Signature& s) const { return s.hash(); }
};

// The cache of traces of one function: Signature -> Entry (whatever the
// caller keeps per concrete function: graph, compiled code). Entries have
// stable addresses until clear().
template <class Entry>
class TraceCache {
public:
    Entry* find(const Signature& s) {
        auto it = map_.find(s);
        return it == map_.end() ? nullptr : &it->second;
    }
    Entry& insert(const Signature& s, Entry e) {
        auto [it, fresh] = map_.insert_or_assign(s, std::move(e));
        if (fresh) order_.push_back(&it->first);
        return it->second;
    }
    size_t size() const { return map_.size(); }
    void clear() {
        map_.clear();
        order_.clear();
    }
    // The cached signature nearest to s (fewest differing leaves; the earliest
    // traced wins ties), or null when the cache is empty.
    const Signature* closest(const Signature& s) const {
        const Signature* best = nullptr;
        size_t best_d = 0;
        for (const Signature* k : order_) {
            size_t d = distance(*k, s);
            if (!best || d < best_d) best = k, best_d = d;
        }
        return best;
    }
    // Why s needs a (re)trace: "" for the first trace, else the differences
    // from the closest cached signature joined with "; ".
    std::string retrace_reason(const Signature& s) const {
        const Signature* c = closest(s);
        if (!c) return "";
        std::string out;
        for (const std::string& d : differences(*c, s)) out += (out.empty() ? "" : "; ") + d;
        return out;
    }

private:
    std::unordered_map<Signature, Entry, SignatureHash> map_;
    std::vector<const Signature*> order_;  // keys in insertion order (node-based map: stable)
};

}  // namespace tg::tracer
