// How the op table of op_table.hpp is filled: each group of builtins has one
// registration function in its own .cpp, called once (in this order) when the
// table is first used. The table is immutable afterwards. Element-wise ops
// and reductions are registered from the rows of stdlib/op_kinds.hpp.
#pragma once

#include <deque>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "stdlib/op_table.hpp"

namespace tg::stdlib {

class OpRegistry {
public:
    OpRegistry() { by_name_.reserve(256); }  // more than the table's names: no rehashing while it is built
    OpRegistry(const OpRegistry&) = delete;  // OpDef addresses must stay valid
    OpRegistry& operator=(const OpRegistry&) = delete;
    OpRegistry(OpRegistry&&) = default;
    OpRegistry& operator=(OpRegistry&&) = default;

    // Adds an op. Throws std::logic_error on a duplicate name (a programming error).
    void add(OpDef def);
    // `alias` resolves to the op registered as `target` (e.g. constant -> tensor).
    void alias(std::string_view alias, std::string_view target);

    const OpDef* find(std::string_view name) const;
    // Attaches the gradient rule of op `name` (stdlib/grad_rules.cpp).
    void set_grad(std::string_view name, GradRule rule);
    std::span<const OpDef* const> all() const { return order_; }

private:
    std::deque<OpDef> defs_;  // stable addresses
    std::vector<const OpDef*> order_;
    std::unordered_map<std::string_view, const OpDef*> by_name_;
};

// One registration function per group of docs/builtins.md.
void register_elementwise_ops(OpRegistry& r);  // elementwise.cpp (core)
void register_reduction_ops(OpRegistry& r);    // reduce*.cpp (kernels)
void register_linalg_ops(OpRegistry& r);       // linalg*.cpp (kernels)
void register_shape_ops(OpRegistry& r);        // shape_ops*.cpp (kernels)
void register_layout_ops(OpRegistry& r);       // shape_ops_layout.cpp: flip roll tile repeat pad diag tril triu
void register_select_ops(OpRegistry& r);       // select_ops.cpp: take sort argsort
void register_solve_ops(OpRegistry& r);        // linalg_solve.cpp: inv solve det (LAPACK)
void register_decomposition_ops(OpRegistry& r);  // linalg_decomp.cpp: _svd _eigh _eig (LAPACK)
void register_factor_ops(OpRegistry& r);       // linalg_factor.cpp: _qr cholesky _slogdet (LAPACK)
void register_pinv_op(OpRegistry& r);          // linalg_pinv.cpp: pinv (LAPACK)
void register_creation_ops(OpRegistry& r);     // creation*.cpp (kernels)
void register_random_ops(OpRegistry& r);       // random*.cpp (kernels)
void register_nn_ops(OpRegistry& r);           // nn*.cpp (kernels)
void register_conv_ops(OpRegistry& r);         // conv_ops.cpp: conv2d conv_transpose2d _conv2d_weight_grad
void register_pool_ops(OpRegistry& r);         // pool.cpp: max_pool2d _max_pool2d_indices _max_pool2d_backward
void register_scan_ops(OpRegistry& r);          // scan.cpp (cumsum, cumprod)
void register_norm_ops(OpRegistry& r);          // norm.cpp
void register_stack_ops(OpRegistry& r);        // saved_stack.cpp (autodiff's reverse loops)

// The process-wide table, built on first use (thread-safe, then immutable).
const OpRegistry& op_registry();

}  // namespace tg::stdlib
