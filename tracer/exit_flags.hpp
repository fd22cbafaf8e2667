// The hidden flags of `break`, `continue` and `return` inside converted
// control flow (docs/graph.md "Static and dynamic"): a branch or loop body that exits sets its flag;
// while a flag may be set (a graph value), the rest of the block runs inside
// a `cond` on "none is set"; a flag that ends up statically true after a
// merge means the exit happened on every path.
//
// This is the policy; interp's frame holds the flags and implements
// ExitFlags over them (interp/tracing/autograph.cpp), so tracer/ needs nothing of
// interp's values.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace tg::tracer {

enum class Exit : uint8_t { Return, Break, Continue };

// A flag's value: static False or True, or a graph value (may be either).
enum class FlagState : uint8_t { False, True, Dynamic };

class ExitFlags {
public:
    virtual bool in_loop() const = 0;  // break / continue exist only in a loop
    virtual FlagState state(Exit e) const = 0;
    virtual void set(Exit e, bool on) = 0;  // to a static value

protected:
    ~ExitFlags() = default;
};

// The exit whose flag is statically true, now taken (the flag is cleared):
// `return` before `break` before `continue`. None when no flag is.
std::optional<Exit> take_settled_exit(ExitFlags& flags);
// The exits that may have happened (dynamic flags), in that order.
std::vector<Exit> pending_exits(const ExitFlags& flags);
bool any_pending(const ExitFlags& flags);
// Whether only a `return` may have happened among `pending`: the paths that
// exited never read the variables again, so the rest of the block may rebind
// them to other shapes or dtypes.
bool only_return_pending(const std::vector<Exit>& pending);

}  // namespace tg::tracer
