// tg — the embedding API (docs/embedding.md). This header is the whole public surface:
// it exposes no Spirit, LLVM or internal types.
//
//   tg::Interpreter interp({.write_output = [](std::string_view s) { std::cout << s; }});
//   interp.run_source("def f(x):\n    return x * 2\n");
//   tg::Value y = interp.call("f", {tg::Tensor::scalar(21.0)});
//   std::cout << y.as_tensor().item() << "\n";   // 42
//
// Ownership: every handle here (Interpreter, Tensor, Value) owns what it
// refers to; copies of Tensor and Value share the data (value semantics: tg
// never changes a tensor behind your back). A Value holding a tg function
// or module is valid only while its Interpreter lives.
// Threads: one Interpreter must be used by one thread at a time; different
// Interpreters are independent (no global state) and may run in parallel.
#pragma once

#include <atomic>
#include <cstddef>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tg {

namespace detail {
struct Access;  // the library's own access to the handles' internals
}

enum class DType : uint8_t { Bool, I32, I64, F32, F64 };
const char* dtype_name(DType d);  // "bool", "i32", "i64", "f32", "f64"
size_t dtype_size(DType d);

// Every tg error: a syntax error, a runtime error in a script, an error in a
// host function, or a limit reached. Carries the message, the location and
// the tg traceback (innermost first, ending with "in <module> (...)").
class Error : public std::runtime_error {
public:
    struct Frame {
        std::string function;  // "f", "<lambda>", "<module>"
        std::string file;
        int line = 0, col = 0;
    };
    Error(std::string message, std::string file, int line, int col, std::vector<Frame> traceback,
          std::string rendered);
    const std::string& message() const { return message_; }
    const std::string& file() const { return file_; }  // "" when there is no location
    int line() const { return line_; }                 // 1-based; 0 when unknown
    int col() const { return col_; }
    const std::vector<Frame>& traceback() const { return traceback_; }
    // The full report as `tg` prints it: "file:line:col: error: message", the
    // source line with a caret, and the "  in f (file:line:col)" lines.
    const std::string& rendered() const { return rendered_; }

private:
    std::string message_, file_;
    int line_, col_;
    std::vector<Frame> traceback_;
    std::string rendered_;
};

// A dense n-dimensional tensor. Copies share the data.
class Tensor {
public:
    Tensor();  // the f32 scalar 0.0
    static Tensor scalar(double v, DType dtype = DType::F32);
    static Tensor scalar(int64_t v, DType dtype = DType::I64);
    static Tensor scalar(bool v);
    // Copies `data` (C-contiguous, shape.product() elements of dtype; the
    // caller guarantees that many are there — prefer from_floats when the
    // length is known).
    static Tensor copy_of(const void* data, DType dtype, std::vector<int64_t> shape);
    // Copies `data`, whose length must be shape.product() (else tg::Error).
    static Tensor from_floats(std::span<const float> data, std::vector<int64_t> shape);
    // Wraps host memory WITHOUT copying: `data` must stay valid until `release`
    // runs (when the last tensor using it is gone; `release` may be empty if
    // the memory outlives every interpreter and tensor). `strides` are in
    // elements; empty means C-contiguous. tg never writes into wrapped memory:
    // an in-place update copies first.
    static Tensor wrap(void* data, DType dtype, std::vector<int64_t> shape, std::function<void()> release = {},
                       std::vector<int64_t> strides = {});

    DType dtype() const;
    std::vector<int64_t> shape() const;
    int rank() const;
    int64_t size() const;  // number of elements
    // Pointer to the elements in C-contiguous order, valid while this Tensor
    // lives. No copy when the tensor is already contiguous (the usual case);
    // otherwise this handle first becomes a contiguous copy.
    const void* data() const;
    // The elements as T (bool, int32_t, int64_t, float, double), which must be
    // the tensor's dtype: throws tg::Error otherwise (no conversion).
    template <class T> const T* data_as() const {
        require_dtype(dtype_of<T>());
        return static_cast<const T*>(data());
    }
    // The DType of a C++ element type.
    template <class T> static constexpr DType dtype_of() {
        static_assert(std::is_same_v<T, bool> || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                          std::is_same_v<T, float> || std::is_same_v<T, double>,
                      "tg tensors hold bool, int32_t, int64_t, float or double");
        if constexpr (std::is_same_v<T, bool>) return DType::Bool;
        else if constexpr (std::is_same_v<T, int32_t>) return DType::I32;
        else if constexpr (std::is_same_v<T, int64_t>) return DType::I64;
        else if constexpr (std::is_same_v<T, float>) return DType::F32;
        else return DType::F64;
    }
    // The single element (size() must be 1), converted.
    double item() const;
    std::string str() const;   // as print() shows it: "[1.0, 2.0]"
    std::string repr() const;  // "tensor([1.0, 2.0], shape=(2,), dtype=f32)"

private:
    friend struct detail::Access;
    friend class Value;
    struct Impl;
    explicit Tensor(std::shared_ptr<Impl> impl);
    void require_dtype(DType d) const;  // throws tg::Error unless dtype() == d
    std::shared_ptr<Impl> impl_;
};

// Any tg value: a tensor, list, tuple, str, function, dtype, None, module,
// dict, set, graph (what `concrete` and `load` of a .tgx give: callable) or
// spec (an argument spec such as `f32[3,4]`).
class Value {
public:
    enum class Kind { None, Tensor, List, Tuple, Str, Function, DType, Module, Dict, Graph, Spec, Set };
    Value();  // None
    Value(Tensor t);          // NOLINT: implicit on purpose
    Value(double v);          // NOLINT: a number like the literal `2.5` in tg (weak: f32 unless combined)
    Value(int64_t v);         // NOLINT: a number like the literal `3` in tg (weak: i64 unless combined)
    Value(int v) : Value(static_cast<int64_t>(v)) {}  // NOLINT
    Value(bool v);            // NOLINT
    Value(std::string s);     // NOLINT
    Value(const char* s) : Value(std::string(s)) {}  // NOLINT
    static Value list(std::vector<Value> items);
    static Value tuple(std::vector<Value> items);
    // A dict of the (key, value) pairs, in order; a repeated key keeps its
    // first place and takes the last value. Keys are strs or integers;
    // throws tg::Error otherwise.
    static Value dict(std::vector<std::pair<Value, Value>> entries);
    // A set of the elements (strs or integers; a repeated one is kept once),
    // iterated in sorted order as in tg (docs/language.md "Sets"); throws
    // tg::Error for any other element.
    static Value set(std::vector<Value> elements);

    Kind kind() const;
    bool is_tensor() const { return kind() == Kind::Tensor; }
    bool is_none() const { return kind() == Kind::None; }
    Tensor as_tensor() const;            // throws tg::Error if not a tensor
    std::string as_string() const;       // throws tg::Error if not a str
    std::vector<Value> items() const;    // of a list or tuple, or a set's elements in order; throws otherwise
    std::vector<std::pair<Value, Value>> entries() const;  // (key, value) of a dict, in order; throws otherwise
    std::string str() const;             // str(x) in tg
    std::string repr() const;            // repr(x) in tg

private:
    friend struct detail::Access;
    struct Impl;
    explicit Value(std::shared_ptr<Impl> impl);
    std::shared_ptr<Impl> impl_;
};

// A C++ function callable from tg. Throw tg::HostError (or any
// std::exception) to report an error: it is located at the tg call site.
using HostFunction = std::function<Value(std::span<const Value> args)>;
struct HostError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A module found by a module loader: `path` is its name in errors and
// tracebacks (and the key that makes it load once per interpreter), `source`
// its tg source text.
struct ModuleSource {
    std::string path;
    std::string source;
};
// Finds module `name` for `import name` in the module whose path is
// `importer` ("" for the main script given as text). Returns the module, or
// std::nullopt ("no module named `name`"); may throw tg::HostError (or any
// std::exception) to fail the import with its message, located at the import.
using ModuleLoader = std::function<std::optional<ModuleSource>(const std::string& name, const std::string& importer)>;

// The default loader (docs/language.md), which the tg command uses: `name`.tg in the
// importing file's folder, then in `module_paths`, then (if `use_tg_path`) in
// the folders of $TG_PATH.
ModuleLoader file_module_loader(std::vector<std::string> module_paths = {}, bool use_tg_path = true);

// When a @graph function called with varying sizes is traced once with
// those dimensions dynamic instead of once per shape (docs/graph.md "Signatures, the cache", docs/graph.md
// "Dynamic dimensions").
enum class DynamicShapes {
    Auto,    // after 3 traces that differ only in sizes
    Always,  // from the first trace, every dimension of size >= 2 (for testing tg)
    Never,   // one trace per shape
};

struct Options {
    // Where print() writes. The interpreter never writes to stdout itself;
    // without a callback, output is dropped.
    std::function<void(std::string_view)> write_output;
    // Whether write_output draws on a terminal: the tg builtin isatty()
    // returns it (a progress bar redraws its line in place on a terminal and
    // writes plain lines elsewhere: nn.progress, docs/training.md). The tg
    // command sets it from isatty(1); a host that writes to a terminal sets it.
    bool output_is_terminal = false;
    // display(x) in tg code (docs/builtins.md): a notebook shows x richly
    // (cli/kernel, docs/notebooks.md). Without a callback, display writes
    // repr(x) and a newline to write_output, as the REPL echoes a value.
    std::function<void(const Value&)> display;
    // Diagnostic logs (--trace). Without a callback they are dropped.
    std::function<void(std::string_view)> write_log;
    // Tracer switches (docs/graph.md "Flags").
    bool eager = false;     // run @graph functions eagerly
    bool trace = false;     // log every trace and retrace
    bool no_jit = false;    // run graphs with the reference graph interpreter
    bool no_cache = false;  // do not use the persistent cache of compiled code
    std::string cache_dir;  // where compiled code is cached; "" = $TG_CACHE_DIR, $XDG_CACHE_HOME/tg, ~/.cache/tg
    // Compile every graph before its first call. By default a graph with no
    // `while` and little work starts on the graph interpreter while it
    // compiles on a background thread (same results either way).
    bool sync_jit = false;
    // Threads a compiled fused loop or reduction over a large tensor may be
    // split over (they run on one pool of worker threads per process, sized
    // to the machine). 0 = $TG_NUM_THREADS if it is a positive integer, else
    // the machine's hardware threads. Results never depend on it.
    int threads = 0;
    DynamicShapes dynamic_shapes = DynamicShapes::Auto;
    bool verify = false;    // run each @graph call both ways and compare
    std::string dump_graphs_dir;
    // Limits: an untrusted script ends with a located tg::Error instead of
    // hanging or exhausting the host; the interpreter stays usable after it.
    // A "run" is one outermost call of run_file, run_source, run_interactive,
    // run_traced, call or call_value (a host function calling back into the
    // interpreter is part of the run that called it).
    int max_call_depth = 1000;
    int64_t max_steps = 0;  // statements and loop iterations per run; 0 = no limit
    // Bytes this interpreter holds at once: tensor data (eager, graph
    // interpreter and compiled code alike; host memory given with
    // Tensor::wrap is not counted) and, approximately, lists, tuples, dicts
    // and strings (docs/embedding.md "Limits" says how). The allocation that
    // would pass it fails with "memory limit exceeded: ..." before taking any
    // memory. 0 = no limit.
    int64_t max_memory_bytes = 0;
    // Wall time per run, in seconds (tracing and compiling included); 0 = no
    // limit. Checked like the interrupt.
    double max_seconds = 0;
    // Interrupt: when the host sets *interrupt to true (from a SIGINT handler
    // or a watchdog thread), the running code stops with the tg::Error
    // "interrupted". The flag and the deadline are checked before every
    // tensor op, at every graph node and every compiled loop back edge (in
    // batches of ~1 ms), while LLVM compiles, and by elapsed work inside
    // every builtin that loops over elements: they act within a few
    // milliseconds, or after the one op running (a single op is never cut).
    // The host owns the flag, clears it, and keeps it alive as long as the
    // interpreter.
    const std::atomic<bool>* interrupt = nullptr;
    // Modules: every `import` goes through load_module. Without one, the
    // file system as file_module_loader(module_paths, use_tg_path) does it:
    // `import util` looks in the importing file's folder, then in
    // module_paths, then (if use_tg_path) in $TG_PATH. allow_import = false makes every import an error;
    // imports are governed by these options only, not by allow_files / file_root (docs/embedding.md "Files").
    ModuleLoader load_module;
    bool allow_import = true;
    bool use_tg_path = true;
    std::vector<std::string> module_paths;
    // Files a script reads and writes (load, save, loadtxt; docs/builtins.md):
    // allow_files = false makes each an error; with a file_root, relative
    // paths are taken from it and every path must stay inside it — `..`, an absolute path elsewhere, or a
    // symlink that leads out (or nowhere) is an error, also while folders inside are swapped meanwhile; only
    // regular files are read (a FIFO is an error); save does not replace a read-only file.
    bool allow_files = true;
    std::string file_root;
    // Script arguments: the tg list `argv`.
    std::vector<std::string> argv;
    // Debugging (docs/debugging.md). breakpoint() in tg code stops under an
    // attached debugger (Interpreter::attach_debugger); with none attached it
    // calls on_breakpoint, which may attach one (the tg command attaches its
    // terminal debugger when stdin is a terminal), else does nothing.
    // breakpoints = false makes breakpoint() do nothing (TG_BREAKPOINT=0).
    bool breakpoints = true;
    std::function<void()> on_breakpoint;
    // The first operation whose float result holds a NaN or inf that its
    // inputs did not is an error located at its line, in eager and compiled
    // code alike (JAX's jax_debug_nans); under a debugger it stops there.
    bool debug_nans = false;
};

// One completion candidate (Interpreter::complete): the text to insert, what
// it names ("variable", "function", "module", "builtin", "keyword",
// "method", "attribute") and, for builtins and methods, the signature the
// builtin reference shows.
struct Completion {
    std::string text;
    std::string kind;
    std::string detail;
};
struct Completions {
    size_t start = 0, end = 0;  // the bytes of the code the candidates replace (the word at the cursor)
    std::vector<Completion> items;
};

class Debugger;
struct BreakpointSpec;
struct BreakpointInfo;

class Interpreter {
public:
    explicit Interpreter(Options options = {});
    ~Interpreter();
    Interpreter(Interpreter&&) noexcept;
    Interpreter& operator=(Interpreter&&) noexcept;
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    // Run a file or source text as (more of) the main module; its top-level
    // variables stay available to later runs and to get(). Throws tg::Error.
    void run_file(const std::string& path);
    void run_source(std::string_view source, std::string_view name = "<string>");
    // The REPL's form: like run_source, and `echo` receives each top-level
    // expression statement's value.
    void run_interactive(std::string_view source, std::string_view name,
                         const std::function<void(const Value&)>& echo);
    // The REPL's form under docs/repl.md's tracing toggle (`:trace on`): the input
    // is traced into one graph whose free variables (the main-module
    // variables it reads) are its inputs; the graph is logged (write_log),
    // run, and released, and the variables the input assigns are set from
    // its results. Each top-level expression statement's value is echoed as
    // the REPL shows it (repr and a newline) to write_output, in order with
    // print()'s output. What cannot be traced (a `def`, an `import`, a host
    // function...) runs eagerly, with a one-line note in the log. Output,
    // variables and errors are the same as run_interactive's.
    void run_traced(std::string_view source, std::string_view name);

    // Variables of the main module.
    bool has(std::string_view name) const;
    Value get(std::string_view name) const;  // throws tg::Error if not defined
    void set(std::string_view name, Value v);
    std::vector<std::string> variables() const;  // defined names, sorted
    std::vector<std::string> builtin_names() const;  // builtins and host functions, sorted

    // Editor services (docs/repl.md "Completion and help"). complete: the
    // candidates for the word at byte `cursor` of `code` — names in scope,
    // keywords and builtins; after `.`, the members of the value the dotted
    // name before it holds (a module's names, a tensor's methods, a list's,
    // dict's or string's). Nothing is run: a receiver that is not a plain
    // (dotted) variable gets every kind's methods.
    Completions complete(std::string_view code, size_t cursor) const;
    // help(name): the builtin reference's signatures and line for a builtin
    // (or method: "x.reshape", "reshape"); a function of the session: its
    // signature and leading comment. "" when nothing is known.
    std::string help(std::string_view name) const;

    // Call a tg function (plain or @graph) by name, or a function value.
    Value call(std::string_view function, std::vector<Value> args);
    Value call_value(const Value& function, std::vector<Value> args);

    // Make a C++ function callable from tg as `name(...)` (also as a method:
    // x.name(...) calls name(x, ...)). Define before running code that uses it.
    void define(std::string name, HostFunction fn);

    // Bytes this interpreter holds now, as max_memory_bytes counts them: its
    // variables, and tensors it made that the host still holds.
    int64_t memory_bytes() const;

    void set_eager(bool on);  // the :eager switch
    void set_trace(bool on);  // the :trace switch: log every trace with its graph (to write_log)
    // The traced graphs of the @graph function `name` (a main-module variable),
    // one text per cached signature, oldest first: the IR text, or Graphviz
    // DOT when `dot`. Throws tg::Error if `name` is not a @graph function.
    std::vector<std::string> graphs(std::string_view name, bool dot = false) const;

    // ---- debugging (include/tg/debug.hpp, docs/debugging.md "For C++ hosts")
    // Attaches `d` (null: detaches): it is called when the program stops.
    // Breakpoints and settings stay across attach and detach.
    void attach_debugger(Debugger* d);
    int add_breakpoint(BreakpointSpec b);  // returns its id (1, 2, ...)
    bool remove_breakpoint(int id);
    void clear_breakpoints();
    bool enable_breakpoint(int id, bool on);
    std::vector<BreakpointInfo> breakpoints() const;
    void set_stop_on_entry(bool on);  // stop before the next run's first statement
    void set_stop_on_raise(bool on);  // stop where an error is raised, in its frame (post-mortem)
    void set_debug_events(unsigned mask);  // Debugger::Event bits: also call Debugger::event
    // Stops the running program at its next statement, or in compiled code
    // within ~1 ms (a DebugFrame with is_compiled()). Safe from any thread
    // while a debugger is attached.
    void request_pause();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A saved graph (docs/language.md "Graphs as values": a .tgx file from `save` or `tg export`), loaded
// for running from C++ — no source file, no parser, no interpreter. It runs
// as compiled native code, through the same JIT and object cache as @graph
// calls (or on the reference graph interpreter with no_jit).
//
//   tg::Graph g = tg::Graph::load("model.tgx");
//   std::vector<tg::Tensor> ys = g.run({x, w});
//
// Threads: run() is safe to call from any number of threads at once on one
// Graph (a server): each call has its own state. Copies share the loaded
// graph and its code, which live until the last copy goes.
// How tg::Graph loads and runs a graph.
struct GraphOptions {
    bool no_jit = false;     // run on the reference graph interpreter instead of compiled code
    bool no_cache = false;   // do not use the persistent cache of compiled code
    std::string cache_dir;   // "" = $TG_CACHE_DIR, $XDG_CACHE_HOME/tg, ~/.cache/tg
    int threads = 0;         // as Options::threads (per run() call; concurrent runs share the pool)
    // Where the graph's print nodes write (called from the thread that
    // runs it; make it thread-safe when running from several threads).
    // Without a callback, output is dropped.
    std::function<void(std::string_view)> write_output;
    // Seed of the random stream each run() starts from (random ops draw
    // from it as a fresh interpreter's stream would after seed(rng_seed)).
    uint64_t rng_seed = 0;
};

class Graph {
public:
    struct Spec {
        std::string name;  // the parameter it feeds ("x", "xs[1]"), a weight's path ("l1/w") or the result part ("result[0]")
        DType dtype;
        std::vector<int64_t> shape;  // -1 for a dynamic dimension
        // Per axis: "" for a static one, else the dynamic dimension's name
        // ("batch"): any size, equal for equal names (docs/deploying.md
        // "Dynamic dimensions"). Empty when every dimension is static.
        std::vector<std::string> dims;
    };
    // Throws tg::Error: the file cannot be read, is not a .tgx file, is
    // truncated, corrupted, or from a newer format.
    static Graph load(const std::string& path, GraphOptions options = {});
    static Graph from_bytes(std::span<const std::byte> bytes, GraphOptions options = {});

    const std::string& name() const;  // the traced function's name
    // One spec per tensor input, in the order run() takes them; the outputs
    // in the order run() returns them (a result's tuple flattened).
    const std::vector<Spec>& inputs() const;
    const std::vector<Spec>& outputs() const;
    // Runs the graph. Each input must match its spec's dtype and shape — a
    // dynamic dimension any size from min_size(name) on, equal wherever its
    // name appears (tg::Error naming the input otherwise); run-time errors of the graph
    // (a failed assert, an index out of range) are tg::Error with the
    // location in the source the graph was traced from.
    std::vector<Tensor> run(const std::vector<Tensor>& inputs) const;
    // The smallest size a dynamic dimension runs at: 1, or 2 when the traced
    // function computes differently at size 1 (a squeeze, a broadcast).
    int64_t min_size(const std::string& dim) const;

private:
    struct Impl;
    explicit Graph(std::shared_ptr<const Impl> impl);
    std::shared_ptr<const Impl> impl_;
};

const char* version();  // "0.2.0"

// Reports a crash of tg itself instead of dying silently (docs/embedding.md
// "Crashes"). Installs handlers of SIGSEGV, SIGBUS, SIGFPE, SIGILL and
// SIGABRT — signals no tg program should cause — that first call
// `flush_output` (null: C's stdout is flushed, unless another thread holds
// its lock), then write to stderr the tg source line the faulting thread
// was running (file:line:col, the line, the tg traceback) and a line saying
// this is a bug in tg; then the signal goes back to the handler that was
// there before (by default the process dies of it: exit status 128 + the
// signal in a shell). `flush_output` runs inside the signal handler: it
// may do only what is safe there (write(2)). The library installs nothing
// by itself: a host calls this once, at startup. The calling thread gets an
// alternate signal stack (a stack overflow is reported too); call it again
// on another thread that runs interpreters to give it one as well.
void install_fault_handler(void (*flush_output)() = nullptr);

}  // namespace tg
