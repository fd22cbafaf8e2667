// A deliberate crash, for the test of the fault report (tests/fault): the
// host function `_fault_for_tests(kind)` exists only in the tg_fault_cli
// executable the tests build (TG_CLI_FAULT_FOR_TESTS, tests/CMakeLists.txt);
// the tg command has no such function. It stands for a bug in tg: a
// function of tg's that crashes while tg code runs, after some output.
#pragma once

#include <tg/tg.hpp>

#ifdef TG_CLI_FAULT_FOR_TESTS
#include <sys/mman.h>

#include <cstdlib>
#endif

namespace tg::cli {

inline void add_fault_for_tests([[maybe_unused]] Interpreter& interp) {
#ifdef TG_CLI_FAULT_FOR_TESTS
    // "segv": an invalid memory access (SIGSEGV); "abort": std::abort (SIGABRT)
    interp.define("_fault_for_tests", [](std::span<const Value> args) -> Value {
        if (!args.empty() && args[0].as_string() == "abort") std::abort();
        // A page no access is allowed to (not address 0: some sandboxes map it)
        void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        int* volatile forbidden = static_cast<int*>(page);
        *forbidden = 1;
        return {};
    });
#endif
}

}  // namespace tg::cli
