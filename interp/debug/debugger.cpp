// The debugger's engine: when the program stops (docs/debugging.md).
#include "interp/debug/debugger.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "interp/evaluator.hpp"
#include "interp/tracing/graph_cache.hpp"
#include "interp/values/printing.hpp"

namespace tg::interp {

const char* stop_reason_name(StopReason r) {
    switch (r) {
    case StopReason::Entry: return "entry";
    case StopReason::Breakpoint: return "breakpoint";
    case StopReason::BreakpointCall: return "breakpoint()";
    case StopReason::Step: return "step";
    case StopReason::Return: return "return";
    case StopReason::Pause: return "pause";
    case StopReason::Exception: return "exception";
    case StopReason::Nan: return "nan";
    }
    return "?";
}

int frame_depth(const Frame& f) { return f.depth; }

void Debugger::reset_run() {
    mode_ = Resume::Continue;
    terminated_ = false;
    busy_ = false;
    last_frame_ = nullptr;
    last_steps_ = -1;
    last_raised_ = nullptr;
    pause_requested = false;
}

int Debugger::add_breakpoint(Breakpoint b) {
    b.id = next_id_++;
    breakpoints.push_back(std::move(b));
    return breakpoints.back().id;
}

bool Debugger::remove_breakpoint(int id) {
    auto it = std::find_if(breakpoints.begin(), breakpoints.end(), [id](const Breakpoint& b) { return b.id == id; });
    if (it == breakpoints.end()) return false;
    breakpoints.erase(it);
    return true;
}

Breakpoint* Debugger::find_breakpoint(int id) {
    for (Breakpoint& b : breakpoints)
        if (b.id == id) return &b;
    return nullptr;
}

namespace {
std::string absolute_path(const std::string& p) {
    std::error_code ec;
    auto abs = std::filesystem::weakly_canonical(std::filesystem::absolute(p, ec), ec);
    return ec ? p : abs.string();
}
bool has_folder(const std::string& p) { return p.find('/') != std::string::npos; }
std::string file_name(const std::string& p) { return std::filesystem::path(p).filename().string(); }

// A DAP / pdb hit condition: "N" (the Nth hit), ">= N", "> N", "<= N", "< N", "== N", "% N".
bool hit_condition_holds(std::string_view c, int hits) {
    while (!c.empty() && c.front() == ' ') c.remove_prefix(1);
    std::string_view op = "==";
    for (std::string_view o : {">=", "<=", "==", ">", "<", "%"})
        if (c.substr(0, o.size()) == o) {
            op = o;
            c.remove_prefix(o.size());
            break;
        }
    while (!c.empty() && c.front() == ' ') c.remove_prefix(1);
    int n = 0;
    auto [end, ec] = std::from_chars(c.data(), c.data() + c.size(), n);
    if (ec != std::errc() || end != c.data() + c.size()) return true;  // not understood: stop (the client checks the syntax)
    if (op == ">=") return hits >= n;
    if (op == "<=") return hits <= n;
    if (op == ">") return hits > n;
    if (op == "<") return hits < n;
    if (op == "%") return n > 0 && hits % n == 0;
    return hits == n;
}

// A logpoint's message as a tg f-string: {expr} is interpolated, quotes and
// backslashes are the message's own.
std::string as_fstring(std::string_view message) {
    std::string s = "f\"";
    for (char c : message) {
        if (c == '"' || c == '\\') s += '\\';
        if (c == '\n') {
            s += "\\n";
            continue;
        }
        s += c;
    }
    return s + "\"";
}
}  // namespace

bool Debugger::file_matches(const Breakpoint& b, const lang::Source& s) {
    if (b.file == s.name()) return true;
    if (!has_folder(b.file)) return file_name(s.name()) == b.file;
    auto it = canonical_.find(&s);
    if (it == canonical_.end()) it = canonical_.emplace(&s, absolute_path(s.name())).first;
    return it->second == absolute_path(b.file);
}

// A breakpoint on a line with no statement of its own — blank, a comment,
// a decorator — stops at the next line that has one, as pdb and VS Code do.
static uint32_t statement_line(const lang::Source& s, uint32_t line) {
    for (; line <= s.line_count(); ++line) {
        const std::string_view t = s.line_text(line);
        const size_t i = t.find_first_not_of(" \t\r");
        if (i != std::string_view::npos && t[i] != '#' && t[i] != '@') return line;
    }
    return line;
}

bool Debugger::at_line(const Breakpoint& b, const lang::Source& s, uint32_t line) {
    if (b.line <= 0 || !file_matches(b, s)) return false;
    return statement_line(s, static_cast<uint32_t>(b.line)) == line;
}

bool Debugger::condition_holds(Evaluator& ev, Frame& f, Breakpoint& b) {
    if (b.condition.empty()) return true;
    try {
        busy_ = true;
        Value v = ev.run_in_frame(f, b.condition, "<condition>");
        busy_ = false;
        return ev.truth_of(v);
    } catch (const Error& e) {
        busy_ = false;
        // pdb's choice: a condition that fails stops, and says why
        client_.output("error in the condition of breakpoint " + std::to_string(b.id) + " (" + b.condition +
                       "): " + e.message() + "\n");
        return true;
    }
}

Breakpoint* Debugger::breakpoint_at(Evaluator& ev, Frame& f, const lang::Source& s, uint32_t line) {
    for (size_t i = 0; i < breakpoints.size(); ++i) {
        Breakpoint* b = &breakpoints[i];
        if (!b->enabled || !at_line(*b, s, line)) continue;
        if (!condition_holds(ev, f, *b)) continue;
        ++b->hits;
        if (!b->hit_condition.empty() && !hit_condition_holds(b->hit_condition, b->hits)) continue;
        if (!b->log_message.empty()) {
            try {
                busy_ = true;
                Value text = ev.run_in_frame(f, as_fstring(b->log_message), "<logpoint>");
                busy_ = false;
                client_.output(str_of(text) + "\n");
            } catch (const Error& e) {
                busy_ = false;
                client_.output("error in logpoint " + std::to_string(b->id) + ": " + e.message() + "\n");
            }
            continue;
        }
        return b;
    }
    return nullptr;
}

void Debugger::stop(const Stop& s) {
    busy_ = true;
    pause_requested = false;
    Resume r;
    try {
        r = client_.stopped(s);
    } catch (...) {
        busy_ = false;
        throw;
    }
    busy_ = false;
    mode_ = r;
    mode_depth_ = frame_depth(s.frame);
    mode_line_ = s.loc.line;
    if (r == Resume::Terminate) {
        terminated_ = true;
        throw Error(std::string(kTerminated)).as(TraceErrorKind::Limit);
    }
}

void Debugger::line(Evaluator& ev, Frame& f, lang::Loc loc) {
    if (busy_) return;
    if (terminated_) throw Error(std::string(kTerminated)).as(TraceErrorKind::Limit);
    // a loop's first iteration counts its statement again: one event
    const int64_t steps = ev.runtime().steps;
    if (&f == last_frame_ && loc == last_loc_ && steps == last_steps_ + 1) {
        last_steps_ = steps;
        return;
    }
    last_frame_ = &f;
    last_loc_ = loc;
    last_steps_ = steps;
    f.loc = loc;  // a loop's next iteration is at its header (what a stop shows)
    if (events_mask & DebugClient::Line) client_.event(DebugClient::Line, ev, f, loc);

    const int depth = frame_depth(f);
    StopReason why = StopReason::Step;
    bool stops = false;
    int bp_id = 0;
    if (stop_on_entry) {
        stop_on_entry = false;
        stops = true;
        why = StopReason::Entry;
    }
    if (!stops && pause_requested.exchange(false)) {
        stops = true;
        why = StopReason::Pause;
    }
    if (!stops) {
        switch (mode_) {
        case Resume::StepIn: stops = true; break;
        case Resume::StepOver: stops = depth <= mode_depth_; break;
        case Resume::StepOut: stops = depth < mode_depth_; break;
        case Resume::Until: stops = depth < mode_depth_ || (depth == mode_depth_ && loc.line > mode_line_); break;
        default: break;
        }
    }
    if (!breakpoints.empty() && f.source && *f.source) {
        if (Breakpoint* b = breakpoint_at(ev, f, **f.source, loc.line)) {
            why = StopReason::Breakpoint;
            bp_id = b->id;
            stops = true;
            if (b->temporary) remove_breakpoint(b->id);
        }
    }
    // a function breakpoint: the first line of a call of that function
    if (!stops && f.function && !f.debug_entered) {
        for (Breakpoint& b : breakpoints)
            if (b.enabled && b.line == 0 && b.function == *f.function && condition_holds(ev, f, b)) {
                ++b.hits;
                if (!b.hit_condition.empty() && !hit_condition_holds(b.hit_condition, b.hits)) continue;
                why = StopReason::Breakpoint;
                bp_id = b.id;
                stops = true;
                if (b.temporary) remove_breakpoint(b.id);
                break;
            }
    }
    f.debug_entered = true;
    if (stops) stop(Stop{why, &ev, f, loc, bp_id});
}

void Debugger::call(Evaluator& ev, Frame& f) {
    if (busy_) return;
    if (events_mask & DebugClient::Call) client_.event(DebugClient::Call, ev, f, f.loc);
}

void Debugger::returned(Evaluator& ev, Frame& f, const Value& result) {
    if (busy_) return;
    if (events_mask & DebugClient::Return) client_.event(DebugClient::Return, ev, f, f.loc);
    // `r`: pdb's --Return-- stop, in the frame, with its result
    if (mode_ == Resume::StepOut && frame_depth(f) == mode_depth_) {
        Stop s{StopReason::Return, &ev, f, f.loc};
        s.returned = &result;
        stop(s);
        // `n` after it goes on in the caller
        if (mode_ == Resume::StepOver || mode_ == Resume::Until) mode_depth_ = frame_depth(f) - 1;
    }
}

void Debugger::raised(Evaluator& ev, Frame& f, const Error& e) {
    if (busy_ || terminated_ || last_raised_ == &e) return;
    if (e.message() == kTerminated) return;
    last_raised_ = &e;
    if (events_mask & DebugClient::Raise) client_.event(DebugClient::Raise, ev, f, e.loc());
    if (!stop_on_raise) return;
    Stop s{StopReason::Exception, &ev, f, e.loc().known() ? e.loc() : f.loc};
    s.error = &e;
    stop(s);
}

void Debugger::paused(Runtime& rt) {
    if (busy_ || terminated_ || rt.trace || !rt.frames) return;  // the next statement or poll stops
    pause_requested = false;
    stop(Stop{StopReason::Pause, nullptr, *rt.frames, rt.frames->loc});
}

void Debugger::breakpoint_call(Evaluator& ev, Frame& f, lang::Loc loc) {
    if (busy_ || terminated_) return;
    stop(Stop{StopReason::BreakpointCall, &ev, f, loc});
}

void Debugger::nan_found(Evaluator& ev, Frame& f, lang::Loc loc, const Error& e) {
    if (busy_ || terminated_) return;
    Stop s{StopReason::Nan, &ev, f, loc};
    s.error = &e;
    stop(s);
}

namespace {
constexpr std::string_view kConditionHit = "\x02tg: a breakpoint's condition held";
Error runs_eagerly(lang::Loc loc) {
    return Error("a breakpoint at line " + std::to_string(loc.line) + ": the call runs eagerly to stop there")
        .as(TraceErrorKind::Unsupported);
}
}  // namespace

bool Debugger::is_condition_hit(const Error& e) { return e.message().find(kConditionHit) != std::string::npos; }

void Debugger::traced_line(Evaluator& ev, Frame& f, lang::Loc loc,
                           std::vector<std::pair<const lang::Source*, uint32_t>>& lines, std::vector<int>& asserted) {
    if (busy_ || !f.source || !*f.source) return;
    const lang::Source& s = **f.source;
    lines.emplace_back(&s, loc.line);
    for (const Breakpoint& b : breakpoints) {
        if (!b.enabled || !at_line(b, s, loc.line)) continue;
        if (b.condition.empty() || !b.hit_condition.empty() || !b.log_message.empty()) throw runs_eagerly(loc);
        // compiled in: the graph checks the condition where eager would
        // (a never-true condition costs the check, not an eager run)
        busy_ = true;
        try {
            ev.run_in_frame(f, "assert not (" + b.condition + "), \"" + std::string(kConditionHit) + "\"", "<condition>");
        } catch (const Error&) {
            busy_ = false;
            throw runs_eagerly(loc);  // true at trace time, or not traceable
        }
        busy_ = false;
        asserted.push_back(b.id);
    }
}

bool Debugger::run_eagerly(const FunctionObj& fn, const GraphEntry* entry) {
    if (busy_) return false;
    if (mode_ == Resume::StepIn || pause_requested) return true;
    for (const Breakpoint& b : breakpoints) {
        if (!b.enabled) continue;
        if (b.line == 0 && b.function == fn.name) return true;
        if (b.line == 0 || !entry) continue;
        if (!entry->debug_lines_known) return true;  // traced before the debugger came: unknown lines
        if (std::find(entry->debug_asserted.begin(), entry->debug_asserted.end(), b.id) != entry->debug_asserted.end())
            continue;  // its condition is compiled in
        for (const auto& [source, line] : entry->debug_lines)
            if (at_line(b, *source, line)) return true;
    }
    return false;
}

}  // namespace tg::interp
