// Signatures of @graph calls: what the trace cache (tracer/trace_cache.hpp)
// is keyed by (docs/graph.md "Signatures and the cache").
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
#include <functional>
#include <string>
#include <vector>

#include "stdlib/dtype.hpp"
#include "stdlib/shape.hpp"

namespace tg::tracer {

struct ArgDesc {
    enum class Kind : uint8_t { Tensor, List, Tuple, Static, Dict };
    Kind kind = Kind::Static;
    stdlib::DType dtype = stdlib::DType::F32;  // Tensor
    stdlib::Shape shape;                       // Tensor
    bool weak = false;                         // Tensor: a weak literal (docs/language.md "Values"); it keeps
                                               // its weak promotion in the graph, so it is
                                               // part of the signature
    // Tensor, in a generalized signature (tracer/generalize.hpp): per axis,
    // the symbol of a dynamic dimension (any size >= 2; dims of one symbol
    // equal) or -1 for a static one; empty when all are static.
    std::vector<int16_t> dim_symbols;
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

// Whether a and b have the same structure (kinds, lengths, dict keys) and
// static values, with every pair of tensor leaves accepted by `tensors`.
bool same_structure(const ArgDesc& a, const ArgDesc& b,
                    const std::function<bool(const ArgDesc&, const ArgDesc&)>& tensors);

// Whether a trace made for `entry`'s arguments applies to a call whose
// arguments describe as `call`'s: equal, except that a dynamic dimension of
// entry takes any size >= 2 (the same for all dims of one symbol).
bool admits(const std::vector<NamedArg>& entry, const std::vector<NamedArg>& call);

// One line per difference from `from` to `to`, e.g.
//   "argument `x`: shape (3,) → (4,)", "argument `xs[1]`: dtype f32 → f64",
//   "argument `xs`: length 2 → 3", "argument `mode`: 'a' → 'b'",
//   "argument `p`: keys ['w'] → ['w', 'b']", "argument `p['w']`: shape (3,) → (4,)",
//   "captured `w`: f32[4] → f32[5]", "captured `scale`: 2 → 3".
std::vector<std::string> differences(const Signature& from, const Signature& to);
// How many things differ — per leaf, a tensor's dtype and shape apart (what "closest" minimizes).
size_t distance(const Signature& a, const Signature& b);

}  // namespace tg::tracer
