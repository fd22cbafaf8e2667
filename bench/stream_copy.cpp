// The memory-bandwidth limit of a streaming loop like the chain benchmark's:
// y = x + 1 over n f32 values (reads 4n bytes, writes 4n bytes, ordinary
// stores as compiled tg loops use), on T threads, each on its own contiguous
// part. No element-wise loop that reads and writes these bytes can be
// faster on this machine. Run by bench/run_chain_bench beside tg.
// usage: tg_stream_copy_bench [N] [REPS] [THREADS]
// Prints `first T`, `times T...` (seconds per pass) like bench/chain.tg.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

void add_one(const float* x, float* y, long begin, long end) {
    for (long i = begin; i < end; ++i) y[i] = x[i] + 1.0f;
}

double pass(const float* x, float* y, long n, int threads) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    const long chunk = (n + threads - 1) / threads;
    for (int k = 1; k < threads; ++k)
        workers.emplace_back(add_one, x, y, std::min(n, k * chunk), std::min(n, (k + 1) * chunk));
    add_one(x, y, 0, std::min(n, chunk));
    for (std::thread& w : workers) w.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::atol(argv[1]) : 10'000'000;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 20;
    const int threads = argc > 3 ? std::atoi(argv[3]) : static_cast<int>(std::thread::hardware_concurrency());
    std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));  // touched: no page faults in the passes
    for (long i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i % 1000);
    const double first = pass(x.data(), y.data(), n, threads);
    std::string times = "times";
    for (int r = 0; r < reps; ++r) times += " " + std::to_string(pass(x.data(), y.data(), n, threads));
    std::printf("first %.9f\n%s\ncheck %.1f\n", first, times.c_str(), static_cast<double>(y[static_cast<size_t>(n / 2)]));
    return 0;
}
