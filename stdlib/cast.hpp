// Element conversion between dtypes (docs/language.md "Values" casts), branch-free so loops
// vectorize, and the tensor-level cast used by astype and the dtype calls.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "stdlib/dtype.hpp"

namespace tg::stdlib {

class Tensor;

// One element from `From` to `To`:
//  * to bool: nonzero (NaN is true);
//  * float to integer: truncation toward zero; NaN, inf and out-of-range
//    values give the integer minimum (what x86's cvtt instructions give, and
//    what NumPy gives on this machine);
//  * integer to integer: two's-complement wrap;
//  * everything else: the C++ conversion (round to nearest).
template <class To, class From>
inline To convert(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (std::is_same_v<To, bool>) {
        return v != From(0);
    } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
        constexpr From lo = From(-1) * From(uint64_t(1) << (sizeof(To) * 8 - 1));  // -2^(bits-1), exact
        const bool ok = v >= lo && v < -lo;
        return ok ? static_cast<To>(v) : std::numeric_limits<To>::min();
    } else {
        return static_cast<To>(v);
    }
}

// x converted to dtype (a strong result). Returns x itself when it already
// has that dtype and is strong. Weak scalars convert from their exact value.
Tensor cast(const Tensor& x, DType dtype);

}  // namespace tg::stdlib
