// Scoped<T>: sets a variable for the length of a scope and puts the old
// value back however the scope ends (return or exception). The evaluator
// swaps a few things temporarily — the output callback while --verify runs a
// call twice, the trace being built, the current frame — and a hand-written
// save/restore misses the exception paths.
#pragma once

#include <utility>

namespace tg::interp {

template <class T>
class Scoped {
public:
    Scoped(T& var, T value) : var_(var), saved_(std::exchange(var, std::move(value))) {}
    ~Scoped() { var_ = std::move(saved_); }
    Scoped(const Scoped&) = delete;
    Scoped& operator=(const Scoped&) = delete;

    const T& saved() const { return saved_; }

private:
    T& var_;
    T saved_;
};

}  // namespace tg::interp
