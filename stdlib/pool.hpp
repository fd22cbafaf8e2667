// Pooling's output size, shared by max_pool2d (stdlib/pool.cpp) and
// avg_pool2d (interp/builtins/nn_conv.cpp): PyTorch's
// pooling_output_shape.
#pragma once

#include <cstdint>

namespace tg::stdlib {

// Windows of k (dilation d) at stride s over `in` padded by p on both
// sides; with ceil_mode a last partial window counts, but it must start
// inside the input or the left padding.
inline int64_t pooled_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1;
    int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    if (ceil_mode && (out - 1) * s >= in + p) --out;
    return out;
}

}  // namespace tg::stdlib
