// The index expressions of a statement's target, evaluated once and before
// the target is looked up (docs/language.md "Order of evaluation").
//
// `d[f()][g()] = v`, `xs[h()] += 1`, `del d[k()]` and `d[k()].append(x)`
// walk from a variable to the item they change and keep a pointer to it.
// Code that runs while such a pointer is held can move what it points to
// (a function assigning the variable through `global`, the debugger adding
// a global), and code that runs twice does its work twice. So when an index
// could run code (it calls something), every index of the target is
// evaluated first, left to right, and the walk reads those values: nothing
// runs between the walk and the change. A target whose indices cannot run
// code (names, literals, arithmetic: the common case) is left alone.
#pragma once

#include <utility>
#include <vector>

#include "interp/evaluator.hpp"

namespace tg::interp {

class Evaluator::TargetIndices {
public:
    TargetIndices(Evaluator& ev, const lang::Expr& target);
    ~TargetIndices() { ev_.presets_ = std::move(saved_); }
    TargetIndices(const TargetIndices&) = delete;
    TargetIndices& operator=(const TargetIndices&) = delete;

    // Other code of the statement (the right side of `+=`, a call's
    // arguments) runs without the evaluated indices: the same expressions
    // met there (a recursive call reaching this statement) are evaluated anew.
    class Paused {
    public:
        explicit Paused(TargetIndices& t) : t_(t), held_(std::move(t.ev_.presets_)) { t_.ev_.presets_.clear(); }
        ~Paused() { t_.ev_.presets_ = std::move(held_); }
        Paused(const Paused&) = delete;
        Paused& operator=(const Paused&) = delete;

    private:
        TargetIndices& t_;
        std::vector<std::pair<const lang::Expr*, Value>> held_;
    };

private:
    Evaluator& ev_;
    std::vector<std::pair<const lang::Expr*, Value>> saved_;  // what was there before (normally nothing)
};

// True when evaluating e cannot run a tg function or builtin (no call, no
// comprehension): names, literals, operators, attributes and subscripts of those.
bool runs_no_code(const lang::Expr& e);

}  // namespace tg::interp
