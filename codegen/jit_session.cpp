// codegen::JitSession: a thin handle on the engine of the LLVM JIT plugin
// (codegen/jit_engine.hpp), which codegen/jit_plugin.cpp loads on first use.
#include "codegen/jit_session.hpp"

#include <unistd.h>

#include <cstdlib>

#include "codegen/jit_engine.hpp"
#include "codegen/jit_plugin.hpp"

namespace tg::codegen {

std::string default_cache_dir() {
    if (const char* d = std::getenv("TG_CACHE_DIR"); d && *d) return d;
    if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::string(d) + "/tg";
    if (const char* d = std::getenv("HOME"); d && *d) return std::string(d) + "/.cache/tg";
    return "/tmp/tg-cache-" + std::to_string(::getuid());
}

std::string compile_failure_text(const CodegenError& e) {
    if (dynamic_cast<const JitUnavailable*>(&e))
        return std::string(e.what()) + "\n(--no-jit runs without it; docs/embedding.md \"What loads when\")";
    return std::string("internal error: ") + e.what() + "\n(please report this; --no-jit avoids it)";
}

JitSession::JitSession(std::unique_ptr<JitEngine> engine) : engine_(std::move(engine)) {}
JitSession::~JitSession() = default;

std::unique_ptr<JitSession> JitSession::create(const JitOptions& options, const std::vector<RuntimeSymbol>& runtime) {
    JitOptions resolved = options;
    if (resolved.object_cache && resolved.cache_dir.empty()) resolved.cache_dir = default_cache_dir();
    return std::unique_ptr<JitSession>(new JitSession(jit_plugin().create(resolved, runtime)));
}

JitSession::ModuleId JitSession::add_ir(std::string_view ir_text, std::string_view cache_key, ModuleTimes* times) {
    return engine_->add_ir(ir_text, cache_key, times);
}
bool JitSession::cached(std::string_view cache_key) const { return engine_->cached(cache_key); }
void* JitSession::lookup(std::string_view symbol) { return engine_->lookup(symbol); }
void JitSession::remove(ModuleId id) { engine_->remove(id); }
std::string JitSession::host_cpu() const { return engine_->host_cpu(); }
std::string JitSession::target_triple() const { return engine_->target_triple(); }
JitStats JitSession::stats() const { return engine_->stats(); }

}  // namespace tg::codegen
