// The JIT session: compile LLVM IR text, call it, runtime symbols, the object cache.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

#include "codegen/jit_plugin.hpp"
#include "codegen/jit_session.hpp"

using tg::codegen::CodegenError;
using tg::codegen::JitOptions;
using tg::codegen::JitSession;

namespace {

const char* kAdd = R"(
define i64 @tg_add(i64 %a, i64 %b) {
  %c = add i64 %a, %b
  ret i64 %c
}
)";

extern "C" int64_t tg_test_host_twice(int64_t x) { return 2 * x; }

std::string fresh_dir(const char* tag) {
    auto dir = std::filesystem::temp_directory_path() /
               ("tg-jit-test-" + std::string(tag) + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir.string();
}

}  // namespace

TEST_CASE("compiles IR text and calls it") {
    auto jit = JitSession::create(JitOptions{.object_cache = false, .cache_dir = {}}, {});
    jit->add_ir(kAdd, "");
    auto add = reinterpret_cast<int64_t (*)(int64_t, int64_t)>(jit->lookup("tg_add"));
    CHECK(add(2, 3) == 5);
    CHECK(add(-7, 3) == -4);
    CHECK(jit->stats().modules_compiled == 1);
    CHECK_FALSE(jit->host_cpu().empty());
}

TEST_CASE("compiled code calls runtime symbols") {
    auto jit = JitSession::create(JitOptions{.object_cache = false, .cache_dir = {}},
                                  {{"host_twice", reinterpret_cast<void*>(&tg_test_host_twice)}});
    jit->add_ir(R"(
declare i64 @host_twice(i64)
define i64 @quad(i64 %x) {
  %a = call i64 @host_twice(i64 %x)
  %b = call i64 @host_twice(i64 %a)
  ret i64 %b
}
)", "");
    auto quad = reinterpret_cast<int64_t (*)(int64_t)>(jit->lookup("quad"));
    CHECK(quad(5) == 20);
}

TEST_CASE("a vectorizable loop compiles and computes the right sum") {
    auto jit = JitSession::create(JitOptions{.object_cache = false, .cache_dir = {}}, {});
    jit->add_ir(R"(
define float @sum(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i1, %loop]
  %s = phi float [0.0, %entry], [%s1, %loop]
  %q = getelementptr float, ptr %p, i64 %i
  %v = load float, ptr %q
  %s1 = fadd float %s, %v
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %s1
}
)", "");
    float data[100];
    for (int i = 0; i < 100; ++i) data[i] = static_cast<float>(i);
    auto sum = reinterpret_cast<float (*)(float*, int64_t)>(jit->lookup("sum"));
    CHECK(sum(data, 100) == doctest::Approx(4950.0f));
}

TEST_CASE("the object cache serves a second session without compiling") {
    std::string dir = fresh_dir("cache");
    {
        auto jit = JitSession::create(JitOptions{.object_cache = true, .cache_dir = dir}, {});
        jit->add_ir(kAdd, "add-v1");
        CHECK(jit->stats().modules_compiled == 1);
        CHECK(jit->stats().cache_hits == 0);
    }
    {
        auto jit = JitSession::create(JitOptions{.object_cache = true, .cache_dir = dir}, {});
        jit->add_ir(kAdd, "add-v1");
        CHECK(jit->stats().modules_compiled == 0);
        CHECK(jit->stats().cache_hits == 1);
        auto add = reinterpret_cast<int64_t (*)(int64_t, int64_t)>(jit->lookup("tg_add"));
        CHECK(add(40, 2) == 42);
    }
    {  // a different key is a miss
        auto jit = JitSession::create(JitOptions{.object_cache = true, .cache_dir = dir}, {});
        jit->add_ir(kAdd, "add-v2");
        CHECK(jit->stats().modules_compiled == 1);
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("removed modules are gone and invalid IR is a CodegenError") {
    auto jit = JitSession::create(JitOptions{.object_cache = false, .cache_dir = {}}, {});
    auto id = jit->add_ir(kAdd, "");
    CHECK(jit->lookup("tg_add") != nullptr);
    jit->remove(id);
    CHECK_THROWS_AS(jit->lookup("tg_add"), CodegenError);
    CHECK_THROWS_AS(jit->add_ir("define i64 @broken(", ""), CodegenError);
}

TEST_CASE("two sessions in one process are independent") {
    auto a = JitSession::create(JitOptions{.object_cache = false, .cache_dir = {}}, {});
    auto b = JitSession::create(JitOptions{.object_cache = false, .cache_dir = {}}, {});
    a->add_ir(kAdd, "");
    CHECK_THROWS_AS(b->lookup("tg_add"), CodegenError);
    b->add_ir(kAdd, "");
    auto fa = reinterpret_cast<int64_t (*)(int64_t, int64_t)>(a->lookup("tg_add"));
    auto fb = reinterpret_cast<int64_t (*)(int64_t, int64_t)>(b->lookup("tg_add"));
    CHECK(fa(1, 1) == 2);
    CHECK(fb(2, 2) == 4);
}

TEST_CASE("two threads create the process's first sessions at once: one plugin, loaded once") {
    // ctest runs each test case in a process of its own: this is the JIT
    // plugin's first load (docs/embedding.md "What loads when")
    std::atomic<int> starting{2};
    const tg::codegen::JitPlugin* plugin[2] = {};
    int64_t sum[2] = {};
    std::string error[2];
    auto run = [&](int i) {
        starting.fetch_sub(1);
        while (starting.load() > 0) std::this_thread::yield();
        try {
            plugin[i] = &tg::codegen::jit_plugin();
            auto jit = JitSession::create(JitOptions{.object_cache = false, .cache_dir = {}}, {});
            jit->add_ir(kAdd, "");
            sum[i] = reinterpret_cast<int64_t (*)(int64_t, int64_t)>(jit->lookup("tg_add"))(i, 40);
        } catch (const std::exception& e) {
            error[i] = e.what();
        }
    };
    std::thread a(run, 0), b(run, 1);
    a.join();
    b.join();
    CHECK(error[0] == "");
    CHECK(error[1] == "");
    CHECK(plugin[0] == plugin[1]);
    CHECK(sum[0] == 40);
    CHECK(sum[1] == 41);
}

TEST_CASE("a missing JIT plugin is reported as such, not as an internal error") {
    using tg::codegen::compile_failure_text;
    const std::string missing = "cannot load tg's plugin libtg_jit.so.0.2.0 (looked in /opt/tg/lib/tg)";
    CHECK(compile_failure_text(tg::codegen::JitUnavailable(missing)) ==
          missing + "\n(--no-jit runs without it; docs/embedding.md \"What loads when\")");
    CHECK(compile_failure_text(CodegenError("bad IR")) ==
          "internal error: bad IR\n(please report this; --no-jit avoids it)");
}
