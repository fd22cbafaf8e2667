// The counter-based generator (Philox-4x32-10): the numbers depend only on
// the seed and the position in the stream, so eager kernels, the graph
// interpreter and compiled code draw the same numbers for the same seed.
// One Rng per interpreter (no global state).
//
// The stream, exactly (compiled code must reproduce it bit for bit; the fill_*
// functions below are plain loops over independent elements and can be
// called directly from compiled code):
//
//   * Block b of the stream is philox4x32(key, b): the Philox-4x32-10 of
//     Salmon et al. (Random123) with key words {key & 0xffffffff, key >> 32}
//     and counter words {b & 0xffffffff, b >> 32, 0, 0}. `seed(n)` sets key = n
//     and the position to block 0.
//   * Every random op starts at a fresh block c0 = Rng::take(blocks) and
//     element i (row-major) depends only on (key, c0, i):
//       - word(i) := philox4x32(key, c0 + i / 4)[i % 4]
//       - u24(w)  := w >> 8                      (the top 24 bits)
//   * random_uniform (f32), n elements, ceil(n / 4) blocks:
//       u = float(u24(word(i))) * 2^-24          (in [0, 1), exact in f32)
//       x = float(double(low) + (double(high) - double(low)) * double(u))
//   * random_normal (f32), n elements, ceil(n / 4) blocks. Box-Muller on pairs:
//     element i belongs to pair p = i / 2, which uses the two words
//       w1 = philox4x32(key, c0 + p / 2)[2 * (p % 2)], w2 = ...[2 * (p % 2) + 1]
//     (so again element i reads the block c0 + i / 4), in double precision:
//       u1 = (u24(w1) + 1) * 2^-24               (in (0, 1]: log is finite)
//       u2 = u24(w2) * 2^-24
//       r = sqrt(-2 * log(u1)), t = 2 * pi * u2
//       z = (i even) ? r * cos(t) : r * sin(t)
//       x = float(mean + std * z)                (mean, std as double)
//   * random_int (i64) in [low, high), range = high - low (1 <= range):
//       range <= 2^32: ceil(n / 4) blocks, x = low + ((uint64(word(i)) * range) >> 32)
//       range >  2^32: ceil(n / 2) blocks, element i reads the 64-bit value
//           v = w[2 * (i % 2)] | uint64(w[2 * (i % 2) + 1]) << 32 of block c0 + i / 2,
//           x = low + int64(v % range)
//     (multiply-shift and modulo have a bias below range / 2^32 resp.
//     range / 2^64, which is accepted.) random_int with dtype i32 draws the
//     same numbers (low and high fit in i32, so range <= 2^32), and with
//     dtype bool too (low and high within [0, 2]: 0 is False, 1 True).
//   * f64 draws take 64 bits per uniform number, NumPy's way (53 random bits
//     / 2^53, so every double in [0, 1) that is a multiple of 2^-53 can come
//     out, not only f32's 2^24 steps):
//       v(i) := w[2 * (i % 2)] | uint64(w[2 * (i % 2) + 1]) << 32 of block c0 + i / 2
//       u53(v) := (v >> 11) * 2^-53              (in [0, 1), exact in f64)
//   * random_uniform (f64), n elements, ceil(n / 2) blocks:
//       x = low + (high - low) * u53(v(i))
//   * random_normal (f64), n elements, ceil(n / 2) blocks. Box-Muller on pairs:
//     pair p = i / 2 uses block c0 + p, v1 = w[0] | w[1] << 32, v2 = w[2] | w[3] << 32:
//       u1 = ((v1 >> 11) + 1) * 2^-53           (in (0, 1])
//       u2 = u53(v2)
//       z as for f32; x = mean + std * z
#pragma once

#include <array>
#include <cstdint>

namespace tg::stdlib {

// One Philox-4x32-10 block: 4 random 32-bit words for (key, counter), as
// described above.
std::array<uint32_t, 4> philox4x32(uint64_t key, uint64_t counter);
// The full Random123 function (128-bit counter, 64-bit key as two words), for
// known-answer tests: philox4x32(key, c) == philox4x32_10({c, c >> 32, 0, 0}, {key, key >> 32}).
std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);

class Rng {
public:
    explicit Rng(uint64_t seed = 0) { reseed(seed); }
    void reseed(uint64_t seed) { key_ = seed; counter_ = 0; }
    uint64_t key() const { return key_; }
    // Position in the stream, in blocks of 4 words. A random op producing n
    // values consumes ceil(n / 4) blocks (f64 draws and random_int with a
    // range above 2^32: ceil(n / 2)), starting at a fresh block.
    uint64_t counter() const { return counter_; }
    void set_counter(uint64_t c) { counter_ = c; }
    // Reserve `blocks` blocks; returns the first counter.
    uint64_t take(uint64_t blocks) { uint64_t c = counter_; counter_ += blocks; return c; }

private:
    uint64_t key_ = 0;
    uint64_t counter_ = 0;
};

// Blocks a random op of n elements consumes (see above).
uint64_t random_blocks(int64_t n);                                // uniform, normal (f32)
uint64_t random_f64_blocks(int64_t n);                            // uniform, normal (f64)
uint64_t random_int_blocks(int64_t n, int64_t low, int64_t high);  // random_int

// Fill `out[0..n)` with the elements of the op whose stream starts at block
// `c0` (as drawn by Rng::take(random_blocks(n))). Element i depends only on
// (key, c0, i). These are the reference the kernels and compiled code share.
void fill_uniform_f32(uint64_t key, uint64_t c0, int64_t n, double low, double high, float* out);
void fill_normal_f32(uint64_t key, uint64_t c0, int64_t n, double mean, double std, float* out);
void fill_uniform_f64(uint64_t key, uint64_t c0, int64_t n, double low, double high, double* out);
void fill_normal_f64(uint64_t key, uint64_t c0, int64_t n, double mean, double std, double* out);
void fill_int_i64(uint64_t key, uint64_t c0, int64_t n, int64_t low, int64_t high, int64_t* out);
// low and high within i32 (the kernel checks): the numbers of fill_int_i64.
void fill_int_i32(uint64_t key, uint64_t c0, int64_t n, int64_t low, int64_t high, int32_t* out);
// low and high within [0, 2] (the kernel checks): the numbers of fill_int_i64, as bools.
void fill_int_bool(uint64_t key, uint64_t c0, int64_t n, int64_t low, int64_t high, bool* out);

}  // namespace tg::stdlib
