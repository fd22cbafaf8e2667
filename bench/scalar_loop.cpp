// The scalar loop `s += (i * i) % 7` in C++ (g++ -O2), for
// bench/run_scalar_loop_bench. Prints the sum, then `loop_s T`.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    const int64_t n = argc > 1 ? std::atoll(argv[1]) : 100000000;
    const auto t0 = std::chrono::steady_clock::now();
    int64_t s = 0;
    for (int64_t i = 0; i < n; ++i) s += (i * i) % 7;
    const auto t1 = std::chrono::steady_clock::now();
    std::printf("%lld\nloop_s %.9f\n", static_cast<long long>(s), std::chrono::duration<double>(t1 - t0).count());
}
