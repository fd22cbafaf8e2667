// tg's plugins: shared objects built with tg and installed in <libdir>/tg/
// (the LLVM JIT, codegen/jit_plugin.hpp; the ONNX exporter,
// onnx_export/plugin.hpp; the Jupyter kernel, cli/kernel/plugin.hpp), each
// loaded the first time it is needed, so that a tg process does not load,
// relocate and initialize LLVM, protobuf or ZeroMQ before running a script
// that uses none of them (docs/performance.md "Start-up").
//
// A plugin exports one C function returning its descriptor, whose first
// fields are a PluginHeader. Plugins that call tg's own functions (the
// exporter, the kernel) leave them undefined: the tg code that loads them
// exports them (cmake/plugin_symbols.txt) and makes itself visible to them.
#pragma once

#include <cstdint>
#include <string>

namespace tg::stdlib {

struct PluginHeader {
    uint32_t abi;            // the descriptor's layout, bumped when it changes
    const char* tg_version;  // TG_VERSION of the plugin's build
};

struct PluginFile {
    const char* name;        // "libtg_jit.so.0.2.0"
    const char* build_path;  // where this build made it
    const char* entry;       // the exported function returning the descriptor
    uint32_t abi;            // the descriptor layout this tg expects
    bool needs_tg;           // it calls tg's functions (see above)
};

// Loads the plugin (looked for beside the code that loads it — <libdir>/tg/
// from libtg.so or from the tg command's <bindir> — then where this build
// made it) and returns its descriptor, or null with `error` saying what was
// tried and why it failed (missing, or from another build of tg). The plugin
// stays loaded for the life of the process.
const PluginHeader* load_plugin(const PluginFile& file, std::string& error);

}  // namespace tg::stdlib
