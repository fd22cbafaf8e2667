#include "codegen/session_slot.hpp"

#include <chrono>

namespace tg::codegen {

std::shared_ptr<JitSession> SessionSlot::get(double* made_ms) {
    if (made_ms) *made_ms = 0;
    if (made_.load(std::memory_order_acquire)) return session_;
    std::lock_guard lock(mutex_);
    if (!session_) {
        const auto start = std::chrono::steady_clock::now();
        session_ = make_();
        made_.store(true, std::memory_order_release);
        const auto took = std::chrono::steady_clock::now() - start;
        if (made_ms) *made_ms = std::chrono::duration<double, std::milli>(took).count();
    }
    return session_;
}

std::shared_ptr<JitSession> SessionSlot::made() const {
    return made_.load(std::memory_order_acquire) ? session_ : nullptr;
}

}  // namespace tg::codegen
