// Tiered compilation (codegen/background.hpp): which graphs compile in the
// background, that their native code becomes ready and agrees with the
// reference interpreter, that a first compile does not wait for the JIT
// session (codegen/session_slot.hpp), and that releasing code (or the
// compiler) while a compile is queued or running neither hangs nor crashes.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include <unistd.h>

#include "codegen/background.hpp"
#include "codegen/compiler.hpp"
#include "codegen/runtime_abi.hpp"
#include "tracer/graph_interpreter.hpp"
#include "tracer/verifier.hpp"

using namespace tg;
using stdlib::DType;
using stdlib::Shape;
using stdlib::Tensor;
using tracer::Graph;
using tracer::ValueId;

namespace {

codegen::JitOptions options(bool background, int64_t max_work = int64_t{1} << 22, std::string cache_dir = {}) {
    codegen::JitOptions o;
    o.object_cache = !cache_dir.empty();
    o.cache_dir = std::move(cache_dir);
    o.background = background;
    o.background_max_work = max_work;
    return o;
}

// A fresh, empty folder for an object cache.
std::string temp_cache_dir(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("tg-background-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir.string();
}

// y = tanh(x * k) + x on f32[n]: straight-line, n * 3 elements of work.
std::unique_ptr<Graph> straight(int64_t n, double k) {
    auto g = std::make_unique<Graph>("straight");
    ValueId tok = g->add_input_token();
    ValueId x = g->add_input({DType::F32, Shape{n}, false}, "x");
    ValueId y = g->apply1("add", {g->apply1("tanh", {g->apply1("mul", {x, g->constant(Tensor::weak_float(k))})}), x});
    std::vector<ValueId> outs{y, tok};
    g->yield(outs);
    tracer::verify(*g);
    return g;
}

// while i < 3: i = i + 1 (a loop: no bound on its work).
std::unique_ptr<Graph> looping() {
    auto g = std::make_unique<Graph>("looping");
    ValueId tok = g->add_input_token();
    ValueId zero = g->constant(Tensor::scalar(int64_t(0), DType::I64));
    std::vector<ValueId> inits{tok, zero};
    auto w = g->add_while(inits);
    auto cr = g->node(w).regions[0], br = g->node(w).regions[1];
    g->enter(cr);
    {
        auto a = g->args(cr);
        std::vector<ValueId> ys{g->apply1("lt", {a[1], g->constant(Tensor::weak_int(3))}), a[0], a[1]};
        g->yield(ys);
    }
    g->exit();
    g->enter(br);
    {
        auto a = g->args(br);
        std::vector<ValueId> ys{a[0], g->apply1("add", {a[1], g->constant(Tensor::weak_int(1))})};
        g->yield(ys);
    }
    g->exit();
    auto res = g->finish(w);
    std::vector<ValueId> outs{res[1], res[0]};
    g->yield(outs);
    tracer::verify(*g);
    return g;
}

Tensor ramp(int64_t n) {
    Tensor t = Tensor::empty(DType::F32, Shape{n});
    for (int64_t i = 0; i < n; ++i) t.data<float>()[i] = static_cast<float>(i) * 0.01f - 3.0f;
    return t;
}

bool wait_ready(codegen::CompiledGraph& c) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!c.ready()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

void check_agrees(const Graph& g, codegen::CompiledGraph& c, int64_t n) {
    std::vector<Tensor> in{ramp(n)};
    tracer::RunContext a, b;
    auto want = tracer::run_graph(g, in, a);
    auto got = c.run(in, b);
    REQUIRE(got.size() == want.size());
    CHECK(std::memcmp(got[0].data<float>(), want[0].data<float>(), static_cast<size_t>(n) * sizeof(float)) == 0);
}

// A JIT session held back: the factory a Compiler makes its session with
// waits until the test opens the gate, and records the thread it ran on. It
// opens by itself after a minute, so a compile that waits for it fails the
// test (timed_out) instead of hanging it.
struct Gate {
    std::mutex mutex;
    std::condition_variable changed;
    bool open = false, entered = false, timed_out = false;
    std::thread::id made_on;
    std::string fail;  // when set, the factory throws JitUnavailable with it

    // Shared with the factory: a worker thread left running past its
    // compiler (detached) may still be inside it.
    static codegen::SessionFactory factory(const std::shared_ptr<Gate>& gate, codegen::JitOptions o) {
        return [gate, o] {
            std::string fail;
            {
                std::unique_lock lock(gate->mutex);
                gate->entered = true;
                gate->made_on = std::this_thread::get_id();
                gate->changed.notify_all();
                gate->timed_out = !gate->changed.wait_for(lock, std::chrono::seconds(60), [&] { return gate->open; });
                fail = gate->fail;
            }
            if (!fail.empty()) throw codegen::JitUnavailable(fail);
            return codegen::JitSession::create(o, codegen::runtime_symbols());
        };
    }
    void wait_entered() {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return entered; });
    }
    void let_through() {
        std::lock_guard lock(mutex);
        open = true;
        changed.notify_all();
    }
};

}  // namespace

TEST_CASE("bounded_work: result elements (matmul: times the inner dim), a while has no bound") {
    CHECK(codegen::bounded_work(*straight(100, 2.0)) == 300 + 1);  // mul, tanh, add + the constant
    CHECK(codegen::bounded_work(*looping()) == -1);
    Graph g("mm");
    ValueId tok = g.add_input_token();
    ValueId a = g.add_input({DType::F32, Shape{8, 5}, false}, "a");
    ValueId b = g.add_input({DType::F32, Shape{5, 3}, false}, "b");
    std::vector<ValueId> outs{g.apply1("matmul", {a, b}), tok};
    g.yield(outs);
    CHECK(codegen::bounded_work(g) == 8 * 3 * 5);
}

TEST_CASE("a small bounded graph compiles in the background, becomes ready and agrees with the interpreter") {
    codegen::Compiler compiler(options(true));
    auto g = straight(1000, 0.5);
    auto c = compiler.compile(*g, "bg", codegen::Tiering::Background);
    CHECK(c->background());
    REQUIRE(wait_ready(*c));
    CHECK(c->take_ready_news());
    CHECK_FALSE(c->take_ready_news());  // reported once
    CHECK(c->llvm_times().total_ms > 0);
    check_agrees(*g, *c, 1000);
}

TEST_CASE("graphs compile before their first call when they loop, are big, or tiering is off") {
    SUBCASE("a while loop") {
        codegen::Compiler compiler(options(true));
        auto g = looping();
        auto c = compiler.compile(*g, "loop", codegen::Tiering::Background);
        CHECK_FALSE(c->background());
        CHECK(c->ready());
        tracer::RunContext ctx;
        auto out = c->run({}, ctx);
        CHECK(out[0].data<int64_t>()[0] == 3);
    }
    SUBCASE("more work than background_max_work") {
        codegen::Compiler compiler(options(true, 100));
        auto g = straight(1000, 0.5);
        auto c = compiler.compile(*g, "big", codegen::Tiering::Background);
        CHECK_FALSE(c->background());
        CHECK(c->ready());
        check_agrees(*g, *c, 1000);
    }
    SUBCASE("JitOptions::background off (--sync-jit)") {
        codegen::Compiler compiler(options(false));
        auto g = straight(10, 0.5);
        auto c = compiler.compile(*g, "sync", codegen::Tiering::Background);
        CHECK_FALSE(c->background());
        CHECK(c->ready());
    }
    SUBCASE("Tiering::Wait") {
        codegen::Compiler compiler(options(true));
        auto g = straight(10, 0.5);
        auto c = compiler.compile(*g, "wait");
        CHECK_FALSE(c->background());
        CHECK(c->ready());
    }
}

TEST_CASE("an object cache hit loads at once instead of going to the background, once the JIT session is made") {
    namespace fs = std::filesystem;
    const fs::path dir = temp_cache_dir("hit");
    auto g = straight(64, 1.5), h = straight(64, 2.5);
    {
        codegen::Compiler first(options(true, int64_t{1} << 22, dir.string()));
        for (const Graph* x : {g.get(), h.get()}) {
            auto c = first.compile(*x, "cached", codegen::Tiering::Background);
            CHECK(c->background());
            REQUIRE(wait_ready(*c));
            CHECK_FALSE(c->from_cache());
        }
    }
    // the same compiles in the same order: the same modules (their symbols are numbered)
    codegen::Compiler second(options(true, int64_t{1} << 22, dir.string()));
    // the first makes no session: the worker makes it and loads the object
    auto before = second.compile(*g, "cached", codegen::Tiering::Background);
    CHECK(before->background());
    REQUIRE(wait_ready(*before));
    CHECK(before->from_cache());
    check_agrees(*g, *before, 64);
    auto c = second.compile(*h, "cached", codegen::Tiering::Background);
    CHECK_FALSE(c->background());
    CHECK(c->from_cache());
    REQUIRE(c->ready());
    check_agrees(*h, *c, 64);
    fs::remove_all(dir);
}

TEST_CASE("releasing code while it compiles, or the compiler before its code, neither hangs nor crashes") {
    std::vector<std::unique_ptr<Graph>> graphs;
    for (int i = 0; i < 6; ++i) graphs.push_back(straight(100 + i, 1.0 + i));
    SUBCASE("code released while queued or running") {
        codegen::Compiler compiler(options(true));
        std::vector<std::unique_ptr<codegen::CompiledGraph>> code;
        for (size_t i = 0; i < graphs.size(); ++i)
            code.push_back(compiler.compile(*graphs[i], "r" + std::to_string(i), codegen::Tiering::Background));
        for (size_t i = 0; i < code.size(); i += 2) code[i].reset();  // queued, running or done: never waits
        for (size_t i = 1; i < code.size(); i += 2) {
            REQUIRE(wait_ready(*code[i]));
            check_agrees(*graphs[i], *code[i], 100 + static_cast<int64_t>(i));
        }
        // the compiler still works afterwards
        auto again = compiler.compile(*graphs[0], "again", codegen::Tiering::Background);
        REQUIRE(wait_ready(*again));
        check_agrees(*graphs[0], *again, 100);
    }
    SUBCASE("the compiler released first: queued compiles are dropped, the running one completes") {
        const std::string cache = temp_cache_dir("dropped");
        auto compiler = std::make_unique<codegen::Compiler>(options(true, int64_t{1} << 22, cache));
        std::vector<std::unique_ptr<codegen::CompiledGraph>> code;
        for (size_t i = 0; i < graphs.size(); ++i)
            code.push_back(compiler->compile(*graphs[i], "c" + std::to_string(i), codegen::Tiering::Background));
        code[1].reset();  // abandoned before the compiler goes
        compiler.reset();  // waits for the compile that is running, if any, not for the queue
        size_t ready = 0;
        for (size_t i = 0; i < code.size(); ++i) {
            if (!code[i]) continue;
            if (code[i]->ready()) {
                ++ready;
                check_agrees(*graphs[i], *code[i], 100 + static_cast<int64_t>(i));
            }
            code[i].reset();
        }
        // Each compile takes milliseconds and the six were queued within
        // about one: the worker had started one or two, never all (it did
        // all six before: what the queue held was compiled for the cache).
        size_t cached = 0;
        for (const auto& f : std::filesystem::directory_iterator(cache)) cached += f.path().extension() == ".o";
        CHECK(ready <= 2);
        CHECK(cached <= 2);
        CHECK(cached < graphs.size() - 1);
        std::filesystem::remove_all(cache);
    }
}

TEST_CASE("a first compile does not wait for the JIT session: the call runs on the interpreter while the worker thread "
          "makes the session, then native code (cold and from the object cache)") {
    const std::string cache = temp_cache_dir("first");
    auto g = straight(1000, 0.5);
    for (bool warm : {false, true}) {
        INFO("from the object cache: " << warm);
        auto gate = std::make_shared<Gate>();
        const codegen::JitOptions o = options(true, int64_t{1} << 22, cache);
        codegen::Compiler compiler(o, Gate::factory(gate, o));
        auto c = compiler.compile(*g, "first", codegen::Tiering::Background);  // returns with the session held back
        CHECK(c->background());
        gate->wait_entered();
        CHECK(gate->made_on != std::this_thread::get_id());  // on the worker thread
        CHECK_FALSE(c->ready());
        // the call meanwhile: the graph interpreter, with the right result
        std::vector<Tensor> in{ramp(1000)};
        tracer::RunContext ctx;
        auto out = tracer::run_graph(*g, in, ctx);
        REQUIRE(out.size() == 1);
        for (int64_t i : {int64_t{0}, int64_t{500}, int64_t{999}}) {
            const float x = in[0].data<float>()[i];
            CHECK(out[0].data<float>()[i] == doctest::Approx(std::tanh(x * 0.5f) + x).epsilon(1e-6));
        }
        CHECK_FALSE(c->ready());
        gate->let_through();
        REQUIRE(wait_ready(*c));  // later calls: the native code, bit for bit the interpreter's results
        CHECK_FALSE(gate->timed_out);
        CHECK(c->from_cache() == warm);
        CHECK(c->session_ms() > 0);
        check_agrees(*g, *c, 1000);
    }
    std::filesystem::remove_all(cache);
}

TEST_CASE("a graph that must be compiled before its call (a loop, --sync-jit) makes the JIT session on the calling "
          "thread") {
    for (bool loop : {true, false}) {
        INFO("loop: " << loop);
        auto gate = std::make_shared<Gate>();
        gate->let_through();
        const codegen::JitOptions o = options(loop);  // background off for the straight graph
        codegen::Compiler compiler(o, Gate::factory(gate, o));
        auto g = loop ? looping() : straight(10, 0.5);
        auto c = compiler.compile(*g, "now", codegen::Tiering::Background);
        CHECK_FALSE(c->background());
        CHECK(c->ready());
        CHECK(gate->made_on == std::this_thread::get_id());
    }
}

TEST_CASE("prefetch makes the JIT session on the worker thread, and a compile meanwhile goes to the background") {
    auto gate = std::make_shared<Gate>();
    const codegen::JitOptions o = options(true);
    codegen::Compiler compiler(o, Gate::factory(gate, o));
    compiler.prefetch();
    gate->wait_entered();
    CHECK(gate->made_on != std::this_thread::get_id());
    auto g = straight(100, 2.0);
    auto c = compiler.compile(*g, "meanwhile", codegen::Tiering::Background);
    CHECK(c->background());
    gate->let_through();
    REQUIRE(wait_ready(*c));
    check_agrees(*g, *c, 100);
    // made: a loop compiles at once, on this thread, with the same session
    auto l = compiler.compile(*looping(), "loop", codegen::Tiering::Background);
    CHECK_FALSE(l->background());
    CHECK(compiler.stats().modules_compiled == 2);
}

TEST_CASE("a JIT plugin that cannot be loaded, found by the worker, is reported as such by the code that waited "
          "for it") {
    auto gate = std::make_shared<Gate>();
    gate->fail = "cannot load tg's plugin libtg_jit.so.0.2.0 (looked in /nowhere)";
    gate->let_through();
    const codegen::JitOptions o = options(true);
    codegen::Compiler compiler(o, Gate::factory(gate, o));
    auto g = straight(10, 0.5);
    auto c = compiler.compile(*g, "missing", codegen::Tiering::Background);
    CHECK(c->background());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    std::string error;
    while (error.empty() && std::chrono::steady_clock::now() < deadline) {
        try {
            if (c->ready()) break;
        } catch (const codegen::JitUnavailable& e) {
            error = e.what();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    CHECK(error == gate->fail);
    CHECK_FALSE(c->ready());  // reported once; the calls go on on the interpreter
    // a compile that must wait reports it at once
    CHECK_THROWS_AS(compiler.compile(*looping(), "loop", codegen::Tiering::Background), codegen::JitUnavailable);
}

TEST_CASE("code released while its worker thread makes the JIT session, then the compiler: neither hangs nor crashes") {
    auto gate = std::make_shared<Gate>();
    const codegen::JitOptions o = options(true);
    auto compiler = std::make_unique<codegen::Compiler>(o, Gate::factory(gate, o));
    auto g = straight(100, 1.0);
    auto c = compiler->compile(*g, "released", codegen::Tiering::Background);
    gate->wait_entered();
    c.reset();  // abandoned: never waits
    gate->let_through();
    compiler.reset();  // the worker makes the session, compiles for nobody and ends (or is detached)
    CHECK_FALSE(gate->timed_out);
}
