// The debugging hooks of include/tg/debug.hpp, used as a host would: a small
// debugger that records what it sees at each stop and answers with a
// scripted list of Resume values (docs/debugging.md "For C++ hosts").
#include <doctest/doctest.h>

#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Seen {
    tg::StopReason reason;
    std::string function;
    int line;
    bool is_graph;
    std::string note;  // what `look` evaluated
};

// Records each stop; `look` runs at each stop (evaluate, set, ...), then the
// next scripted Resume is returned (Continue when the script is done).
struct Recorder : tg::Debugger {
    std::vector<Seen> stops;
    std::vector<tg::Resume> script;
    std::function<std::string(const tg::DebugStop&)> look;
    std::string logged;
    std::vector<int> event_lines;

    tg::Resume stopped(const tg::DebugStop& s) override {
        const tg::DebugFrame& f = s.frames.at(0);
        stops.push_back({s.reason, f.function(), f.line(), f.is_graph(), look ? look(s) : ""});
        if (stops.size() <= script.size()) return script[stops.size() - 1];
        return tg::Resume::Continue;
    }
    void output(std::string_view text) override { logged += text; }
    void event(Event e, const tg::DebugFrame& f) override {
        if (e == Line) event_lines.push_back(f.line());
    }
};

// Options whose print() output goes to `out`.
tg::Options capture(std::string& out) {
    tg::Options o;
    o.write_output = [&out](std::string_view s) { out += s; };
    return o;
}

tg::BreakpointSpec at_line(const std::string& file, int line) {
    tg::BreakpointSpec b;
    b.file = file;
    b.line = line;
    return b;
}

std::string output_of(tg::Interpreter& interp, const std::string& src, std::string& out) {
    interp.run_source(src, "prog.tg");
    return out;
}

const char* kProgram =
    "def f(x):\n"          // 1
    "    y = x * 2.0\n"    // 2
    "    return y + 1.0\n" // 3
    "\n"                   // 4
    "@graph\n"             // 5
    "def g(x):\n"          // 6
    "    z = x - 1.0\n"    // 7
    "    while z.sum() < 8.0:\n"  // 8
    "        z = z * 2.0\n"       // 9
    "    return z\n"              // 10
    "\n"                          // 11
    "a = f(tensor([1.0, 2.0]))\n" // 12
    "b = g(a)\n"                  // 13
    "print(b)\n";                 // 14

}  // namespace

TEST_CASE("a line breakpoint stops in eager code with the frame's variables, evaluate and set change them") {
    std::string out;
    tg::Interpreter interp(capture(out));
    Recorder d;
    d.look = [](const tg::DebugStop& s) {
        const tg::DebugFrame& f = s.frames[0];
        std::string note = f.evaluate("y").str();
        f.set("y", tg::Value(tg::Tensor::from_floats(std::vector<float>{10.0f, 20.0f}, {2})));
        REQUIRE(s.frames.size() == 2);
        CHECK(s.frames[1].function() == "<module>");
        CHECK(s.frames[1].line() == 12);
        CHECK(f.locals().size() == 2);  // x, y
        return note;
    };
    interp.attach_debugger(&d);
    interp.add_breakpoint(at_line("prog.tg", 3));
    output_of(interp, kProgram, out);
    REQUIRE(d.stops.size() == 1);
    CHECK(d.stops[0].reason == tg::StopReason::Breakpoint);
    CHECK(d.stops[0].function == "f");
    CHECK(d.stops[0].note == "[2.0, 4.0]");
    CHECK(interp.get("a").str() == "[11.0, 21.0]");  // the changed y was used
}

TEST_CASE("a breakpoint inside a @graph function stops with eager's values, through a converted while") {
    for (bool no_jit : {false, true}) {
        std::string out;
        tg::Options o = capture(out);
        o.no_jit = no_jit;
        tg::Interpreter interp(o);
        Recorder d;
        d.look = [](const tg::DebugStop& s) { return s.frames[0].evaluate("z").str(); };
        interp.attach_debugger(&d);
        interp.add_breakpoint(at_line("prog.tg", 9));
        output_of(interp, kProgram, out);
        REQUIRE(d.stops.size() == 1);  // z = [2, 4], then [4, 8] ends the loop
        CHECK(d.stops[0].is_graph);
        CHECK(d.stops[0].note == "[2.0, 4.0]");
        CHECK(out == "[4.0, 8.0]\n");
    }
}

TEST_CASE("a conditional breakpoint compiled into a graph stops only when it holds, with the output once") {
    std::string out;
    tg::Interpreter interp(capture(out));
    Recorder d;
    d.look = [](const tg::DebugStop& s) { return s.frames[0].evaluate("z.sum()").str(); };
    interp.attach_debugger(&d);
    tg::BreakpointSpec b = at_line("prog.tg", 9);
    b.condition = "z.sum() > 5.0";
    interp.add_breakpoint(b);
    interp.run_source(std::string(kProgram) + "print(g(tensor([2.0, 2.0])))\nprint(g(a))\n", "prog.tg");
    REQUIRE(d.stops.size() == 2);  // g(a) twice (z sums 6 at line 9); g([2, 2]) never holds (2, then 4)
    CHECK(d.stops[0].note == "6.0");
    CHECK(d.stops[1].note == "6.0");
    // g stayed compiled: its graph checks the condition (an assert)
    const auto graphs = interp.graphs("g");
    REQUIRE(!graphs.empty());
    CHECK(graphs.back().find("a breakpoint's condition held") != std::string::npos);
    CHECK(out == "[4.0, 8.0]\n[4.0, 4.0]\n[4.0, 8.0]\n");
}

TEST_CASE("stepping: in, over, out, function breakpoints, temporary ones go") {
    std::string out;
    tg::Interpreter interp(capture(out));
    Recorder d;
    d.script = {tg::Resume::StepIn, tg::Resume::StepOver, tg::Resume::StepOut, tg::Resume::StepOver};
    interp.attach_debugger(&d);
    tg::BreakpointSpec once = at_line("prog.tg", 12);
    once.temporary = true;
    interp.add_breakpoint(once);
    tg::BreakpointSpec in_g;
    in_g.function = "g";
    interp.add_breakpoint(in_g);
    output_of(interp, kProgram, out);
    REQUIRE(d.stops.size() >= 6);
    CHECK(d.stops[0].line == 12);                  // the temporary breakpoint
    CHECK((d.stops[1].function == "f" && d.stops[1].line == 2));  // step in
    CHECK(d.stops[2].line == 3);                   // step over
    CHECK(d.stops[3].reason == tg::StopReason::Return);  // step out: f returns
    CHECK((d.stops[4].function == "<module>" && d.stops[4].line == 13));
    CHECK((d.stops[5].function == "g" && d.stops[5].line == 7 && d.stops[5].is_graph));  // the function breakpoint
    CHECK(interp.breakpoints().size() == 1);
}

TEST_CASE("stop on raise: the frame that raised, eager and compiled, the error goes on after") {
    for (bool eager : {false, true}) {
        std::string out;
        tg::Options o = capture(out);
        o.eager = eager;
        tg::Interpreter interp(o);
        Recorder d;
        d.look = [](const tg::DebugStop& s) {
            REQUIRE(s.error.has_value());
            return s.frames[0].evaluate("i").str() + " " + s.error->message();
        };
        interp.attach_debugger(&d);
        interp.set_stop_on_raise(true);
        const char* src = "@graph\ndef pick(x, i):\n    print(i)\n    return x[i]\n\nxs = ones((3,))\nprint(pick(xs, 1))\n"
                          "print(pick(xs, 4))\n";
        CHECK_THROWS_AS(interp.run_source(src, "raise.tg"), tg::Error);
        REQUIRE(d.stops.size() == 1);
        CHECK(d.stops[0].reason == tg::StopReason::Exception);
        CHECK(d.stops[0].function == "pick");
        CHECK(d.stops[0].note == "4 index 4 is out of range for axis 0 with size 3");
        CHECK(out == "1\n1.0\n4\n");  // the replay's output is not shown twice
    }
}

TEST_CASE("logpoints write instead of stopping, line events reach the host") {
    std::string out;
    tg::Interpreter interp(capture(out));
    Recorder d;
    interp.attach_debugger(&d);
    tg::BreakpointSpec log = at_line("prog.tg", 2);
    log.log_message = "x is {x}";
    interp.add_breakpoint(log);
    interp.set_debug_events(tg::Debugger::Line);
    output_of(interp, kProgram, out);
    CHECK(d.stops.empty());
    CHECK(d.logged == "x is [1.0, 2.0]\n");
    CHECK(d.event_lines.front() == 1);
    CHECK(std::find(d.event_lines.begin(), d.event_lines.end(), 3) != d.event_lines.end());
}

TEST_CASE("request_pause from another thread stops a compiled loop, Terminate ends the run") {
    std::string out;
    tg::Interpreter interp(capture(out));
    Recorder d;
    std::atomic<bool> stopped{false};
    d.look = [&](const tg::DebugStop& s) {
        stopped = true;
        CHECK(s.frames[0].is_compiled());
        CHECK_THROWS_AS(s.frames[0].evaluate("x"), tg::Error);
        return std::string();
    };
    d.script = {tg::Resume::Terminate};
    interp.attach_debugger(&d);
    std::thread pauser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        interp.request_pause();
    });
    const char* spin = "@graph\ndef spin(x):\n    while x.sum() > 0.0:\n        x = x + 1.0\n    return x\n\nspin(ones((4,)))\n";
    CHECK_THROWS_AS(interp.run_source(spin, "spin.tg"), tg::Error);
    pauser.join();
    CHECK(stopped);
    REQUIRE(d.stops.size() == 1);
    CHECK(d.stops[0].reason == tg::StopReason::Pause);
    // the interpreter is usable after, at full speed with the debugger gone
    interp.attach_debugger(nullptr);
    interp.run_source("print(1 + 1)\n", "after.tg");
    CHECK(out == "2\n");
}

TEST_CASE("two interpreters: a debugger on one does not see the other") {
    std::string out1, out2;
    tg::Interpreter a(capture(out1));
    tg::Interpreter b(capture(out2));
    Recorder d;
    a.attach_debugger(&d);
    a.add_breakpoint(at_line("prog.tg", 3));
    b.run_source(kProgram, "prog.tg");
    CHECK(d.stops.empty());
    a.run_source(kProgram, "prog.tg");
    CHECK(d.stops.size() == 1);
    CHECK(out1 == out2);
}
