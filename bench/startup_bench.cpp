// Creating and destroying a tg::Interpreter in a host (docs/performance.md
// "Start-up"): the best and the median of N create/destroy pairs, and of N
// create + run a one-line script + destroy. Target: create + destroy <= 200 us.
// Usage: tg_startup_bench [N]
#include <tg/tg.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point t) { return std::chrono::duration<double, std::micro>(Clock::now() - t).count(); }

// Best and median of `n` timed calls of f.
template <class F>
void measure(const char* key, int n, F f) {
    std::vector<double> us;
    for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        f();
        us.push_back(us_since(t0));
    }
    std::sort(us.begin(), us.end());
    std::printf("%s best %.1f median %.1f us\n", key, us.front(), us[us.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 200;
    std::string out;
    tg::Options options;
    options.write_output = [&](std::string_view s) { out.append(s); };
    // The first interpreter of the process, alone: what a host pays once.
    const auto t0 = Clock::now();
    { tg::Interpreter first(options); }
    std::printf("first_create_destroy %.1f us\n", us_since(t0));
    measure("create_destroy", n, [&] { tg::Interpreter interp(options); });
    measure("create_run_destroy", n, [&] {
        tg::Interpreter interp(options);
        interp.run_source("print(1 + 2)\n", "<bench>");
    });
    return out.empty() ? 1 : 0;
}
