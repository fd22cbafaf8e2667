// The ONNX exporter as a plugin (stdlib/plugin.hpp): onnx_export/ is built
// into libtg_onnx.so with ONNX and protobuf, loaded by the first graph saved
// as .onnx — linked, protobuf's and ONNX's libraries and their static
// initializers (ONNX's operator schemas) cost every tg process ~1.7 ms of
// start-up (docs/performance.md "Start-up"). The plugin calls tg's tensor
// and graph functions, exported by the tg code that loads it.
#pragma once

#include <string>

#include "onnx_export/export.hpp"
#include "stdlib/plugin.hpp"

namespace tg::onnx_export {

inline constexpr uint32_t kOnnxPluginAbi = 1;  // bumped when OnnxPlugin or ExportOptions change

struct OnnxPlugin {
    stdlib::PluginHeader header;
    std::string (*write_onnx)(const tracer::GraphFunction& f, const ExportOptions& options);  // export.hpp's
};

// write_onnx (export.hpp) through the plugin, loaded by the first call;
// throws ExportError (with no location) when it cannot be loaded.
std::string write_onnx_model(const tracer::GraphFunction& f, const ExportOptions& options);

}  // namespace tg::onnx_export

// The plugin's one exported symbol.
extern "C" const tg::onnx_export::OnnxPlugin* tg_onnx_plugin();
