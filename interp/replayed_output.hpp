// A call run twice — compiled, then replayed eagerly to show an error or a
// stop where eager execution has it (docs/debugging.md "Inside @graph"; the
// REPL's traced input, docs/repl.md) — prints its output once: the first run's
// output is recorded as it is shown, and the replay's is held back until it
// goes past (or differs from) what was already shown.
#pragma once

#include <string>
#include <utility>

#include "interp/runtime.hpp"

namespace tg::interp {

// Records what goes through `slot` while it lives (still showing it).
class RecordedOutput {
public:
    explicit RecordedOutput(OutputFn& slot) : slot_(slot), saved_(slot) {
        slot_ = [this](std::string_view s) {
            printed += s;
            if (saved_) saved_(s);
        };
    }
    ~RecordedOutput() { slot_ = std::move(saved_); }
    RecordedOutput(const RecordedOutput&) = delete;
    RecordedOutput& operator=(const RecordedOutput&) = delete;
    std::string printed;

private:
    OutputFn& slot_;
    OutputFn saved_;
};

// Holds back, while it lives, the part of what goes through `slot` that
// repeats `printed` from its start.
class HeldBackOutput {
public:
    HeldBackOutput(OutputFn& slot, std::string printed) : slot_(slot), saved_(slot), printed_(std::move(printed)) {
        slot_ = [this](std::string_view s) {
            while (held_ < printed_.size() && !s.empty() && s.front() == printed_[held_]) {
                ++held_;
                s.remove_prefix(1);
            }
            if (!s.empty()) {
                held_ = printed_.size();  // past what was shown (or different from it): shown as it comes
                if (saved_) saved_(s);
            }
        };
    }
    ~HeldBackOutput() { slot_ = std::move(saved_); }
    HeldBackOutput(const HeldBackOutput&) = delete;
    HeldBackOutput& operator=(const HeldBackOutput&) = delete;

private:
    OutputFn& slot_;
    OutputFn saved_;
    std::string printed_;
    size_t held_ = 0;
};

}  // namespace tg::interp
