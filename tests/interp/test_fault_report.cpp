// The report of a crash of tg itself (interp/fault_report.hpp) from the live
// call stack: frames built by hand, as the evaluator links them, so that the
// cases a script cannot reach on purpose are covered too — compiled @graph
// code running, the trace of a @graph call, no tg code on the thread. (The
// whole path, a real signal in a script and in the REPL: tests/fault.)
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "interp/evaluator.hpp"
#include "interp/fault_report.hpp"

using namespace tg;
using interp::Frame;

namespace {

const char* kText = "def g(x):\n    return bad(x)\n\ny = g(1)\n";

std::string report(int sig, const Frame* innermost) {
    std::FILE* f = std::tmpfile();
    REQUIRE(f);
    interp::write_fault_report(fileno(f), sig, innermost, "9.9");
    std::rewind(f);
    std::string out;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
    std::fclose(f);
    return out;
}

struct Stack {
    lang::SourcePtr source = std::make_shared<lang::Source>("a.tg", kText);
    std::string name = "g";
    Frame module{nullptr, nullptr, nullptr, &source};
    Frame call{nullptr, nullptr, nullptr, &source};
    Stack() {
        module.loc = {4, 1};
        call.function = &name;
        call.call_source = &source;
        call.call_loc = {4, 5};
        call.caller = &module;
    }
};

}  // namespace

TEST_CASE("fault report: the statement running, its line, the traceback, the bug line") {
    Stack s;
    s.call.loc = {2, 5};
    CHECK(report(SIGSEGV, &s.call) ==
          "\na.tg:2:5: fatal error: SIGSEGV (invalid memory access) while running this line\n"
          "    2 |     return bad(x)\n"
          "      |     ^\n"
          "  in g (a.tg:2:5)\n"
          "  in <module> (a.tg:4:5)\n"
          "This is a bug in tg 9.9, not in your program. Please report it on tg's issue tracker with this "
          "report, the command line, and the script (or the smallest part of it that still crashes).\n");
}

TEST_CASE("fault report: compiled @graph code is located at its call") {
    Stack s;
    s.call.is_graph = true;  // the record of call_function: no statement
    const std::string r = report(SIGFPE, &s.call);
    CHECK(r.find("\na.tg:4:5: fatal error: SIGFPE (arithmetic exception) while running this line\n"
                 "    4 | y = g(1)\n"
                 "      |     ^\n"
                 "  in g (compiled code), a @graph function\n"
                 "  in <module> (a.tg:4:5)\n") == 0);
}

TEST_CASE("fault report: the trace of a @graph call is one frame with its call's record") {
    Stack s;
    s.call.is_graph = true;
    Frame traced{nullptr, nullptr, nullptr, &s.source};
    traced.function = &s.name;
    traced.is_graph = true;
    traced.loc = {2, 5};
    traced.caller = &s.call;
    const std::string r = report(SIGSEGV, &traced);
    CHECK(r.find("  in g (a.tg:2:5), a @graph function\n  in <module> (a.tg:4:5)\nThis is a bug") != std::string::npos);
}

TEST_CASE("fault report: deep recursion is counted, not listed") {
    Stack s;
    s.call.loc = {2, 5};
    std::vector<Frame> frames(50, s.call);
    frames.back().caller = &s.module;
    for (size_t i = 0; i + 1 < frames.size(); ++i) frames[i].caller = &frames[i + 1];
    const std::string r = report(SIGSEGV, &frames[0]);
    // the innermost at its statement, the 49 others at their (same) call
    CHECK(r.find("  in g (a.tg:2:5)\n  in g (a.tg:4:5)\n  in g (a.tg:4:5)\n  in g (a.tg:4:5)\n"
                 "  [the line above repeats 46 more times]\n  in <module> (a.tg:4:5)\n") != std::string::npos);
}

TEST_CASE("fault report: no tg code on the thread") {
    const std::string r = report(SIGABRT, nullptr);
    CHECK(r.find("fatal error: SIGABRT (aborted) (no tg code was running on this thread)\nThis is a bug in tg 9.9") !=
          std::string::npos);
}
