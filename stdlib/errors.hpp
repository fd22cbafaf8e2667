// The one error type stdlib throws. It carries only the message; the caller
// (interp, the graph interpreter, compiled code's runtime) adds the location.
#pragma once

#include <stdexcept>
#include <string>

namespace tg::stdlib {

// Messages name the function and the argument, per docs/builtins.md:
//   "matmul: shapes (2, 3) and (4, 5) are not aligned: 3 (axis 1) != 4 (axis 0)"
//   "integer division by zero"
struct OpError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace tg::stdlib
