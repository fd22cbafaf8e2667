// Compiling graphs: lowering (codegen/lower.hpp) + the JIT session, and
// running the compiled code with the same contract as the reference
// interpreter's run_graph. One Compiler per interpreter (no global state).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "codegen/background.hpp"
#include "codegen/jit_session.hpp"
#include "codegen/lower.hpp"
#include "codegen/session_slot.hpp"
#include "stdlib/tensor.hpp"
#include "tracer/graph.hpp"
#include "tracer/graph_interpreter.hpp"

namespace tg::codegen {

// The native code of one concrete function. Releasing it releases the code
// (the module's ORC ResourceTracker); releasing it while it still compiles in
// the background drops the job, or waits for it if LLVM is already at work.
class CompiledGraph {
public:
    ~CompiledGraph();
    CompiledGraph(const CompiledGraph&) = delete;
    CompiledGraph& operator=(const CompiledGraph&) = delete;

    // Whether the native code can run. Always true for a graph compiled with
    // Tiering::Wait; one compiling in the background becomes ready when the
    // worker is done (callers run the reference interpreter meanwhile).
    // Throws CodegenError if the background compile failed (a bug in tg).
    bool ready();
    // True once, on the first ready() that found a background compile
    // finished (for `--trace`).
    bool take_ready_news();

    // Same contract as tracer::run_graph: inputs bound to the graph's tensor
    // inputs, returns what its body yields; throws tracer::RuntimeError (or
    // whatever the RunContext callbacks throw). Only when ready().
    std::vector<stdlib::Tensor> run(std::span<const stdlib::Tensor> inputs, tracer::RunContext& ctx) const;

    const LoweringStats& stats() const { return stats_; }
    bool background() const { return background_; }     // compiled on the worker thread
    double lower_ms() const { return lower_ms_; }         // lowering to LLVM IR
    // LLVM's share (parse, O2, codegen, link; or the cache load): known once ready().
    const ModuleTimes& llvm_times() const { return times_; }
    double compile_ms() const { return session_ms_ + lower_ms_ + times_.total_ms; }
    // creating the JIT (first compile only; for one in the background, on the worker: known once ready())
    double session_ms() const { return session_ms_; }
    bool from_cache() const { return times_.cache_hit; }

private:
    friend class Compiler;
    CompiledGraph() = default;
    std::shared_ptr<JitSession> session_;  // of module_ (null while in the background without one)
    std::shared_ptr<CompileJob> job_;  // while compiling in the background
    JitSession::ModuleId module_ = 0;
    int32_t (*fn_)(void*) = nullptr;
    const tracer::Graph* graph_ = nullptr;
    LoweringStats stats_;
    ModuleTimes times_;
    double lower_ms_ = 0;
    double session_ms_ = 0;
    bool background_ = false;
    bool news_ = false;
    int threads_ = 1;  // JitOptions::threads, resolved
};

// How a compile may proceed (Compiler::compile).
enum class Tiering {
    Wait,        // compile now; the result is ready on return
    Background,  // if the graph's work is small and bounded, and the object cache misses or the JIT session
                 // is not made yet: compile (or load) on the worker thread while the caller runs the
                 // interpreter (JitOptions::background)
};

class Compiler {
public:
    // `make_session`: how the JIT session is made, on first need (default:
    // JitSession::create with the runtime symbols; codegen/session_slot.hpp).
    explicit Compiler(JitOptions options, SessionFactory make_session = {});
    ~Compiler();

    // Compiles g (which must outlive the result). `name` is the tg function's
    // name (for the symbol). Throws CodegenError with the graph and the LLVM
    // IR in the message: a failure to compile is a bug in tg.
    std::unique_ptr<CompiledGraph> compile(const tracer::Graph& g, const std::string& name,
                                           Tiering tiering = Tiering::Wait);

    // Called when a program is seen to use @graph (the resolver), before
    // anything is compiled: starts the worker thread and has it make the JIT
    // session (loading the JIT plugin), so that a first call that comes
    // late enough finds the session made (a cached object then loads at
    // once and the call runs native code) and one that comes earlier does
    // not wait for it (docs/performance.md "Compiled code"). With
    // JitOptions::background off it only prefetches the plugin.
    void prefetch();

    JitStats stats();

    // The threads compiled loops may use (JitOptions::threads, resolved).
    int threads() const { return options_.threads; }

private:
    // Queues the module on the worker; `session` may be null (the worker makes it).
    std::unique_ptr<CompiledGraph> in_background(std::unique_ptr<CompiledGraph> out, std::string ir,
                                                 const std::string& entry, std::string key,
                                                 std::shared_ptr<JitSession> session);
    // Compiles on the worker while this thread waits checking the limits (stdlib/budget.hpp).
    void compile_watched(CompiledGraph& out, const std::string& ir, const std::string& entry, std::string key,
                         const std::string& name);

    JitOptions options_;
    std::shared_ptr<SessionSlot> session_;  // made on first need, by this thread or the worker
    int next_id_ = 0;
    bool prefetched_ = false;
    // Declared last: destroyed first, so its thread stops before the session goes.
    std::unique_ptr<CompileWorker> worker_;
};

}  // namespace tg::codegen
