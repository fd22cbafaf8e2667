// Loading the ONNX exporter plugin (onnx_export/plugin.hpp) on first use.
#include "onnx_export/plugin.hpp"

namespace tg::onnx_export {

namespace {

struct Loaded {
    const OnnxPlugin* plugin = nullptr;
    std::string error;
};

}  // namespace

std::string write_onnx_model(const tracer::GraphFunction& f, const ExportOptions& options) {
    static const Loaded loaded = [] {
        Loaded l;
        const stdlib::PluginFile file{TG_ONNX_FILE, TG_ONNX_BUILD_PATH, "tg_onnx_plugin", kOnnxPluginAbi, true};
        l.plugin = reinterpret_cast<const OnnxPlugin*>(stdlib::load_plugin(file, l.error));
        return l;
    }();
    if (!loaded.plugin) throw ExportError("ONNX export is not available: " + loaded.error, {});
    return loaded.plugin->write_onnx(f, options);
}

}  // namespace tg::onnx_export
