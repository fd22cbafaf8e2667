#include "codegen/compiler.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>

#include "codegen/jit_plugin.hpp"
#include "codegen/runtime_abi.hpp"
#include "stdlib/budget.hpp"
#include "codegen/thread_pool.hpp"
#include "tracer/printer.hpp"

namespace tg::codegen {

CompiledGraph::~CompiledGraph() {
    try {
        if (job_) job_->abandon();
        else if (session_ && module_) session_->remove(module_);
    } catch (...) {
        // releasing code cannot fail in a way the program could act on
    }
}

bool CompiledGraph::ready() {
    if (fn_) return true;
    if (!job_ || !job_->finished.load(std::memory_order_acquire)) return false;
    const std::shared_ptr<CompileJob> job = std::move(job_);  // from now on the module is ours to release
    std::lock_guard lock(job->mutex);
    if (job->unavailable) throw JitUnavailable(job->error);  // the plugin, not this graph
    if (job->state == CompileJob::State::Failed)
        throw CodegenError("cannot compile the graph of `" + graph_->name() + "` (in the background): " + job->error +
                           "\n" + tracer::print_graph(*graph_) + "\n" + job->ir);
    session_ = job->session;
    session_ms_ = job->session_ms;
    module_ = job->module;
    fn_ = reinterpret_cast<int32_t (*)(void*)>(job->fn);
    times_ = job->times;
    news_ = true;
    return true;
}

bool CompiledGraph::take_ready_news() {
    const bool news = news_;
    news_ = false;
    return news;
}

std::vector<stdlib::Tensor> CompiledGraph::run(std::span<const stdlib::Tensor> inputs, tracer::RunContext& ctx) const {
    const tracer::Graph& g = *graph_;
    CallFrame frame;
    frame.graph = &g;
    frame.run = &ctx;
    frame.threads = threads_;
    frame.slots.resize(g.num_values());
    const tracer::Region& body = g.region(tracer::Graph::kBody);
    size_t k = 0;
    for (tracer::ValueId a : body.args) {
        if (g.type(a).token) continue;
        if (k >= inputs.size()) throw tracer::RuntimeError("compiled graph: too few inputs", {});
        frame.slots[a] = inputs[k++];
    }
    if (k != inputs.size()) throw tracer::RuntimeError("compiled graph: too many inputs", {});
    frame.sizes = g.symbol_sizes(inputs);  // dynamic dimensions: this call's sizes (tg_rt_dim, tg_rt_out)
    if (fn_(&frame) != 0) std::rethrow_exception(frame.error);
    const tracer::Node& y = g.node(body.nodes.back());
    std::vector<stdlib::Tensor> out;
    for (size_t i = 0; i < y.operands.size(); ++i) {
        const tracer::ValueId v = y.operands[i];
        if (g.type(v).token) continue;
        // a value yielded twice (`return y, y`, or two equal gradients merged
        // by cse) is moved out at its last use only
        const bool again = std::find(y.operands.begin() + long(i) + 1, y.operands.end(), v) != y.operands.end();
        out.push_back(again ? frame.slots[v] : std::move(frame.slots[v]));
    }
    return out;
}

Compiler::Compiler(JitOptions options, SessionFactory make_session) : options_(std::move(options)) {
    if (options_.threads <= 0) options_.threads = default_threads();
    if (!make_session)
        make_session = [jit = options_] { return JitSession::create(jit, runtime_symbols()); };
    session_ = std::make_shared<SessionSlot>(std::move(make_session));
}
Compiler::~Compiler() = default;

void Compiler::prefetch() {
    if (!options_.background) {
        prefetch_jit();
        return;
    }
    if (prefetched_ || session_->made()) return;
    prefetched_ = true;
    auto job = std::make_shared<CompileJob>();  // no entry: it only makes the session
    job->slot = session_;
    if (!worker_) worker_ = std::make_unique<CompileWorker>();
    worker_->submit(std::move(job));
    // The load itself is also asked of the process's prefetch, whose thread
    // the one running the program waits for at exit (stdlib/prefetch.hpp):
    // whichever thread loads the plugin, the other waits for it.
    prefetch_jit();
}

JitStats Compiler::stats() {
    const std::shared_ptr<JitSession> session = session_->made();
    return session ? session->stats() : JitStats{};
}

namespace {
// A symbol-safe version of a tg function name.
std::string symbol_part(const std::string& name) {
    std::string s;
    for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    return s;
}

double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

std::unique_ptr<CompiledGraph> Compiler::compile(const tracer::Graph& g, const std::string& name, Tiering tiering) {
    const auto t0 = std::chrono::steady_clock::now();
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
    out->graph_ = &g;
    out->stats_ = low.stats;
    out->threads_ = options_.threads;
    out->lower_ms_ = ms_since(t0);
    std::string key = options_.object_cache ? low.ir : std::string();  // the object cache's key: the IR itself

    bool tiered = false;
    if (tiering == Tiering::Background && options_.background) {
        const int64_t work = bounded_work(g);
        tiered = work >= 0 && work <= options_.background_max_work;
    }
    // No session yet (the JIT plugin may still be loading, docs/performance.md
    // "Compiled code"): a graph that may start on the interpreter does not
    // wait for it, whether its code is in the object cache or not. A plugin
    // known to be missing is reported now, by the call that compiles.
    std::shared_ptr<JitSession> session = session_->made();
    if (tiered && !session && !jit_load_failed())
        return in_background(std::move(out), std::move(low.ir), entry, std::move(key), nullptr);
    if (!session) session = session_->get(&out->session_ms_);  // waits for the plugin (throws JitUnavailable)
    out->session_ = session;
    if (tiered && !session->cached(key))
        return in_background(std::move(out), std::move(low.ir), entry, std::move(key), session);
    // Under a deadline or an interrupt (stdlib/budget.hpp) LLVM runs on the
    // worker thread and this one waits checking the limits: a long compile
    // is abandoned at the limit instead of running it out.
    const stdlib::Budget* budget = stdlib::Budget::current();
    if (budget && budget->watched() && !session->cached(key)) {
        compile_watched(*out, low.ir, entry, std::move(key), name);
        return out;
    }
    try {
        out->module_ = session->add_ir(low.ir, key, &out->times_);
        out->fn_ = reinterpret_cast<int32_t (*)(void*)>(session->lookup(entry));
    } catch (const CodegenError& e) {
        throw CodegenError(std::string("cannot compile the graph of `") + name + "`: " + e.what() + "\n" +
                           tracer::print_graph(g) + "\n" + low.ir);
    }
    return out;
}

std::unique_ptr<CompiledGraph> Compiler::in_background(std::unique_ptr<CompiledGraph> out, std::string ir,
                                                       const std::string& entry, std::string key,
                                                       std::shared_ptr<JitSession> session) {
    auto job = std::make_shared<CompileJob>();
    job->ir = std::move(ir);
    job->entry = entry;
    job->cache_key = std::move(key);
    job->slot = session_;
    job->session = std::move(session);
    out->job_ = job;
    out->background_ = true;
    if (!worker_) worker_ = std::make_unique<CompileWorker>();
    worker_->submit(std::move(job));
    return out;
}

void Compiler::compile_watched(CompiledGraph& out, const std::string& ir, const std::string& entry, std::string key,
                               const std::string& name) {
    auto job = std::make_shared<CompileJob>();
    job->ir = ir;
    job->entry = entry;
    job->cache_key = std::move(key);
    job->slot = session_;
    job->session = out.session_;
    if (!worker_) worker_ = std::make_unique<CompileWorker>();
    worker_->submit(job);
    wait_for_job(*job);  // throws LimitError (the job abandoned)
    std::lock_guard lock(job->mutex);
    if (job->state == CompileJob::State::Failed)
        throw CodegenError(std::string("cannot compile the graph of `") + name + "`: " + job->error + "\n" +
                           tracer::print_graph(*out.graph_) + "\n" + ir);
    out.module_ = job->module;
    out.fn_ = reinterpret_cast<int32_t (*)(void*)>(job->fn);
    out.times_ = job->times;
}

}  // namespace tg::codegen
