// The counter-based generator (Philox-4x32-10): the numbers depend only on
// the seed and the position in the stream, so eager kernels, the graph
// interpreter and compiled code draw the same numbers for the same seed.
// One Rng per interpreter (no global state).
#pragma once

#include <array>
#include <cstdint>

namespace tg::stdlib {

// One Philox-4x32-10 block: 4 random 32-bit words for (key, counter).
std::array<uint32_t, 4> philox4x32(uint64_t key, uint64_t counter);

class Rng {
public:
    explicit Rng(uint64_t seed = 0) { reseed(seed); }
    void reseed(uint64_t seed) { key_ = seed; counter_ = 0; }
    uint64_t key() const { return key_; }
    // Position in the stream, in blocks of 4 words. A random op producing n
    // values consumes ceil(n / 4) blocks, starting at a fresh block.
    uint64_t counter() const { return counter_; }
    void set_counter(uint64_t c) { counter_ = c; }
    // Reserve `blocks` blocks; returns the first counter.
    uint64_t take(uint64_t blocks) { uint64_t c = counter_; counter_ += blocks; return c; }

private:
    uint64_t key_ = 0;
    uint64_t counter_ = 0;
};

}  // namespace tg::stdlib
