#include "interp/fault_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <csignal>
#include <cstring>
#include <string_view>

#include "interp/evaluator.hpp"

namespace tg::interp {

namespace {

// The decimal digits of v, in `digits` (snprintf may allocate).
std::string_view decimal(uint64_t v, char (&digits)[20]) {
    size_t k = sizeof digits;
    do {
        digits[--k] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v);
    return {digits + k, sizeof digits - k};
}

// Text into a fixed buffer, written with write(2) when full or flushed: no
// allocation (stdio and std::string may hold a lock or allocate, and the
// fault may be inside malloc).
class Writer {
public:
    explicit Writer(int fd) : fd_(fd) {}
    ~Writer() { flush(); }
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    Writer& operator<<(std::string_view s) {
        for (char c : s) {
            if (n_ == sizeof buf_) flush();
            buf_[n_++] = c;
        }
        return *this;
    }
    Writer& operator<<(uint64_t v) {
        char digits[20];
        return *this << decimal(v, digits);
    }
    void flush() {
        for (size_t off = 0; off < n_;) {
            const ssize_t w = ::write(fd_, buf_ + off, n_ - off);
            if (w > 0) off += static_cast<size_t>(w);
            else if (w < 0 && errno == EINTR) continue;
            else break;  // nowhere to write: the report is lost, the signal is not
        }
        n_ = 0;
    }

private:
    int fd_;
    size_t n_ = 0;
    char buf_[4096];
};

// One traceback line, built in place so that a repeated line (deep
// recursion) can be compared with the one before, as Error does.
struct Line {
    char text[512]{};
    size_t size = 0;
    void add(std::string_view s) {
        const size_t n = std::min(s.size(), sizeof text - size);
        std::memcpy(text + size, s.data(), n);
        size += n;
    }
    void add(uint64_t v) {
        char digits[20];
        add(decimal(v, digits));
    }
    std::string_view view() const { return {text, size}; }
};

const char* signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (aborted)";
    default: return "a fatal signal";
    }
}

void add_location(Line& l, const lang::Source* source, lang::Loc loc) {
    l.add(source ? std::string_view(source->name()) : std::string_view("<unknown>"));
    if (!loc.known()) return;
    l.add(":");
    l.add(uint64_t{loc.line});
    l.add(":");
    l.add(uint64_t{loc.col});
}

// "    4 |     y = bad(x)" and the caret under column `loc.col`, as
// lang::render shows it (control characters as '?', a long line cut).
void write_source_line(Writer& w, const lang::Source& source, lang::Loc loc) {
    constexpr size_t kMaxShown = 300;  // bytes of the line echoed
    std::string_view text = source.line_text(loc.line);
    const bool cut = text.size() > kMaxShown;
    if (cut) text = text.substr(0, kMaxShown);
    Line gutter;
    gutter.add(uint64_t{loc.line});
    for (size_t i = gutter.size; i < 5; ++i) w << " ";
    w << gutter.view() << " | ";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        w << ((u < 0x20 && c != '\t') || u == 0x7F ? std::string_view("?") : std::string_view(&c, 1));
    }
    w << (cut ? "...\n" : "\n") << "      | ";
    uint32_t col = 1;
    for (size_t i = 0; i < text.size() && col < loc.col; ++i) {
        const auto u = static_cast<unsigned char>(text[i]);
        if ((u & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: same character
        w << (text[i] == '\t' ? "\t" : " ");
        ++col;
    }
    w << "^\n";
}

const lang::Source* source_of(const lang::SourcePtr* p) { return p ? p->get() : nullptr; }

// The record of a @graph call (Evaluator::call_function) under the trace of
// that same call: the two are shown as one frame, the record only gives
// the call site.
bool is_graph_call_record(const Frame* f, const Frame* inner) {
    return !f->loc.known() && f->function && inner && inner->function == f->function;
}

// Where frame `f` is: its statement (the innermost frame), or the call
// `inner` made from it (the call site inner recorded, else f's statement).
void frame_location(const Frame* f, const Frame* inner, const lang::Source*& source, lang::Loc& loc) {
    if (inner && inner->call_source && inner->call_loc.known()) {
        source = source_of(inner->call_source);
        loc = inner->call_loc;
    } else {
        source = source_of(f->source);
        loc = f->loc;
    }
}

void write_traceback(Writer& w, const Frame* innermost) {
    constexpr int kMaxLines = 100;  // a report, not the whole of a runaway recursion
    Line last;
    int repeats = 0, lines = 0;
    auto flush_repeats = [&] {
        if (repeats > 3) w << "  [the line above repeats " << uint64_t(repeats - 3) << " more times]\n";
        repeats = 0;
    };
    const Frame* inner = nullptr;  // the frame whose call site locates f
    for (const Frame* f = innermost; f; f = f->caller) {
        if (is_graph_call_record(f, inner)) {
            inner = f;  // not shown; its call site locates the caller
            continue;
        }
        const lang::Source* source;
        lang::Loc loc;
        frame_location(f, inner, source, loc);
        Line l;
        l.add("  in ");
        l.add(f->function ? std::string_view(*f->function) : std::string_view("<module>"));
        if (source && loc.known()) {
            l.add(" (");
            add_location(l, source, loc);
            l.add(")");
        } else if (f->is_graph) {
            l.add(" (compiled code)");
        }
        if (f->is_graph) l.add(", a @graph function");
        inner = f;
        if (l.view() == last.view()) {
            if (++repeats <= 3) w << l.view() << "\n";
            continue;
        }
        flush_repeats();
        last = l;
        repeats = 1;
        if (++lines > kMaxLines) {
            w << "  ... (more frames)\n";
            return;
        }
        w << l.view() << "\n";
    }
    flush_repeats();
}

}  // namespace

void write_fault_report(int fd, int sig, const Frame* innermost, const char* version) {
    Writer w(fd);
    // where: the innermost frame's statement (a @graph call's record running
    // compiled code has none: then its call site)
    const lang::Source* source = nullptr;
    lang::Loc loc;
    for (const Frame *f = innermost, *inner = nullptr; f && !loc.known(); inner = f, f = f->caller)
        frame_location(f, inner, source, loc);
    w << "\n";
    if (source && loc.known()) {
        Line l;
        add_location(l, source, loc);
        w << l.view() << ": ";
    }
    w << "fatal error: " << signal_name(sig);
    if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL && sig != SIGABRT) w << " " << uint64_t(sig);
    if (!innermost) {
        w << " (no tg code was running on this thread)\n";
    } else {
        w << " while running this line\n";
        if (source && loc.known() && loc.line <= source->line_count()) write_source_line(w, *source, loc);
        write_traceback(w, innermost);
    }
    w << "This is a bug in tg " << std::string_view(version)
      << ", not in your program. Please report it on tg's issue tracker with this report, the command "
         "line, and the script (or the smallest part of it that still crashes).\n";
}

}  // namespace tg::interp
