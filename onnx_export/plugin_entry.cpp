// The ONNX exporter plugin's entry (onnx_export/plugin.hpp).
#include "onnx_export/plugin.hpp"

extern "C" __attribute__((visibility("default"))) const tg::onnx_export::OnnxPlugin* tg_onnx_plugin() {
    static const tg::onnx_export::OnnxPlugin plugin{{tg::onnx_export::kOnnxPluginAbi, TG_VERSION},
                                                    tg::onnx_export::write_onnx};
    return &plugin;
}
