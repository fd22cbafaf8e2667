#include "stdlib/mapping_cache.hpp"

#include <sys/mman.h>

namespace tg::stdlib {

void* MappingCache::take(size_t len) {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < blocks_.size(); ++i) {
        if (blocks_[i].len == len) {
            void* p = blocks_[i].base;
            held_ -= len;
            blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
            return p;
        }
    }
    return nullptr;
}

void MappingCache::unmap_over(size_t keep_bytes, std::vector<Block>& drop) {
    while (!blocks_.empty() && (held_ > keep_bytes || blocks_.size() > kMaxBlocks)) {
        drop.push_back(blocks_.front());
        held_ -= blocks_.front().len;
        blocks_.erase(blocks_.begin());
    }
}

void MappingCache::give(void* base, size_t len) {
    std::vector<Block> drop;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (closed_ || len > kMaxHeld) {
            drop.push_back({base, len});
        } else {
            blocks_.push_back({base, len});
            held_ += len;
            unmap_over(kMaxHeld, drop);
        }
    }
    for (const Block& b : drop) munmap(b.base, b.len);
}

void MappingCache::trim(size_t keep_bytes) {
    std::vector<Block> drop;
    {
        std::lock_guard<std::mutex> lock(mu_);
        unmap_over(keep_bytes, drop);
    }
    for (const Block& b : drop) munmap(b.base, b.len);
}

void MappingCache::close() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        closed_ = true;
    }
    trim(0);
}

}  // namespace tg::stdlib
