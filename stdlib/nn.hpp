// Neural-network helpers of docs/builtins.md, numerically stable, as scipy/PyTorch:
//   softmax(x, axis=-1)      = e / sum(e) with e = exp(x - max(x))  (scipy.special.softmax)
//   log_softmax(x, axis=-1)  = (x - m) - log(sum(exp(x - m))), m = max(x) or 0
//                              where that max is not finite (scipy.special.log_softmax)
//   cross_entropy(logits, labels): logits (..., C) floats, labels (...) integers
//     in [0, C); mean over all positions of logsumexp(logits) - logits[label]
//     (torch.nn.functional.cross_entropy with reduction="mean"); a 0-d result.
//   mse(a, b) = mean((a - b)^2) over the broadcast shape; a 0-d result.
// bool/int inputs compute in f32; float inputs keep their dtype. Sums are
// accumulated in f64. An empty batch gives nan (a mean of nothing).
#pragma once

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

Tensor softmax(const Tensor& x, int64_t axis = -1);
Tensor log_softmax(const Tensor& x, int64_t axis = -1);
Tensor cross_entropy(const Tensor& logits, const Tensor& labels);
Tensor mse(const Tensor& a, const Tensor& b);

}  // namespace tg::stdlib
