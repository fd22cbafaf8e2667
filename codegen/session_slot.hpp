// The JIT session of one Compiler (so of one interpreter: no global state),
// made by whichever thread needs it first. A compile that must finish before
// its call makes it on the interpreter's thread; a graph that may start on
// the graph interpreter (codegen/background.hpp) leaves it to the compile
// worker, so the first call of a @graph function waits neither for the JIT
// plugin to load (LLVM's dlopen, ~4 ms) nor for the session to start
// (docs/performance.md "Compiled code").
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "codegen/jit_session.hpp"

namespace tg::codegen {

// How a Compiler makes its session. The default, JitSession::create, loads
// the JIT plugin first if this process has not; tests pass one that holds
// the session back to show what runs meanwhile.
using SessionFactory = std::function<std::unique_ptr<JitSession>()>;

class SessionSlot {
public:
    explicit SessionSlot(SessionFactory make) : make_(std::move(make)) {}
    SessionSlot(const SessionSlot&) = delete;
    SessionSlot& operator=(const SessionSlot&) = delete;

    // The session, made now if no thread has (waits while another makes it).
    // Throws what the factory throws (CodegenError; JitUnavailable when the
    // plugin cannot be loaded), at every call after a failure too.
    // `made_ms`, if given, gets the time this call spent making it (0 when
    // it was made before).
    std::shared_ptr<JitSession> get(double* made_ms = nullptr);

    // The session if it is made, else null; never waits. Thread-safe.
    std::shared_ptr<JitSession> made() const;

private:
    SessionFactory make_;
    std::mutex mutex_;                     // held while making it
    std::shared_ptr<JitSession> session_;  // written once, under mutex_, before made_ is set
    std::atomic<bool> made_{false};
};

}  // namespace tg::codegen
