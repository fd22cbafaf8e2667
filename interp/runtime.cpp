#include "interp/runtime.hpp"
#include "interp/debug/debugger.hpp"
#include "interp/evaluator.hpp"

#include "interp/builtin_modules.hpp"

#include "codegen/compiler.hpp"


#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "interp/builtins/builtins.hpp"
#include "interp/error.hpp"
#include "interp/evaluator.hpp"
#include "lang/stack_bounds.hpp"
#include "interp/resolver.hpp"
#include "lang/parser.hpp"
#include "stdlib/npy.hpp"

namespace tg::interp {

namespace fs = std::filesystem;

int ModuleState::slot_of(const std::string& name) {
    auto [it, fresh] = index.try_emplace(name, static_cast<int>(globals.size()));
    if (fresh) {
        globals.emplace_back();
        global_info.push_back({name, {}});
    }
    return it->second;
}

int ModuleState::find(std::string_view name) const {
    auto it = index.find(std::string(name));
    return it == index.end() ? -1 : it->second;
}

namespace {

// The builtins every interpreter starts with (make_builtins), made once per
// process and shared: their values are immutable (a BuiltinObj is const, a
// constant tensor never changes), and making them was most of the cost of a
// new interpreter (docs/performance.md "Start-up"). A later entry of the
// same name replaces an earlier one, as define_builtin does.
struct InitialBuiltins {
    std::vector<Value> values;
    std::unordered_map<std::string, int> index;
};

const InitialBuiltins& initial_builtins() {
    static const InitialBuiltins table = [] {
        InitialBuiltins t;
        std::vector<std::pair<std::string, Value>> all = make_builtins();
        t.values.reserve(all.size());
        t.index.reserve(all.size());
        for (auto& [name, v] : all) {
            auto [it, fresh] = t.index.try_emplace(name, static_cast<int>(t.values.size()));
            if (fresh) t.values.push_back(std::move(v));
            else t.values[static_cast<size_t>(it->second)] = std::move(v);
        }
        return t;
    }();
    return table;
}

}  // namespace

Runtime::Runtime(Options opts)
    : options(std::move(opts)), budget(stdlib::Budget::create()), builtins_(initial_builtins().values),
      initial_index_(&initial_builtins().index), main_(std::make_unique<ModuleState>()) {
    main_->name = "<main>";
    // Python's __name__: "__main__" for the program (a host may set another,
    // as `tg export` does); an imported module's is its name
    main_->globals[static_cast<size_t>(main_->slot_of("__name__"))] = Value::str("__main__");
    budget->max_bytes = options.max_memory_bytes;
    budget->max_seconds = options.max_seconds;
    budget->interrupt = options.interrupt;
}

Runtime::~Runtime() {
    // Unreachable closure cycles would outlive the interpreter (and keep
    // their compiled code past the compiler): empty the trace caches (a trace
    // may hold its own function, cycles/drop_traces), drop the modules, then
    // cut the rest.
    {
        stdlib::Budget::Scope scope(budget);
        for (auto& [path, m] : modules_) cycles.drop_traces(m->globals);
        if (main_) cycles.drop_traces(main_->globals);
        modules_.clear();
        main_.reset();
        cycles.collect();
    }
    budget->close_mappings();  // freed tensor memory goes back to the system now
    budget->release();  // buffers still alive (held by the host) keep it until they go
}

codegen::Compiler& Runtime::compiler() {
    if (!compiler_) {
        codegen::JitOptions jo;
        jo.object_cache = !options.no_cache;
        jo.cache_dir = options.cache_dir;
        // only step limits and interrupts need compiled loops to count
        jo.count_iterations = options.max_steps > 0 || options.interrupt != nullptr || options.max_seconds > 0;
        jo.background = !options.sync_jit;
        jo.threads = options.threads;
        compiler_ = std::make_unique<codegen::Compiler>(std::move(jo));
    }
    return *compiler_;
}

const Value& Runtime::ascii_char(unsigned char c) {
    if (ascii_chars_.empty()) ascii_chars_.resize(128);
    Value& v = ascii_chars_[c & 0x7F];
    if (!v.defined()) {
        auto obj = std::make_shared<StrObj>();
        obj->text.assign(1, static_cast<char>(c & 0x7F));
        obj->char_starts = StrObj::ascii();  // (known: never computed, so never written while shared)
        v = Value::str(std::shared_ptr<const StrObj>(std::move(obj)));
    }
    return v;
}

int Runtime::builtin_slot(std::string_view name) const {
    const std::string key(name);
    if (auto it = initial_index_->find(key); it != initial_index_->end()) return it->second;
    auto it = builtin_index_.find(key);
    return it == builtin_index_.end() ? -1 : it->second;
}

void Runtime::define_builtin(const std::string& name, Value v) {
    if (const int slot = builtin_slot(name); slot >= 0) {
        builtins_[static_cast<size_t>(slot)] = std::move(v);
        return;
    }
    builtin_index_.emplace(name, static_cast<int>(builtins_.size()));
    builtins_.push_back(std::move(v));
}

std::vector<std::string> Runtime::builtin_names() const {
    std::vector<std::string> out;
    for (auto& [k, v] : *initial_index_) out.push_back(k);
    for (auto& [k, v] : builtin_index_) out.push_back(k);
    return out;
}

namespace {
// The one per-thread fact about interpreters: which one runs on this thread
// (a fatal signal's handler can reach nothing else; interp/fault_report.hpp).
thread_local Runtime* running_here = nullptr;
}  // namespace

Runtime* Runtime::running_on_this_thread() { return running_here; }

// Sets the native stack limit for the outermost entry on this thread, so deep
// recursion in the evaluator becomes a tg error instead of a crash.
StackGuard::StackGuard(Runtime& rt)
    : rt_(rt), saved_(rt.stack_limit), saved_running_(running_here), budget_scope_(rt.budget) {
    running_here = &rt;
    if (rt.entries++ == 0) {
        rt.steps = 0;
        rt.budget->deadline_ns =
            rt.options.max_seconds > 0
                ? stdlib::Budget::monotonic_ns() + static_cast<int64_t>(rt.options.max_seconds * 1e9)
                : 0;
    }
    if (saved_) return;
    const lang::StackBounds& b = lang::stack_bounds();
    if (!b.low) return;
    // keep 256 KiB (or a quarter of a small stack) for the unwinding and the kernels
    const size_t reserve = std::min<size_t>(256 * 1024, b.size / 4);
    char probe;
    const char* low = b.low + reserve;
    // the main thread's stack may be reported beyond what can be mapped: cap at 64 MiB below here
    if (&probe - low > (64 << 20)) low = &probe - (64 << 20);
    rt_.stack_limit = low;
}

StackGuard::~StackGuard() {
    running_here = saved_running_;
    rt_.stack_limit = saved_;
    // Idle: the freed large mappings kept for reuse during the run go back to
    // the system, but for a few (a host calling a function again and again).
    if (--rt_.entries == 0) rt_.budget->trim_mappings(kIdleMappingBytes);
}


void Runtime::attach_debugger(Debugger* d) {
    debug = d;
    // a pause request reaches compiled code through the limits' poll
    budget->pause = d ? &d->pause_requested : nullptr;
    budget->on_pause = d ? std::function<void()>([this, d] { d->paused(*this); }) : nullptr;
    // every statement reaches the evaluator's checkpoint while one is attached
    for (Evaluator* e = evaluators; e; e = e->next_evaluator()) e->limits_changed();
}

Error syntax_error(const lang::ParseResult& r, const lang::SourcePtr& source) {
    const auto& first = r.errors.front();
    Error e(first.message, source, first.loc);
    for (size_t i = 1; i < r.errors.size(); ++i) {
        std::string text = lang::render(lang::to_diagnostic(r.errors[i], source));
        while (!text.empty() && text.back() == '\n') text.pop_back();
        e.notes.push_back(std::move(text));
    }
    return e;
}


void Runtime::run_chunk(ModuleState& m, lang::SourcePtr source) { run_chunk(m, std::move(source), nullptr, nullptr, {}); }

void Runtime::run_chunk(ModuleState& m, lang::SourcePtr source, const std::function<void(const Value&)>* echo,
                        const lang::SourcePtr* from_source, lang::Loc from_loc) {
    StackGuard guard(*this);
    lang::ParseResult parsed = lang::parse(source);
    if (!parsed.ok()) throw syntax_error(parsed, source);
    if (!parsed.module->source) parsed.module->source = source;
    if (!m.source) m.source = source;
    resolve(*parsed.module, m, *this);
    m.chunks.push_back(std::move(parsed.module));
    const lang::Module& chunk = *m.chunks.back();
    try {
        Evaluator(*this).run_module(m, chunk, echo);
    } catch (Error& e) {
        if (from_source) e.leave_frame("<module>", false, *from_source, from_loc);
        else e.leave_module();
        throw;
    }
}

bool find_builtin_module(const std::string& name, std::string& path, std::string& text) {
    for (const BuiltinModule& m : builtin_modules())
        if (m.name == name) {
            path = "<tg>/" + name + ".tg";
            text = std::string(m.source);
            return true;
        }
    return false;
}

void find_module_file(const std::string& name, const std::string& from_path, const std::vector<std::string>& module_paths,
                      bool use_tg_path, std::string& path, std::string& text) {
    std::vector<std::string> dirs;
    dirs.push_back(from_path.empty() ? std::string(".") : fs::path(from_path).parent_path().string());
    if (dirs.back().empty()) dirs.back() = ".";
    for (const auto& d : module_paths) dirs.push_back(d);
    if (use_tg_path) {
        if (const char* env = std::getenv("TG_PATH")) {
            std::stringstream ss(env);
            std::string d;
            while (std::getline(ss, d, ':'))
                if (!d.empty()) dirs.push_back(d);
        }
    }
    for (const auto& d : dirs) {
        std::string candidate = (fs::path(d) / (name + ".tg")).string();
        lang::ReadResult r = lang::read_source_file(candidate, text);
        if (r.status == lang::ReadResult::Failed)  // a directory m.tg, too large, unreadable
            throw Error("cannot import `" + name + "`: " + r.error);
        if (r.status == lang::ReadResult::Ok) {
            path = candidate;
            return;
        }
    }
    if (find_builtin_module(name, path, text)) return;
    std::string looked;
    for (size_t i = 0; i < dirs.size(); ++i) looked += (i ? ", " : "") + dirs[i];
    std::string hint;  // ported NumPy code: its functions are tg's builtins (docs/numpy.md)
    if (name == "numpy" || name == "numpy.linalg")
        hint = "; NumPy's functions are tg's builtins: drop the import and the `np.` prefix (docs/numpy.md)";
    throw Error("no module named `" + name + "` (looked for " + name + ".tg in " + looked + ")" + hint);
}

std::string check_file_path(const Options& options, const std::string& path) {
    if (!options.allow_files) throw Error("files are disabled in this interpreter (allow_files = false)");
    if (path.empty()) throw Error("the file name is empty");
    if (path.find('\0') != std::string::npos) throw Error("the file name contains a NUL byte");
    if (options.file_root.empty()) return path;
    std::error_code ec;
    const fs::path root = fs::canonical(options.file_root, ec);
    if (ec) throw Error("the file root '" + options.file_root + "' does not exist");
    const fs::path full = (fs::path(path).is_absolute() ? fs::path(path) : root / path).lexically_normal();
    // A symlink anywhere on the way that leads nowhere could be followed out
    // when the file is created: refuse it.
    fs::path prefix;
    for (const auto& part : full) {
        prefix /= part;
        if (fs::is_symlink(fs::symlink_status(prefix, ec)) && !fs::exists(prefix, ec))
            throw Error("'" + path + "' is outside the file root: it goes through a symlink that leads nowhere");
    }
    const fs::path resolved = fs::weakly_canonical(full, ec);
    if (ec) throw Error("cannot resolve the file name '" + path + "'");
    auto r = root.begin();
    auto p = resolved.begin();
    for (; r != root.end(); ++r, ++p)
        if (p == resolved.end() || *p != *r)
            throw Error("'" + path + "' is outside the file root '" + options.file_root + "'");
    return resolved.string();
}

FilePlace place_file(const Options& options, const std::string& path) {
    std::string checked = check_file_path(options, path);
    if (options.file_root.empty()) return {stdlib::FileRoot(), std::move(checked)};
    std::error_code ec;
    const std::string root = fs::canonical(options.file_root, ec).string();
    if (ec) throw Error("the file root '" + options.file_root + "' does not exist");
    // checked is root + "/" + the part inside (check_file_path compared them)
    const size_t skip = root.size() + (root.back() == '/' ? 0 : 1);
    try {
        return {stdlib::FileRoot(root), checked.size() > skip ? checked.substr(skip) : std::string()};
    } catch (const stdlib::FileError& e) {
        throw Error(e.what());
    }
}

ModuleState& Runtime::import_module(const std::string& name, const std::string& from_path,
                                    const lang::SourcePtr& src, lang::Loc loc) {
    if (!options.allow_import) throw Error("import is disabled in this interpreter", src, loc);
    std::string text, path;
    try {
        if (options.load_module) {
            if (!options.load_module(name, from_path, path, text) && !find_builtin_module(name, path, text))
                throw Error("no module named `" + name + "`");
        } else {
            find_module_file(name, from_path, options.module_paths, options.use_tg_path, path, text);
        }
    } catch (Error& e) {
        e.locate(src, loc);
        throw;
    }
    std::error_code ec;
    std::string key = fs::weakly_canonical(path, ec).string();
    if (ec) key = path;
    auto it = modules_.find(key);
    if (it != modules_.end()) {
        if (it->second->loading) throw Error("import cycle: `" + name + "` is already being imported", src, loc);
        return *it->second;
    }
    auto m = std::make_unique<ModuleState>();
    m->name = name;
    m->path = path;
    m->globals[static_cast<size_t>(m->slot_of("__name__"))] = Value::str(name);
    ModuleState& ref = *m;
    modules_[key] = std::move(m);
    ref.loading = true;
    // display the module's file relative to the importer, as the user would write it
    std::string shown = path;
    if (shown.rfind("./", 0) == 0) shown = shown.substr(2);
    try {
        run_chunk(ref, std::make_shared<lang::Source>(shown, std::move(text)), nullptr, &src, loc);
    } catch (...) {
        modules_.erase(key);
        throw;
    }
    ref.loading = false;
    return ref;
}

}  // namespace tg::interp
