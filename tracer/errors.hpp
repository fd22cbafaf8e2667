// Errors the tracer raises. `Error` carries a message and the source location
// of the tg expression it is about, so interp can render it exactly like the
// eager error (docs/graph.md "Running": same message, same file:line:col).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "lang/source.hpp"

namespace tg::tracer {

struct CallSite;

// Where a node came from: the tg expression that created it, and the calls
// (inlined into the graph while tracing) it sits in, so that an error raised
// by the node shows the same traceback as eager.
struct SrcLoc {
    lang::SourcePtr source;  // may be null (hand-built graphs, tests)
    lang::Loc loc;
    std::shared_ptr<const CallSite> inlined_in;  // innermost call first; null at the graph's own level
};

// One inlined call: `function` was called at `loc` in `source`.
struct CallSite {
    std::string function;
    bool is_graph = false;
    lang::SourcePtr source;
    lang::Loc loc;
    std::shared_ptr<const CallSite> outer;
};
// "f.tg:3:11", "3:11" without a source, "" when unknown.
inline std::string to_string(const SrcLoc& l) {
    if (!l.loc.known()) return l.source ? l.source->name() : std::string();
    std::string pos = std::to_string(l.loc.line) + ":" + std::to_string(l.loc.col);
    return l.source ? l.source->name() + ":" + pos : pos;
}

// Base of the tracer's user-facing errors. what() is the bare message
// (no location, no "error:"), as in stdlib::OpError.
struct Error : std::runtime_error {
    SrcLoc where;
    Error(const std::string& message, SrcLoc loc) : std::runtime_error(message), where(std::move(loc)) {}
};

// Raised while running a graph (reference interpreter): integer division by
// zero, index out of range, a failed assert, an undefined variable, a `raise`
// node. Same message as the eager error.
struct RuntimeError : Error {
    using Error::Error;
};

// A graph broke an invariant of the IR (verifier). Always a bug in whoever
// built or rewrote the graph, never a user error. The message names the node.
struct VerifyError : std::logic_error {
    using std::logic_error::logic_error;
};

}  // namespace tg::tracer
