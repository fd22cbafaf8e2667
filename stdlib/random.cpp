// Philox-4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as
// easy as 1, 2, 3", SC 2011) and the element mapping documented in random.hpp.
#include "stdlib/random.hpp"

#include <cmath>

namespace tg::stdlib {

namespace {

constexpr uint32_t kMul0 = 0xD2511F53u;
constexpr uint32_t kMul1 = 0xCD9E8D57u;
constexpr uint32_t kWeyl0 = 0x9E3779B9u;  // golden ratio
constexpr uint32_t kWeyl1 = 0xBB67AE85u;  // sqrt(3) - 1

inline std::array<uint32_t, 4> philox_round(std::array<uint32_t, 4> c, uint32_t k0, uint32_t k1) {
    uint64_t p0 = uint64_t{kMul0} * c[0];
    uint64_t p1 = uint64_t{kMul1} * c[2];
    return {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
            static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
}

constexpr double kTwoPow24Inv = 1.0 / 16777216.0;
constexpr double kTwoPow53Inv = 1.0 / 9007199254740992.0;
constexpr double kTwoPi = 6.283185307179586476925286766559;

// The two 64-bit values of a block: v = w[2k] | w[2k + 1] << 32.
inline uint64_t word64(const std::array<uint32_t, 4>& w, int64_t k) {
    return uint64_t{w[2 * k]} | (uint64_t{w[2 * k + 1]} << 32);
}

// 53 random bits / 2^53: the top bits of v (NumPy's next_double).
inline double u53(uint64_t v) { return static_cast<double>(v >> 11) * kTwoPow53Inv; }

}  // namespace

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key) {
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += kWeyl0;
            k1 += kWeyl1;
        }
        counter = philox_round(counter, k0, k1);
    }
    return counter;
}

std::array<uint32_t, 4> philox4x32(uint64_t key, uint64_t counter) {
    return philox4x32_10({static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32), 0, 0},
                         {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
}

uint64_t random_blocks(int64_t n) { return n <= 0 ? 0 : (static_cast<uint64_t>(n) + 3) / 4; }

uint64_t random_int_blocks(int64_t n, int64_t low, int64_t high) {
    uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    if (range <= (uint64_t{1} << 32)) return random_blocks(n);
    return n <= 0 ? 0 : (static_cast<uint64_t>(n) + 1) / 2;
}

void fill_uniform_f32(uint64_t key, uint64_t c0, int64_t n, double low, double high, float* out) {
    const double span = high - low;
    for (int64_t base = 0; base < n; base += 4) {
        auto w = philox4x32(key, c0 + static_cast<uint64_t>(base / 4));
        for (int64_t j = 0; j < 4 && base + j < n; ++j) {
            // u is exact in f32; the affine map is done in double, then rounded once.
            float u = static_cast<float>(w[j] >> 8) * static_cast<float>(kTwoPow24Inv);
            out[base + j] = static_cast<float>(low + span * static_cast<double>(u));
        }
    }
}

void fill_normal_f32(uint64_t key, uint64_t c0, int64_t n, double mean, double std, float* out) {
    for (int64_t base = 0; base < n; base += 4) {
        auto w = philox4x32(key, c0 + static_cast<uint64_t>(base / 4));
        for (int64_t pair = 0; pair < 2 && base + 2 * pair < n; ++pair) {
            double u1 = (static_cast<double>(w[2 * pair] >> 8) + 1.0) * kTwoPow24Inv;
            double u2 = static_cast<double>(w[2 * pair + 1] >> 8) * kTwoPow24Inv;
            double r = std::sqrt(-2.0 * std::log(u1));
            double t = kTwoPi * u2;
            int64_t i = base + 2 * pair;
            out[i] = static_cast<float>(mean + std * (r * std::cos(t)));
            if (i + 1 < n) out[i + 1] = static_cast<float>(mean + std * (r * std::sin(t)));
        }
    }
}

uint64_t random_f64_blocks(int64_t n) { return n <= 0 ? 0 : (static_cast<uint64_t>(n) + 1) / 2; }

void fill_uniform_f64(uint64_t key, uint64_t c0, int64_t n, double low, double high, double* out) {
    const double span = high - low;
    for (int64_t base = 0; base < n; base += 2) {
        auto w = philox4x32(key, c0 + static_cast<uint64_t>(base / 2));
        for (int64_t j = 0; j < 2 && base + j < n; ++j) out[base + j] = low + span * u53(word64(w, j));
    }
}

void fill_normal_f64(uint64_t key, uint64_t c0, int64_t n, double mean, double std, double* out) {
    for (int64_t i = 0; i < n; i += 2) {
        auto w = philox4x32(key, c0 + static_cast<uint64_t>(i / 2));
        double u1 = (static_cast<double>(word64(w, 0) >> 11) + 1.0) * kTwoPow53Inv;
        double u2 = u53(word64(w, 1));
        double r = std::sqrt(-2.0 * std::log(u1));
        double t = kTwoPi * u2;
        out[i] = mean + std * (r * std::cos(t));
        if (i + 1 < n) out[i + 1] = mean + std * (r * std::sin(t));
    }
}

namespace {

template <class T>
void fill_int(uint64_t key, uint64_t c0, int64_t n, int64_t low, int64_t high, T* out) {
    const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    if (range <= (uint64_t{1} << 32)) {
        for (int64_t base = 0; base < n; base += 4) {
            auto w = philox4x32(key, c0 + static_cast<uint64_t>(base / 4));
            for (int64_t j = 0; j < 4 && base + j < n; ++j)
                out[base + j] = static_cast<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + ((uint64_t{w[j]} * range) >> 32)));
        }
        return;
    }
    for (int64_t base = 0; base < n; base += 2) {
        auto w = philox4x32(key, c0 + static_cast<uint64_t>(base / 2));
        for (int64_t j = 0; j < 2 && base + j < n; ++j)
            out[base + j] = static_cast<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + word64(w, j) % range));
    }
}

}  // namespace

void fill_int_i64(uint64_t key, uint64_t c0, int64_t n, int64_t low, int64_t high, int64_t* out) {
    fill_int(key, c0, n, low, high, out);
}

void fill_int_i32(uint64_t key, uint64_t c0, int64_t n, int64_t low, int64_t high, int32_t* out) {
    fill_int(key, c0, n, low, high, out);
}

void fill_int_bool(uint64_t key, uint64_t c0, int64_t n, int64_t low, int64_t high, bool* out) {
    fill_int(key, c0, n, low, high, out);  // the numbers are 0 and 1
}

}  // namespace tg::stdlib
