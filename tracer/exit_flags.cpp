// The policy of break / continue / return flags (tracer/exit_flags.hpp).
#include "tracer/exit_flags.hpp"

#include <span>

namespace tg::tracer {

namespace {

// The flags the frame has, in the order a settled or pending one is taken
// (no allocation: any_pending runs before every statement while tracing).
constexpr Exit kOrder[] = {Exit::Return, Exit::Break, Exit::Continue};
std::span<const Exit> flags_of(const ExitFlags& flags) {
    return std::span<const Exit>(kOrder, flags.in_loop() ? 3 : 1);
}

}  // namespace

std::optional<Exit> take_settled_exit(ExitFlags& flags) {
    for (Exit e : flags_of(flags))
        if (flags.state(e) == FlagState::True) {
            flags.set(e, false);
            return e;
        }
    return std::nullopt;
}

std::vector<Exit> pending_exits(const ExitFlags& flags) {
    std::vector<Exit> out;
    for (Exit e : flags_of(flags))
        if (flags.state(e) == FlagState::Dynamic) out.push_back(e);
    return out;
}

bool any_pending(const ExitFlags& flags) {
    for (Exit e : flags_of(flags))
        if (flags.state(e) == FlagState::Dynamic) return true;
    return false;
}

bool only_return_pending(const std::vector<Exit>& pending) {
    return pending.size() == 1 && pending[0] == Exit::Return;
}

}  // namespace tg::tracer
