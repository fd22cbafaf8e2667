// The client's breakpoints, applied to the interpreter on its own thread.
#include "cli/dap_breakpoints.hpp"

#include <cctype>

namespace tg::cli {

std::vector<BreakpointTable::Entry> BreakpointTable::replace(const std::string& key, std::vector<Entry> entries) {
    std::lock_guard lock(mutex_);
    for (Entry& e : entries) e.id = next_id_++;
    Group& g = groups_[key];
    g.entries = entries;
    g.pending = true;
    changed_ = true;
    return entries;
}

void BreakpointTable::set_stop_on_raise(bool on) {
    std::lock_guard lock(mutex_);
    stop_on_raise_ = on;
    raise_pending_ = true;
    changed_ = true;
}

void BreakpointTable::apply(Interpreter& interp) {
    std::lock_guard lock(mutex_);
    if (raise_pending_) interp.set_stop_on_raise(stop_on_raise_);
    raise_pending_ = false;
    for (auto& [key, g] : groups_) {
        if (!g.pending) continue;
        for (int old : g.interp_ids) {
            interp.remove_breakpoint(old);
            by_interp_id_.erase(old);
        }
        g.interp_ids.clear();
        for (const Entry& e : g.entries) {
            if (!e.verified) continue;
            const int id = interp.add_breakpoint(e.spec);
            g.interp_ids.push_back(id);
            by_interp_id_[id] = ClientView{e.id, key == kFunctions};
        }
        g.pending = false;
    }
    changed_ = false;
}

std::optional<BreakpointTable::ClientView> BreakpointTable::client_breakpoint(int interp_id) const {
    std::lock_guard lock(mutex_);
    const auto it = by_interp_id_.find(interp_id);
    if (it == by_interp_id_.end()) return std::nullopt;
    return it->second;
}

bool valid_hit_condition(const std::string& c) {
    size_t i = 0;
    auto spaces = [&] {
        while (i < c.size() && c[i] == ' ') ++i;
    };
    spaces();
    for (const char* op : {">=", "<=", "==", ">", "<", "%"}) {
        const std::string o = op;
        if (c.compare(i, o.size(), o) == 0) {
            i += o.size();
            break;
        }
    }
    spaces();
    const size_t digits = i;
    while (i < c.size() && std::isdigit(static_cast<unsigned char>(c[i]))) ++i;
    if (i == digits || i - digits > 9) return false;  // a number that fits an int
    spaces();
    return i == c.size();
}

}  // namespace tg::cli
