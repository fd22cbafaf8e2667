// What a debugger costs (docs/debugging.md): a compiled hot function with a
// conditional breakpoint that never fires, against the same function with no
// breakpoint, both with a debugger attached (target: at most 1.1x), and
// against no debugger at all. The function is a @graph training-style step
// with a converted while; the breakpoint's condition is compiled into its
// graph. Each way runs several rounds, interleaved; the best round counts.
// Usage: tg_debug_bench [CALLS]
#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

const char* kScript =
    "@graph\n"
    "def step(w, x, n):\n"
    "    i = 0\n"
    "    while i < n:\n"  // n is a tensor: a converted while
    "        w = w - 0.01 * tanh(w * x)\n"   // line 5: the breakpoint's line
    "        i = i + 1\n"
    "    return w\n"
    "\n"
    "def run(w, x, calls):\n"
    "    n = tensor(64)\n"
    "    for k in range(calls):\n"
    "        w = step(w, x, n)\n"
    "    return w\n";

struct NeverStops : tg::Debugger {
    int stops = 0;
    tg::Resume stopped(const tg::DebugStop&) override {
        ++stops;
        return tg::Resume::Continue;
    }
};

enum class Way { NoDebugger, Debugger, ConditionalBreakpoint };

// The conditions measured: on the loop counter (a scalar the graph has in a
// register), and on the tensor (a reduction the graph adds to each iteration).
const char* kConditions[] = {"i > 1000", "w.sum() > 1.0e9"};

double seconds(Way way, int calls, const char* condition) {
    tg::Options o;
    o.sync_jit = true;
    tg::Interpreter interp(o);
    NeverStops d;
    if (way != Way::NoDebugger) interp.attach_debugger(&d);
    if (way == Way::ConditionalBreakpoint) {
        tg::BreakpointSpec b;
        b.file = "bench.tg";
        b.line = 5;
        b.condition = condition;  // never true
        interp.add_breakpoint(b);
    }
    interp.run_source(kScript, "bench.tg");
    interp.run_source("w = ones((256,))\nx = ones((256,)) * 0.5\nw = run(w, x, 3)\n", "bench.tg");  // traced, compiled
    const auto start = std::chrono::steady_clock::now();
    interp.run_source("w = run(w, x, " + std::to_string(calls) + ")\n", "bench.tg");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (d.stops != 0) std::fprintf(stderr, "the breakpoint fired: the benchmark is wrong\n");
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    const int calls = argc > 1 ? std::atoi(argv[1]) : 2000;
    double best[4] = {1e9, 1e9, 1e9, 1e9};
    for (int round = 0; round < 5; ++round) {
        best[0] = std::min(best[0], seconds(Way::NoDebugger, calls, nullptr));
        best[1] = std::min(best[1], seconds(Way::Debugger, calls, nullptr));
        for (int c = 0; c < 2; ++c)
            best[2 + c] = std::min(best[2 + c], seconds(Way::ConditionalBreakpoint, calls, kConditions[c]));
    }
    double per[4];
    for (int i = 0; i < 4; ++i) per[i] = best[i] / calls * 1e6;
    std::printf("%d calls of a compiled @graph step (a converted while, 64 iterations over 256 floats), best of 5:\n", calls);
    std::printf("  no debugger                                 %8.2f us/call\n", per[0]);
    std::printf("  debugger attached, no breakpoint            %8.2f us/call  (%.2fx)\n", per[1], per[1] / per[0]);
    for (int c = 0; c < 2; ++c)
        std::printf("  b 5 if %-18s (never true)      %8.2f us/call  (%.2fx the attached debugger; target <= 1.10x)\n",
                    kConditions[c], per[2 + c], per[2 + c] / per[1]);
    return 0;
}
