#include "codegen/compiler.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "codegen/runtime.hpp"
#include "tracer/printer.hpp"

namespace tg::codegen {

CompiledGraph::~CompiledGraph() {
    try {
        if (session_) session_->remove(module_);
    } catch (...) {
        // releasing code cannot fail in a way the program could act on
    }
}

std::vector<stdlib::Tensor> CompiledGraph::run(std::span<const stdlib::Tensor> inputs, tracer::RunContext& ctx) const {
    const tracer::Graph& g = *graph_;
    CallFrame frame;
    frame.graph = &g;
    frame.run = &ctx;
    frame.slots.resize(g.num_values());
    const tracer::Region& body = g.region(tracer::Graph::kBody);
    size_t k = 0;
    for (tracer::ValueId a : body.args) {
        if (g.type(a).token) continue;
        if (k >= inputs.size()) throw tracer::RuntimeError("compiled graph: too few inputs", {});
        frame.slots[a] = inputs[k++];
    }
    if (k != inputs.size()) throw tracer::RuntimeError("compiled graph: too many inputs", {});
    if (fn_(&frame) != 0) std::rethrow_exception(frame.error);
    const tracer::Node& y = g.node(body.nodes.back());
    std::vector<stdlib::Tensor> out;
    for (tracer::ValueId v : y.operands)
        if (!g.type(v).token) out.push_back(std::move(frame.slots[v]));
    return out;
}

Compiler::Compiler(JitOptions options) : options_(std::move(options)) {}
Compiler::~Compiler() = default;

const JitStats& Compiler::stats() {
    static const JitStats none;
    return session_ ? session_->stats() : none;
}

namespace {
// A symbol-safe version of a tg function name.
std::string symbol_part(const std::string& name) {
    std::string s;
    for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    return s;
}
}  // namespace

std::unique_ptr<CompiledGraph> Compiler::compile(const tracer::Graph& g, const std::string& name) {
    const auto t0 = std::chrono::steady_clock::now();
    double session_ms = 0;
    if (!session_) {
        session_ = JitSession::create(options_, runtime_symbols());
        session_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    const std::string entry = "tg_" + symbol_part(name) + "_" + std::to_string(next_id_++);
    Lowered low;
    try {
        low = lower_graph(g, entry, options_.count_iterations);
    } catch (const std::exception& e) {
        throw CodegenError(std::string("cannot lower the graph of `") + name + "`: " + e.what() + "\n" +
                           tracer::print_graph(g));
    }
    // Debugging aid: TG_DUMP_LLVM=DIR writes each module's LLVM IR (before
    // optimization) to DIR/<symbol>.ll; `opt-19 -O2 -mcpu=native` reproduces
    // what the session does with it.
    if (const char* dir = std::getenv("TG_DUMP_LLVM"); dir && *dir) std::ofstream(std::string(dir) + "/" + entry + ".ll") << low.ir;
    auto out = std::unique_ptr<CompiledGraph>(new CompiledGraph());
    const uint64_t hits = session_->stats().cache_hits;
    const double optimized = session_->stats().optimize_ms;
    const double generated = session_->stats().codegen_ms;
    try {
        out->module_ = session_->add_ir(low.ir, options_.object_cache ? low.ir : std::string());
        out->fn_ = reinterpret_cast<int32_t (*)(void*)>(session_->lookup(entry));
    } catch (const CodegenError& e) {
        throw CodegenError(std::string("cannot compile the graph of `") + name + "`: " + e.what() + "\n" +
                           tracer::print_graph(g) + "\n" + low.ir);
    }
    out->session_ = session_;
    out->graph_ = &g;
    out->stats_ = low.stats;
    out->from_cache_ = session_->stats().cache_hits > hits;
    out->optimize_ms_ = session_->stats().optimize_ms - optimized;
    out->codegen_ms_ = session_->stats().codegen_ms - generated;
    out->session_ms_ = session_ms;
    out->compile_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace tg::codegen
