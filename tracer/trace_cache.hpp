// The trace cache of one @graph function (docs/graph.md "Signatures and the cache"): its traces, one per
// signature, each guarded by the variables the trace captured from outside
// the traced code. A call reuses a trace whose arguments describe the same
// way and whose captured variables are all still bound to the values read at
// trace time; otherwise it traces anew, and --trace says why (the retrace
// reason, from the closest cached trace).
//
// The cache holds whatever the caller keeps per trace (interp's GraphEntry:
// the graph, the result's skeleton, compiled code) and knows it only through
// two concepts, so tracer/ needs nothing of interp's values:
// - a CaptureGuard is a captured variable: its name, whether it still holds
//   (the variable is bound to the value the trace read), and how messages
//   show the traced and the current value;
// - a CacheEntry has a `signature` and a range of such guards, `captures`.
// There is no entry limit and no eviction: a trace lives as long as its
// function's cache (tests/scripts show how many traces a program makes).
#pragma once

#include <concepts>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tracer/signature.hpp"

namespace tg::tracer {

template <class G>
concept CaptureGuard = requires(const G& g) {
    { g.name } -> std::convertible_to<std::string>;
    { g.holds() } -> std::same_as<bool>;
    { g.traced_display() } -> std::convertible_to<std::string>;
    { g.current_display() } -> std::convertible_to<std::string>;
};

template <class E>
concept CacheEntry = requires(const E& e) {
    { e.signature } -> std::convertible_to<const Signature&>;
    requires CaptureGuard<std::remove_cvref_t<decltype(*std::begin(e.captures))>>;
};

// "captured `w` was rebound: 2 → 3" (one reason of a retrace).
std::string rebound_reason(const std::string& name, const std::string& traced, const std::string& current);
// Reasons joined with "; " (how --trace shows several).
std::string join_reasons(const std::vector<std::string>& reasons);

template <CacheEntry Entry>
class TraceCache {
public:
    // The trace for a call with signature `s`: its arguments describe as s's
    // do (or a generalized trace admits them, tracer/generalize.hpp) and
    // every captured variable still holds. Null on a miss. Specialized
    // traces made before a generalized one come first.
    Entry* find(const Signature& s) const {
        for (const auto& e : entries_)
            if (admits(e->signature.args, s.args) && guards_hold(*e)) return e.get();
        return nullptr;
    }
    // Adds a new trace; it is the function's `traces()`-th (numbered from 1,
    // for dumps). Entries keep their addresses while the cache lives.
    Entry& insert(std::unique_ptr<Entry> e) {
        ++traces_;
        entries_.push_back(std::move(e));
        return *entries_.back();
    }
    const std::vector<std::unique_ptr<Entry>>& entries() const { return entries_; }
    int traces() const { return traces_; }
    // Empties the cache, handing its entries to the caller (who decides when
    // they are destroyed: destroying one may free other caches).
    std::vector<std::unique_ptr<Entry>> take_entries() { return std::exchange(entries_, {}); }

    // The cached trace nearest to s (fewest differing leaves; the earliest
    // traced wins ties), or null when the cache is empty.
    const Entry* closest(const Signature& s) const {
        const Entry* best = nullptr;
        size_t best_d = 0;
        for (const auto& e : entries_) {
            size_t d = distance(e->signature, s);
            if (!best || d < best_d) best = e.get(), best_d = d;
        }
        return best;
    }
    // Why a call with signature s needs a (re)trace: "" for the first trace;
    // else the differences from the closest cached trace, or — when its
    // signature is the same — its captured variables that were rebound.
    std::string retrace_reason(const Signature& s) const {
        const Entry* best = closest(s);
        if (!best) return "";
        if (distance(best->signature, s) != 0) return join_reasons(differences(best->signature, s));
        std::vector<std::string> reasons;
        for (const auto& g : best->captures)
            if (!g.holds()) reasons.push_back(rebound_reason(g.name, g.traced_display(), g.current_display()));
        return join_reasons(reasons);
    }

private:
    static bool guards_hold(const Entry& e) {
        for (const auto& g : e.captures)
            if (!g.holds()) return false;
        return true;
    }

    std::vector<std::unique_ptr<Entry>> entries_;
    int traces_ = 0;
};

}  // namespace tg::tracer
