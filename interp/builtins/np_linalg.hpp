// Shared by the np.linalg builtins (np_linalg.cpp, np_linalg_lstsq.cpp,
// np_linalg_norm.cpp): unpacking a decomposition op's packed result
// (stdlib/linalg_decomp.hpp) and the pieces several of them use.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "interp/builtins/compose.hpp"
#include "stdlib/linalg_decomp.hpp"

namespace tg::interp {

namespace np {
// The factor `p` of a packed result, shaped (batch..., p.dims...)
Value piece(Compose& c, const Value& packed, const stdlib::Piece& p);
// x with its last two axes swapped
Value swap_last(Compose& c, const Value& x);
// The singular values of a (..., m, n), largest first (hermitian: |eigenvalues|, as NumPy)
Value singular_values(Compose& c, const Value& a, bool hermitian);
// The machine epsilon of f32 or f64
double eps_of(stdlib::DType d);
}  // namespace np

void add_np_lstsq_builtins(std::vector<std::pair<std::string, Value>>& out);  // lstsq, matrix_rank
void add_np_norm_builtins(std::vector<std::pair<std::string, Value>>& out);   // norm

}  // namespace tg::interp
