// The trace cache (tracer/trace_cache.hpp) without an interpreter: entries
// keyed by signature, guarded by captured variables (here plain ints standing
// for interp's variables), and the retrace reason of each kind of miss.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "tracer/trace_cache.hpp"

using namespace tg::tracer;
using tg::stdlib::DType;
using tg::stdlib::Shape;

namespace {

// A captured variable: `*variable` is what it is bound to now, `traced` what
// the trace read.
struct IntGuard {
    std::string name;
    const int* variable;
    int traced;
    bool holds() const { return *variable == traced; }
    std::string traced_display() const { return std::to_string(traced); }
    std::string current_display() const { return std::to_string(*variable); }
};

struct Entry {
    Signature signature;
    std::vector<IntGuard> captures;
    std::string graph;  // stands for what a caller keeps per trace
};

static_assert(CacheEntry<Entry>);

ArgDesc t(DType d, Shape s) { return ArgDesc::tensor(d, s); }
ArgDesc n(int v) { return ArgDesc::value("int:" + std::to_string(v), std::to_string(v)); }
Signature sig(ArgDesc x, ArgDesc k) { return Signature{{{"x", std::move(x)}, {"n", std::move(k)}}, {}}; }

std::unique_ptr<Entry> entry(Signature s, std::string graph, std::vector<IntGuard> guards = {}) {
    return std::make_unique<Entry>(Entry{std::move(s), std::move(guards), std::move(graph)});
}

}  // namespace

TEST_CASE("trace cache: a miss, then a hit for the same signature") {
    TraceCache<Entry> cache;
    Signature s3 = sig(t(DType::F32, {3}), n(4));
    CHECK(cache.find(s3) == nullptr);
    CHECK(cache.closest(s3) == nullptr);
    CHECK(cache.retrace_reason(s3) == "");  // the first trace has no reason
    Entry& e3 = cache.insert(entry(s3, "graph for (3,)"));
    CHECK(cache.traces() == 1);
    CHECK(cache.find(s3) == &e3);
    CHECK(cache.find(sig(t(DType::F32, {3}), n(4))) == &e3);  // an equal description, not the same object
    CHECK(cache.find(sig(t(DType::F32, {4}), n(4))) == nullptr);
    CHECK(cache.find(sig(t(DType::F32, {3}), n(5))) == nullptr);
    // a weak literal keeps its weak promotion in the graph: another trace
    CHECK(cache.find(sig(ArgDesc::tensor(DType::F32, {3}, true), n(4))) == nullptr);
}

TEST_CASE("trace cache: entries keep their addresses and numbers") {
    TraceCache<Entry> cache;
    Entry& first = cache.insert(entry(sig(t(DType::F32, {3}), n(4)), "a"));
    for (int i = 0; i < 50; ++i) cache.insert(entry(sig(t(DType::F32, {i + 10}), n(4)), "b"));
    CHECK(cache.traces() == 51);
    CHECK(cache.entries().size() == 51);
    CHECK(cache.find(sig(t(DType::F32, {3}), n(4))) == &first);
    CHECK(cache.entries().front().get() == &first);
    CHECK(cache.find(sig(t(DType::F32, {59}), n(4)))->graph == "b");
}

TEST_CASE("trace cache: the retrace reason names what differs from the closest trace") {
    TraceCache<Entry> cache;
    cache.insert(entry(sig(t(DType::F32, {3}), n(4)), "s3"));
    CHECK(cache.retrace_reason(sig(t(DType::F32, {4}), n(4))) == "argument `x`: shape (3,) → (4,)");
    cache.insert(entry(sig(t(DType::F32, {4}), n(4)), "s4"));
    // f64[4], n=5 differs from the first in dtype, shape and n, from the second in dtype and n
    Signature s4d = sig(t(DType::F64, {4}), n(5));
    CHECK(cache.closest(s4d)->graph == "s4");
    CHECK(cache.retrace_reason(s4d) == "argument `x`: dtype f32 → f64; argument `n`: 4 → 5");
    CHECK(cache.retrace_reason(sig(t(DType::F32, {4}), n(5))) == "argument `n`: 4 → 5");
    // a tie goes to the earliest trace: f32[5] is one shape change from either
    CHECK(cache.closest(sig(t(DType::F32, {5}), n(4)))->graph == "s3");
    CHECK(cache.retrace_reason(sig(t(DType::F32, {5}), n(4))) == "argument `x`: shape (3,) → (5,)");
    // kinds of argument: a list for a tensor, a new and a missing argument
    CHECK(cache.retrace_reason(sig(ArgDesc::list({t(DType::F32, {3})}), n(4))) ==
          "argument `x`: tensor → list");
    CHECK(cache.retrace_reason(Signature{{{"x", t(DType::F32, {3})}}, {}}) == "argument `n`: no longer given");
}

TEST_CASE("trace cache: a rebound captured variable misses, and the reason says which") {
    int scale = 2, offset = 7;
    TraceCache<Entry> cache;
    Signature s = sig(t(DType::F32, {3}), n(4));
    Entry& e = cache.insert(entry(s, "scaled", {{"scale", &scale, 2}, {"offset", &offset, 7}}));
    CHECK(cache.find(s) == &e);
    scale = 3;
    CHECK(cache.find(s) == nullptr);
    CHECK(cache.retrace_reason(s) == "captured `scale` was rebound: 2 → 3");
    offset = 8;
    CHECK(cache.retrace_reason(s) == "captured `scale` was rebound: 2 → 3; captured `offset` was rebound: 7 → 8");
    // a signature that differs is the reason, not the captures
    CHECK(cache.retrace_reason(sig(t(DType::F32, {4}), n(4))) == "argument `x`: shape (3,) → (4,)");
    // the retrace for the new binding is found; the old trace again once scale is back
    scale = 2, offset = 7;
    CHECK(cache.find(s) == &e);
    scale = 3, offset = 8;
    Entry& e2 = cache.insert(entry(s, "rescaled", {{"scale", &scale, 3}, {"offset", &offset, 8}}));
    CHECK(cache.find(s) == &e2);
    scale = 2, offset = 7;
    CHECK(cache.find(s) == &e);
}

TEST_CASE("trace cache: the reasons' wording") {
    CHECK(rebound_reason("w", "[1, 2]", "'a'") == "captured `w` was rebound: [1, 2] → 'a'");
    CHECK(join_reasons({}) == "");
    CHECK(join_reasons({"a"}) == "a");
    CHECK(join_reasons({"a", "b", "c"}) == "a; b; c");
}
