// One notebook's tg session (docs/notebooks.md): the interpreter, the
// switches the magics set, and running a cell. Independent of the
// protocol: the xeus interpreter (kernel_interpreter.cpp) wraps it.
#pragma once

#include <tg/tg.hpp>

#include "cli/kernel/publisher.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tg::kernel {

// A failed cell: the error reply's fields. `traceback` is tg's rendered
// report, line by line (file:line:col, the source line and caret, the
// "in f (...)" lines).
struct CellError {
    std::string ename, evalue;
    std::vector<std::string> traceback;
};

class Session {
public:
    // `interrupt` is set by the kernel's signal thread on Jupyter's interrupt.
    Session(Options options, Publisher& out, const std::atomic<bool>* interrupt);

    // Runs cell number `count`: its leading magic lines (magics.cpp), then
    // its code; the last expression's value goes to Publisher::result.
    std::optional<CellError> execute(std::string_view code, int count);
    const Interpreter& interpreter() const { return *interp_; }

private:
    friend class Magics;
    void reset();
    std::optional<CellError> run_code(std::string_view code, const std::string& name);

    Options options_;
    Publisher& out_;
    std::unique_ptr<Interpreter> interp_;
};

// tg's error as Jupyter's: ename "Error", the message, the report's lines.
CellError cell_error(const Error& e);

}  // namespace tg::kernel
