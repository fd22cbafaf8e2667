// libFuzzer target: the whole interpreter through the public API, under
// limits (steps, call depth, no imports, no files, no output), in each mode:
// the first byte of the input picks it (eager, @graph as written, @graph on
// the reference graph interpreter, @graph compiled before the first call);
// the rest is the script. A tg::Error is a fine outcome; anything else that
// leaves the API, a crash, a sanitizer report, a hang or a leak is a bug.
#include <tg/tg.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

// Inputs the fuzzer would otherwise spend its time on without finding tg
// bugs: huge sizes are the memory limit's job (a separate limit, not here).
bool worth_running(std::string_view s) {
    int digits = 0;
    for (char c : s) {
        digits = (c >= '0' && c <= '9') ? digits + 1 : 0;
        if (digits > 4) return false;
    }
    return s.find("**") == std::string_view::npos && s.find("<<") == std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1 || size > 4096) return -1;
    std::string_view source(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (!worth_running(source)) return -1;
    tg::Options o;
    switch (data[0] % 4) {
    case 0: o.eager = true; break;
    case 1: break;  // as written: small graphs start on the graph interpreter, compile in the background
    case 2: o.no_jit = true; break;
    case 3: o.sync_jit = true; break;
    }
    o.max_steps = 20000;
    o.max_call_depth = 200;
    o.allow_import = false;
    o.use_tg_path = false;
    o.no_cache = true;  // no files: compiled code is not cached on disk
    o.write_output = [](std::string_view) {};
    try {
        tg::Interpreter interp(o);
        interp.run_source(source, "fuzz.tg");
    } catch (const tg::Error&) {
    }
    return 0;
}
