// The breakpoints a `tg dap` client set (docs/debugging.md "VS Code"), kept
// apart from the interpreter's: the client sets them on the reader thread at
// any time — before the program is launched, while it runs, while it is
// stopped — but the interpreter's own table may change only on its thread,
// while it waits. This table is the client's truth; apply() brings the
// interpreter's in line when it may.
#pragma once

#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tg::cli {

class BreakpointTable {
public:
    struct Entry {
        int id = 0;               // the id the client knows it by (given by replace)
        BreakpointSpec spec;
        bool verified = true;     // false: the interpreter never gets it
        std::string message;      // why it is not verified
    };
    // The key of function breakpoints (a source's key is its absolute path).
    static constexpr const char* kFunctions = "<function breakpoints>";

    // Replaces the breakpoints of `key` with `entries`; returns them with their ids.
    std::vector<Entry> replace(const std::string& key, std::vector<Entry> entries);
    void set_stop_on_raise(bool on);
    // Whether something changed since the last apply().
    bool changed() const { return changed_.load(); }

    // Brings `interp`'s breakpoints and stop-on-raise setting in line with
    // the table: only on the interpreter's thread, or before it runs. A
    // source's breakpoints are replaced only when the client changed them
    // (the others keep their hit counts).
    void apply(Interpreter& interp);

    // The breakpoint the interpreter calls `interp_id`, as the client knows it.
    struct ClientView {
        int id;
        bool function;
    };
    std::optional<ClientView> client_breakpoint(int interp_id) const;

private:
    struct Group {
        std::vector<Entry> entries;
        std::vector<int> interp_ids;  // what apply() added for them
        bool pending = true;
    };
    mutable std::mutex mutex_;
    std::map<std::string, Group> groups_;
    std::map<int, ClientView> by_interp_id_;
    bool stop_on_raise_ = false;
    bool raise_pending_ = true;
    int next_id_ = 1;
    std::atomic<bool> changed_{false};
};

// Whether `c` is a hit condition the interpreter understands: "N", ">= N",
// "> N", "<= N", "< N", "== N" or "% N" (docs/debugging.md).
bool valid_hit_condition(const std::string& c);

}  // namespace tg::cli
