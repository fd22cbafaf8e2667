// Vectorizable folds over one contiguous run, shared by the reductions and
// the nn helpers: independent accumulators the compiler maps to SIMD lanes
// (no reassociation of a single chain is needed).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace tg::stdlib::runs {

// Pairwise summation: 8 accumulators, halves above kLeaf elements.
inline constexpr int64_t kLeaf = 256;

template <class Acc, class T>
Acc pairwise_sum(const T* p, int64_t n) {
    if (n <= kLeaf) {
        Acc s[8] = {};
        int64_t i = 0;
        for (; i + 8 <= n; i += 8)
            for (int k = 0; k < 8; ++k) s[k] += static_cast<Acc>(p[i + k]);
        Acc r = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
        for (; i < n; ++i) r += static_cast<Acc>(p[i]);
        return r;
    }
    int64_t h = n / 2;
    h -= h % 8;
    return pairwise_sum<Acc>(p, h) + pairwise_sum<Acc>(p + h, n - h);
}

// max (Max = true) or min of p[0..n), n >= 1. Floats: NaN if any element is NaN.
template <bool Max, class T>
T extreme(const T* p, int64_t n) {
    constexpr int L = 16;
    if constexpr (std::is_same_v<T, bool>) {
        bool r = !Max;
        for (int64_t i = 0; i < n; ++i) r = Max ? (r || p[i]) : (r && p[i]);
        return r;
    } else {
        T acc[L];
        bool nan[L] = {};
        for (int k = 0; k < L; ++k) acc[k] = p[0];
        int64_t i = 0;
        for (; i + L <= n; i += L)
            for (int k = 0; k < L; ++k) {
                T v = p[i + k];
                acc[k] = (Max ? v > acc[k] : v < acc[k]) ? v : acc[k];
                if constexpr (std::is_floating_point_v<T>) nan[k] |= v != v;
            }
        T r = acc[0];
        bool any_nan = false;
        for (int k = 0; k < L; ++k) {
            r = (Max ? acc[k] > r : acc[k] < r) ? acc[k] : r;
            any_nan |= nan[k];
        }
        for (; i < n; ++i) {
            T v = p[i];
            r = (Max ? v > r : v < r) ? v : r;
            if constexpr (std::is_floating_point_v<T>) any_nan |= v != v;
        }
        if constexpr (std::is_floating_point_v<T>) {
            if (any_nan || r != r) return std::numeric_limits<T>::quiet_NaN();
        }
        return r;
    }
}

}  // namespace tg::stdlib::runs
