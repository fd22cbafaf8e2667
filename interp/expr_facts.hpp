// Facts about an expression node that follow from its syntax alone, worked
// out on first use and kept on the node (lang::Expr::cached_facts): two bits
// per fact, "known" and the answer. Read and written through atomic_ref, so
// two threads running one program's AST never race on them.
#pragma once

#include <atomic>
#include <cstdint>

#include "lang/ast.hpp"

namespace tg::interp {

enum class ExprFact : uint8_t {
    RunsNoCode = 0,    // evaluating it calls nothing (interp/target_indices.hpp)
    ScalarShaped = 2,  // numbers, variables and arithmetic only (Evaluator::eval_scalar may compute it)
};

template <class Compute>
bool cached_fact(const lang::Expr& e, ExprFact fact, Compute compute) {
    const uint8_t known = uint8_t{1} << static_cast<uint8_t>(fact), yes = static_cast<uint8_t>(known << 1);
    std::atomic_ref<uint8_t> facts(e.cached_facts);
    const uint8_t bits = facts.load(std::memory_order_relaxed);
    if (bits & known) return bits & yes;
    const bool answer = compute(e);
    facts.fetch_or(static_cast<uint8_t>(known | (answer ? yes : 0)), std::memory_order_relaxed);
    return answer;
}

}  // namespace tg::interp
