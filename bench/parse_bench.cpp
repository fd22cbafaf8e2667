// Parses a generated 10,000-line tg script and reports the time (target: under
// 100 ms). Not a test: it asserts nothing about time; it fails only if the
// generated script does not parse.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "lang/parser.hpp"

namespace {

// A mix of what real scripts hold: defs with defaults and decorators, control
// flow, arithmetic with every precedence level, calls, indexing, f-strings.
std::string generate_script(int target_lines) {
    std::string s;
    int lines = 0;
    for (int i = 0; lines < target_lines; ++i) {
        std::string n = std::to_string(i);
        s += "@graph\n";
        s += "def step" + n + "(w, x, y, lr=0.1):\n";
        s += "    err = x @ w - y * 2 ** -1 + (x[0, 1:3] if lr > 0 else x[..., -1])\n";
        s += "    for i in range(len(x)):\n";
        s += "        if err[i] > 0 and not (i % 2 == 0 or i < 3):\n";
        s += "            err[i] = -err[i] // 3\n";
        s += "        elif i == 1: continue\n";
        s += "        else:\n";
        s += "            break\n";
        s += "    xs = [v * v for v in err if v != 0]\n";
        s += "    print(f\"step " + n + ": {err.sum():.4f} {len(xs)}\")\n";
        s += "    return w - lr * (x.T @ err) / len(x), lambda a, b=1: a + b\n";
        s += "w, f = step" + n + "(ones((3, 1)), tensor([[1.0, 2.0, 3.0]]), zeros((1, 1)))\n";
        s += "\n";
        lines += 14;
    }
    return s;
}

}  // namespace

int main() {
    std::string text = generate_script(10000);
    auto source = std::make_shared<tg::lang::Source>("bench.tg", text);
    std::vector<double> times;
    for (int run = 0; run < 7; ++run) {
        auto start = std::chrono::steady_clock::now();
        auto result = tg::lang::parse(source);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!result.ok()) {
            std::fprintf(stderr, "%s", tg::lang::render(tg::lang::to_diagnostic(result.errors[0], source)).c_str());
            return 1;
        }
        times.push_back(ms);
    }
    double first = times[0];
    std::sort(times.begin(), times.end());
    std::printf("parse %u lines (%zu bytes): first %.1f ms, median %.1f ms (target < 100 ms)\n",
                source->line_count(), text.size(), first, times[times.size() / 2]);
    return 0;
}
