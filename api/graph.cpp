// tg::Graph (include/tg/tg.hpp): a .tgx file loaded and run from C++ with
// the tracer's reader and the compiler — no parser, no interpreter (this
// file is below interp/). One Compiler per loaded graph; run() keeps all of
// its state in the call (the compiled code's frame, the RunContext, the
// random stream), so one Graph runs from many threads at once.
#include <optional>

#include "api/tensor.hpp"
#include "codegen/compiler.hpp"
#include "lang/diagnostics.hpp"
#include "stdlib/file_io.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/tgx.hpp"

namespace tg {

struct Graph::Impl {
    tracer::GraphFunction fn;
    std::vector<Spec> inputs, outputs;
    GraphOptions options;
    // Declared after fn (whose graph the code points into) and destroyed
    // first: the code, then the compiler that made it.
    std::unique_ptr<codegen::Compiler> compiler;
    std::unique_ptr<codegen::CompiledGraph> compiled;  // null with no_jit
};

namespace {

std::vector<Graph::Spec> public_specs(const std::vector<tracer::IoSpec>& specs) {
    std::vector<Graph::Spec> out;
    for (const tracer::IoSpec& s : specs) {
        auto d = s.type.shape.dims();
        Graph::Spec p{s.name, detail::to_public(s.type.dtype), {d.begin(), d.end()}, s.dims};
        for (size_t a = 0; a < p.dims.size(); ++a)
            if (!p.dims[a].empty()) p.shape[a] = -1;
        out.push_back(std::move(p));
    }
    return out;
}

// A run-time error of the graph as the interpreter reports it: message, the
// source line with a caret, the calls that were inlined into the graph.
Error runtime_error(const tracer::RuntimeError& e, const std::string& graph_name) {
    lang::Diagnostic d{e.what(), e.where.source, e.where.loc, {}};
    std::vector<Error::Frame> frames;
    for (auto c = e.where.inlined_in; c; c = c->outer) {
        d.notes.push_back("  in " + c->function + " (" + lang::format_location(c->source.get(), c->loc) + ")");
        frames.push_back({c->function, c->source ? c->source->name() : "", int(c->loc.line), int(c->loc.col)});
    }
    d.notes.push_back("  in " + graph_name + ", a saved graph");
    return Error(e.what(), e.where.source ? e.where.source->name() : "", int(e.where.loc.line), int(e.where.loc.col),
                 std::move(frames), lang::render(d));
}

std::string type_words(DType d, const std::vector<int64_t>& shape) {
    std::string s = "shape (";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")") + " and dtype " + dtype_name(d);
}

}  // namespace

Graph::Graph(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

Graph Graph::from_bytes(std::span<const std::byte> bytes, GraphOptions options) {
    return detail::guarded_plain([&] {
        auto impl = std::make_shared<Impl>();
        try {
            impl->fn = tracer::read_tgx(bytes);
        } catch (const tracer::TgxError& e) {
            throw detail::plain_error(e.what());
        }
        impl->inputs = public_specs(impl->fn.inputs);
        impl->outputs = public_specs(impl->fn.outputs);
        if (!options.no_jit) {
            codegen::JitOptions jo;
            jo.object_cache = !options.no_cache;
            jo.cache_dir = options.cache_dir;
            jo.count_iterations = false;  // no step limits here
            jo.background = false;        // ready before the first run, so run() only reads
            jo.threads = options.threads;
            impl->compiler = std::make_unique<codegen::Compiler>(std::move(jo));
            impl->compiled = impl->compiler->compile(*impl->fn.graph, impl->fn.name, codegen::Tiering::Wait);
        }
        impl->options = std::move(options);
        return Graph(std::move(impl));
    });
}

// Through the one opener (stdlib/file_open.hpp): only a regular file is
// read (a folder, a FIFO or /dev/zero is an error before anything blocks),
// and no more than its size.
Graph Graph::load(const std::string& path, GraphOptions options) {
    std::optional<stdlib::FileBytes> bytes;
    detail::guarded_plain([&] {
        try {
            bytes.emplace(stdlib::FileRoot(), path);
        } catch (const stdlib::FileError& e) {
            throw detail::plain_error(path + ": " + e.what());
        }
    });
    try {
        const std::string_view b = bytes->bytes();
        return from_bytes({reinterpret_cast<const std::byte*>(b.data()), b.size()}, std::move(options));
    } catch (const Error& e) {
        throw detail::plain_error(path + ": " + e.message());
    }
}

const std::string& Graph::name() const { return impl_->fn.name; }

int64_t Graph::min_size(const std::string& dim) const {
    for (const tracer::SymbolSource& s : impl_->fn.graph->symbol_sources())
        if (s.name == dim) return s.min_size;
    throw detail::plain_error(impl_->fn.name + ": no dynamic dimension is named `" + dim + "`");
}
const std::vector<Graph::Spec>& Graph::inputs() const { return impl_->inputs; }
const std::vector<Graph::Spec>& Graph::outputs() const { return impl_->outputs; }

std::vector<Tensor> Graph::run(const std::vector<Tensor>& inputs) const {
    const Impl& g = *impl_;
    if (inputs.size() != g.inputs.size())
        throw detail::plain_error(g.fn.name + ": takes " + std::to_string(g.inputs.size()) + " inputs but " +
                                  std::to_string(inputs.size()) + " were given");
    std::vector<stdlib::Tensor> ins;
    tracer::FeedCheck sizes(g.fn);
    for (size_t i = 0; i < inputs.size(); ++i) {
        const Spec& s = g.inputs[i];
        const tracer::IoSpec& spec = g.fn.inputs[i];
        const std::string head = g.fn.name + ": input `" + s.name + "`: ";
        if (!spec.has_dynamic_dims()) {
            if (inputs[i].dtype() != s.dtype || inputs[i].shape() != s.shape)
                throw detail::plain_error(head + "expected " + type_words(s.dtype, s.shape) + ", given " +
                                          type_words(inputs[i].dtype(), inputs[i].shape()));
        } else {  // docs/deploying.md "Dynamic dimensions"
            if (inputs[i].dtype() != s.dtype)
                throw detail::plain_error(head + "expected " + tracer::spec_words(spec) + ", given " +
                                          type_words(inputs[i].dtype(), inputs[i].shape()));
            const std::vector<int64_t> given = inputs[i].shape();
            if (std::string why = sizes.check(i, stdlib::Shape(std::span<const int64_t>(given))); !why.empty())
                throw detail::plain_error(head + why);
        }
        ins.push_back(detail::Access::unwrap(inputs[i]).strong());
    }
    return detail::guarded_plain([&] {
        stdlib::Rng rng(g.options.rng_seed);
        tracer::RunContext ctx;
        ctx.rng = &rng;
        if (g.options.write_output) ctx.write = g.options.write_output;
        else ctx.write = [](std::string_view) {};
        std::vector<stdlib::Tensor> outs;
        try {
            outs = g.compiled ? g.compiled->run(ins, ctx) : tracer::run_graph(*g.fn.graph, ins, ctx);
        } catch (const tracer::RuntimeError& e) {
            throw runtime_error(e, g.fn.name);
        }
        std::vector<Tensor> result;
        for (stdlib::Tensor& t : outs) result.push_back(detail::Access::wrap(std::move(t)));
        return result;
    });
}

}  // namespace tg
