#include "tracer/graph_interpreter.hpp"

#include "stdlib/budget.hpp"
#include "stdlib/format.hpp"
#include "stdlib/op_table.hpp"

namespace tg::tracer {

using stdlib::Tensor;

std::string render_template(const Template& t, std::span<const Tensor> operands) {
    std::string s;
    for (const TextPiece& p : t) {
        switch (p.kind) {
            case TextPiece::Text: s += p.text; break;
            case TextPiece::Str: s += stdlib::to_str(operands[p.operand]); break;
            case TextPiece::Repr: s += stdlib::to_repr(operands[p.operand]); break;
            case TextPiece::Format: s += stdlib::format_tensor(operands[p.operand], p.text); break;
        }
    }
    return s;
}

namespace {

// One node that owns no regions, with its operands read from env.
class NodeRunner {
public:
    NodeRunner(const Graph& g, std::span<Tensor> env, RunContext& ctx, std::span<const int64_t> sizes)
        : g_(g), env_(env), ctx_(ctx), sizes_(sizes) {}

    std::vector<Tensor> operand_values(const Node& node) {
        std::vector<Tensor> vals;
        vals.reserve(node.operands.size());
        for (ValueId v : node.operands) vals.push_back(env_[v]);
        return vals;
    }

    std::vector<stdlib::IndexItem> index_items(const Node& node, size_t first_dynamic) {
        const IndexSpec& spec = std::get<IndexSpec>(node.payload);
        std::vector<stdlib::IndexItem> items = spec.items;
        size_t k = first_dynamic;
        for (size_t i = 0; i < items.size(); ++i)
            if (spec.dynamic[i]) items[i].index = env_[node.operands[k++]].item_i64();
        return items;
    }

    void run(const Node& node) {
        switch (node.op) {
            case Op::Apply: {
                bool random = node.def->has_effect();
                size_t first = random ? 1 : 0;
                std::vector<Tensor>& inputs = ctx_.scratch;
                inputs.clear();
                for (size_t k = first; k < node.operands.size(); ++k) inputs.push_back(env_[node.operands[k]]);
                stdlib::OpContext octx{ctx_.rng, &ctx_.saved};
                if ((node.def->flags & stdlib::kRandom) && !ctx_.rng) throw RuntimeError("graph interpreter: a random op needs RunContext::rng", node.loc);
                if (sizes_.empty() || g_.shape_attrs().empty()) {
                    env_[node.results[0]] = node.def->eager(octx, stdlib::OpArgs{inputs, node.attrs});
                } else {  // a shape attribute is this run's result shape (a generalized trace)
                    const std::vector<stdlib::Attr> attrs = g_.attrs_at(g_.value(node.results[0]).def, sizes_);
                    env_[node.results[0]] = node.def->eager(octx, stdlib::OpArgs{inputs, attrs});
                }
                inputs.clear();  // drop the references before the next node
                return;
            }
            case Op::Constant:
                // a size constant is computed from this run's sizes
                env_[node.results[0]] = sizes_.empty() ? std::get<Tensor>(node.payload)
                                                       : g_.constant_at(g_.value(node.results[0]).def, sizes_);
                return;
            case Op::Undef: {
                const ValueId r = node.results[0];
                env_[r] = Tensor::zeros(g_.tensor_type(r).dtype, g_.shape_at(r, sizes_));  // this run's sizes
                return;
            }
            case Op::Truth: env_[node.results[0]] = Tensor::scalar(stdlib::truth(env_[node.operands[0]])); return;
            case Op::Index: {
                auto items = index_items(node, 1);
                env_[node.results[0]] = stdlib::index(env_[node.operands[0]], items);
                return;
            }
            case Op::IndexAssign: {
                auto items = index_items(node, 2);
                Tensor x = env_[node.operands[0]].strong();
                stdlib::index_assign(x, items, env_[node.operands[1]]);
                env_[node.results[0]] = std::move(x);
                return;
            }
            case Op::Print: {
                std::string line = render_template(std::get<Template>(node.payload), operand_values(node));
                if (ctx_.write) ctx_.write(line);
                return;
            }
            case Op::Assert:
                if (!env_[node.operands[1]].item_bool())
                    throw RuntimeError(render_template(std::get<Template>(node.payload), operand_values(node)), node.loc);
                return;
            case Op::Raise:
                throw RuntimeError(render_template(std::get<Template>(node.payload), operand_values(node)), node.loc);
            case Op::HostCall: {
                if (!ctx_.host_call) throw RuntimeError("graph interpreter: no host functions", node.loc);
                std::vector<Tensor> args(node.operands.size() - 1);
                for (size_t k = 1; k < node.operands.size(); ++k) args[k - 1] = env_[node.operands[k]];
                std::vector<Tensor> res = ctx_.host_call(std::get<HostFn>(node.payload), args);
                if (res.size() + 1 != node.results.size())
                    throw RuntimeError("host function " + std::get<HostFn>(node.payload).name + " returned " +
                                           std::to_string(res.size()) + " values, expected " +
                                           std::to_string(node.results.size() - 1), node.loc);
                for (size_t k = 0; k < res.size(); ++k) env_[node.results[k]] = std::move(res[k]);
                return;
            }
            case Op::Cond:
            case Op::While:
            case Op::Yield:
                throw RuntimeError(std::string("graph interpreter: run_node on ") + op_name(node.op), node.loc);
        }
    }

private:
    const Graph& g_;
    std::span<Tensor> env_;
    RunContext& ctx_;
    std::span<const int64_t> sizes_;  // the run's symbol sizes (dynamic dimensions)
};

class Interpreter {
public:
    Interpreter(const Graph& g, RunContext& ctx) : g_(g), ctx_(ctx), env_(g.num_values()) {}

    std::vector<Tensor> run(std::span<const Tensor> inputs) {
        const Region& body = g_.region(Graph::kBody);
        size_t k = 0;
        for (ValueId a : body.args) {
            if (g_.type(a).token) continue;
            if (k >= inputs.size())
                throw RuntimeError("graph " + g_.name() + " expects more than " + std::to_string(inputs.size()) +
                                       " inputs", {});
            env_[a] = as_declared(g_.tensor_type(a), inputs[k++]);
        }
        if (k != inputs.size())
            throw RuntimeError("graph " + g_.name() + " takes " + std::to_string(k) + " inputs, got " +
                                   std::to_string(inputs.size()), {});
        sizes_ = g_.symbol_sizes(inputs);  // once per run: what dynamic dimensions are this time
        std::vector<Tensor> out;
        for (ValueId v : exec(Graph::kBody))
            if (!g_.type(v).token) out.push_back(env_[v]);
        return out;
    }

private:
    // A graph traced for a literal argument (`f(3)`) declares a weak input;
    // fed a tensor of that dtype (a loaded graph value, tg::Graph), the
    // value is made weak so that every op promotes as the trace did (and as
    // compiled code, which follows the declared types, does): i64 + i32 is
    // i32 for a weak i64, i64 for a strong one.
    static Tensor as_declared(const stdlib::TensorType& t, const Tensor& v) {
        if (!t.weak || v.weak() || v.shape().rank() != 0 || v.dtype() != t.dtype || t.dtype == stdlib::DType::Bool)
            return v;
        return stdlib::is_float(t.dtype) ? Tensor::weak_float(v.item_f64()) : Tensor::weak_int(v.item_i64());
    }

    // Runs region r (its arguments already bound); returns the yielded value ids.
    const std::vector<ValueId>& exec(RegionId r) {
        const Region& reg = g_.region(r);
        for (NodeId n : reg.nodes) {
            const Node& node = g_.node(n);
            if (node.op == Op::Yield) return node.operands;
            try {
                stdlib::poll_limits();  // the host's interrupt and deadline (stdlib/budget.hpp)
                step(node);
            } catch (const stdlib::OpError& e) {
                throw RuntimeError(e.what(), node.loc);
            }
        }
        static const std::vector<ValueId> none;
        return none;
    }

    void bind_args(RegionId r, std::span<const ValueId> from) {
        const Region& reg = g_.region(r);
        for (size_t i = 0; i < reg.args.size(); ++i) args_tmp_.push_back(env_[from[i]]);
        // Copy through a temporary: `from` may name the region's own arguments (loops).
        for (size_t i = 0; i < reg.args.size(); ++i) env_[reg.args[i]] = std::move(args_tmp_[args_tmp_.size() - reg.args.size() + i]);
        args_tmp_.resize(args_tmp_.size() - reg.args.size());
    }

    void step(const Node& node) {
        switch (node.op) {
            case Op::Cond: {
                RegionId r = node.regions[env_[node.operands[0]].item_bool() ? 0 : 1];
                bind_args(r, std::span<const ValueId>(node.operands).subspan(1));
                copy_out(exec(r), node.results, 0);
                return;
            }
            case Op::While: {
                RegionId cond_r = node.regions[0], body_r = node.regions[1];
                bind_args(cond_r, node.operands);
                for (;;) {
                    const std::vector<ValueId>& cy = exec(cond_r);
                    if (!env_[cy[0]].item_bool()) {
                        copy_out(cy, node.results, 1);
                        return;
                    }
                    if (ctx_.on_iteration) ctx_.on_iteration();
                    bind_args(body_r, std::span<const ValueId>(cy).subspan(1));
                    const std::vector<ValueId>& by = exec(body_r);
                    bind_args(cond_r, by);
                }
            }
            case Op::Yield: return;
            case Op::Apply: case Op::Constant: case Op::Undef: case Op::Truth: case Op::Index: case Op::IndexAssign:
            case Op::Print: case Op::Assert: case Op::Raise: case Op::HostCall:
                NodeRunner(g_, env_, ctx_, sizes_).run(node);
                return;
        }
    }

    void copy_out(const std::vector<ValueId>& from, const std::vector<ValueId>& to, size_t skip) {
        for (size_t i = 0; i < to.size(); ++i) env_[to[i]] = env_[from[i + skip]];
    }

    const Graph& g_;
    RunContext& ctx_;
    std::vector<Tensor> env_;  // one slot per value id; tokens hold nothing
    std::vector<Tensor> args_tmp_;
    std::vector<int64_t> sizes_;  // the symbols' sizes in this run (empty: no dynamic dimensions)
};

}  // namespace

void run_node(const Graph& g, const Node& node, std::span<Tensor> env, RunContext& ctx,
              std::span<const int64_t> sizes) {
    try {
        NodeRunner(g, env, ctx, sizes).run(node);
    } catch (const stdlib::OpError& e) {
        throw RuntimeError(e.what(), node.loc);
    }
}

std::vector<Tensor> run_graph(const Graph& g, std::span<const Tensor> inputs, RunContext& ctx) {
    return Interpreter(g, ctx).run(inputs);
}

}  // namespace tg::tracer
