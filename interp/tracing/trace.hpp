// Tracing state: what the evaluator keeps while it runs a @graph function's
// body with symbolic tensors (docs/graph.md, ARCHITECTURE "one evaluator, two
// kinds of tensor"). There is no separate tracer evaluator: the ordinary one
// runs, and wherever a symbolic value meets an operation, the operation
// appends a node to `graph` instead of computing.
//
// Owned by the @graph call being traced (interp/tracing/graph_call.cpp) and reached
// through Runtime::trace, which is null whenever nothing is traced: no global
// state, two interpreters trace independently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "interp/error.hpp"
#include "interp/values/value.hpp"
#include "tracer/graph.hpp"

namespace tg::interp {

class Runtime;

struct SymStrObj {
    tracer::Template text;                 // pieces refer to `operands` by index
    std::vector<tracer::ValueId> operands;
};

// A variable read from outside the traced code (a module variable, or a
// variable of a function enclosing the @graph function): its value is baked
// into the graph, so a later call must retrace if it was rebound (docs/graph.md "Signatures and the cache").
struct Capture {
    std::string name;
    ModuleState* module = nullptr;  // a module variable: module->globals[slot]
    std::shared_ptr<Env> env;       // or a variable of an enclosing function
    int slot = 0;
    Value value;                    // as read at trace time
    const Value& current() const;
    // tracer::CaptureGuard: the trace still applies while the variable holds
    // the value it read (the same object); messages show both values.
    bool holds() const { return current().identical(value); }
    std::string traced_display() const;
    std::string current_display() const;
};

struct TraceState {
    tracer::Graph graph;
    uint64_t serial = 0;  // this trace's number in its runtime (a value made in it is only valid in it: vjp)
    tracer::ValueId token = tracer::kNoId;  // the current side-effect token
    // Location of the operation being dispatched (set by the evaluator just
    // before it calls into dispatch), and the inlined calls around it.
    lang::SourcePtr source;
    lang::Loc loc;
    std::shared_ptr<const tracer::CallSite> inlined;
    std::vector<Capture> captures;
    std::vector<std::string> notes;  // for --trace: unrolled loops
    // Sizes of symbolic tensors the program read (x.shape, x.size, len(x)):
    // a generalized trace whose dynamic dimension was read is specific to
    // its sizes (tracer/generalize.hpp).
    struct SizeRead {
        tracer::ValueId value;
        int axis;  // -1: every axis
        lang::Loc loc;
        lang::SourcePtr source;  // of loc
    };
    std::vector<SizeRead> size_reads;
    // With a debugger attached: the source lines traced into the graph
    // (interp/debug/debugger.hpp: a breakpoint among them runs calls eagerly).
    std::vector<std::pair<const lang::Source*, uint32_t>> debug_lines;
    std::vector<int> debug_asserted;  // breakpoints whose condition the graph checks
    // Optimize the graph when the trace finishes; a trace that may be
    // generalized is compared unoptimized, then optimized (interp/tracing/graph_generalize.cpp).
    bool optimize = true;
    // (`at` in `src`; null: where the current operation is, `source`)
    void read_size(const Value& x, int axis, lang::Loc at, const lang::SourcePtr& src = nullptr);

    explicit TraceState(std::string name) : graph(std::move(name)) {}
    tracer::SrcLoc here() const { return {source, loc, inlined}; }
    tracer::SrcLoc at(const lang::SourcePtr& s, lang::Loc l) const { return {s, l, inlined}; }
    void capture(std::string name, ModuleState* m, std::shared_ptr<Env> env, int slot, const Value& v);
};

// ---- helpers for dispatch and the evaluator (interp/tracing/trace.cpp)

// The graph value for a tensor value: its id if symbolic, else a new constant node.
tracer::ValueId value_id(TraceState& t, const Value& v);
Value symbolic(TraceState& t, tracer::ValueId id);
// True if v is, or (lists, tuples) contains, a symbolic tensor or string.
bool has_symbolic(const Value& v);

// A value that must be known at trace time depends on tensor contents.
// `what` names it ("zeros: argument `shape`"). docs/graph.md "Static and dynamic": tracing stops.
[[noreturn]] void dynamic_value_error(const std::string& message);
// The same for the value `v`, naming the parameters of the traced function
// it is computed from and suggesting @graph(static=...) (docs/graph.md "Signatures and the cache").
[[noreturn]] void dynamic_value_error(const TraceState& t, const std::string& message, const Value& v);
// The parameters of the traced function a symbolic value depends on, in the
// order found ("n", "shape"; a leaf "xs[0]" counts as `xs`).
std::vector<std::string> params_behind(const TraceState& t, const Value& v);
// Appended to every trace error (docs/graph.md "Static and dynamic").
inline constexpr const char* kEagerHint = " (run with --eager to execute this function without tracing)";
// The tracer cannot express this (yet): the call runs eagerly instead.
[[noreturn]] void unsupported_in_graph(const std::string& what);

// "not (f1 or f2 ...)" over symbolic bool flags (break / continue / return
// may have happened): the predicate for "go on".
tracer::ValueId none_set(Runtime& rt, const std::vector<Value*>& flags);

// Text of str(v) / repr(v) as a template (symbolic tensors become operand pieces).
void append_str(TraceState& t, tracer::Template& out, std::vector<tracer::ValueId>& operands, const Value& v,
                bool repr, bool in_container = false);
// A string value from a template: a plain str when it has no operands.
Value make_str(tracer::Template text, std::vector<tracer::ValueId> operands);

}  // namespace tg::interp
