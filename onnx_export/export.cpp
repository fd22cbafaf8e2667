// The exporter: walks the graph's regions in program order and emits each
// node; `cond` becomes If (its regions the branches), `while` becomes Loop
// (its cond region is emitted once before the loop and once at the end of
// the body, because ONNX's Loop tests its condition after each iteration).
// Tokens, the graph's ordering of effects, have no ONNX value: they are
// skipped, and the only effects that could remain (print with --drop-prints)
// are dropped.
#include "onnx_export/export.hpp"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "onnx_export/dynamic.hpp"
#include "onnx_export/index_mapping.hpp"
#include "onnx_export/mapping.hpp"

namespace tg::onnx_export {

using stdlib::DType;
using tracer::Graph;
using tracer::NodeId;
using tracer::Op;
using tracer::RegionId;
using tracer::ValueId;

namespace {

class Exporter {
public:
    Exporter(const tracer::GraphFunction& f, const ExportOptions& o)
        : f_(f), g_(*f.graph), options_(o), names_(g_.num_values()) {}

    onnx::ModelProto run() {
        onnx::ModelProto model;
        model.set_ir_version(kIrVersion);
        model.set_producer_name("tg");
        auto* opset = model.add_opset_import();
        opset->set_domain("");
        opset->set_version(kOpsetVersion);
        onnx::GraphProto& main = *model.mutable_graph();
        main.set_name(f_.name);
        Emitter e(main, gen_);
        size_t k = 0;
        std::vector<std::string> inputs;
        for (ValueId a : g_.region(Graph::kBody).args) {
            if (is_token(a)) continue;
            const tracer::IoSpec& spec = f_.inputs.at(k);
            const std::string name = spec.name.empty() ? "input" + std::to_string(k) : spec.name;
            ++k;
            // fed with the spec's dtype; a weak scalar input computes in its wider dtype
            names_[a] = e.cast(name, spec.type.dtype, storage(a));
            inputs.push_back(name);
            Emitter::declare(*main.add_input(), name, spec.type.dtype, spec.type.shape, spec.dims);
        }
        sizes_ = symbol_sizes(e, g_, inputs);  // dynamic dims: their run-time sizes
        if (f_.outputs.empty())
            throw ExportError("an ONNX model needs an output, and `" + f_.name + "` returns no tensor", {});
        emit_region(Graph::kBody, e);
        k = 0;
        for (ValueId v : yielded(Graph::kBody)) {
            if (is_token(v)) continue;
            const tracer::IoSpec& spec = f_.outputs.at(k++);
            const std::string x = e.cast(names_[v], storage(v), spec.type.dtype);
            e.op_outputs("Identity", {x}, {spec.name});
            Emitter::declare(*main.add_output(), spec.name, spec.type.dtype, spec.type.shape, spec.dims);
        }
        return model;
    }

private:
    bool is_token(ValueId v) const { return g_.type(v).token; }
    DType storage(ValueId v) const { return storage_dtype(g_.tensor_type(v)); }

    const std::vector<ValueId>& yielded(RegionId r) const {
        const tracer::Region& reg = g_.region(r);
        return g_.node(reg.nodes.back()).operands;
    }

    // Names region r's arguments after `from` (skipping tokens).
    void bind(RegionId r, const std::vector<std::string>& from) {
        size_t k = 0;
        for (ValueId a : g_.region(r).args)
            if (!is_token(a)) names_[a] = from.at(k++);
    }

    // The non-token values of `vs`, named, each cast to the storage dtype of
    // the matching non-token value of `like` (a branch may yield a weak
    // scalar where the other yields a strong one).
    std::vector<std::string> converted(Emitter& e, const std::vector<ValueId>& vs, std::span<const ValueId> like) {
        std::vector<std::string> out;
        std::vector<ValueId> targets;
        for (ValueId t : like)
            if (!is_token(t)) targets.push_back(t);
        for (ValueId v : vs) {
            if (is_token(v)) continue;
            out.push_back(e.cast(names_[v], storage(v), storage(targets.at(out.size()))));
        }
        return out;
    }

    void emit_region(RegionId r, Emitter& e) {
        for (NodeId n : g_.region(r).nodes) {
            const tracer::Node& node = g_.node(n);
            if (node.op != Op::Yield) emit_node(node, e);
        }
    }

    [[noreturn]] void fail(const tracer::Node& node, const std::string& what) {
        throw ExportError(what, node.loc);
    }

    void emit_node(const tracer::Node& node, Emitter& e) {
        if (!sizes_.empty())
            if (const std::string why = dynamic_refusal(g_, node); !why.empty()) fail(node, why);
        switch (node.op) {
            case Op::Apply: emit_apply(node, e); return;
            case Op::Constant: {
                const ValueId r = node.results[0];
                const Graph::SizeConstant* c = sizes_.empty() ? nullptr : g_.size_constant(g_.value(r).def);
                names_[r] = c ? size_constant(e, *c, sizes_, storage(r)) : e.constant(std::get<stdlib::Tensor>(node.payload));
                return;
            }
            case Op::Undef: {
                const auto& t = g_.tensor_type(node.results[0]);
                names_[node.results[0]] = e.constant(stdlib::Tensor::zeros(storage_dtype(t), t.shape));
                return;
            }
            case Op::Truth: {
                const ValueId x = node.operands[0];
                names_[node.results[0]] = e.nonzero(e.reshape(names_[x], {}), storage(x));
                return;
            }
            case Op::Index:
            case Op::IndexAssign: {
                IndexOperands io{node, g_, names_, e};
                names_[node.results[0]] = node.op == Op::Index ? map_index(io) : map_index_assign(io);
                return;
            }
            case Op::Cond: emit_cond(node, e); return;
            case Op::While: emit_while(node, e); return;
            case Op::Print:
                if (options_.drop_prints) return;
                fail(node, "ONNX has no `print` (export with --drop-prints to leave the prints out)");
            case Op::Assert: fail(node, "ONNX has no `assert`: a graph with an assert cannot be exported");
            case Op::Raise: fail(node, "ONNX has no `raise`: a graph that raises cannot be exported");
            case Op::HostCall:
                fail(node, "ONNX cannot call the host function `" + std::get<tracer::HostFn>(node.payload).name + "`");
            case Op::Yield: return;
        }
    }

    void emit_apply(const tracer::Node& node, Emitter& e) {
        const stdlib::OpDef& def = *node.def;
        if (def.flags & stdlib::kRandom)
            fail(node, "ONNX cannot reproduce tg's random stream: `" + std::string(def.name) +
                           "` cannot be exported (draw the numbers outside and pass them in)");
        if (def.flags & stdlib::kStack)
            fail(node, "`" + std::string(def.name) + "` (a gradient's saved values) cannot be exported to ONNX");
        ApplyCtx c{e, node, {}, g_.tensor_type(node.results[0]), storage(node.results[0]),
                   runtime_shape(e, g_, node.results[0], sizes_)};
        for (ValueId v : node.operands)
            if (!is_token(v)) c.in.push_back({names_[v], g_.tensor_type(v), storage(v)});
        std::string out = std::visit(
            [&](auto kind) -> std::string {
                using K = decltype(kind);
                if constexpr (std::is_same_v<K, stdlib::UnaryKind>) return map_unary(c, kind);
                else if constexpr (std::is_same_v<K, stdlib::BinaryKind>) return map_binary(c, kind);
                else if constexpr (std::is_same_v<K, stdlib::ReduceKind>) return map_reduce(c, kind);
                else if constexpr (std::is_same_v<K, stdlib::ElementwiseKind>) return map_select(c, kind);
                else if constexpr (std::is_same_v<K, stdlib::OtherKind>) return map_other(c, kind);
                else {
                    static_assert(std::is_same_v<K, std::monostate>, "a kind of op without its mapping");
                    c.fail("it has no ONNX mapping");  // an op without a kind
                }
            },
            def.kind);
        names_[node.results[0]] = std::move(out);
    }

    // A branch or loop body: a subgraph whose outputs are `outs` (Identity
    // copies, so that an output never is an outer value itself).
    static void add_outputs(Emitter& sub, const std::vector<std::string>& outs, const std::vector<ValueId>& typed_like,
                            const Graph& g) {
        for (size_t i = 0; i < outs.size(); ++i) {
            const std::string name = sub.op("Identity", {outs[i]}).out;
            const auto& t = g.tensor_type(typed_like[i]);
            Emitter::declare(*sub.graph().add_output(), name, storage_dtype(t), t.shape);
        }
    }

    std::vector<ValueId> non_tokens(std::span<const ValueId> vs) const {
        std::vector<ValueId> out;
        for (ValueId v : vs)
            if (!is_token(v)) out.push_back(v);
        return out;
    }

    void emit_cond(const tracer::Node& node, Emitter& e) {
        const std::vector<ValueId> results = non_tokens(node.results);
        if (results.empty()) return;  // only effects (dropped prints)
        std::vector<std::string> ins;
        for (size_t i = 1; i < node.operands.size(); ++i)
            if (!is_token(node.operands[i])) ins.push_back(names_[node.operands[i]]);
        onnx::GraphProto branches[2];
        for (int b = 0; b < 2; ++b) {
            const RegionId r = node.regions[b];
            branches[b].set_name(gen_.next("branch"));
            Emitter sub(branches[b], gen_);
            bind(r, ins);
            emit_region(r, sub);
            add_outputs(sub, converted(sub, yielded(r), node.results), results, g_);
        }
        std::vector<std::string> outs;
        for (ValueId v : results) outs.push_back(names_[v] = gen_.next());
        e.op_outputs("If", {names_[node.operands[0]]}, outs)
            .attr("then_branch", std::move(branches[0]))
            .attr("else_branch", std::move(branches[1]));
    }

    void emit_while(const tracer::Node& node, Emitter& e) {
        const std::vector<ValueId> results = non_tokens(node.results);
        if (results.empty()) return;  // a loop of effects only: nothing ONNX could observe
        const RegionId cond_r = node.regions[0], body_r = node.regions[1];
        auto run_cond = [&](Emitter& at, const std::vector<std::string>& carried) {
            bind(cond_r, carried);
            emit_region(cond_r, at);
            const std::vector<ValueId>& y = yielded(cond_r);
            std::vector<ValueId> rest(y.begin() + 1, y.end());
            std::vector<std::string> out{names_[y[0]]};
            for (auto& s : converted(at, rest, node.results)) out.push_back(std::move(s));
            return out;
        };
        std::vector<std::string> inits;
        for (ValueId v : node.operands)
            if (!is_token(v)) inits.push_back(names_[v]);
        const std::vector<std::string> first = run_cond(e, inits);  // pred, carried...

        onnx::GraphProto body;
        body.set_name(gen_.next("loop"));
        Emitter sub(body, gen_);
        Emitter::declare(*body.add_input(), gen_.next("iter"), DType::I64, {});
        Emitter::declare(*body.add_input(), gen_.next("cond"), DType::Bool, {});
        std::vector<std::string> carried;
        for (ValueId v : results) {
            carried.push_back(gen_.next("carried"));
            Emitter::declare(*body.add_input(), carried.back(), storage(v), g_.tensor_type(v).shape);
        }
        bind(body_r, carried);
        emit_region(body_r, sub);
        const std::vector<std::string> next = converted(sub, yielded(body_r), node.results);
        const std::vector<std::string> again = run_cond(sub, next);
        const std::string pred = sub.op("Identity", {again[0]}).out;
        Emitter::declare(*body.add_output(), pred, DType::Bool, {});
        add_outputs(sub, std::vector<std::string>(again.begin() + 1, again.end()), results, g_);

        std::vector<std::string> loop_in{"", first[0]};
        loop_in.insert(loop_in.end(), first.begin() + 1, first.end());
        std::vector<std::string> outs;
        for (ValueId v : results) outs.push_back(names_[v] = gen_.next());
        e.op_outputs("Loop", loop_in, outs).attr("body", std::move(body));
    }

    const tracer::GraphFunction& f_;
    const Graph& g_;
    ExportOptions options_;
    NameGen gen_;
    std::vector<std::string> names_;  // the ONNX name of each graph value (its latest emission)
    std::vector<std::string> sizes_;  // per dynamic dim's symbol: its run-time size (onnx_export/dynamic.hpp)
};

}  // namespace

std::string write_onnx(const tracer::GraphFunction& f, const ExportOptions& options) {
    onnx::ModelProto model = Exporter(f, options).run();
    try {
        onnx::checker::check_model(model);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                           onnx::ShapeInferenceOptions(/*check_type=*/true, /*strict=*/1));
    } catch (const std::exception& e) {
        // Every node the exporter writes is typed; a rejection is a bug here.
        throw ExportError("internal error: ONNX rejected the export of `" + f.name + "`: " + e.what() +
                              "\n(please report this)",
                          {});
    }
    return model.SerializeAsString();
}

}  // namespace tg::onnx_export
