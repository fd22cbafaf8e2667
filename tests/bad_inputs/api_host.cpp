// A host that misuses the embedding API in one named way per run (the bad-
// input catalogue's `$ api CASE` lines, tests/bad_inputs/api.cases). Prints
// "tg::Error: MESSAGE (file:line:col)" and exits 1 when a tg::Error comes
// out, as it must; any other exception escaping is a bug (exit 3).
#include <tg/tg.hpp>

#include "api/tool_api.hpp"  // read_file (CLI-side)

#include <atomic>
#include <cstdio>
#include <functional>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Value = tg::Value;
using Args = std::span<const Value>;

tg::Interpreter with_source(const char* source, tg::Options o = {}) {
    tg::Interpreter i(std::move(o));
    i.run_source(source, "host.tg");
    return i;
}

const std::map<std::string, std::function<void()>> kCases = {
    {"call-undefined", [] { tg::Interpreter i; i.call("nope", {}); }},
    {"call-not-a-function", [] { auto i = with_source("x = 3\n"); i.call("x", {}); }},
    {"call-too-many-args", [] { auto i = with_source("def f(a):\n    return a\n"); i.call("f", {Value(1), Value(2)}); }},
    {"call-too-few-args", [] { auto i = with_source("def f(a, b):\n    return a\n"); i.call("f", {Value(1)}); }},
    {"call-value-none", [] { tg::Interpreter i; i.call_value(Value(), {}); }},
    {"call-error-inside", [] { auto i = with_source("def f(a):\n    return a + \"s\"\n"); i.call("f", {Value(1)}); }},
    {"get-undefined", [] { tg::Interpreter i; i.get("missing"); }},
    {"as-tensor-of-str", [] { Value("text").as_tensor(); }},
    {"as-string-of-tensor", [] { Value(1.5).as_string(); }},
    {"items-of-tensor", [] { Value(int64_t{3}).items(); }},
    {"item-of-vector", [] { tg::Tensor::from_floats(std::vector<float>{1, 2}, {2}).item(); }},
    {"copy-of-negative-shape", [] { float f = 0; tg::Tensor::copy_of(&f, tg::DType::F32, {-1}); }},
    {"wrap-strides-mismatch", [] { float f[4] = {}; tg::Tensor::wrap(f, tg::DType::F32, {2, 2}, {}, {1}); }},
    {"graphs-of-plain-function", [] { auto i = with_source("def f(x):\n    return x\n"); i.graphs("f"); }},
    {"graphs-of-undefined", [] { tg::Interpreter i; i.graphs("g"); }},
    {"host-throws-int", [] {
         tg::Interpreter i;
         i.define("boom", [](Args) -> Value { throw 42; });
         i.run_source("y = 1 + boom()\n", "host.tg");
     }},
    {"host-throws-bad-alloc", [] {
         tg::Interpreter i;
         i.define("greedy", [](Args) -> Value { throw std::bad_alloc(); });
         i.run_source("greedy()\n", "host.tg");
     }},
    {"host-throws-host-error", [] {
         tg::Interpreter i;
         i.define("check", [](Args) -> Value { throw tg::HostError("value out of range"); });
         i.run_source("x = 2\ncheck(x)\n", "host.tg");
     }},
    {"host-throws-runtime-error", [] {
         tg::Interpreter i;
         i.define("io", [](Args) -> Value { throw std::runtime_error("disk on fire"); });
         i.run_source("io()\n", "host.tg");
     }},
    {"host-keyword-argument", [] {
         tg::Interpreter i;
         i.define("h", [](Args) -> Value { return Value(); });
         i.run_source("h(1, scale=2)\n", "host.tg");
     }},
    {"host-misuses-result", [] {
         tg::Interpreter i;
         i.define("name", [](Args a) -> Value { return Value(a[0].as_string()); });
         i.run_source("name(3)\n", "host.tg");
     }},
    {"run-file-directory", [] { tg::Interpreter i; i.run_file("."); }},
    {"run-file-missing", [] { tg::Interpreter i; i.run_file("missing.tg"); }},
    {"run-file-dev-zero", [] { tg::Interpreter i; i.run_file("/dev/zero"); }},
    {"read-file-directory", [] { tg::read_file("/"); }},
    {"max-steps", [] {
         tg::Options o;
         o.max_steps = 1000;
         with_source("while True:\n    pass\n", o);
     }},
    {"max-call-depth", [] {
         tg::Options o;
         o.max_call_depth = 50;
         with_source("def f(n):\n    return f(n + 1)\nf(0)\n", o);
     }},
    {"interrupt-set-before-run", [] {
         static std::atomic<bool> stop{true};
         tg::Options o;
         o.interrupt = &stop;
         with_source("i = 0\nwhile True:\n    i += 1\n", o);
     }},
    {"import-disabled", [] {
         tg::Options o;
         o.allow_import = false;
         with_source("import util\n", o);
     }},
    {"syntax-error", [] { with_source("def f(:\n"); }},
    {"check-source-ok-after-misuse", [] {
         tg::CheckResult r = tg::check_source("x = (1,\n", "c.tg");
         std::fputs(r.report.c_str(), stdout);
         std::printf("errors=%d incomplete=%d\n", r.errors, r.incomplete ? 1 : 0);
     }},
    {"set-then-call-non-function", [] {
         tg::Interpreter i;
         i.set("f", Value("not callable"));
         i.call("f", {Value(1)});
     }},
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 || !kCases.count(argv[1])) {
        std::fprintf(stderr, "usage: api_host CASE; cases:");
        for (auto& [name, fn] : kCases) std::fprintf(stderr, " %s", name.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    try {
        kCases.at(argv[1])();
    } catch (const tg::Error& e) {
        std::fprintf(stderr, "tg::Error: %s (%s:%d:%d)\n", e.message().c_str(), e.file().c_str(), e.line(), e.col());
        return 1;
    } catch (...) {
        std::fprintf(stderr, "an exception other than tg::Error left the API\n");
        return 3;
    }
    return 0;
}
