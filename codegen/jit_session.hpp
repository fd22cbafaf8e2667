// The JIT session: one LLVM ORC LLJIT per interpreter (no global state),
// the runtime symbols compiled code may call, an O2 pipeline tuned for the
// host CPU, and a persistent object cache so a script's second run skips
// compilation. No LLVM type appears here: LLVM lives in the JIT plugin
// (codegen/jit_engine.hpp), loaded by the first create().
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tg::codegen {

// A failure to compile is a bug in tg, never the user's fault: it carries
// the module that failed so the report can include it.
struct CodegenError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The JIT plugin could not be loaded (codegen/jit_plugin.hpp): tg is not
// installed whole, or a plugin from another build is in its place. Not a
// bug in tg; running without compiling (no_jit) avoids it.
struct JitUnavailable : CodegenError {
    using CodegenError::CodegenError;
};

// What the user reads when a compile failed: a missing plugin says where it
// was looked for; anything else is an internal error to report. Both say
// that --no-jit runs the program without compiling.
std::string compile_failure_text(const CodegenError& e);

// A C function compiled code may call (print, raise-error, RNG, BLAS, ...).
struct RuntimeSymbol {
    std::string name;
    void* address;
};

struct JitOptions {
    bool object_cache = true;  // `--no-cache` turns it off
    std::string cache_dir;     // empty: default_cache_dir()
    // Compiled loops report their iterations to the host (RunContext::
    // on_iterations) for step limits and interrupts. Off when the host has
    // neither: the loops then carry no counter at all.
    bool count_iterations = true;
    // Tiered compilation (codegen/background.hpp): graphs with no `while` and
    // at most this many element operations per run start on the reference
    // interpreter while they compile on a background thread. Off: every graph
    // is compiled before its first call (`tg run --sync-jit`).
    bool background = true;
    int64_t background_max_work = int64_t{1} << 22;
    // Threads a fused loop or reduction over a large tensor may be split
    // over (codegen/thread_pool.hpp); 0 = default_threads(). The results do
    // not depend on it (nor is it part of the object cache's key: the code
    // reads it from the CallFrame at run time).
    int threads = 0;
};

struct JitStats {
    uint64_t modules_compiled = 0;  // went through O2 and codegen
    uint64_t cache_hits = 0;        // loaded from the object cache
    double compile_ms = 0;          // total time in add_ir (optimize + codegen or cache load)
    double optimize_ms = 0;         // of which in the O2 pipeline
    double codegen_ms = 0;          // of which in instruction selection and object emission
};

// What compiling one module cost (add_ir).
struct ModuleTimes {
    double total_ms = 0;     // in add_ir: parse + optimize + codegen + link, or a cache load
    double optimize_ms = 0;  // LLVM's O2 pipeline
    double codegen_ms = 0;   // instruction selection and object emission
    bool cache_hit = false;
};

// $TG_CACHE_DIR, else $XDG_CACHE_HOME/tg, else ~/.cache/tg (then /tmp/tg-cache-UID).
std::string default_cache_dir();

class JitEngine;

class JitSession {
public:
    // Creates the LLJIT for the host CPU and defines the runtime symbols.
    // Loads the JIT plugin first if this process has not yet.
    // Throws CodegenError if the plugin or the host target cannot be set up.
    static std::unique_ptr<JitSession> create(const JitOptions& options, const std::vector<RuntimeSymbol>& runtime);
    ~JitSession();
    JitSession(const JitSession&) = delete;
    JitSession& operator=(const JitSession&) = delete;

    using ModuleId = uint64_t;

    // Compiles a module given as LLVM IR text. `cache_key` identifies its
    // content (e.g. a hash of the optimized tg graph); it is combined with the
    // LLVM version and the host CPU to key the object cache. An empty key
    // disables caching for this module. Throws CodegenError.
    // Thread-safe (calls are serialized): the background compile worker
    // (codegen/background.hpp) and the interpreter's thread share a session.
    ModuleId add_ir(std::string_view ir_text, std::string_view cache_key, ModuleTimes* times = nullptr);

    // Whether the object cache holds the module with this key (add_ir would
    // only load it).
    bool cached(std::string_view cache_key) const;

    // Address of a symbol a module defines; throws CodegenError if absent.
    void* lookup(std::string_view symbol);

    // Releases a module's code (its ORC ResourceTracker).
    void remove(ModuleId id);

    std::string host_cpu() const;
    std::string target_triple() const;
    JitStats stats() const;  // a snapshot

private:
    explicit JitSession(std::unique_ptr<JitEngine> engine);
    std::unique_ptr<JitEngine> engine_;
};

}  // namespace tg::codegen
