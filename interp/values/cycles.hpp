// Reference cycles through closures. Values are reference-counted; a
// function defined inside another keeps its defining frame (Env) alive, and
// when that frame also holds the function (`def helper(): ...` stores it in
// a local) the two keep each other alive after the call: Env → function →
// Env. With @graph the cycle also pins the function's traces and compiled
// code. The collector finds such garbage the way CPython's gc does (trial
// deletion): among the frames that outlived their call, and everything they
// reach, an object whose reference count exceeds the references found
// inside that set is reachable from outside; whatever no such object reaches
// is garbage, and clearing its frames' slots breaks the cycles (every cycle
// passes through a frame: lists have value semantics, a function cannot
// reach itself except through a frame).
//
// It never frees anything itself: objects are freed by their reference
// counts once the cycles are cut. References it cannot see (the evaluator's
// own stack, host objects) only make it keep more.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace tg::interp {

struct Env;
class Value;

class CycleCollector {
public:
    CycleCollector();
    ~CycleCollector();
    CycleCollector(const CycleCollector&) = delete;
    CycleCollector& operator=(const CycleCollector&) = delete;

    // A call's frame at its return, with `locals` references the caller of
    // this function holds. Cuts the common cycle at once — closures defined
    // in the frame, stored only in its slots, and nothing else referring to
    // it — else, if something still refers to the frame, keeps it as a
    // suspect and collects when enough have accumulated.
    void frame_done(const std::shared_ptr<Env>& env, long locals) {
        if (env.use_count() <= locals) return;  // freed with the call (inline: every call returns here)
        frame_kept(env, locals);
    }
    void suspect(const std::shared_ptr<Env>& env);
    // Cuts every garbage cycle among the suspects; returns how many frames
    // it cleared.
    size_t collect();
    // At the interpreter's end: empties the trace caches of every @graph
    // function reachable from `roots` (a module's variables). A trace keeps
    // the values it captured, and a recursive @graph function captures
    // itself — function → cache → trace → function, a cycle through no frame,
    // which collect() cannot see. Returns how many caches it emptied.
    size_t drop_traces(const std::vector<Value>& roots);

    size_t suspects() const { return suspects_.size(); }
    size_t cleared_total() const { return cleared_total_; }

private:
    // frame_done of a frame something still refers to after its call.
    void frame_kept(const std::shared_ptr<Env>& env, long locals);
    struct Node;
    struct Scratch;
    std::unique_ptr<Scratch> scratch_;  // the walk's storage, reused
    std::vector<std::weak_ptr<Env>> suspects_;
    size_t threshold_ = 256;
    size_t cleared_total_ = 0;
};

}  // namespace tg::interp
