// The policy of break / continue / return flags (tracer/exit_flags.hpp)
// over a plain set of flags, without an interpreter.
#include <doctest/doctest.h>

#include <map>

#include "tracer/exit_flags.hpp"

using namespace tg::tracer;

namespace {

struct Flags final : ExitFlags {
    bool loop = true;
    std::map<Exit, FlagState> state_of{
        {Exit::Return, FlagState::False}, {Exit::Break, FlagState::False}, {Exit::Continue, FlagState::False}};
    bool in_loop() const override { return loop; }
    FlagState state(Exit e) const override {
        CHECK((loop || e == Exit::Return));  // break / continue are not read outside a loop
        return state_of.at(e);
    }
    void set(Exit e, bool on) override { state_of[e] = on ? FlagState::True : FlagState::False; }
};

}  // namespace

TEST_CASE("exit flags: a settled exit is taken once, return before break before continue") {
    Flags f;
    CHECK(take_settled_exit(f) == std::nullopt);
    f.set(Exit::Continue, true);
    f.set(Exit::Break, true);
    f.set(Exit::Return, true);
    CHECK(take_settled_exit(f) == Exit::Return);
    CHECK(f.state_of[Exit::Return] == FlagState::False);
    CHECK(take_settled_exit(f) == Exit::Break);
    CHECK(take_settled_exit(f) == Exit::Continue);
    CHECK(take_settled_exit(f) == std::nullopt);
    // a dynamic flag is not settled: it stays as it is
    f.state_of[Exit::Break] = FlagState::Dynamic;
    CHECK(take_settled_exit(f) == std::nullopt);
    CHECK(f.state_of[Exit::Break] == FlagState::Dynamic);
}

TEST_CASE("exit flags: outside a loop only return counts") {
    Flags f;
    f.loop = false;
    f.state_of[Exit::Break] = FlagState::True;  // a stale value the policy must not read
    f.state_of[Exit::Continue] = FlagState::Dynamic;
    CHECK(take_settled_exit(f) == std::nullopt);
    CHECK(!any_pending(f));
    CHECK(pending_exits(f).empty());
    f.state_of[Exit::Return] = FlagState::Dynamic;
    CHECK(any_pending(f));
    CHECK(pending_exits(f) == std::vector<Exit>{Exit::Return});
}

TEST_CASE("exit flags: pending exits in order, and when only a return is pending") {
    Flags f;
    CHECK(!any_pending(f));
    f.state_of[Exit::Continue] = FlagState::Dynamic;
    f.state_of[Exit::Return] = FlagState::Dynamic;
    f.state_of[Exit::Break] = FlagState::True;  // settled, not pending
    CHECK(any_pending(f));
    CHECK(pending_exits(f) == std::vector<Exit>{Exit::Return, Exit::Continue});
    CHECK(!only_return_pending(pending_exits(f)));
    CHECK(only_return_pending({Exit::Return}));
    CHECK(!only_return_pending({Exit::Break}));
    CHECK(!only_return_pending({}));
}
