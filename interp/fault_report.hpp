// The report of a fatal signal in tg itself (a SIGSEGV, SIGABRT, ... that no
// tg program should cause), written from the signal handler that
// tg::install_fault_handler installs (api/fault_handler.cpp):
//
//   a.tg:4:5: fatal error: SIGSEGV (invalid memory access) while running this line
//       4 |     y = bad(x)
//         |     ^
//     in inner (a.tg:4:5)
//     in <module> (a.tg:9:1)
//   This is a bug in tg 0.2.0, not in your program. ...
//
// It reads the interpreter's live call stack (Runtime::frames: the
// statement each frame runs, its function, its call site), the same
// location and traceback lines an error shows (interp/error.hpp), at
// statement precision. Async-signal-safe: no allocation, no locks, only
// write(2) on `fd`; it trusts the frames as they are (a corrupted stack may
// fault again: the handler has given the signal back by then).
#pragma once

namespace tg::interp {

struct Frame;

// `innermost` may be null (no tg code runs on the faulting thread).
// `version` is tg's version, named in the "bug in tg" line.
void write_fault_report(int fd, int sig, const Frame* innermost, const char* version);

}  // namespace tg::interp
