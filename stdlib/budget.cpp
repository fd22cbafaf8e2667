#include "stdlib/budget.hpp"

#include "stdlib/mapping_cache.hpp"

#include <cstdio>
#include <ctime>

namespace tg::stdlib {

thread_local Budget* Budget::current_ = nullptr;

Budget::Budget() : mappings_(new MappingCache()) {}
Budget::~Budget() { delete mappings_; }

Budget* Budget::create() { return new Budget(); }

void Budget::trim_mappings(size_t keep_bytes) { mappings_->trim(keep_bytes); }
void Budget::close_mappings() { mappings_->close(); }

void Budget::check_fits(size_t bytes, const char* what) const {
    const int64_t before = used();
    if (max_bytes > 0 && (bytes > static_cast<size_t>(max_bytes) || before + static_cast<int64_t>(bytes) > max_bytes))
        throw LimitError("memory limit exceeded: " + std::string(what) + " of " + human_bytes(bytes) +
                         " would pass max_memory_bytes = " + human_bytes(static_cast<size_t>(max_bytes)) + " (" +
                         human_bytes(static_cast<size_t>(before)) + " in use)");
}

void Budget::release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

void Budget::charge(size_t bytes, const char* what) {
    check_fits(bytes, what);  // also a size too large for int64_t
    const int64_t n = static_cast<int64_t>(bytes);
    const int64_t before = used_.fetch_add(n, std::memory_order_relaxed);
    if (max_bytes > 0 && before + n > max_bytes) {
        used_.fetch_sub(n, std::memory_order_relaxed);
        throw LimitError("memory limit exceeded: " + std::string(what) + " of " + human_bytes(bytes) + " would pass max_memory_bytes = " +
                         human_bytes(static_cast<size_t>(max_bytes)) + " (" + human_bytes(static_cast<size_t>(before)) +
                         " in use)");
    }
}

void Budget::check() const {
    if (interrupt && interrupt->load(std::memory_order_relaxed)) throw LimitError("interrupted");
    if (pause && pause->load(std::memory_order_relaxed) && on_pause) on_pause();
    if (deadline_ns != 0 && monotonic_ns() > deadline_ns) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", max_seconds);
        throw LimitError(std::string("time limit exceeded: the run took more than max_seconds = ") + buf + " s");
    }
}

std::string human_bytes(size_t n) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1024.0 && u < 6) { v /= 1024.0; ++u; }
    char buf[64];
    snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

int64_t Budget::monotonic_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace tg::stdlib
