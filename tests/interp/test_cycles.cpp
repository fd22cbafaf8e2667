// interp/cycles: closures that keep their defining frame alive (and are kept
// by it) are freed once unreachable, while closures still in use keep
// working through any number of collections.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <fstream>
#include <string>

namespace {
// Under AddressSanitizer freed memory sits in its quarantine (hundreds of MB)
// before it is reused, so resident memory says nothing about leaks there;
// LeakSanitizer checks those runs instead.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kResidentMemoryMeaningful = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kResidentMemoryMeaningful = false;
#else
constexpr bool kResidentMemoryMeaningful = true;
#endif
#else
constexpr bool kResidentMemoryMeaningful = true;
#endif

long resident_kib() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * 4;
}

struct Run {
    std::string out;
    tg::Interpreter interp{options()};
    tg::Options options() {
        tg::Options o;
        o.write_output = [this](std::string_view s) { out += s; };
        o.no_cache = true;
        return o;
    }
};

// Runs `program` (its ROUNDS replaced) with 1,000 rounds to warm up the
// allocator, then with 200,000: how much the resident memory grew (KiB).
long growth_over_rounds(Run& r, const std::string& program) {
    auto with_rounds = [&](int n) {
        std::string p = program;
        p.replace(p.find("ROUNDS"), 6, std::to_string(n));
        return p;
    };
    r.interp.run_source(with_rounds(1000), "<warm>");
    const long before = resident_kib();
    r.interp.run_source(with_rounds(200000), "<many>");
    return kResidentMemoryMeaningful ? resident_kib() - before : 0;
}
}  // namespace

TEST_CASE("frames kept only by their own closures are freed, closures in use survive the collections") {
    Run r;
    // warm up the allocator, then measure
    const char* program = R"(
def local_helpers(n):
    def helper(x):
        return x + n
    def f(y):
        return helper(y) * 2
    return f(1)

def escaping(n):
    def helper():
        return n
    def f():
        return helper() + 1
    return f

kept = [escaping(i) for i in range(50)]
total = 0
for i in range(ROUNDS):
    total += local_helpers(i)
    g = escaping(i)
    total += g()
print(total, sum([k() for k in kept]))
)";
    const long grown = growth_over_rounds(r, program);
    INFO("resident memory grew by " << grown << " KiB over 200,000 rounds");
    CHECK(grown < 32 * 1024);  // leaking, the frames and closures took ~200 MB
    CHECK(r.out == "1501500 1275\n60000300000 1275\n");
}

TEST_CASE("a @graph closure in a cycle is freed with its traces, recursion through a local function works") {
    Run r;
    r.interp.run_source(R"(
def outer(k):
    @graph
    def scale(x):
        return x * k
    def twice(x):
        return scale(scale(x))
    return twice(tensor([1.0, 2.0]))

def fact(n):
    def go(m):
        if m <= 1:
            return 1
        return m * go(m - 1)
    return go(n)

for i in range(3):
    print(outer(i + 1), fact(i + 5))
)",
                        "<graph>");
    CHECK(r.out == "[1.0, 2.0] 120\n[4.0, 8.0] 720\n[9.0, 18.0] 5040\n");
}

TEST_CASE("closures kept in a dict of their own frame are freed once unreachable") {
    Run r;
    const char* program = R"(
def handlers(n):
    table = {}
    def on_a():
        return n
    def on_b():
        return table["a"]() + 1
    table["a"] = on_a
    table["b"] = on_b
    return table["b"]()

total = 0
for i in range(ROUNDS):
    total += handlers(i)
print(total)
)";
    const long grown = growth_over_rounds(r, program);
    INFO("resident memory grew by " << grown << " KiB over 200,000 rounds");
    CHECK(grown < 32 * 1024);
    CHECK(r.out == "500500\n20000100000\n");
}

TEST_CASE("grad of a @graph closure: one gradient trace cache per closure, collected with it") {
    // grad(f) of a @graph f keeps its traces in f's cache; they capture `big`
    // from outer's frame, which holds f: a cycle through the derived cache,
    // which the collector walks (interp/values/cycles.cpp).
    Run r;
    r.interp.run_source(R"(
def outer(k):
    big = ones((100000,)) * k
    @graph
    def f(x):
        return sum(x * x) * big[0]
    return grad(f)(tensor([1.0, 2.0]))

for i in range(5):
    print(outer(i + 1))
)",
                        "<grad>");
    CHECK(r.out == "[2.0, 4.0]\n[4.0, 8.0]\n[6.0, 12.0]\n[8.0, 16.0]\n[10.0, 20.0]\n");
    // (Not checked: that the five `big`s are freed. They are not, with or
    // without grad: a plain @graph closure capturing a tensor keeps it too.)
}
