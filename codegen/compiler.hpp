// Compiling graphs: lowering (codegen/lower.hpp) + the JIT session, and
// running the compiled code with the same contract as the reference
// interpreter's run_graph. One Compiler per interpreter (no global state).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "codegen/jit_session.hpp"
#include "codegen/lower.hpp"
#include "stdlib/tensor.hpp"
#include "tracer/graph.hpp"
#include "tracer/graph_interpreter.hpp"

namespace tg::codegen {

// The native code of one concrete function. Releasing it releases the code
// (the module's ORC ResourceTracker).
class CompiledGraph {
public:
    ~CompiledGraph();
    CompiledGraph(const CompiledGraph&) = delete;
    CompiledGraph& operator=(const CompiledGraph&) = delete;

    // Same contract as tracer::run_graph: inputs bound to the graph's tensor
    // inputs, returns what its body yields; throws tracer::RuntimeError (or
    // whatever the RunContext callbacks throw).
    std::vector<stdlib::Tensor> run(std::span<const stdlib::Tensor> inputs, tracer::RunContext& ctx) const;

    const LoweringStats& stats() const { return stats_; }
    double compile_ms() const { return compile_ms_; }      // lowering + LLVM (or an object cache hit)
    double optimize_ms() const { return optimize_ms_; }    // of which LLVM's O2 pipeline
    double codegen_ms() const { return codegen_ms_; }      // of which instruction selection and emission
    double session_ms() const { return session_ms_; }      // of which creating the JIT (first compile only)
    bool from_cache() const { return from_cache_; }

private:
    friend class Compiler;
    CompiledGraph() = default;
    std::shared_ptr<JitSession> session_;
    JitSession::ModuleId module_ = 0;
    int32_t (*fn_)(void*) = nullptr;
    const tracer::Graph* graph_ = nullptr;
    LoweringStats stats_;
    double compile_ms_ = 0;
    double optimize_ms_ = 0;
    double codegen_ms_ = 0;
    double session_ms_ = 0;
    bool from_cache_ = false;
};

class Compiler {
public:
    explicit Compiler(JitOptions options);
    ~Compiler();

    // Compiles g (which must outlive the result). `name` is the tg function's
    // name (for the symbol). Throws CodegenError with the graph and the LLVM
    // IR in the message: a failure to compile is a bug in tg.
    std::unique_ptr<CompiledGraph> compile(const tracer::Graph& g, const std::string& name);

    const JitStats& stats();

private:
    JitOptions options_;
    std::shared_ptr<JitSession> session_;  // created on first use
    int next_id_ = 0;
};

}  // namespace tg::codegen
