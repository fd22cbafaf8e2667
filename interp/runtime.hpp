// The state of one interpreter: options, builtins, modules, the random
// generator and the limits. No global state: two Runtimes in one process are
// independent.
#pragma once

#include <atomic>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "interp/body_code.hpp"
#include "interp/values/cycles.hpp"
#include "interp/values/env_pool.hpp"
#include "interp/values/value.hpp"
#include "lang/ast.hpp"
#include "stdlib/budget.hpp"
#include "stdlib/file_open.hpp"
#include "stdlib/random.hpp"
#include "tracer/generalize.hpp"

namespace tg::codegen {
class Compiler;
}
namespace tg::lang {
struct ParseResult;
}

namespace tg::interp {

struct TraceState;
struct Tape;
struct Frame;
class Debugger;
class Error;
class Evaluator;

// What the resolver records about one variable slot.
struct SlotInfo {
    std::string name;
    std::vector<lang::Loc> assigned_at;  // the target Name of every assignment, in source order
};

// The resolver's facts about one function, lambda or comprehension (the
// FunctionInfo hook of lang/ast.hpp).
struct FunctionFacts : lang::FunctionInfo {
    std::string name;
    lang::SourcePtr source;
    std::vector<SlotInfo> slots;  // parameters first
    int num_params = 0;
    // A `*args`, `**kwargs` or keyword-only parameter: calls bind through
    // bind_star_parameters (interp/star_args.hpp).
    bool star_params = false;
    BodyCodeSlot body_code;  // a def's body compiled on its first call (interp/body_code.hpp)
    int num_slots() const { return static_cast<int>(slots.size()); }
};

// A module: the main script, an imported file, or the REPL's session.
struct ModuleState {
    std::string name;   // "util"; "<main>" for the script
    std::string path;   // the file ("" for source text)
    lang::SourcePtr source;
    std::vector<std::unique_ptr<lang::Module>> chunks;  // ASTs stay alive: functions point into them
    std::vector<Value> globals;
    std::vector<SlotInfo> global_info;
    std::unordered_map<std::string, int> index;
    bool loading = false;  // running its top level now (import cycle detection)

    int slot_of(const std::string& name);            // creates an undefined slot if needed
    int find(std::string_view name) const;           // -1 if unknown
};

// Where the interpreter's text goes (the host's callbacks).
using OutputFn = std::function<void(std::string_view)>;

struct Options {
    OutputFn write_output;  // print(); null: output is dropped
    OutputFn write_log;     // --trace logs; null: dropped
    std::function<void(const Value&)> display;  // display(x); null: repr(x) to write_output (tg::Options)
    bool output_is_terminal = false;  // write_output draws on a terminal: isatty() (tg::Options)
    bool eager = false, trace = false, no_jit = false, verify = false;
    bool no_cache = false;  // the persistent object cache of compiled code is off
    bool sync_jit = false;  // compile every graph before its first call (no background tier)
    int threads = 0;        // for large compiled loops; 0 = codegen::default_threads()
    tracer::DynamicShapes dynamic_shapes = tracer::DynamicShapes::Auto;  // tracer/generalize.hpp
    std::string cache_dir;  // "" = codegen::default_cache_dir()
    std::string dump_graphs_dir;
    int max_call_depth = 1000;
    int64_t max_steps = 0;  // statements + loop iterations per run; 0 = unlimited
    int64_t max_memory_bytes = 0;  // bytes of tensor data held (stdlib/budget.hpp); 0 = unlimited
    double max_seconds = 0;        // wall time per run; 0 = unlimited
    // Set to true by the host (e.g. from a SIGINT handler) to stop the running
    // code with the error "interrupted": checked at every op dispatch, every
    // graph node, compiled loop back edges and every kInterruptPoll steps.
    const std::atomic<bool>* interrupt = nullptr;
    bool allow_import = true;
    bool use_tg_path = true;  // also search the TG_PATH environment variable
    std::vector<std::string> module_paths;  // searched after the importing file's folder
    // Finds module `name` for `import name` in the module whose file is
    // `from_path` ("" for source text): sets `path` (the module's name in
    // errors and tracebacks, and the key that makes it load once) and `text`;
    // returns false when there is no such module. May throw Error (without a
    // location) to fail the import. Null: find_module_file (docs/language.md).
    std::function<bool(const std::string& name, const std::string& from_path, std::string& path, std::string& text)>
        load_module;
    // Files a script touches with load/save/loadtxt (check_file_path).
    bool allow_files = true;
    std::string file_root;  // "" = anywhere
    // Debugging (docs/debugging.md): breakpoint() stops only with `breakpoints`
    // on (TG_BREAKPOINT=0 turns it off), under an attached debugger, or after
    // on_breakpoint (the tg command's: attach its terminal debugger) attached one.
    bool breakpoints = true;
    std::function<void()> on_breakpoint;
    // The first op whose float result holds NaN or inf its inputs did not is
    // an error at its line (interp/debug/nan_check.cpp).
    bool debug_nans = false;
};

// The error of a failed parse (its first error; the others as notes).
Error syntax_error(const lang::ParseResult& r, const lang::SourcePtr& source);

// The file system's module loader (docs/language.md): `name`.tg in the importing
// file's folder, then in module_paths, then (if use_tg_path) in $TG_PATH.
// Throws Error "no module named ..." (listing the folders) when none has it.
void find_module_file(const std::string& name, const std::string& from_path, const std::vector<std::string>& module_paths,
                      bool use_tg_path, std::string& path, std::string& text);

// The one check of a path a script gives to a file builtin (load, save,
// loadtxt): files must be allowed, and with a file_root the path (relative
// paths are taken from the root) must stay inside it after resolving `..`
// and every symlink (a symlink that leads out, or leads nowhere, is an
// error). Returns the path to open; throws Error (without a location).
std::string check_file_path(const Options& options, const std::string& path);

// A checked path as it is opened: through a descriptor of the file root,
// relative to it (stdlib/file_open.hpp), so what check_file_path saw cannot
// be swapped for a way out before the open; without a root, as given.
struct FilePlace {
    stdlib::FileRoot root;
    std::string path;
};
FilePlace place_file(const Options& options, const std::string& path);

class Runtime {
public:
    explicit Runtime(Options options);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    Options options;
    stdlib::Rng rng;

    // ---- builtins: one table per interpreter (host functions can be added)
    int builtin_slot(std::string_view name) const;  // -1 if none
    const Value& builtin(int slot) const { return builtins_[slot]; }
    void define_builtin(const std::string& name, Value v);
    std::vector<std::string> builtin_names() const;

    // The one-character string of ASCII character c (`s[i]`, made once per
    // interpreter and shared, as CPython shares its one-character strings:
    // a string made per index was most of its cost). Not charged to the
    // memory limit (128 strings at most).
    const Value& ascii_char(unsigned char c);

    // ---- modules
    ModuleState& main_module() { return *main_; }
    // Parses, resolves and runs `text` as (a chunk of) module `m`. Throws Error.
    void run_chunk(ModuleState& m, lang::SourcePtr source);
    // The same, with an echo of expression statements (the REPL) and, for an
    // import, the importing statement (where the traceback continues).
    void run_chunk(ModuleState& m, lang::SourcePtr source, const std::function<void(const Value&)>* echo,
                   const lang::SourcePtr* from_source, lang::Loc from_loc);
    // `import name` from a module whose file is `from_path` ("" = current dir).
    ModuleState& import_module(const std::string& name, const std::string& from_path, const lang::SourcePtr& src,
                               lang::Loc loc);

    // ---- the @graph call being traced, or null (interp/tracing/trace.hpp)
    TraceState* trace = nullptr;

    // ---- the tapes of the grad calls running, innermost last (interp/autodiff/autodiff.hpp)
    std::vector<Tape*> tapes;
    uint64_t tape_serial = 0;
    uint64_t trace_serial = 0;  // numbers the traces (TraceState::serial)
    // ---- the vmap calls running, innermost last: their serials (from
    // tape_serial, so tapes and vmaps order by nesting; interp/batching/batching.hpp)
    std::vector<uint64_t> vmaps;
    // The source file of the builtin call running now (Evaluator::call): a
    // builtin that calls a tg function names its call site with it.
    const lang::SourcePtr* builtin_call_source = nullptr;
    // Sets builtin_call_source for one call (a builtin's, or a function
    // with a native body: grad(f)), and puts the caller's back.
    struct CallSourceScope {
        CallSourceScope(Runtime& rt, const lang::SourcePtr& source) : slot(rt.builtin_call_source), saved(slot) {
            slot = &source;
        }
        ~CallSourceScope() { slot = saved; }
        CallSourceScope(const CallSourceScope&) = delete;
        CallSourceScope& operator=(const CallSourceScope&) = delete;
        const lang::SourcePtr*& slot;
        const lang::SourcePtr* saved;
    };

    // ---- the innermost tg frame running (a function call or a module's top
    // level; linked to its callers), for the fault report only
    // (interp/fault_report.hpp); null when no tg code runs
    Frame* frames = nullptr;
    // The interpreter running on this thread (StackGuard sets it), or null:
    // what a fatal signal's handler reports (tg::install_fault_handler).
    static Runtime* running_on_this_thread();

    // ---- the attached debugger, or null (interp/debug/debugger.hpp); the
    // debugger's evaluations, parsed and resolved once (frame_eval.cpp)
    Debugger* debug = nullptr;
    void attach_debugger(Debugger* d);
    struct FrameCode {
        std::unique_ptr<lang::Module> chunk;
        std::unique_ptr<FunctionFacts> facts;  // null: a module's top level
    };
    std::map<std::string, std::unique_ptr<FrameCode>> frame_code;

    // ---- limits (the evaluator counts)
    int depth = 0;
    int64_t steps = 0;  // in the current run (reset by the outermost entry)
    // The evaluators running now (Evaluator's constructor links them).
    Evaluator* evaluators = nullptr;
    int entries = 0;    // API entries now running (nested when a host function calls back)
    // Tensor bytes held, deadline, interrupt (stdlib/budget.hpp): current on
    // the thread while this interpreter runs (StackGuard).
    stdlib::Budget* budget = nullptr;
    const char* stack_limit = nullptr;  // lowest safe native stack address (see stack_guard)

    // The JIT compiler of @graph functions (created on first use).
    codegen::Compiler& compiler();

    // Frames kept alive by closures after their call: reference cycles are
    // cut when garbage (interp/values/cycles.hpp).
    CycleCollector cycles;
    // Frames of finished calls, for the next calls (interp/values/env_pool.hpp).
    EnvPool env_pool;

    void write(std::string_view s) const {
        if (options.write_output) options.write_output(s);
    }

private:
    std::unique_ptr<codegen::Compiler> compiler_;
    std::vector<Value> builtins_;  // by slot: the initial builtins' (shared), then those defined later
    std::vector<Value> ascii_chars_;  // ascii_char's, made when first asked for
    const std::unordered_map<std::string, int>* initial_index_;  // slots of the initial builtins (runtime.cpp)
    std::unordered_map<std::string, int> builtin_index_;         // slots of builtins defined later
    std::unique_ptr<ModuleState> main_;
    std::map<std::string, std::unique_ptr<ModuleState>> modules_;  // by resolved path
};

// One entry into the interpreter; every API entry point holds one. Sets
// Runtime::stack_limit for the outermost entry on this thread (and restores
// it), so deep recursion in the evaluator becomes a tg error instead of a
// crash; makes the interpreter's Budget current on this thread, and the
// interpreter the one running on it (Runtime::running_on_this_thread); and,
// for the outermost entry (a run, not a host function calling back), starts
// the run's limits: the step count from 0 and the max_seconds deadline.
class StackGuard {
public:
    explicit StackGuard(Runtime& rt);
    ~StackGuard();
    StackGuard(const StackGuard&) = delete;
    StackGuard& operator=(const StackGuard&) = delete;

    // What the cache of freed large mappings keeps between runs.
    static constexpr size_t kIdleMappingBytes = size_t(32) << 20;

private:
    Runtime& rt_;
    const char* saved_;
    Runtime* saved_running_;
    stdlib::Budget::Scope budget_scope_;
};

}  // namespace tg::interp
