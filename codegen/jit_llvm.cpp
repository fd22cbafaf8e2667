// The LLVM JIT plugin (libtg_jit.so, codegen/jit_engine.hpp): the ORC LLJIT
// behind codegen::JitSession, loaded on the first compile.
#include "codegen/jit_engine.hpp"

#include <chrono>
#include <cstring>
#include <optional>
#include <thread>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_map>

#include <unistd.h>

#include <llvm/AsmParser/Parser.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/ObjectCache.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Target/TargetMachine.h>

#include "stdlib/file_size_signal.hpp"

namespace tg::codegen {

namespace fs = std::filesystem;
using namespace llvm;
using namespace llvm::orc;

namespace {

// LLVM's target registry is process-wide; registering it twice is harmless
// but racy, so do it once.
void initialize_native_target() {
    static std::once_flag once;
    std::call_once(once, [] {
        InitializeNativeTarget();
        InitializeNativeTargetAsmPrinter();
        InitializeNativeTargetAsmParser();
    });
}

std::string error_text(Error e) {
    std::string text;
    raw_string_ostream os(text);
    os << e;
    return text;
}

template <class T>
T unwrap(Expected<T> value, const char* what) {
    if (!value) throw CodegenError(std::string(what) + ": " + error_text(value.takeError()));
    return std::move(*value);
}

void check(Error e, const char* what) {
    if (e) throw CodegenError(std::string(what) + ": " + error_text(std::move(e)));
}

constexpr std::string_view kCachedPrefix = "tgcache-";

// A cache file is a header and the object: the magic, the object's size and
// its xxh3 hash, so a file cut short (a full disk, a crash of the machine
// before the data reached the disk) or emptied is recognized, removed and
// compiled again instead of failing every later run.
constexpr std::string_view kCacheMagic = "tgobj01\n";
constexpr size_t kCacheHeader = 8 + 8 + 8;

std::string cache_header(StringRef object) {
    std::string h(kCacheMagic);
    const uint64_t fields[2] = {object.size(), xxh3_64bits(object)};
    h.append(reinterpret_cast<const char*>(fields), sizeof fields);
    return h;
}

// The object in a cache file's bytes, or nothing when the file is not whole.
std::optional<StringRef> cached_object(StringRef file) {
    if (file.size() < kCacheHeader || !file.starts_with(kCacheMagic)) return std::nullopt;
    uint64_t fields[2];
    std::memcpy(fields, file.data() + kCacheMagic.size(), sizeof fields);
    const StringRef object = file.drop_front(kCacheHeader);
    if (object.size() != fields[0] || xxh3_64bits(object) != fields[1]) return std::nullopt;
    return object;
}

// Writes each compiled object whose module is named "tgcache-<hash>" to
// <dir>/<hash>.o. Hits are served by JitSession itself (it adds the object
// file directly), so getObject never answers: that way a hit also skips
// parsing and the O2 pipeline, not only instruction selection.
class DiskObjectCache : public ObjectCache {
public:
    explicit DiskObjectCache(std::string dir) : dir_(std::move(dir)) {}

    void notifyObjectCompiled(const Module* m, MemoryBufferRef obj) override {
        StringRef id = m->getModuleIdentifier();
        if (dir_.empty() || !id.starts_with(kCachedPrefix)) return;
        std::error_code ec;
        fs::create_directories(dir_, ec);
        if (ec) return;  // the cache is an optimization: failing to write it is not an error
        std::string name = id.drop_front(kCachedPrefix.size()).str();
        fs::path tmp = fs::path(dir_) / (name + ".tmp" + std::to_string(::getpid()) + "-" +
                                         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
        bool written = false;
        {
            // a full disk or the file-size limit: an error (not SIGXFSZ), then no file left behind
            const stdlib::FileSizeSignalGuard past_the_size_limit_is_an_error;
            std::ofstream out(tmp, std::ios::binary);
            const std::string header = cache_header(obj.getBuffer());
            out.write(header.data(), static_cast<std::streamsize>(header.size()));
            out.write(obj.getBufferStart(), static_cast<std::streamsize>(obj.getBufferSize()));
            out.close();
            written = !out.fail();
        }
        if (written) fs::rename(tmp, fs::path(dir_) / (name + ".o"), ec);  // atomic: readers never see half a file
        if (!written || ec) fs::remove(tmp, ec);
    }

    std::unique_ptr<MemoryBuffer> getObject(const Module*) override { return nullptr; }

private:
    std::string dir_;
};

// The pipeline of modules without fused loops (0-d arithmetic, runtime calls,
// `while` loops): inline the prelude's helpers, promote the tick counter to a
// register, fold and simplify, rotate loops and hoist what is invariant
// (instcombine as O2 runs it: a textual `instcombine` in LLVM 19 aborts the
// process when one run does not reach a fixpoint). On
// the scalar benchmark loop it gives O2's machine code, and the first
// compile in a process spends ~2 ms in it instead of ~5.5 ms
// (docs/codegen.md). Instruction selection is O2's either way.
constexpr const char* kScalarPipeline =
    "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-simplify,lcssa,loop(loop-rotate),"
    "loop-mssa(licm),instcombine<no-verify-fixpoint>,simplifycfg),globaldce";

// The same for a huge scalar module (a static loop unrolled while tracing,
// thousands of small loops and conds; see TimedCompiler), without the loop
// passes: LLVM's loop analyses are superlinear in the number of loops (a
// 3,000-loop module spent seconds in ScalarEvolution) and such code runs once.
constexpr const char* kHugeScalarPipeline =
    "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg),globaldce";

// A module is huge past either bound (see TimedCompiler for why).
constexpr unsigned kHugeInstructions = 40000;
constexpr size_t kHugeBlocks = 2000;
bool huge_module(const Module& m) {
    size_t blocks = 0;
    for (const Function& f : m) blocks += f.size();
    return m.getInstructionCount() > kHugeInstructions || blocks > kHugeBlocks;
}

// Instruction selection and object emission, timed for `--trace`.
// It uses the session's one TargetMachine (LlvmJitEngine::tm), which the
// optimization pipeline uses too: a second one would build its own X86
// subtarget on the first compile (~1-2 ms of every script's first call).
// Safe because add_ir runs one compile at a time.
//
// A huge module (a static loop unrolled thousands of times while tracing)
// gets the fast instruction selector and register allocator: the default
// ones are superlinear in a function's size — 12 s of codegen for a
// 13,000-node graph, 0.4 s this way — and such code runs once or a few
// times, through its runtime calls. Huge is many instructions or many
// blocks: an unrolled loop of small conds (29,000 instructions in 7,000
// blocks after O2) took 11 s with the default ones.
class TimedCompiler : public SimpleCompiler {
public:

    TimedCompiler(TargetMachine& tm, ObjectCache* cache, ModuleTimes* times)
        : SimpleCompiler(tm, cache), tm_(tm), times_(times) {}
    Expected<CompileResult> operator()(Module& m) override {
        const auto start = std::chrono::steady_clock::now();
        const CodeGenOptLevel level = tm_.getOptLevel();
        const bool huge = huge_module(m);
        if (huge) tm_.setOptLevel(CodeGenOptLevel::None);
        auto result = SimpleCompiler::operator()(m);
        if (huge) tm_.setOptLevel(level);
        times_->codegen_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

private:
    TargetMachine& tm_;
    ModuleTimes* times_;  // LlvmJitEngine::current
};

}  // namespace

// JitSession's engine (codegen/jit_engine.hpp): one LLJIT for the host CPU.
struct LlvmJitEngine final : JitEngine {
    using ModuleId = JitSession::ModuleId;

    JitSession::ModuleId add_ir(std::string_view ir_text, std::string_view cache_key, ModuleTimes* times) override;
    bool cached(std::string_view cache_key) const override;
    void* lookup(std::string_view symbol) override;
    void remove(ModuleId id) override;
    std::string host_cpu() const override { return tm->getTargetCPU().str(); }
    std::string target_triple() const override { return tm->getTargetTriple().str(); }
    JitStats stats() const override {
        std::lock_guard lock(mutex);
        return stats_;
    }

    JitOptions options;
    std::string cache_dir;  // empty when caching is off
    std::unique_ptr<TargetMachine> tm;  // for the optimization pipeline
    std::unique_ptr<DiskObjectCache> cache;
    std::unique_ptr<LLJIT> jit;
    std::unordered_map<ModuleId, ResourceTrackerSP> modules;
    ModuleId next_id = 1;
    JitStats stats_;

    mutable std::mutex mutex;  // serializes add_ir / lookup / remove / stats across threads
    ModuleTimes current;       // of the module add_ir is compiling (under the mutex)

    void optimize(Module& m) {
        const auto start = std::chrono::steady_clock::now();
        optimize_pipeline(m);
        current.optimize_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }

    void optimize_pipeline(Module& m) {
        LoopAnalysisManager lam;
        FunctionAnalysisManager fam;
        CGSCCAnalysisManager cgam;
        ModuleAnalysisManager mam;
        PassBuilder pb(tm.get());  // the target machine makes vectorization use the host's SIMD width
        pb.registerModuleAnalyses(mam);
        pb.registerCGSCCAnalyses(cgam);
        pb.registerFunctionAnalyses(fam);
        pb.registerLoopAnalyses(lam);
        pb.crossRegisterProxies(lam, fam, cgam, mam);
        if (m.getNamedMetadata("tg.pipeline")) {  // scalar code (lower.cpp): O2's result in a third of its time
            ModulePassManager mpm;
            if (Error e = pb.parsePassPipeline(mpm, huge_module(m) ? kHugeScalarPipeline : kScalarPipeline)) {
                consumeError(std::move(e));  // a bug in the string: fall back to O2 rather than fail
                pb.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(m, mam);
                return;
            }
            mpm.run(m, mam);
            return;
        }
        pb.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(m, mam);
    }

    std::string cache_file(const std::string& hash) const { return cache_dir + "/" + hash + ".o"; }

    std::string full_key(std::string_view key) const {
        std::string text(key);
        text += "|llvm " LLVM_VERSION_STRING "|" + tm->getTargetTriple().str() + "|" + tm->getTargetCPU().str() + "|" +
                tm->getTargetFeatureString().str();
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx",
                      static_cast<unsigned long long>(xxh3_64bits(StringRef(text))));
        return hex;
    }
};

namespace {

std::unique_ptr<JitEngine> create_engine(const JitOptions& options, const std::vector<RuntimeSymbol>& runtime) {
    initialize_native_target();
    auto impl = std::make_unique<LlvmJitEngine>();
    impl->options = options;
    impl->cache_dir = options.object_cache ? options.cache_dir : std::string();  // JitSession resolved the default

    auto jtmb = unwrap(JITTargetMachineBuilder::detectHost(), "cannot detect the host CPU");
    jtmb.setCodeGenOptLevel(CodeGenOptLevel::Default);
    impl->tm = unwrap(jtmb.createTargetMachine(), "cannot create a target machine");
    impl->cache = std::make_unique<DiskObjectCache>(impl->cache_dir);

    DiskObjectCache* cache = impl->cache.get();
    ModuleTimes* current = &impl->current;
    impl->jit = unwrap(LLJITBuilder()
                           .setJITTargetMachineBuilder(jtmb)
                           .setCompileFunctionCreator(
                               [cache, current, tm = impl->tm.get()](JITTargetMachineBuilder)
                                   -> Expected<std::unique_ptr<IRCompileLayer::IRCompiler>> {
                                   return std::make_unique<TimedCompiler>(*tm, cache, current);
                               })
                           .create(),
                       "cannot create the JIT");

    LlvmJitEngine* raw = impl.get();
    // Runs inside LLVM's materialization: must not throw.
    impl->jit->getIRTransformLayer().setTransform(
        [raw](ThreadSafeModule tsm, const MaterializationResponsibility&) -> Expected<ThreadSafeModule> {
            tsm.withModuleDo([raw](Module& m) { raw->optimize(m); });
            return tsm;
        });

    SymbolMap symbols;
    for (const auto& s : runtime)
        symbols[impl->jit->mangleAndIntern(s.name)] =
            ExecutorSymbolDef(ExecutorAddr::fromPtr(s.address), JITSymbolFlags::Exported | JITSymbolFlags::Callable);
    if (!symbols.empty())
        check(impl->jit->getMainJITDylib().define(absoluteSymbols(std::move(symbols))), "cannot define runtime symbols");
    return impl;
}

}  // namespace

bool LlvmJitEngine::cached(std::string_view cache_key) const {
    const LlvmJitEngine& s = *this;
    if (s.cache_dir.empty() || cache_key.empty()) return false;
    std::error_code ec;
    return fs::exists(s.cache_file(s.full_key(cache_key)), ec);
}

JitSession::ModuleId LlvmJitEngine::add_ir(std::string_view ir_text, std::string_view cache_key, ModuleTimes* times) {
    LlvmJitEngine& s = *this;
    std::lock_guard lock(s.mutex);
    s.current = ModuleTimes{};
    auto start = std::chrono::steady_clock::now();
    ResourceTrackerSP tracker = s.jit->getMainJITDylib().createResourceTracker();
    std::string hash = (!s.cache_dir.empty() && !cache_key.empty()) ? s.full_key(cache_key) : "";

    bool hit = false;
    if (!hash.empty()) {
        auto file = MemoryBuffer::getFile(s.cache_file(hash));
        if (file) {
            if (std::optional<StringRef> object = cached_object((*file)->getBuffer())) {
                check(s.jit->addObjectFile(tracker, MemoryBuffer::getMemBufferCopy(*object, "tg-cached-object")),
                      "cannot load a cached object");
                hit = true;
            } else {
                std::error_code ec;
                fs::remove(s.cache_file(hash), ec);  // cut short or emptied: compile it again, which rewrites it
            }
        }
    }
    std::vector<std::string> defined;
    if (!hit) {
        auto context = std::make_unique<LLVMContext>();
        SMDiagnostic diag;
        auto buffer = MemoryBuffer::getMemBuffer(StringRef(ir_text.data(), ir_text.size()), "tg-module", false);
        std::unique_ptr<Module> module = parseAssembly(buffer->getMemBufferRef(), diag, *context);
        if (!module) {
            std::string text;
            raw_string_ostream os(text);
            diag.print("tg-module", os);
            throw CodegenError("invalid LLVM IR: " + text + "\n" + std::string(ir_text));
        }
        module->setModuleIdentifier(hash.empty() ? std::string("tg-module") : std::string(kCachedPrefix) + hash);
        module->setDataLayout(s.jit->getDataLayout());
        module->setTargetTriple(s.jit->getTargetTriple().str());
        for (const Function& f : *module)
            if (!f.isDeclaration() && f.hasExternalLinkage()) defined.push_back(f.getName().str());
        check(s.jit->addIRModule(tracker, ThreadSafeModule(std::move(module), std::move(context))),
              "cannot add a module");
        // Materialize now, so compile time is measured here and errors surface here.
        for (const auto& name : defined) unwrap(s.jit->lookup(name), "cannot compile");
        ++s.stats_.modules_compiled;
    } else {
        ++s.stats_.cache_hits;
    }
    s.current.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    s.current.cache_hit = hit;
    s.stats_.compile_ms += s.current.total_ms;
    s.stats_.optimize_ms += s.current.optimize_ms;
    s.stats_.codegen_ms += s.current.codegen_ms;
    if (times) *times = s.current;
    ModuleId id = s.next_id++;
    s.modules.emplace(id, std::move(tracker));
    return id;
}

void* LlvmJitEngine::lookup(std::string_view symbol) {
    std::lock_guard lock(mutex);
    auto addr = unwrap(jit->lookup(StringRef(symbol.data(), symbol.size())), "symbol not found");
    return addr.toPtr<void*>();
}

void LlvmJitEngine::remove(ModuleId id) {
    std::lock_guard lock(mutex);
    auto it = modules.find(id);
    if (it == modules.end()) return;
    check(it->second->remove(), "cannot release a module");
    modules.erase(it);
}

}  // namespace tg::codegen

// ---------------------------------------------------------------- the plugin's entry

namespace {

using tg::codegen::ExitWait;

// Set by the loader (codegen/jit_plugin.cpp) right after the plugin is loaded.
std::atomic<const std::atomic<bool>*> exit_wait_armed{nullptr};
std::atomic<void (*)(void*)> exit_wait{nullptr};

void set_exit_wait(ExitWait w) {
    exit_wait.store(w.wait, std::memory_order_release);
    exit_wait_armed.store(w.armed, std::memory_order_release);
}

}  // namespace

#ifdef TG_WRAPPED_CXA_ATEXIT
// The plugin's link routes LLVM's at-exit registrations here
// (codegen/CMakeLists.txt; codegen/background.cpp says why): once a compile
// has been detached, each registration is followed by the wait for it.
extern "C" int __real___cxa_atexit(void (*fn)(void*), void* arg, void* dso);
extern "C" int __wrap___cxa_atexit(void (*fn)(void*), void* arg, void* dso) {
    const int result = __real___cxa_atexit(fn, arg, dso);
    const std::atomic<bool>* armed = exit_wait_armed.load(std::memory_order_acquire);
    if (armed && armed->load(std::memory_order_acquire))
        __real___cxa_atexit(exit_wait.load(std::memory_order_acquire), nullptr, dso);
    return result;
}
constexpr bool kCanDetach = true;
#else
constexpr bool kCanDetach = false;
#endif

extern "C" __attribute__((visibility("default"))) const tg::codegen::JitPlugin* tg_jit_plugin() {
    static const tg::codegen::JitPlugin plugin{
        {tg::codegen::kJitPluginAbi, TG_VERSION}, kCanDetach, tg::codegen::initialize_native_target,
        tg::codegen::create_engine, set_exit_wait,
    };
    return &plugin;
}
