// Large mappings freed recently, kept for reuse: on this kind of machine the
// first touch of fresh memory costs far more than the computation (see
// TOOLCHAIN.md), so an element-wise loop that frees and re-creates a 40 MB
// result every iteration should get the same pages back.
//
// One cache per interpreter (owned by its Budget, stdlib/budget.hpp), not per
// process: what one interpreter freed is not held for another, and the
// interpreter gives it back to the system when it goes idle (trim, at the end
// of each run) and when it is destroyed (close). Buffers are freed on any
// thread, so it is guarded by a mutex.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

namespace tg::stdlib {

class MappingCache {
public:
    MappingCache() = default;
    ~MappingCache() { close(); }
    MappingCache(const MappingCache&) = delete;
    MappingCache& operator=(const MappingCache&) = delete;

    // A cached mapping of exactly `len` bytes, or null.
    void* take(size_t len);
    // Keeps the mapping, or unmaps it (or the oldest ones) when over the cap;
    // unmaps it at once when closed.
    void give(void* base, size_t len);
    // Unmaps the oldest mappings until at most `keep_bytes` are held.
    void trim(size_t keep_bytes);
    // Unmaps everything and keeps nothing from now on.
    void close();

    // While running: a loop reusing a few large results fits.
    static constexpr size_t kMaxHeld = size_t(512) << 20;
    static constexpr size_t kMaxBlocks = 16;

private:
    struct Block {
        void* base;
        size_t len;
    };
    void unmap_over(size_t keep_bytes, std::vector<Block>& drop);  // with mu_ held
    std::mutex mu_;
    std::vector<Block> blocks_;
    size_t held_ = 0;
    bool closed_ = false;
};

}  // namespace tg::stdlib
