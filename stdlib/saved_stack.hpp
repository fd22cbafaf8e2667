// The saved-value stack of one graph run (OpContext::stack): the values
// autodiff's forward loops save for their backward loops
// (stdlib/saved_stack.cpp's ops), and the most it held at once — what a
// bounded loop gradient keeps down (docs/training.md "Bounding a loop's
// saved values"); tests and benchmarks read it.
#pragma once

#include <cstddef>
#include <vector>

#include "stdlib/tensor.hpp"

namespace tg::stdlib {

struct SavedStack {
    std::vector<Tensor> values;
    size_t bytes = 0;        // the tensor data held now
    size_t peak_values = 0;  // the most values held at once
    size_t peak_bytes = 0;   // the most tensor data held at once

    void push(Tensor t) {
        bytes += t.numel() * dtype_size(t.dtype());
        values.push_back(std::move(t));
        if (values.size() > peak_values) peak_values = values.size();
        if (bytes > peak_bytes) peak_bytes = bytes;
    }
    Tensor pop() {
        Tensor t = std::move(values.back());
        values.pop_back();
        bytes -= t.numel() * dtype_size(t.dtype());
        return t;
    }
};

}  // namespace tg::stdlib
